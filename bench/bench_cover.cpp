// Chinese Postman tours (and the cover policy built on them) on generated strongly connected
// graphs of 10^4, 10^5 and 10^6 edges: 4 out-edges per vertex, a quarter of the vertices passive,
// integer costs 1..10. Target (issue 4): under 5 s for 10^6 edges. BM_PostmanTourSolver compares
// LEMON's solvers for the balancing flow.
#include <benchmark/benchmark.h>

#include "playtest/cover/cover_convergence.hpp"
#include "playtest/cover/cover_policy.hpp"
#include "playtest/cover/postman_tour.hpp"
#include "playtest/graph/generate.hpp"

namespace {

playtest::TestGraph make_graph(std::int64_t edges) {
  return playtest::generate_random_graph({.vertices = static_cast<std::uint32_t>(edges / 4),
                                          .passive_fraction = 0.25,
                                          .out_degree = 4,
                                          .goals = 0,
                                          .strongly_connected = true,
                                          .seed = 42});
}

void BM_PostmanTour(benchmark::State& state) {
  const playtest::TestGraph g = make_graph(state.range(0));
  playtest::PostmanTour t;
  for (auto _ : state) {
    t = playtest::postman_tour(g);
    benchmark::DoNotOptimize(t.steps.data());
  }
  state.counters["edges"] = g.num_edges();
  state.counters["steps"] = static_cast<double>(t.steps.size());
  state.counters["cost/lower"] = t.cost / t.lower_bound;
}

// The same tour with each LEMON solver for the balancing flow (second argument: PostmanFlowSolver).
void BM_PostmanTourSolver(benchmark::State& state) {
  const playtest::TestGraph g = make_graph(state.range(0));
  const auto solver = static_cast<playtest::PostmanFlowSolver>(state.range(1));
  playtest::PostmanTour t;
  for (auto _ : state) {
    t = playtest::postman_tour(g, {.flow_solver = solver});
    benchmark::DoNotOptimize(t.steps.data());
  }
  state.counters["edges"] = g.num_edges();
  state.counters["cost"] = t.cost;
}

void BM_CoverPolicySetup(benchmark::State& state) {
  const playtest::TestGraph g = make_graph(state.range(0));
  const playtest::PostmanTour t = playtest::postman_tour(g);
  for (auto _ : state) {
    playtest::CoverPolicy p(g, t);
    benchmark::DoNotOptimize(p.segments().steps.data());
  }
  state.counters["edges"] = g.num_edges();
}

void BM_PostmanTourWithReset(benchmark::State& state) {
  // Not strongly connected: random graph plus resets from every active vertex.
  const playtest::TestGraph g = playtest::generate_random_graph({.vertices = static_cast<std::uint32_t>(state.range(0) / 4),
                                                                 .passive_fraction = 0.25,
                                                                 .out_degree = 4,
                                                                 .goals = 0,
                                                                 .strongly_connected = false,
                                                                 .seed = 43});
  playtest::PostmanTour t;
  for (auto _ : state) {
    t = playtest::postman_tour(g, {.reset_cost = 5, .on_uncoverable = playtest::UncoverablePolicy::skip});
    benchmark::DoNotOptimize(t.steps.data());
  }
  state.counters["edges"] = g.num_edges();
  state.counters["uncoverable"] = static_cast<double>(t.uncoverable.size());
  state.counters["resets"] = t.num_resets;
}

}  // namespace

BENCHMARK(BM_PostmanTour)->Arg(10'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->Iterations(3);
// 0 network_simplex (default), 1 network_simplex_block_search (before), 2 cost_scaling,
// 3 capacity_scaling; 10^6 edges only for the first two (the others take tens of seconds).
BENCHMARK(BM_PostmanTourSolver)
    ->Args({100'000, 0})
    ->Args({100'000, 1})
    ->Args({100'000, 2})
    ->Args({100'000, 3})
    ->Args({300'000, 0})
    ->Args({300'000, 1})
    ->Args({300'000, 2})
    ->Args({1'000'000, 1})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);
BENCHMARK(BM_PostmanTourWithReset)->Arg(10'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_CoverPolicySetup)->Arg(10'000)->Arg(100'000)->Arg(1'000'000)->Unit(benchmark::kMillisecond)->Iterations(3);

BENCHMARK_MAIN();
