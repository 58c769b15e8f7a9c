#include "solve/core/qualitative.hpp"

namespace playtest::detail {

std::vector<QualStatus> graph_status(const TestGraph& g, std::span<const std::uint8_t> is_target,
                                     std::span<const std::uint8_t> is_allowed) {
  const std::uint32_t n = g.num_vertices();
  std::vector<QualStatus> st(n, QualStatus::free);
  for (std::uint32_t v = 0; v < n; ++v) {
    if (is_target[v])
      st[v] = QualStatus::one;
    else if (!is_allowed.empty() && !is_allowed[v])
      st[v] = QualStatus::zero;
  }
  return st;
}

}  // namespace playtest::detail
