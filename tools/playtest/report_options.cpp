#include "report_options.hpp"

#include <fmt/format.h>

#include "option_checks.hpp"

namespace playtest::cli {

CLI::App* add_report_command(CLI::App& app, ReportCliOptions& o) {
  auto* sub = app.add_subcommand("report",
                                 "Write one self-contained HTML report of the runs in JSON-lines traces (run --trace): "
                                 "verdicts, replay commands, the model with coverage, the path to each failure");
  sub->add_option("TRACE", o.traces, "JSON-lines traces written by playtest run --trace (- reads standard input)")
      ->required();
  sub->add_option("--model", o.model.path,
                  "The model the runs tested (draws it, colours coverage, names what was allowed; default: the "
                  "model the traces name)");
  sub->add_option("--explore-time", o.explore_time,
                  "Model programs: explore the model for the report for at most this many seconds (and "
                  "--max-states); a model that does not fit is reported on the part of it the traces saw (0: no limit)")
      ->default_val(10.0)
      ->check(non_negative_finite());
  sub->add_option("--inputs", o.model.inputs, "LTS models: labels that are inputs (comma-separated)")->delimiter(',');
  sub->add_option("--outputs", o.model.outputs, "LTS models: labels that are outputs (comma-separated)")
      ->delimiter(',');
  sub->add_option("--param", o.model.params,
                  "Model programs (.ptm): set a model parameter, NAME=VALUE (repeatable; default: the parameters "
                  "the first run recorded)");
  sub->add_option("--max-states", o.model.max_states, "Model programs: stop exploring after this many vertices")
      ->default_val(10'000'000)
      ->check(positive_integer());
  sub->add_option("--reward", o.model.reward, "PRISM .tra models: the reward structure read as costs");
  sub->add_option("--goal-label", o.model.goal_label, "PRISM .tra models: the label of the goal states");
  sub->add_option("-o,--output", o.out, "The HTML file to write (- for standard output)")->required();
  sub->add_option("--title", o.title, "The report's title (default: the model's or the first trace's name)");
  sub->add_flag("--json", o.json, "Print what was written as JSON");
  sub->footer(
      "Pictures are drawn by Graphviz's dot on PATH (scripts/setup.sh installs it); without it, or when it "
      "runs out of its time budget, playtest draws them itself and says so under them.\nModels above 120 vertices "
      "are summarised; failures on models above 40 vertices are drawn "
      "as their neighbourhoods; long vertex names are drawn as v<index> (the name in the tooltip).");
  return sub;
}

}  // namespace playtest::cli
