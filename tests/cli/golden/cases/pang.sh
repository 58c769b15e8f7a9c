# Answers ping with an output the model does not allow.
echo ready
while read -r cmd arg; do
  case "$cmd" in
    stimulus) echo ack; [ "$arg" = ping ] && echo "output pang" ;;
    end) exit 0 ;;
  esac
done
