// The command that reproduces a run (the "reproduce:" line of `playtest run`, the traces' and the
// report's replay command): the command line that was given, without the options that choose runs
// or write files, with the run's own seed added. Pure functions of the words given: the tool passes
// its argv, a C++ test the command it wants its users to paste.
#pragma once

#include <string>
#include <vector>

namespace playtest {

// `s` as one word of a POSIX shell command (single-quoted when it needs quoting).
std::string shell_quote(const std::string& s);

// `args` (args[0] the program) as one shell command, without the options in `drop` (each with its
// value: "--seed 5" and "--seed=5") and the flags in `drop_flags`, with `append` added; every word
// quoted as it needs.
std::string replay_command(const std::vector<std::string>& args, const std::vector<std::string>& drop,
                           const std::vector<std::string>& drop_flags, const std::vector<std::string>& append);

}  // namespace playtest
