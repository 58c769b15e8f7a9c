# Answers every ping with pong (never bye): deterministic, so the golden output is too.
echo ready
while read -r cmd arg; do
  case "$cmd" in
    stimulus) echo ack; [ "$arg" = ping ] && echo "output pong" ;;
    reset) echo ready ;;
    end) exit 0 ;;
  esac
done
