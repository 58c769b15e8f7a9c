# The queue: acknowledges every Put.
echo ready
while read -r cmd arg; do
  case "$cmd" in
    stimulus) echo ack; case "$arg" in Put*) echo "output ?Ack" ;; esac ;;
    reset) echo ready ;;
    end) exit 0 ;;
  esac
done
