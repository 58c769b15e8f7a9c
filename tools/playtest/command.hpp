// Subcommand registry of the playtest tool. Each tools/playtest/cmd_*.cpp registers its
// subcommand with a static Registration; main() builds the CLI11 app from the registry.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "exit_codes.hpp"

namespace playtest::cli {

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
