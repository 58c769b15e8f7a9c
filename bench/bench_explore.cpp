// Exploration speed and state-store size: the counter model of examples/models/counter.ptm (N x N
// grid, N^2 states) in the modelling language and the same model in the C++ model API; the
// Chat-with-Start model for a model with sets and sequences. Counters: states/s, bytes/state.
#include <benchmark/benchmark.h>

#include <cstring>
#include <string>

#include "playtest/explore/cpp_model.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/explore/state_space.hpp"
#include "playtest/lang/model_program.hpp"

using namespace playtest;

namespace {

// The source tree, from this file's path (bench/bench_explore.cpp).
std::string example(const char* name) {
  std::string here = __FILE__;
  return here.substr(0, here.rfind("/bench/")) + "/examples/models/" + name;
}

struct Grid {
  std::int32_t x = 0, y = 0;
  bool operator==(const Grid&) const = default;
};

CppModel<Grid> cpp_counter(int n) {
  CppModel<Grid> m{Grid{}, "Counter"};
  m.controllable("IncX", [n](const Grid& s) { return s.x < n - 1; }, [](Grid& s) { ++s.x; });
  m.controllable("IncY", [n](const Grid& s) { return s.y < n - 1; }, [](Grid& s) { ++s.y; });
  m.controllable("Restart", [n](const Grid& s) { return s.x == n - 1 && s.y == n - 1; }, [](Grid& s) { s = Grid{}; });
  m.final([](const Grid& s) { return s.x == 0 && s.y == 0; });
  return m;
}

void report(benchmark::State& state, const ExploreResult& r) {
  state.counters["states"] = r.states;
  state.counters["edges"] = r.graph.num_edges();
  state.counters["states/s"] = benchmark::Counter(static_cast<double>(r.states), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["store_B/state"] = static_cast<double>(r.store_bytes) / r.states;
  state.counters["space_B/state"] = static_cast<double>(r.memory_bytes) / r.states;
  state.counters["graph_B/vertex"] = static_cast<double>(r.graph.memory_bytes()) / r.graph.num_vertices();
}

// Full exploration into a TestGraph (numbered names).
void BM_ExploreLangCounter(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  auto m = load_model(example("counter.ptm"), {{"N", std::to_string(n)}});
  ExploreResult r;
  for (auto _ : state) r = explore(*m, {.naming = VertexNaming::numbered});
  report(state, r);
}
BENCHMARK(BM_ExploreLangCounter)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_ExploreCppCounter(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  auto m = cpp_counter(n);
  ExploreResult r;
  for (auto _ : state) r = explore(m, {.naming = VertexNaming::numbered});
  report(state, r);
}
BENCHMARK(BM_ExploreCppCounter)->Arg(100)->Arg(1000)->Unit(benchmark::kMillisecond);

// The lazy state space alone (breadth-first expansion, no TestGraph).
void BM_StateSpaceLangCounter(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  auto m = load_model(example("counter.ptm"), {{"N", std::to_string(n)}});
  std::uint32_t nodes = 0;
  std::size_t bytes = 0;
  for (auto _ : state) {
    StateSpace space(*m);
    space.initial();
    for (std::uint32_t i = 0; i < space.num_nodes(); ++i) space.successors(NodeId{i});
    nodes = space.num_nodes();
    bytes = space.store_bytes();
  }
  state.counters["states/s"] = benchmark::Counter(nodes, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["store_B/state"] = static_cast<double>(bytes) / nodes;
}
BENCHMARK(BM_StateSpaceLangCounter)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_ExploreChatStart(benchmark::State& state) {
  auto m = load_model(example("chat_start.ptm"), {{"N", std::to_string(state.range(0))}});
  ExploreResult r;
  for (auto _ : state) r = explore(*m, {.naming = VertexNaming::numbered});
  report(state, r);
}
BENCHMARK(BM_ExploreChatStart)->Arg(3)->Arg(4)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
