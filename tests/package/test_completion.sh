#!/usr/bin/env bash
# The bash completion (cmake/playtest-completion.bash) against a built playtest:
#   test_completion.sh COMPLETION_FILE PLAYTEST_BINARY
# Simulates TAB presses as bash does (COMP_WORDS, COMP_CWORD) and checks COMPREPLY.
set -u
completion=$1
playtest_bin=$2
# shellcheck source=/dev/null
source "$completion" || { echo "FAIL: $completion does not load"; exit 1; }
# As installed, the tool is `playtest` on the PATH.
bindir=$(mktemp -d)
trap 'rm -rf "$bindir"' EXIT
ln -s "$(realpath "$playtest_bin")" "$bindir/playtest"
PATH=$bindir:$PATH
cd "$bindir" || exit 1
touch model.json trace.jsonl

failures=0
# complete WORD... : the reply for the last word (the one being completed).
complete_words() {
  COMP_WORDS=("$@")
  COMP_CWORD=$(($# - 1))
  COMP_LINE="$*"
  COMP_POINT=${#COMP_LINE}
  COMPREPLY=()
  _playtest playtest "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
  printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
expect() { # expect WANT WORD...
  local want=$1 got
  shift
  got=$(complete_words "$@")
  if [ "$got" = "$want" ]; then
    echo "ok    '$*<TAB>' -> $got"
  else
    echo "FAIL  '$*<TAB>': want '$want', got '$got'"
    failures=$((failures + 1))
  fi
}
expect_has() { # expect_has WORD_IN_REPLY WORD...
  local want=$1 got
  shift
  got=" $(complete_words "$@") "
  if [[ $got == *" $want "* ]]; then
    echo "ok    '$*<TAB>' offers $want"
  else
    echo "FAIL  '$*<TAB>' does not offer $want (got:$got)"
    failures=$((failures + 1))
  fi
}

complete -p playtest >/dev/null 2>&1 || { echo "FAIL: no completion registered for playtest"; failures=$((failures + 1)); }
# Strategy names.
expect "cover" playtest run model.json --strategy c
expect "cover" playtest run --strategy c
expect "random reach" playtest run model.json --strategy r
expect "cover" playtest run model.json --strategy = c   # --strategy=c, as bash splits it
expect "random,cover" playtest simulate model.json --strategy random,c
expect_has anti-ant playtest simulate model.json --strategy ""
# Commands.
expect "replay report run" playtest r
expect "shrink simulate solve" playtest s
expect_has analyze playtest ""
expect "--help --version" playtest --
# A command's options.
expect "--strategy" playtest run model.json --strat
expect_has --sut playtest run model.json --s
expect_has --trace-dir playtest run model.json --trace
expect_has --attempts playtest replay trace.jsonl --
expect_has --vertices playtest gen random --v
# A command's own subcommands, then files.
expect_has random playtest gen ""
expect "model.json" playtest run mod
expect "trace.jsonl" playtest replay tr
# Every command `playtest --help` lists is offered.
all=$(complete_words playtest "")
for c in $(playtest --help | awk '/^Subcommands:/ { f = 1; next } f && /^  [^ ]/ { print $1 }'); do
  case " $all " in
    *" $c "*) ;;
    *) echo "FAIL  command $c is not offered"; failures=$((failures + 1)) ;;
  esac
done
[ "$failures" = 0 ] || { echo "$failures completion check(s) failed"; exit 1; }
echo "all completion checks passed"
