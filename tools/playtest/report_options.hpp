// playtest report's options (the command is cmd_report.cpp): the traces, the model
// they were recorded with (and how to read it), the HTML output.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"
#include "playtest/input/load.hpp"

namespace playtest::cli {

struct ReportCliOptions {
  std::vector<std::string> traces;
  LoadOptions model;
  std::string out, title;
  bool json = false;
  double explore_time = 10;  // model programs: the exploration's time budget (s)
};

// The `report` subcommand of `app` with all its options into `o`.
CLI::App* add_report_command(CLI::App& app, ReportCliOptions& o);

}  // namespace playtest::cli
