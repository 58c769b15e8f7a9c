#include "playtest/session/trace_report.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "playtest/base/error.hpp"
#include "playtest/campaign/seen_part.hpp"
#include "playtest/campaign/trace_reader.hpp"

namespace playtest {

namespace {

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

}  // namespace

TraceReport load_trace_report(const std::vector<std::string>& traces, const TraceReportOptions& o) {
  TraceReport out;
  std::vector<RecordedTrace> read;
  for (const std::string& path : traces) read.push_back(load_trace(path));
  refuse_repeated_runs(read);  // a trace given twice would count its runs twice
  for (RecordedTrace& t : read) {
    out.report.runs_missing += missing_runs(t).count;
    for (RunRecord& r : t.runs) out.report.runs.push_back(std::move(r));
  }
  // The model: --model, else the one the runs name (with the parameters they recorded).
  LoadOptions model = o.model;
  if (model.path.empty())
    for (const RunRecord& r : out.report.runs)
      if (!r.model.empty()) {
        std::string why;
        model.path = trace_model_path(r, why);
        if (model.path.empty()) out.notes.push_back(why + ": it was not read; give --model to draw it");
        break;
      }
  // A model program is read with the parameters the runs recorded unless --param says otherwise.
  if (model.params.empty() && !out.report.runs.empty()) model.params = out.report.runs.front().params;
  if (!model.path.empty()) {
    // A model program is explored within the budget, as run does; a model too big for it is
    // reported on the part of it the traces saw.
    model.explore_first = ExploreFirstOptions{.max_seconds = o.explore_seconds};
    LoadedInput loaded = load_input(model);
    if (!loaded.graph) {
      // Too big to explore: coverage and the failures' paths on the part the traces saw.
      SeenPart seen = seen_part(*loaded.model, out.report.runs);
      loaded.graph = std::move(seen.graph);
      out.report.model_part = fmt::format("the model is too big to explore within --explore-time and --max-states ({})",
                                          loaded.on_the_fly_reason);
      out.notes.push_back(fmt::format(
          "coverage of the {} edges the trace{} saw; the model is too big to explore within --explore-time ({})",
          loaded.graph->num_edges(), out.report.runs.size() == 1 ? "" : "s", loaded.on_the_fly_reason));
    }
    out.graph = std::make_shared<const TestGraph>(std::move(*loaded.graph));
    out.report.model = out.graph.get();
    out.report.model_name = model.path;
  }
  out.model = model.path;
  out.report.title = !o.title.empty() ? o.title : !model.path.empty() ? model.path : traces.front();
  return out;
}

}  // namespace playtest
