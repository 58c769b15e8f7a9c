#include "cover_options.hpp"

#include <fmt/format.h>

#include "option_checks.hpp"
#include "playtest/io/dot.hpp"

namespace playtest::cli {

CLI::App* add_cover_command(CLI::App& app, CoverCliOptions& o) {
  auto* sub = app.add_subcommand("cover", "Chinese Postman tour and the edge-coverage strategy (seed 000 §5)");
  add_input_options(sub, o.input);
  sub->add_option("--start", o.start, "Vertex where the tour starts and ends (default: the initial vertex)");
  sub->add_option("--reset-cost", o.reset_cost,
                  "Allow resets to the initial vertex at this cost (default: the graph's reset cost, if any)");
  sub->add_option("--reset-from", o.reset_from, "Vertices that can reset (default: every active vertex)")
      ->expected(1, -1);
  sub->add_flag("--ignore-graph-reset", o.ignore_graph_reset, "Do not use the reset cost given in the graph");
  sub->add_flag("--skip-uncoverable", o.skip_uncoverable,
                "Tour the coverable edges and list the others instead of failing");
  sub->add_flag("--random-segments", o.random_segments,
                "Choose segments uniformly at random (the paper's Cover) instead of preferring uncovered edges");
  sub->add_option("--sim-runs", o.report.sim_runs, "Simulated runs for the convergence table (0: none)")
      ->default_val(1000);
  sub->add_option("--max-visits", o.report.max_visits,
                  "Rows of the convergence table: visits of choice points (default: 5 per segment, 10..200)");
  add_seed_option(sub, o.report.seed, "Seed of the simulation");
  sub->add_flag("--json", o.json, "Print the result as JSON");
  sub->add_option("--dot", o.dot, "Also write a Graphviz picture of the tour to this file");
  sub->add_option("--tour-out", o.tour_out,
                  "Write the whole tour here, one step a line (edge id, source, -label->, target); the terminal "
                  "shows its first 40 steps");
  sub->add_option("--report", o.html,
                  "Also write a self-contained HTML report here: the tour on the model and the simulated "
                  "convergence against the bound of Proposition 2");
  sub->footer(
      "Errors (exit 2): a graph without edges; edges that no closed walk through the start vertex can take\n"
      "(give --reset-cost, or --skip-uncoverable).");
  return sub;
}

void write_tour_dot(const TestGraph& g, const PostmanTour& tour, const std::string& path, const std::string& title) {
  std::vector<std::uint8_t> on_tour(g.num_vertices(), 0);
  for (const TourStep& s : tour.steps) on_tour[s.from.index()] = 1;
  Output out(path);
  write_dot(g, out.stream(),
            {.title = fmt::format("{}: Chinese Postman tour of cost {} (lower bound {}); bold edges are taken more "
                                  "than once, grey vertices are off the tour",
                                  title, tour.cost, tour.lower_bound),
             .highlight_edge = [&](EdgeId e) { return tour.multiplicity[e.index()] > 1; },
             .vertex_note = {},
             .dim_vertex = [&](VertexId v) { return !on_tour[v.index()]; }});
  out.close();
}

}  // namespace playtest::cli
