// Bounded reachability (n = 100) and sure winning on random graphs of 10^4, 10^5, 10^6 vertices,
// out-degree 4, a quarter of the vertices passive, one goal per thousand vertices.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>

#include "playtest/graph/generate.hpp"
#include "playtest/solve/bounded_reachability.hpp"
#include "playtest/solve/sure_winning.hpp"

using namespace playtest;

namespace {

const TestGraph& graph(std::uint32_t vertices) {
  static std::map<std::uint32_t, std::unique_ptr<TestGraph>> cache;
  auto& g = cache[vertices];
  if (!g)
    g = std::make_unique<TestGraph>(generate_random_graph(
        {.vertices = vertices, .out_degree = 4, .goals = std::max<std::uint32_t>(1, vertices / 1000), .seed = 7}));
  return *g;
}

void BM_SureWinning(benchmark::State& state) {
  const TestGraph& g = graph(static_cast<std::uint32_t>(state.range(0)));
  const auto goals = g.goals();
  std::uint32_t winnable = 0;
  for (auto _ : state) {
    SureWinResult r = solve_sure_winning(g, goals);
    winnable = r.num_winnable;
    benchmark::DoNotOptimize(r.cost.data());
  }
  state.counters["vertices"] = g.num_vertices();
  state.counters["edges"] = g.num_edges();
  state.counters["winnable"] = winnable;
}

void BM_BoundedReach(benchmark::State& state) {
  const TestGraph& g = graph(static_cast<std::uint32_t>(state.range(0)));
  const auto goals = g.goals();
  const auto bound = static_cast<std::uint32_t>(state.range(1));
  std::size_t changes = 0, change_bytes = 0, recomputed = 0;
  for (auto _ : state) {
    BoundedReachResult r = solve_bounded_reachability(g, goals, {.bound = bound, .frontier_statistics = true});
    changes = r.num_change_points();
    change_bytes = r.change_point_bytes();
    recomputed = 0;
    for (auto f : r.frontier_sizes()) recomputed += f;
    benchmark::DoNotOptimize(r.prob(g.initial()));
  }
  state.counters["vertices"] = g.num_vertices();
  state.counters["edges"] = g.num_edges();
  state.counters["change_points"] = static_cast<double>(changes);
  state.counters["change_point_MB"] = static_cast<double>(change_bytes) / 1e6;
  state.counters["value_changes"] = static_cast<double>(recomputed);
}

BENCHMARK(BM_SureWinning)->Arg(10'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BoundedReach)
    ->Args({10'000, 100})
    ->Args({100'000, 100})
    ->Args({1'000'000, 100})
    ->Args({1'000'000, 1000})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

}  // namespace

BENCHMARK_MAIN();
