// playtest cover's options (the command is cmd_cover.cpp): the tour's start and
// resets, the simulation, the outputs; and the picture of the tour.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common.hpp"
#include "playtest/cover/cover_report.hpp"

namespace playtest::cli {

struct CoverCliOptions {
  InputOptions input;
  std::string start, dot, html, tour_out;
  std::optional<double> reset_cost;
  std::vector<std::string> reset_from;
  bool ignore_graph_reset = false, skip_uncoverable = false, random_segments = false, json = false;
  CoverReportOptions report;
};

// The `cover` subcommand of `app` with all its options into `o`.
CLI::App* add_cover_command(CLI::App& app, CoverCliOptions& o);

// The tour drawn to `path`: edges taken more than once in bold, vertices off the tour in grey.
void write_tour_dot(const TestGraph& g, const PostmanTour& tour, const std::string& path, const std::string& title);

}  // namespace playtest::cli
