#include "playtest/graph/generate.hpp"

#include <fmt/format.h>

#include <numeric>
#include <stdexcept>

#include "playtest/base/error.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/random.hpp"

namespace playtest {

TestGraph generate_random_graph(const RandomGraphOptions& o) {
  if (o.vertices == 0) throw UsageError("vertices", "must be > 0");
  if (o.out_degree == 0) throw UsageError("out_degree", "must be > 0");
  if (o.goals >= o.vertices && o.vertices > 1) throw UsageError("goals", "must be fewer than the vertices");
  if (!(o.passive_fraction >= 0 && o.passive_fraction <= 1)) throw UsageError("passive_fraction", "must lie in [0, 1]");
  if (o.min_cost > o.max_cost) throw UsageError("min_cost", "must not exceed the maximal cost");
  if (static_cast<std::uint64_t>(o.vertices) * o.out_degree > 0xFFFFFFF0ull)
    throw UsageError("vertices", "vertices times out-degree exceeds the 2^32 - 2 edge ids");

  Rng rng(o.seed);
  const std::uint32_t n = o.vertices;
  GraphBuilder b;
  b.reserve(n, static_cast<std::size_t>(n) * o.out_degree);
  std::vector<std::uint8_t> passive(n, 0), goal(n, 0);
  for (std::uint32_t v = 1; v < n; ++v) passive[v] = rng.uniform01() < o.passive_fraction;
  // Goals: a partial Fisher-Yates shuffle of 1..n-1.
  if (n > 1) {
    std::vector<std::uint32_t> pool(n - 1);
    std::iota(pool.begin(), pool.end(), 1u);
    for (std::uint32_t i = 0; i < o.goals; ++i) {
      std::uint32_t j = i + static_cast<std::uint32_t>(rng.below(pool.size() - i));
      std::swap(pool[i], pool[j]);
      goal[pool[i]] = 1;
    }
  }
  std::string name;
  for (std::uint32_t v = 0; v < n; ++v) {
    name.clear();
    fmt::format_to(std::back_inserter(name), "v{}", v);
    b.add_vertex(name, passive[v] ? VertexKind::passive : VertexKind::active, goal[v] != 0);
  }
  b.set_initial(VertexId{0});

  std::vector<std::uint32_t> next_on_cycle;
  if (o.strongly_connected) {
    std::vector<std::uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    for (std::uint32_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
    next_on_cycle.resize(n);
    for (std::uint32_t i = 0; i < n; ++i) next_on_cycle[order[i]] = order[(i + 1) % n];
  }
  std::vector<double> weights(o.out_degree);
  std::string label;
  for (std::uint32_t v = 0; v < n; ++v) {
    for (std::uint32_t j = 0; j < o.out_degree; ++j) weights[j] = static_cast<double>(1 + rng.below(10));
    for (std::uint32_t j = 0; j < o.out_degree; ++j) {
      std::uint32_t to = (o.strongly_connected && j == 0) ? next_on_cycle[v] : static_cast<std::uint32_t>(rng.below(n));
      double cost = static_cast<double>(o.min_cost + rng.below(o.max_cost - o.min_cost + 1));
      label.clear();
      fmt::format_to(std::back_inserter(label), "{}{}", passive[v] ? "?o" : "a", j);
      EdgeSpec e{.from = VertexId{v}, .to = VertexId{to}, .label = label, .cost = cost};
      if (passive[v]) e.weight = weights[j];
      b.add_edge(e);
    }
  }
  return b.build();
}

}  // namespace playtest
