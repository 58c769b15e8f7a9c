// The reactive planning tester (seed 002 §4) on generated strongly connected graphs of 10^3, 10^4
// and 10^5 edges (4 out-edges per vertex, a quarter of the vertices passive, every edge a trap):
// construction, the per-step decision over a whole simulated run (until every trap is taken), and
// the planner's memory. Target (issue 6): 10^5 edges build and play in seconds, memory never
// O(|E|^3). Arguments: edges, horizon (unvisited traps; 0: none), evaluation (0 automatic,
// 1 trees, 2 online), tail_traps (0: no backward field in the tail of a run).
#include <benchmark/benchmark.h>

#include <chrono>

#include "playtest/campaign/simulation.hpp"
#include "playtest/graph/generate.hpp"
#include "playtest/plan/reactive_planner.hpp"

namespace {

playtest::TestGraph make_graph(std::int64_t edges) {
  return playtest::generate_random_graph({.vertices = static_cast<std::uint32_t>(edges / 4),
                                          .passive_fraction = 0.25,
                                          .out_degree = 4,
                                          .goals = 0,
                                          .strongly_connected = true,
                                          .seed = 7});
}

playtest::PlannerOptions options_of(const benchmark::State& state) {
  return {.evaluation = static_cast<playtest::GainEvaluation>(state.range(2)),
          .horizon = static_cast<std::uint32_t>(state.range(1)),
          .tail_traps = static_cast<std::uint32_t>(state.range(3))};
}

// Construction, then the gains of every out-edge of the initial vertex with nothing visited (the
// first decision; with stored trees this builds their trees).
void BM_PlannerBuild(benchmark::State& state) {
  const playtest::TestGraph g = make_graph(state.range(0));
  const std::vector<std::uint32_t> visited(g.num_edges(), 0);
  std::size_t bytes = 0;
  bool trees = false;
  for (auto _ : state) {
    playtest::ReactivePlanner p(g, {}, options_of(state));
    double s = 0;
    for (playtest::EdgeId e : g.out_edges(g.initial())) s += p.gain(e, visited);
    benchmark::DoNotOptimize(s);
    bytes = p.memory_bytes();
    trees = p.uses_trees();
  }
  state.counters["edges"] = g.num_edges();
  state.counters["trees"] = trees;
  state.counters["planner_bytes"] = static_cast<double>(bytes);
}

// One simulated run until every edge has been taken; time per step is the decision (gain
// evaluation and guard) plus the negligible simulated system.
void BM_PlannerRun(benchmark::State& state) {
  const playtest::TestGraph g = make_graph(state.range(0));
  playtest::SimulationOptions so;
  so.run.purpose.kind = playtest::TestPurpose::Kind::cover;
  so.run.max_steps = 0;
  so.run.keep_trace = false;
  so.runs = 1;
  so.seed = 1;
  double steps = 0, seconds = 0;
  std::size_t bytes = 0;
  bool met = false;
  for (auto _ : state) {
    playtest::PlannerPolicy policy(g, options_of(state));
    const auto t0 = std::chrono::steady_clock::now();
    playtest::SimulationStats st = playtest::simulate(g, policy, so);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    steps = st.mean_steps;
    met = st.passed == 1;
    bytes = policy.planner()->memory_bytes();
  }
  state.counters["edges"] = g.num_edges();
  state.counters["steps"] = steps;
  state.counters["met"] = met;
  state.counters["us_per_step"] = steps > 0 ? seconds * 1e6 / steps : 0;
  state.counters["planner_bytes"] = static_cast<double>(bytes);
}

}  // namespace

// Defaults (automatic: stored trees at 10^3, online with horizon 16 and the tail field above).
BENCHMARK(BM_PlannerBuild)
    ->Args({1000, 16, 0, 4096})
    ->Args({10000, 16, 0, 4096})
    ->Args({100000, 16, 0, 4096})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PlannerRun)
    ->Args({1000, 16, 0, 4096})
    ->Args({10000, 16, 0, 4096})
    ->Args({100000, 16, 0, 4096})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
// For comparison: the exact evaluations (stored trees, forced beyond the budget at 10^4; the uncut
// online search) and the online search without the tail field.
BENCHMARK(BM_PlannerRun)
    ->Args({1000, 0, 2, 0})
    ->Args({1000, 16, 2, 4096})
    ->Args({10000, 0, 1, 0})
    ->Args({10000, 16, 2, 0})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

BENCHMARK_MAIN();
