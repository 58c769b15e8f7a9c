// Expected-cost solvers (seed 001) on random graphs of 10^4..10^6 vertices with out-degree 4, and
// on PRISM models made by the anchors' gen_mdp.py (set PLAYTEST_MDP_DIR to a directory holding
// r<N>.tra/.lab/.trew and c<N>.*). Counters: the value at the initial vertex, whether it was
// certified, sweeps / evaluations, the relative difference from the certified value, and for the
// sweep benchmark the bytes one value-iteration sweep moves and the rate, next to a streaming
// (triad) measurement of the machine's memory bandwidth.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "playtest/graph/generate.hpp"
#include "playtest/io/prism_import.hpp"
#include "playtest/solve/expected_cost.hpp"

using namespace playtest;

namespace {

const TestGraph& random_graph(std::uint32_t n) {
  static std::map<std::uint32_t, std::unique_ptr<TestGraph>> cache;
  auto& p = cache[n];
  if (!p) p = std::make_unique<TestGraph>(generate_random_graph({.vertices = n, .out_degree = 4, .seed = 1}));
  return *p;
}

const TestGraph* prism_model(const std::string& name) {
  static std::map<std::string, std::unique_ptr<TestGraph>> cache;
  const char* dir = std::getenv("PLAYTEST_MDP_DIR");
  if (!dir) return nullptr;
  const std::string base = std::string(dir) + "/" + name;
  if (!std::filesystem::exists(base + ".tra")) return nullptr;
  auto& p = cache[name];
  if (!p) p = std::make_unique<TestGraph>(load_prism(base));
  return p.get();
}

double reference_value(const TestGraph& g, const std::string& key) {
  static std::map<std::string, double> cache;
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const auto goals = g.goals();
  const auto r = solve_expected_cost(g, goals, {.method = ExpectedCostMethod::certified});
  return cache[key] = r.value[g.initial().index()];
}

void run_solver(benchmark::State& state, const TestGraph& g, const std::string& key, ExpectedCostMethod m) {
  const auto goals = g.goals();
  ExpectedCostResult r;
  for (auto _ : state) {
    r = solve_expected_cost(g, goals, {.method = m});
    benchmark::DoNotOptimize(r.value.data());
  }
  const double v = r.value[g.initial().index()];
  const double ref = reference_value(g, key);
  state.counters["value"] = v;
  state.counters["certified"] = r.certified;
  state.counters["sweeps"] = r.iterations;
  state.counters["evaluations"] = r.evaluations;
  state.counters["relerr"] = std::abs(v - ref) / std::max(1.0, std::abs(ref));
  state.counters["error_bound"] = r.error_bound;
  state.counters["vertices"] = g.num_vertices();
  state.counters["edges"] = g.num_edges();
}

void BM_ExpectedRandom(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  const auto m = static_cast<ExpectedCostMethod>(state.range(1));
  run_solver(state, random_graph(n), "random" + std::to_string(n), m);
}
// method: 0 certified, 1 value iteration, 2 policy iteration, 3 LP (10^4 only)
BENCHMARK(BM_ExpectedRandom)
    ->ArgsProduct({{10000, 100000, 1000000}, {0, 1, 2}})
    ->Args({10000, 3})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1);

void BM_ExpectedPrism(benchmark::State& state, std::string name, ExpectedCostMethod m) {
  const TestGraph* g = prism_model(name);
  if (!g) {
    state.SkipWithError("set PLAYTEST_MDP_DIR to the gen_mdp.py output directory");
    return;
  }
  run_solver(state, *g, name, m);
}
BENCHMARK_CAPTURE(BM_ExpectedPrism, r10000, std::string("r10000"), ExpectedCostMethod::certified)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_ExpectedPrism, c10000, std::string("c10000"), ExpectedCostMethod::certified)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_ExpectedPrism, r100000, std::string("r100000"), ExpectedCostMethod::certified)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_ExpectedPrism, c100000, std::string("c100000"), ExpectedCostMethod::certified)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_ExpectedPrism, r1000000, std::string("r1000000"), ExpectedCostMethod::certified)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_ExpectedPrism, c1000000, std::string("c1000000"), ExpectedCostMethod::certified)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_ExpectedPrism, r100000_vi, std::string("r100000"), ExpectedCostMethod::value_iteration)->Unit(benchmark::kMillisecond)->Iterations(1);

// One Gauss-Seidel sweep: (time of 21 sweeps - time of 1) / 20, so the fixed work (region,
// working arrays, strategy extraction) cancels out. Bytes per sweep: the working arrays read once
// (offsets 4 B, kind 1 B, passive constant 8 B, value 8 B written per vertex; target 4 B and
// weight 8 B per edge) plus one 64-byte cache line per edge for the value it reads at random.
void BM_ValueIterationSweep(benchmark::State& state) {
  const TestGraph& g = random_graph(static_cast<std::uint32_t>(state.range(0)));
  const auto goals = g.goals();
  double per_sweep = 0;
  for (auto _ : state) {
    auto timed = [&](std::uint32_t sweeps) {
      const auto t0 = std::chrono::steady_clock::now();
      auto r = solve_expected_cost(g, goals, {.method = ExpectedCostMethod::value_iteration, .epsilon = 1e-300,
                                              .max_iterations = sweeps});
      benchmark::DoNotOptimize(r.value.data());
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    per_sweep = (timed(21) - timed(1)) / 20;
    state.SetIterationTime(per_sweep);
  }
  const double n = g.num_vertices(), m = g.num_edges();
  const double streamed = n * (4 + 1 + 8 + 8) + m * (4 + 8);
  const double bytes = streamed + m * 64;
  state.counters["MB_streamed"] = streamed / 1e6;
  state.counters["MB_with_random_lines"] = bytes / 1e6;
  state.counters["GBps_streamed"] = streamed / per_sweep / 1e9;
  state.counters["GBps_with_random_lines"] = bytes / per_sweep / 1e9;
}
BENCHMARK(BM_ValueIterationSweep)->Arg(1000000)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(3);

// The machine's memory bandwidth: a[i] = b[i] + 3 c[i] over 3 x 128 MB (24 bytes per element).
void BM_StreamTriad(benchmark::State& state) {
  const std::size_t n = 16u << 20;
  std::vector<double> a(n, 0.0), b(n, 1.0), c(n, 2.0);
  for (auto _ : state) {
    for (std::size_t i = 0; i < n; ++i) a[i] = b[i] + 3.0 * c[i];
    benchmark::DoNotOptimize(a.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * 24));
}
BENCHMARK(BM_StreamTriad)->Unit(benchmark::kMillisecond)->Iterations(10);

}  // namespace

BENCHMARK_MAIN();
