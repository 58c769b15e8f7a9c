#include "playtest/solve/exact/bound_limits.hpp"

#include <fmt/format.h>

#include "playtest/base/error.hpp"

namespace playtest {

void check_reach_bound(const TestGraph& g, std::uint64_t bound, std::uint64_t recorded,
                       std::uint64_t extra_bytes_per_step, const BoundLimits& limits) {
  // In double: the products can exceed 64 bits, and the comparison needs no more precision.
  const double steps = static_cast<double>(bound) + 1;
  const double bytes = steps * (4 + 16 * static_cast<double>(recorded) + static_cast<double>(extra_bytes_per_step));
  if (bytes > static_cast<double>(limits.max_bytes))
    throw UsageError("bound",
                     fmt::format("{} moves need {:.3g} GB of per-step arrays here, more than the limit of {:.3g} GB; "
                                 "use a smaller bound",
                                 bound, static_cast<double>(bytes) / 1e9, static_cast<double>(limits.max_bytes) / 1e9));
  const double work = static_cast<double>(bound) * (static_cast<double>(g.num_vertices()) + g.num_edges());
  if (work > static_cast<double>(limits.max_work))
    throw UsageError("bound",
                     fmt::format("{} moves on {} vertices and {} edges is {:.3g} solver steps, more than the "
                                 "limit of {:.3g}; use a smaller bound",
                                 bound, g.num_vertices(), g.num_edges(), work, static_cast<double>(limits.max_work)));
}

}  // namespace playtest
