// libFuzzer target for the graph/1 reader: any input either loads or throws playtest::Error;
// anything else (a crash, a sanitizer report, another exception) is a bug. A loaded graph must
// survive a write/read round trip, and the reader's fast pass must agree with its
// position-tracking pass: what one accepts the other accepts, as the same graph.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "playtest/base/error.hpp"
#include "playtest/io/graph_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::optional<std::string> fast, tracking;
  try {
    fast = playtest::graph_to_json(playtest::parse_graph(text, "fuzz"));
  } catch (const playtest::Error&) {
  }
  try {
    tracking = playtest::graph_to_json(playtest::detail::parse_graph_tracking_only(text, "fuzz"));
  } catch (const playtest::Error&) {
  }
  if (fast != tracking) std::abort();
  try {
    playtest::TestGraph g = playtest::parse_graph(text, "fuzz");
    std::string again = playtest::graph_to_json(g);
    playtest::TestGraph h = playtest::parse_graph(again, "roundtrip");
    if (h.num_vertices() != g.num_vertices() || h.num_edges() != g.num_edges()) std::abort();
  } catch (const playtest::Error&) {
  }
  return 0;
}
