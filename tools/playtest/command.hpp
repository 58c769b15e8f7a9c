// Subcommand registry of the playtest tool. Each tools/playtest/cmd_*.cpp registers its
// subcommand with a static Registration; main() builds the CLI11 app from the registry.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace playtest::cli {

// Exit codes (README "Exit codes"); never reuse one for two meanings.
enum ExitCode : int {
  exit_ok = 0,            // success; test verdict PASS
  exit_fail = 1,          // test verdict FAIL (nonconformance)
  exit_usage = 2,         // usage or input error (bad options, bad files, bad models)
  exit_error = 3,         // internal or environment error; test verdict ERROR
  exit_inconclusive = 4,  // test verdict INCONCLUSIVE
  exit_uncertified = 5,   // solve: an answer was computed but could not be certified (error bound, limits)
};

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
