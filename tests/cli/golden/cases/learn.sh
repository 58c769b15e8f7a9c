# Always pong (the model says pong or the other output, half and half), hello, and heads and tails in
# turn: deterministic, so that learn's table is too.
echo ready
n=0
while read -r cmd arg; do
  case "$cmd" in
    stimulus) echo ack
      case "$arg" in
        ping) echo "output pong" ;;
        hi) echo "output hello" ;;
        toss) n=$((n + 1)); if [ $((n % 2)) = 0 ]; then echo "output heads"; else echo "output tails"; fi ;;
      esac ;;
    reset) echo ready ;;
    end) exit 0 ;;
  esac
done
