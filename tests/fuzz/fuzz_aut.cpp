// libFuzzer target for the .aut and lts/1 JSON readers: any input either parses or throws a
// playtest::Error; what parses must survive the suspension automaton, the ioco check against
// itself (always conforming) and the test-graph mapping, all under a small set bound.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "playtest/base/error.hpp"
#include "playtest/ioco/ioco_check.hpp"
#include "playtest/ioco/ioco_graph.hpp"
#include "playtest/ioco/lts_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace playtest::ioco;
  if (size == 0) return 0;
  // The first byte picks the reader and a label convention; the rest is the file.
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  const bool json = (data[0] & 1) != 0;
  LtsReadOptions options;
  if (data[0] & 2) options.inputs = {"a", "coin"};
  if (data[0] & 4) options.outputs = {"x", "tea"};
  try {
    const Lts lts = json ? parse_lts_json(text, "fuzz", options) : parse_aut(text, "fuzz.aut", options);
    if (lts.num_states() > 64) return 0;
    const IocoResult r = check_ioco(lts, lts, {.max_sets = 256});
    if (!r.conforms) __builtin_trap();  // every system conforms to itself
    (void)build_ioco_graph(lts, {.max_sets = 256});
    (void)parse_aut(write_aut(lts));
  } catch (const playtest::Error&) {
    // Rejected input, or the set bound: both are reported errors, never crashes.
  }
  return 0;
}
