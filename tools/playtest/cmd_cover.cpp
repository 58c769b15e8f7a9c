// playtest cover FILE: the Chinese Postman tour of a test graph, cut into the segments of the cover
// strategy (seed 000 §5), the bound of Proposition 2 and a simulated convergence table.
#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>

#include "command.hpp"
#include "common.hpp"
#include "playtest/cover/cover_convergence.hpp"
#include "playtest/cover/cover_policy.hpp"
#include "playtest/error.hpp"
#include "playtest/graph/names.hpp"
#include "playtest/io/dot.hpp"
#include "playtest/report/html_report.hpp"
#include "playtest/report/text.hpp"

namespace playtest::cli {
namespace {

struct Options {
  InputOptions input;
  std::string start;
  std::optional<double> reset_cost;
  std::vector<std::string> reset_from;
  bool ignore_graph_reset = false;
  bool skip_uncoverable = false;
  bool random_segments = false;
  std::uint32_t sim_runs = 1000;
  std::uint32_t max_visits = 0;
  std::uint64_t seed = 1;
  bool json = false;
  std::string dot, report, tour_out;
};

std::string step_text(const TestGraph& g, const TourStep& s) {
  return s.is_reset() ? fmt::format("reset({})", g.name(s.from)) : std::string(g.name(s.edge));
}

// A walk as text: edge ids when the model named its edges ("e1 e5 e7"), else the path by labels
// ("s1 -a-> s3 -b-> s4"), since generated ids ("e12") say nothing; at most `limit` steps.
std::string walk_text(const TestGraph& g, std::span<const TourStep> steps, bool by_label, std::size_t limit) {
  std::string out;
  const std::size_t n = std::min(steps.size(), limit);
  for (std::size_t i = 0; i < n; ++i) {
    const TourStep& s = steps[i];
    if (!by_label) {
      out += (i ? " " : "") + step_text(g, s);
      continue;
    }
    if (i == 0) out += std::string(g.name(s.from));
    out += " " + (s.is_reset() ? std::string("=reset=>") : report::edge_step(g, s.edge)) + " " + std::string(g.name(s.to));
  }
  if (steps.size() > n) out += fmt::format(" ... ({} more)", steps.size() - n);
  return out;
}

constexpr std::size_t shown_tour_steps = 40;  // longer tours are cut on the terminal (--tour-out has all)
constexpr std::uint32_t shown_segments = 20;

nlohmann::json step_json(const TestGraph& g, const TourStep& s) {
  if (s.is_reset()) return {{"reset_from", std::string(g.name(s.from))}};
  return std::string(g.name(s.edge));
}

// The least m with 1 - n(1-p)^m >= target, when there is one.
std::optional<std::uint64_t> rounds_for(const CoverBound& b, double target) {
  if (!b.computed || b.p <= 0) return std::nullopt;
  if (b.p >= 1) return 1;
  const double m = std::ceil(std::log((1 - target) / b.num_segments) / std::log(1 - b.p));
  return static_cast<std::uint64_t>(std::max(1.0, m));
}

int run(const Options& o) {
  TestGraph g = load_input(o.input);
  CoverOptions copts;
  if (!o.start.empty()) copts.tour.start = vertex_named(g, o.start, "the start vertex");
  if (o.reset_cost && (!std::isfinite(*o.reset_cost) || *o.reset_cost < 0))
    throw Error(fmt::format("--reset-cost: must be finite and >= 0, got {}", *o.reset_cost));
  copts.tour.reset_cost = o.reset_cost;
  copts.tour.ignore_graph_reset = o.ignore_graph_reset;
  for (const std::string& name : o.reset_from) {
    VertexId v = vertex_named(g, name, "a vertex to reset from");
    if (g.is_passive(v))
      throw Error(fmt::format("--reset-from: vertex '{}' is passive; a reset is the tester's move, so only active "
                              "vertices can reset", name));
    copts.tour.reset_from.push_back(v);
  }
  if (!o.reset_from.empty() && !o.reset_cost && (o.ignore_graph_reset || !g.is_resettable()))
    throw Error("--reset-from: needs --reset-cost (the graph has no reset cost of its own)");
  copts.tour.on_uncoverable = o.skip_uncoverable ? UncoverablePolicy::skip : UncoverablePolicy::fail;
  copts.choice = o.random_segments ? SegmentChoice::random : SegmentChoice::prefer_uncovered;

  CoverPolicy policy(g, copts);
  const PostmanTour& tour = policy.tour();
  const TourSegments& segs = policy.segments();
  const CoverBound bound = cover_bound(g, segs);
  const std::uint32_t K = o.max_visits ? o.max_visits : std::min<std::uint32_t>(200, std::max<std::uint32_t>(10, 5 * segs.count()));
  ConvergenceTable table;
  if (o.sim_runs > 0) table = simulate_coverage(g, policy, {.runs = o.sim_runs, .max_visits = K, .seed = o.seed});

  if (!o.dot.empty()) {
    std::vector<std::uint8_t> on_tour(g.num_vertices(), 0);
    for (const TourStep& s : tour.steps) on_tour[s.from.index()] = 1;
    Output out(o.dot);
    write_dot(g, out.stream(),
              {.title = fmt::format("{}: Chinese Postman tour of cost {} (lower bound {}); bold edges are taken more "
                                    "than once, grey vertices are off the tour",
                                    o.input.path, tour.cost, tour.lower_bound),
               .highlight_edge = [&](EdgeId e) { return tour.multiplicity[e.index()] > 1; },
               .vertex_note = {},
               .dim_vertex = [&](VertexId v) { return !on_tour[v.index()]; }});
    out.close();
  }

  if (!o.report.empty()) {
    report::CoverSection section{.tour = tour, .segments = segs, .bound = bound, .seed = o.seed,
                                 .segment_choice = o.random_segments ? "random" : "prefer-uncovered"};
    if (o.sim_runs > 0) section.convergence = table;
    report::Report rep{.title = "playtest cover " + o.input.path, .tool_version = PLAYTEST_VERSION, .model = &g,
                       .model_name = o.input.path, .cover = std::move(section)};
    Output file(o.report);
    report::write_html_report(file.stream(), rep);
    file.close();
  }

  const auto m99 = rounds_for(bound, 0.99);
  if (o.json) {
    nlohmann::json j;
    j["file"] = o.input.path;
    j["start"] = std::string(g.name(tour.start));
    nlohmann::json steps = nlohmann::json::array();
    for (const TourStep& s : tour.steps) steps.push_back(step_json(g, s));
    j["tour"] = std::move(steps);
    j["cost"] = tour.cost;
    j["lower_bound"] = tour.lower_bound;
    j["resets"] = tour.num_resets;
    j["reset_cost"] = tour.resets.enabled ? nlohmann::json(tour.resets.cost) : nlohmann::json(nullptr);
    j["exact_costs"] = tour.exact_costs;
    j["optimality_gap_bound"] = tour.optimality_gap_bound;
    nlohmann::json sj = nlohmann::json::array();
    for (std::uint32_t i = 0; i < segs.count(); ++i) {
      nlohmann::json one = nlohmann::json::array();
      for (const TourStep& s : segs.segment(i)) one.push_back(step_json(g, s));
      sj.push_back(std::move(one));
    }
    j["segments"] = std::move(sj);
    j["cyclic"] = segs.cyclic;
    j["p"] = bound.computed ? nlohmann::json(bound.p) : nlohmann::json(nullptr);
    j["bound"] = {{"n", bound.num_segments},
                  {"p", bound.computed ? nlohmann::json(bound.p) : nlohmann::json(nullptr)},
                  {"formula", "1 - n (1 - p)^m after m n iterations of Cover"},
                  {"m_for_0.99", m99 ? nlohmann::json(*m99) : nlohmann::json(nullptr)}};
    nlohmann::json cj = nlohmann::json::array();
    for (const ConvergenceRow& r : table.rows)
      cj.push_back({{"visits", r.visits},
                    {"covered_runs", r.covered_runs},
                    {"estimate", r.estimate},
                    {"low", r.low},
                    {"high", r.high},
                    {"bound", bound.bound_after_visits(r.visits)}});
    j["convergence"] = std::move(cj);
    j["simulation"] = {{"runs", o.sim_runs}, {"max_visits", K}, {"seed", o.seed},
                       {"segment_choice", o.random_segments ? "random" : "prefer-uncovered"}, {"confidence", 0.95}};
    nlohmann::json uj = nlohmann::json::array();
    for (const UncoverableEdge& u : tour.uncoverable)
      uj.push_back({{"edge", std::string(g.name(u.edge))},
                    {"from", std::string(g.name(g.source(u.edge)))},
                    {"to", std::string(g.name(g.target(u.edge)))},
                    {"unreachable", u.unreachable},
                    {"cannot_return", u.cannot_return}});
    j["uncoverable"] = std::move(uj);
    fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
    return exit_ok;
  }

  bool by_label = false;
  for (const TourStep& s : tour.steps) by_label = by_label || (!s.is_reset() && report::generated_edge_id(g.name(s.edge)));
  if (!o.tour_out.empty()) {
    Output out(o.tour_out);
    for (const TourStep& s : tour.steps)
      out.stream() << (s.is_reset() ? fmt::format("reset {} -> {}", g.name(s.from), g.name(s.to))
                                    : fmt::format("{} {} {} {}", g.name(s.edge), g.name(s.from), report::edge_step(g, s.edge),
                                                  g.name(s.to)))
                   << '\n';
    out.close();
  }
  fmt::print("tour:        {} steps from '{}': {}\n", tour.steps.size(), g.name(tour.start),
             walk_text(g, tour.steps, by_label, shown_tour_steps));
  if (tour.steps.size() > shown_tour_steps)
    fmt::print("             {}\n", o.tour_out.empty() ? std::string("(--tour-out FILE writes every step)")
                                                        : fmt::format("(every step is in {})", o.tour_out));
  fmt::print("cost:        {}\n", tour.cost);
  fmt::print("lower bound: {} (each edge once)\n", tour.lower_bound);
  if (tour.resets.enabled) fmt::print("resets:      {} of cost {}\n", tour.num_resets, tour.resets.cost);
  if (!tour.exact_costs)
    fmt::print("note:        costs were rounded for the flow; the tour is within {:.3g} of optimal\n",
               tour.optimality_gap_bound);
  for (const UncoverableEdge& u : tour.uncoverable) fmt::print("uncoverable: {}\n", describe_uncoverable(g, tour.start, u));
  if (segs.cyclic) {
    fmt::print("segments:    1 (no passive vertex on the tour: the tour itself, followed round and round)\n");
  } else {
    fmt::print("segments:    {}\n", segs.count());
    for (std::uint32_t i = 0; i < segs.count() && i < shown_segments; ++i)
      fmt::print("  T{:<4} {} -> {}: {}\n", i + 1, g.name(segs.first_vertex(i)), g.name(segs.last_vertex(i)),
                 walk_text(g, segs.segment(i), by_label, 12));
    if (segs.count() > shown_segments) fmt::print("  ... ({} more segments)\n", segs.count() - shown_segments);
  }
  if (bound.computed) {
    fmt::print("bound:       n = {}, p = min p_i,v = {:.6g}: Cover(v, m n) covers every edge with probability >= "
               "1 - n (1 - p)^m",
               bound.num_segments, bound.p);
    if (m99) fmt::print("; >= 0.99 from m = {}", *m99);
    fmt::print("\n");
  } else {
    fmt::print("bound:       not computed ({} segments is too many for the exact p)\n", bound.num_segments);
  }
  if (o.sim_runs > 0) {
    fmt::print("convergence: {} simulated runs (seed {}, {} segment choice); k = visits of choice points\n", o.sim_runs,
               o.seed, o.random_segments ? "random" : "prefer-uncovered");
    fmt::print("  {:>5}  {:>9}  {:>17}  {:>8}\n", "k", "P(all)", "95% interval", "bound");
    for (const ConvergenceRow& r : table.rows)
      fmt::print("  {:>5}  {:>9.4f}  [{:.4f}, {:.4f}]  {:>8.4f}\n", r.visits, r.estimate, r.low, r.high,
                 bound.bound_after_visits(r.visits));
  }
  return exit_ok;
}

const Registration reg{"cover", 50, [](CLI::App& app) {
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
  sub->add_option("--sim-runs", o->sim_runs, "Simulated runs for the convergence table (0: none)")->default_val(1000);
  sub->add_option("--max-visits", o->max_visits,
                  "Rows of the convergence table: visits of choice points (default: 5 per segment, 10..200)");
  sub->add_option("--seed", o->seed, "Seed of the simulation")->default_val(1);
  sub->add_flag("--json", o->json, "Print the result as JSON");
  sub->add_option("--dot", o->dot, "Also write a Graphviz picture of the tour to this file");
  sub->add_option("--tour-out", o->tour_out,
                  "Write the whole tour here, one step per line (edge id, source, -label->, target); the terminal "
                  "shows the first 40 steps");
  sub->add_option("--report", o->report,
                  "Also write a self-contained HTML report here: the tour on the model and the simulated convergence "
                  "against the bound of Proposition 2");
  sub->footer("Errors (exit 2): a graph without edges; edges that no closed walk through the start vertex can take\n"
              "(give --reset-cost, or --skip-uncoverable).");
  return [o] { return run(*o); };
}};

}  // namespace
}  // namespace playtest::cli
