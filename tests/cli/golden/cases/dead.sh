# An adapter that cannot start its system (a server that is down): it exits before it is ready.
echo "cannot connect to 127.0.0.1:6390" >&2
exit 1
