// Loading and writing graph/1 files, and building graphs, on generated graphs of growing size.
// Run: build/release/bench/bench_io --benchmark_counters_tabular=true
// The 1M-vertex / 4M-edge case is the foundation issue's target (< 3 s, < 500 MB peak).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "playtest/graph/generate.hpp"
#include "playtest/io/graph_json.hpp"

namespace {

std::string graph_file(std::uint32_t vertices) {
  std::string path = "/tmp/playtest_bench_io_" + std::to_string(vertices) + ".json";
  std::ifstream probe(path);
  if (!probe) {
    playtest::TestGraph g = playtest::generate_random_graph(
        {.vertices = vertices, .passive_fraction = 0.25, .out_degree = 4, .goals = 10, .seed = 7});
    std::ofstream out(path, std::ios::binary);
    playtest::write_graph(g, out);
  }
  return path;
}

void BM_LoadGraph(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  const std::string path = graph_file(n);
  std::uint64_t edges = 0, bytes = 0;
  for (auto _ : state) {
    playtest::TestGraph g = playtest::load_graph(path);
    edges = g.num_edges();
    bytes = g.memory_bytes();
    benchmark::DoNotOptimize(g);
  }
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  state.counters["edges"] = static_cast<double>(edges);
  state.counters["graph_MB"] = static_cast<double>(bytes) / 1e6;
  state.counters["file_MB/s"] = benchmark::Counter(static_cast<double>(f.tellg()) * static_cast<double>(state.iterations()) / 1e6,
                                                   benchmark::Counter::kIsRate);
}
BENCHMARK(BM_LoadGraph)->Arg(10000)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_GenerateGraph(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  for (auto _ : state) {
    playtest::TestGraph g = playtest::generate_random_graph({.vertices = n, .out_degree = 4, .seed = 7});
    benchmark::DoNotOptimize(g);
  }
}
BENCHMARK(BM_GenerateGraph)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_WriteGraph(benchmark::State& state) {
  const auto n = static_cast<std::uint32_t>(state.range(0));
  playtest::TestGraph g = playtest::generate_random_graph({.vertices = n, .out_degree = 4, .seed = 7});
  for (auto _ : state) {
    std::ofstream out("/tmp/playtest_bench_io_write.json", std::ios::binary);
    playtest::write_graph(g, out);
  }
  std::remove("/tmp/playtest_bench_io_write.json");
}
BENCHMARK(BM_WriteGraph)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
