// playtest gen random ...: random test graphs (graph/1) for tests and benchmarks.
#include <fmt/format.h>

#include "command.hpp"
#include "common.hpp"
#include "playtest/base/error.hpp"
#include "playtest/graph/generate.hpp"
#include "playtest/io/graph_json.hpp"

namespace playtest::cli {
namespace {

struct Options {
  RandomGraphOptions graph;
  std::string out = "-";
};

int run(const Options& o) {
  TestGraph g = generate_random_graph(o.graph);  // UsageError names the option
  Output out(o.out);
  write_graph(g, out.stream());
  out.close();
  return exit_code(Outcome::done);
}

const Registration reg{
    "gen", 90, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* gen = app.add_subcommand("gen", "Generate test graphs");
      gen->require_subcommand(1);
      auto* sub = gen->add_subcommand("random", "A random graph/1 test graph (deterministic for a seed)");
      sub->add_option("--vertices", o->graph.vertices, "Number of vertices")
          ->required()
          ->check(CLI::Range(1u, 200000000u));
      sub->add_option("--passive-fraction", o->graph.passive_fraction, "Probability that a vertex is passive")
          ->default_val(0.25)
          ->check(CLI::Range(0.0, 1.0));
      sub->add_option("--out-degree", o->graph.out_degree, "Edges per vertex")
          ->default_val(4)
          ->check(CLI::Range(1u, 1000u));
      sub->add_option("--goals", o->graph.goals, "Number of goal vertices")->default_val(1);
      sub->add_option("--min-cost", o->graph.min_cost, "Smallest edge cost (integer)")->default_val(1);
      sub->add_option("--max-cost", o->graph.max_cost, "Largest edge cost (integer)")->default_val(10);
      sub->add_option("--seed", o->graph.seed, "Random seed")->default_val(1);
      sub->add_flag("--strongly-connected", o->graph.strongly_connected,
                    "Put one out-edge of every vertex on a random Hamiltonian cycle");
      sub->add_option("-o,--output", o->out, "Output file (- for standard output)")->default_val("-");
      sub->footer(
          "Vertex v0 is initial; vertices are v<i>; edges out of active vertices are labelled a<j>,\n"
          "out of passive ones ?o<j> with random weights 1..10 normalized to probabilities.");
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
