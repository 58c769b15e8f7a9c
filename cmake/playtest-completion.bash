# bash completion for playtest: commands, their options, and strategy names after --strategy
# (`playtest run --strategy c<TAB>` gives cover). Installed as
# /usr/share/bash-completion/completions/playtest, where bash-completion loads it on first use; or
# `source` it from ~/.bashrc. The lists are read from the tool's own --help (once per shell and
# command), so they are those of the playtest being completed.

# The --help text of "PROGRAM [COMMAND]", cached.
declare -gA _playtest_help_cache 2>/dev/null || true
_playtest_help() {
  local key="$1|$2" text
  if [[ -z ${_playtest_help_cache[$key]+set} ]]; then
    if [[ -n $2 ]]; then
      text=$("$1" "$2" --help 2>/dev/null)
    else
      text=$("$1" --help 2>/dev/null)
    fi
    _playtest_help_cache[$key]=$text
  fi
  printf '%s\n' "${_playtest_help_cache[$key]}"
}

# The names under "Subcommands:" of a --help text (standard input).
_playtest_subcommands() {
  awk '/^Subcommands:/ { inside = 1; next } inside && /^  [^ ]/ { print $1 } inside && /^[^ ]/ { inside = 0 }'
}

# The options (--long and -s) of a --help text (standard input): the first column of the option lines.
_playtest_options() {
  sed -n 's/^  \(-[^ ]*\).*/\1/p' | tr ',' '\n' | sed -n 's/^\(--*[A-Za-z0-9][-A-Za-z0-9_]*\).*/\1/p'
}

# The strategy names that `run --help` lists for --strategy ("One of: a, b, c").
_playtest_strategies() {
  _playtest_help "$1" run | sed -n 's/.*--strategy.*\(One of\|comma-separated\): *//p' | head -n 1 |
    tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep -v '^$'
}

_playtest() {
  local prog=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev="" option="" cmd="" sub="" i words
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  # --option=value: bash splits it at '=' (COMP_WORDBREAKS).
  if [[ $cur == "=" ]]; then
    option=$prev
    cur=""
  elif [[ $prev == "=" ]] && ((COMP_CWORD > 1)); then
    option=${COMP_WORDS[COMP_CWORD - 2]}
  else
    option=$prev
  fi
  COMPREPLY=()
  # The command (and a command's own subcommand: gen random, ioco check): the first words that are
  # not options.
  for ((i = 1; i < COMP_CWORD; i++)); do
    case ${COMP_WORDS[i]} in
      -* | =) ;;
      *)
        if [[ -z $cmd ]]; then
          cmd=${COMP_WORDS[i]}
        elif [[ -z $sub ]] && _playtest_help "$prog" "$cmd" | _playtest_subcommands | grep -qx -- "${COMP_WORDS[i]}"; then
          sub=${COMP_WORDS[i]}
        fi
        ;;
    esac
  done

  if [[ $option == --strategy ]]; then
    # simulate takes a comma-separated list: complete its last name.
    local head=""
    [[ $cur == *,* ]] && head=${cur%,*},
    words=$(_playtest_strategies "$prog")
    COMPREPLY=($(compgen -P "$head" -W "$words" -- "${cur##*,}"))
    return 0
  fi
  if [[ -z $cmd ]]; then
    if [[ $cur == -* ]]; then
      words=$(_playtest_help "$prog" "" | _playtest_options)
    else
      words=$(_playtest_help "$prog" "" | _playtest_subcommands)
    fi
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
    return 0
  fi
  local help
  if [[ -n $sub ]]; then
    help=$("$prog" "$cmd" "$sub" --help 2>/dev/null)
  else
    help=$(_playtest_help "$prog" "$cmd")
  fi
  if [[ $cur == -* ]]; then
    words=$(printf '%s\n' "$help" | _playtest_options)
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
    return 0
  fi
  if [[ -z $sub ]]; then
    words=$(printf '%s\n' "$help" | _playtest_subcommands)
    if [[ -n $words ]]; then
      COMPREPLY=($(compgen -W "$words" -- "$cur"))
      return 0
    fi
  fi
  # Files: models, traces, outputs.
  compopt -o filenames 2>/dev/null
  COMPREPLY=($(compgen -f -- "$cur"))
  return 0
}
complete -F _playtest playtest
