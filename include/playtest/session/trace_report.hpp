// The report of recorded runs (`playtest report`, docs/testing.md "Reports"): JSON-lines traces
// read together with the model they name (or the one given), ready for report::write_html_report.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "playtest/input/load.hpp"
#include "playtest/report/html_report.hpp"

namespace playtest {

struct TraceReportOptions {
  // The model: path "" is the one the runs name (as recorded, else beside the trace), read with the
  // parameters the first run recorded unless params are given. A model program is explored within
  // explore_seconds and max_states; one that does not fit is reported on the part of it the traces
  // saw (campaign/seen_part.hpp; Report::model_part says so).
  LoadOptions model;
  double explore_seconds = 10;
  std::string title;  // "" : the model's name, else the first trace's
};

struct TraceReport {
  report::Report report;                   // the runs, the model (report.model points into `graph`)
  std::shared_ptr<const TestGraph> graph;  // the model's graph, when it was read
  std::string model;                       // the model's path as read ("" none)
  std::vector<std::string> notes;          // why the model was not read, or only the part the traces saw
};

// Reads `traces` (InputError and its kinds for a bad trace, a trace given twice) and the model.
TraceReport load_trace_report(const std::vector<std::string>& traces, const TraceReportOptions& o);

}  // namespace playtest
