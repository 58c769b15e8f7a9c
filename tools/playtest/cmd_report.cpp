// playtest report TRACE.jsonl... [--model MODEL] -o report.html: one self-contained HTML page of
// the runs in JSON-lines traces (written by run --trace): verdicts, replay commands, the model
// drawn with coverage, the path to each failure and its steps (docs/testing.md, "Reports"). The
// traces and the model are read by session/trace_report.hpp.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "command.hpp"
#include "common.hpp"
#include "interrupt.hpp"
#include "option_checks.hpp"
#include "playtest/base/error.hpp"
#include "playtest/session/trace_report.hpp"
#include "report_options.hpp"

namespace playtest::cli {
namespace {

int run(const ReportCliOptions& o) {
  if (o.out == "-" && o.json)
    throw UsageError("json", "the report goes to standard output (-o -): --json would mix its JSON into the HTML");
  TraceReport t = load_trace_report(o.traces, {.model = o.model, .explore_seconds = o.explore_time, .title = o.title});
  t.report.tool_version = PLAYTEST_VERSION;
  Output out(o.out);
  // A signal while the pictures are drawn stops them; the previous report is then kept (the new one
  // is written to a temporary file renamed into place only when complete).
  StopSignal stop;
  report::ReportOptions options;
  options.graphviz.stop = &stop;
  report::ReportSummary s;
  {
    const InterruptScope interrupts(stop);
    s = report::write_html_report(out.stream(), t.report, options);
  }
  if (stop.requested()) {
    out.discard();
    fmt::print(stderr, "playtest: interrupted by {}: the report was not written{}\n", signal_name(stop.signal()),
               o.out == "-" ? "" : " (" + o.out + " is as it was)");
    return interrupted_exit_code(stop);
  }
  out.close();
  if (o.json) {
    std::vector<std::string> messages = t.notes;
    messages.insert(messages.end(), s.messages.begin(), s.messages.end());
    nlohmann::json j = {{"output", o.out}, {"runs", s.runs}, {"pictures", s.pictures}, {"messages", messages}};
    if (!t.model.empty()) j["model"] = t.model;
    fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  } else if (o.out != "-") {
    fmt::print("report: {} ({} run{}, {} picture{})\n", o.out, s.runs, s.runs == 1 ? "" : "s", s.pictures,
               s.pictures == 1 ? "" : "s");
    for (const std::string& m : t.notes) fmt::print("  note: {}\n", m);
    for (const std::string& m : s.messages) fmt::print("  note: {}\n", m);
  }
  return exit_code(Outcome::done);
}

const Registration reg{"report", 62, [](CLI::App& app) {
                         auto o = std::make_shared<ReportCliOptions>();
                         add_report_command(app, *o);
                         return [o] { return run(*o); };
                       }};

}  // namespace
}  // namespace playtest::cli
