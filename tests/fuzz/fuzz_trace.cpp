// libFuzzer target for the JSON-lines trace reader and the HTML report: any input either reads or
// throws a playtest::Error; what reads must render against the example model (or be refused as a
// trace of another model, a GraphError) without Graphviz (the fuzzer starts no processes), and the
// page must hold exactly the report's own one script element.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "playtest/base/error.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/report/html_report.hpp"
#include "playtest/report/run_record.hpp"

namespace {

const playtest::TestGraph& model() {
  static const playtest::TestGraph g = playtest::parse_graph(R"({"playtest": "graph/1", "initial": "a",
    "vertices": [{"id": "a", "kind": "active"}, {"id": "b", "kind": "passive"}],
    "edges": [{"id": "e0", "from": "a", "to": "b", "label": "go"},
              {"id": "e1", "from": "b", "to": "a", "label": "<x>", "prob": 1}]})");
  return g;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace playtest;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    auto runs = read_trace(in, "fuzz.jsonl").runs;
    report::ReportOptions o;
    o.graphviz.program = "/nonexistent/dot";
    for (bool with_model : {false, true}) {
      std::ostringstream out;
      report::Report r{.title = "fuzz", .model = with_model ? &model() : nullptr, .runs = runs};
      try {
        report::write_html_report(out, r, o);
      } catch (const GraphError&) {
        if (!with_model) __builtin_trap();  // only a model can disagree with a trace
        continue;
      }
      const std::string html = out.str();
      std::size_t scripts = 0;
      for (auto p = html.find("<script"); p != std::string::npos; p = html.find("<script", p + 1)) ++scripts;
      if (scripts != 1) __builtin_trap();  // nothing from the trace became markup
    }
  } catch (const Error&) {
    // Rejected input: a located error, never a crash.
  }
  return 0;
}
