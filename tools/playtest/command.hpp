// Subcommand registry of the playtest tool. Each tools/playtest/cmd_*.cpp registers its
// subcommand with a static Registration; main() builds the CLI11 app from the registry.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace playtest::cli {

// Exit codes (docs/testing.md "Verdicts and exit codes"); never reuse one for two meanings. main.cpp
// maps every exception to one of them in one table.
enum ExitCode : int {
  exit_ok = 0,            // success; test verdict PASS
  exit_fail = 1,          // test verdict FAIL (nonconformance)
  exit_usage = 2,         // usage or input error (bad options, bad files, bad models)
  exit_error = 3,         // test verdict ERROR: the adapter or the system's environment broke
  exit_inconclusive = 4,  // test verdict INCONCLUSIVE
  exit_uncertified = 5,   // solve: an answer was computed but could not be certified (error bound, limits)
  exit_environment = 6,   // playtest's own environment: a file not written, standard output, a pipe, fds, memory
  exit_internal = 7,      // a bug in playtest (an invariant that does not hold; anything the table does not name)
};
// 128 + N: stopped by signal N (run, replay, shrink, report: docs/testing.md "Interrupted runs").

// Adds a subcommand to `app` and returns what to run when it is chosen.
using CommandSetup = std::function<std::function<int()>(CLI::App& app)>;

struct CommandInfo {
  std::string name;
  int order;  // position in --help
  CommandSetup setup;
};

std::vector<CommandInfo>& command_registry();

struct Registration {
  Registration(std::string name, int order, CommandSetup setup) {
    command_registry().push_back({std::move(name), order, std::move(setup)});
  }
};

}  // namespace playtest::cli
