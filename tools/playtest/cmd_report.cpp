// playtest report TRACE.jsonl... [--model MODEL] -o report.html: one self-contained HTML page of
// the runs in JSON-lines traces (written by run --trace): verdicts, replay commands, the model
// drawn with coverage, the path to each failure and its steps (docs/testing.md, "Reports").
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "common.hpp"
#include "interrupt.hpp"
#include "option_checks.hpp"
#include "playtest/error.hpp"
#include "playtest/report/html_report.hpp"
#include "playtest/run/on_the_fly.hpp"
#include "playtest/run/seen_part.hpp"
#include "playtest/run/trace_reader.hpp"

namespace playtest::cli {
namespace {

struct Options {
  std::vector<std::string> traces;
  InputOptions model;
  std::string out, title;
  bool json = false;
  double explore_time = 10;  // model programs: the exploration's time budget (s)
};

// The model file a run names (RunRecord::model), as a path that reads it here: as recorded (relative
// to where the run was started), else beside the trace; "" with the reason in `why` when neither is
// there or the file is no model (a trace may name anything: check_recorded_model opens nothing but a
// regular model file that looks like one).
std::string trace_model_path(const RunRecord& r, std::string& why) {
  namespace fs = std::filesystem;
  std::error_code ec;
  RunRecord named = r;
  if (!fs::exists(r.model, ec) && !r.source.empty() && r.source != "-" && fs::path(r.model).is_relative()) {
    const fs::path beside = fs::path(r.source).parent_path() / r.model;
    if (fs::exists(beside, ec)) named.model = beside.string();
  }
  try {
    check_recorded_model(named);
  } catch (const InputError& e) {
    why = e.diagnostic().message;
    return {};
  }
  return named.model;
}

int run(const Options& o) {
  if (o.out == "-" && o.json)
    throw UsageError("json", "the report goes to standard output (-o -): --json would mix its JSON into the HTML");
  report::Report rep;
  rep.tool_version = PLAYTEST_VERSION;
  std::vector<RecordedTrace> traces;
  for (const std::string& path : o.traces) traces.push_back(load_trace(path));
  refuse_repeated_runs(traces);  // a trace given twice would count its runs twice
  for (RecordedTrace& t : traces) {
    rep.runs_missing += missing_runs(t).count;
    for (RunRecord& r : t.runs) rep.runs.push_back(std::move(r));
  }
  // The model: --model, else the one the runs name (with the parameters they recorded).
  InputOptions model = o.model;
  std::vector<std::string> notes;
  if (model.path.empty())
    for (const RunRecord& r : rep.runs)
      if (!r.model.empty()) {
        std::string why;
        model.path = trace_model_path(r, why);
        if (model.path.empty()) notes.push_back(why + ": it was not read; give --model to draw it");
        break;
      }
  // A model program is read with the parameters the runs recorded unless --param says otherwise.
  if (model.params.empty() && !rep.runs.empty()) model.params = rep.runs.front().params;
  std::optional<TestGraph> g;
  if (!model.path.empty()) {
    if (const std::shared_ptr<const Model> program = load_model_program(model)) {
      // Explored within the budget, as run does; a model too big for it is reported without its picture.
      ExploreFirst first = explore_first(program, {.max_states = model.max_states, .max_seconds = o.explore_time});
      if (first.graph) {
        g = std::move(first.graph);
      } else {
        // Too big to explore: coverage and the failures' paths on the part the traces saw.
        SeenPart seen = seen_part(*program, rep.runs);
        g = std::move(seen.graph);
        rep.model_part = fmt::format("the model is too big to explore within --explore-time and --max-states ({})",
                                     first.on_the_fly_reason);
        notes.push_back(
            fmt::format("coverage of the {} edges the trace{} saw; the model is too big to explore within "
                        "--explore-time ({})",
                        g->num_edges(), rep.runs.size() == 1 ? "" : "s", first.on_the_fly_reason));
      }
    } else {
      g = load_input(model);
    }
    if (g) {
      rep.model = &*g;
      rep.model_name = model.path;
    }
  }
  rep.title = !o.title.empty() ? o.title : !model.path.empty() ? model.path : o.traces.front();
  Output out(o.out);
  // A signal while the pictures are drawn stops them; the previous report is then kept (the new one
  // is written to a temporary file renamed into place only when complete).
  StopSignal stop;
  report::ReportOptions options;
  options.graphviz.stop = &stop;
  report::ReportSummary s;
  {
    const InterruptScope interrupts(stop);
    s = report::write_html_report(out.stream(), rep, options);
  }
  if (stop.requested()) {
    out.discard();
    fmt::print(stderr, "playtest: interrupted by {}: the report was not written{}\n", signal_name(stop.signal()),
               o.out == "-" ? "" : " (" + o.out + " is as it was)");
    return interrupted_exit_code(stop);
  }
  out.close();
  if (o.json) {
    std::vector<std::string> messages = notes;
    messages.insert(messages.end(), s.messages.begin(), s.messages.end());
    nlohmann::json j = {{"output", o.out}, {"runs", s.runs}, {"pictures", s.pictures}, {"messages", messages}};
    if (!model.path.empty()) j["model"] = model.path;
    fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  } else if (o.out != "-") {
    fmt::print("report: {} ({} run{}, {} picture{})\n", o.out, s.runs, s.runs == 1 ? "" : "s", s.pictures,
               s.pictures == 1 ? "" : "s");
    for (const std::string& m : notes) fmt::print("  note: {}\n", m);
    for (const std::string& m : s.messages) fmt::print("  note: {}\n", m);
  }
  return exit_ok;
}

const Registration reg{
    "report", 62, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* sub =
          app.add_subcommand("report",
                             "Write one self-contained HTML report of the runs in JSON-lines traces (run --trace): "
                             "verdicts, replay commands, the model with coverage, the path to each failure");
      sub->add_option("TRACE", o->traces, "JSON-lines traces written by playtest run --trace (- reads standard input)")
          ->required();
      sub->add_option("--model", o->model.path,
                      "The model the runs tested (draws it, colours coverage, names what was allowed; default: the "
                      "model the traces name)");
      sub->add_option(
             "--explore-time", o->explore_time,
             "Model programs: explore the model for the report for at most this many seconds (and "
             "--max-states); a model that does not fit is reported on the part of it the traces saw (0: no limit)")
          ->default_val(10.0)
          ->check(non_negative_finite());
      sub->add_option("--inputs", o->model.inputs, "LTS models: labels that are inputs (comma-separated)")
          ->delimiter(',');
      sub->add_option("--outputs", o->model.outputs, "LTS models: labels that are outputs (comma-separated)")
          ->delimiter(',');
      sub->add_option("--param", o->model.params,
                      "Model programs (.ptm): set a model parameter, NAME=VALUE (repeatable; default: the parameters "
                      "the first run recorded)");
      sub->add_option("--max-states", o->model.max_states, "Model programs: stop exploring after this many vertices")
          ->default_val(10'000'000)
          ->check(positive_integer());
      sub->add_option("--reward", o->model.reward, "PRISM .tra models: the reward structure read as costs");
      sub->add_option("--goal-label", o->model.goal_label, "PRISM .tra models: the label of the goal states");
      sub->add_option("-o,--output", o->out, "The HTML file to write (- for standard output)")->required();
      sub->add_option("--title", o->title, "The report's title (default: the model's or the first trace's name)");
      sub->add_flag("--json", o->json, "Print what was written as JSON");
      sub->footer(
          "Pictures are drawn by Graphviz's dot on PATH (scripts/setup.sh installs it); without it, or when it "
          "runs out of its time budget, playtest draws them itself and says so under them.\nModels above 120 vertices "
          "are summarised; failures on models above 40 vertices are drawn "
          "as their neighbourhoods; long vertex names are drawn as v<index> (the name in the tooltip).");
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
