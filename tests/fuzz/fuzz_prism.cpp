// libFuzzer target for the PRISM explicit reader: the input holds the four files of an export,
// .tra, .lab, .srew and .trew, separated by lines "%%". Any input either loads or throws a
// playtest::Error (ParseError, or UsageError for a missing goal label), never crashes, hangs or
// allocates for counts its text cannot hold; what loads has every state as a vertex.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "playtest/base/error.hpp"
#include "playtest/io/prism_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  std::string_view part[4];
  for (int i = 0; i < 4; ++i) {
    const auto cut = rest.find("\n%%\n");
    if (cut == std::string_view::npos || i == 3) {
      part[i] = rest;
      break;
    }
    part[i] = rest.substr(0, cut + 1);
    rest.remove_prefix(cut + 4);
  }
  try {
    const playtest::TestGraph g = playtest::parse_prism(
        playtest::PrismText{.tra = part[0], .lab = part[1], .srew = part[2], .trew = part[3]}, "fuzz");
    if (g.num_vertices() == 0 || g.initial().index() >= g.num_vertices()) __builtin_trap();
    for (std::uint32_t k = 0; k < g.num_edges(); ++k) {
      const double c = g.cost(playtest::EdgeId{k});
      if (!(c >= 0) || c != c) __builtin_trap();  // costs are finite sums of rewards >= 0
    }
  } catch (const playtest::Error&) {
    // Rejected input: a located ParseError or a UsageError.
  }
  return 0;
}
