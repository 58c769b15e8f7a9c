// libFuzzer target for the trace reader (campaign/trace_reader.hpp) as replay, shrink and learn use it:
// any input either reads or throws a playtest::Error; what reads must resolve against a small lock
// model into a replay target and observation counts, or be refused with an Error, and the scripts
// it gives must be checked for playability without crashing. Corpus: tests/fuzz/corpus/diagnose_trace.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "playtest/base/error.hpp"
#include "playtest/campaign/trace_reader.hpp"
#include "playtest/diagnose/learn.hpp"
#include "playtest/diagnose/script.hpp"
#include "playtest/io/graph_json.hpp"

namespace {

const playtest::TestGraph& model() {
  static const playtest::TestGraph g = playtest::parse_graph(R"({"playtest": "graph/1", "initial": "locked",
    "reset": {"cost": 1},
    "vertices": [{"id": "locked", "kind": "active"}, {"id": "knocked", "kind": "passive"},
                 {"id": "open", "kind": "active"}, {"id": "pinged", "kind": "passive"}],
    "edges": [{"from": "locked", "to": "knocked", "label": "knock"},
              {"from": "knocked", "to": "locked", "label": "ok", "prob": 0.5},
              {"from": "knocked", "to": "open", "label": "busy", "prob": 0.5},
              {"from": "open", "to": "pinged", "label": "ping"},
              {"from": "pinged", "to": "open", "label": "ok", "prob": 0.9},
              {"from": "pinged", "to": "locked", "label": "", "prob": 0.1, "timeout": true}]})");
  return g;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace playtest;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  try {
    const RecordedTrace t = read_trace(in, "fuzz.jsonl");
    for (const RunRecord& run : t.runs) {
      try {
        const ReplayTarget target = replay_target(model(), run, t.source);
        (void)first_unplayable(model(), target.script);
      } catch (const Error&) {
      }
    }
    ObservationCounts counts(model());
    counts.add(t);
    (void)learn(model(), counts);
  } catch (const Error&) {
    // Rejected input: a located error, never a crash.
  }
  return 0;
}
