// Up-front limits on the bound n of bounded reachability (issue 23, item 5): a bound whose per-step
// arrays would not fit, or whose work is out of all proportion, is refused before anything is
// allocated, as a usage error naming the bound (exit 2), instead of "out of memory" after minutes.
#pragma once

#include <cstdint>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

struct BoundLimits {
  // Bytes of the arrays that grow with the bound: 4 a step for the solver's frontier statistics,
  // 16 a step for each recorded vertex, and what the caller keeps per step besides.
  std::uint64_t max_bytes = std::uint64_t{4} << 30;
  // bound x (vertices + edges): the solver's elementary steps in the worst case.
  std::uint64_t max_work = std::uint64_t{1} << 36;
};

// Throws UsageError("bound") when solving up to `bound` with `recorded` vertices recorded (and
// `extra_bytes_per_step` more kept by the caller per step) exceeds the limits.
void check_reach_bound(const TestGraph& g, std::uint64_t bound, std::uint64_t recorded,
                       std::uint64_t extra_bytes_per_step = 0, const BoundLimits& limits = {});

}  // namespace playtest
