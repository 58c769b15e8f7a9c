// playtest cover FILE: the Chinese Postman tour of a test graph, cut into the segments of the cover
// strategy (seed 000 §5), the bound of Proposition 2 and a simulated convergence table.
#include <fmt/format.h>

#include "command.hpp"
#include "common.hpp"
#include "playtest/cover/cover_report.hpp"
#include "playtest/graph/names.hpp"
#include "playtest/io/dot.hpp"
#include "playtest/report/html_report.hpp"

namespace playtest::cli {
namespace {

struct Options {
  InputOptions input;
  std::string start, dot, html, tour_out;
  std::optional<double> reset_cost;
  std::vector<std::string> reset_from;
  bool ignore_graph_reset = false, skip_uncoverable = false, random_segments = false, json = false;
  CoverReportOptions report;
};

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

int run(Options o) {
  const TestGraph g = load_input(o.input);
  PostmanOptions& t = o.report.cover.tour;
  if (!o.start.empty()) t.start = vertex_named(g, o.start, "the start vertex");
  t.reset_cost = o.reset_cost;
  t.ignore_graph_reset = o.ignore_graph_reset;
  for (const std::string& name : o.reset_from) t.reset_from.push_back(vertex_named(g, name, "a vertex to reset from"));
  t.on_uncoverable = o.skip_uncoverable ? UncoverablePolicy::skip : UncoverablePolicy::fail;
  o.report.cover.choice = o.random_segments ? SegmentChoice::random : SegmentChoice::prefer_uncovered;
  const CoverReport r = analyze_cover(g, o.report);
  if (!o.dot.empty()) write_tour_dot(g, r.tour(), o.dot, o.input.path);
  if (!o.tour_out.empty()) {
    Output out(o.tour_out);
    write_tour_lines(out.stream(), g, r.tour());
    out.close();
  }
  if (!o.html.empty()) {
    Output out(o.html);
    report::write_html_report(out.stream(), {.title = "playtest cover " + o.input.path,
                                             .tool_version = PLAYTEST_VERSION,
                                             .model = &g,
                                             .model_name = o.input.path,
                                             .cover = &r});
    out.close();
  }
  if (o.json) {
    nlohmann::json j = cover_json(g, r);
    j["file"] = o.input.path;
    print_json(j);
  } else {
    // A long tour is summarised on the terminal; --tour-out has every step.
    constexpr std::size_t shown_steps = 40;
    write_cover_text(std::cout, g, r, shown_steps);
    if (r.tour().steps.size() > shown_steps)
      fmt::print("             {}\n", o.tour_out.empty() ? std::string("(--tour-out FILE writes every step)")
                                                         : fmt::format("(every step is in {})", o.tour_out));
  }
  return exit_ok;
}

const Registration reg{
    "cover", 50, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* sub = app.add_subcommand("cover", "Chinese Postman tour and the edge-coverage strategy (seed 000 §5)");
      add_input_options(sub, o->input);
      sub->add_option("--start", o->start, "Vertex where the tour starts and ends (default: the initial vertex)");
      sub->add_option("--reset-cost", o->reset_cost,
                      "Allow resets to the initial vertex at this cost (default: the graph's reset cost, if any)");
      sub->add_option("--reset-from", o->reset_from, "Vertices that can reset (default: every active vertex)")
          ->expected(1, -1);
      sub->add_flag("--ignore-graph-reset", o->ignore_graph_reset, "Do not use the reset cost given in the graph");
      sub->add_flag("--skip-uncoverable", o->skip_uncoverable,
                    "Tour the coverable edges and list the others instead of failing");
      sub->add_flag("--random-segments", o->random_segments,
                    "Choose segments uniformly at random (the paper's Cover) instead of preferring uncovered edges");
      sub->add_option("--sim-runs", o->report.sim_runs, "Simulated runs for the convergence table (0: none)")
          ->default_val(1000);
      sub->add_option("--max-visits", o->report.max_visits,
                      "Rows of the convergence table: visits of choice points (default: 5 per segment, 10..200)");
      add_seed_option(sub, o->report.seed, "Seed of the simulation");
      sub->add_flag("--json", o->json, "Print the result as JSON");
      sub->add_option("--dot", o->dot, "Also write a Graphviz picture of the tour to this file");
      sub->add_option("--tour-out", o->tour_out,
                      "Write the whole tour here, one step a line (edge id, source, -label->, target); the terminal "
                      "shows its first 40 steps");
      sub->add_option("--report", o->html,
                      "Also write a self-contained HTML report here: the tour on the model and the simulated "
                      "convergence against the bound of Proposition 2");
      sub->footer(
          "Errors (exit 2): a graph without edges; edges that no closed walk through the start vertex can take\n"
          "(give --reset-cost, or --skip-uncoverable).");
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
