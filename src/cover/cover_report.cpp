#include "playtest/cover/cover_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <span>

#include "playtest/graph/names.hpp"

namespace playtest {

CoverReport analyze_cover(const TestGraph& g, const CoverReportOptions& o) {
  CoverReport r;
  r.options = o;
  r.policy = std::make_unique<CoverPolicy>(g, o.cover);
  r.bound = cover_bound(g, r.segments());
  r.rounds_99 = r.bound.rounds_for(0.99);
  r.max_visits =
      o.max_visits ? o.max_visits : std::min<std::uint32_t>(200, std::max<std::uint32_t>(10, 5 * r.segments().count()));
  if (o.sim_runs > 0)
    r.table = simulate_coverage(g, *r.policy, {.runs = o.sim_runs, .max_visits = r.max_visits, .seed = o.seed});
  return r;
}

namespace {

std::string step_text(const TestGraph& g, const TourStep& s) {
  return s.is_reset() ? fmt::format("reset({})", g.name(s.from)) : std::string(g.name(s.edge));
}

nlohmann::json step_json(const TestGraph& g, const TourStep& s) {
  if (s.is_reset()) return {{"reset_from", std::string(g.name(s.from))}};
  return std::string(g.name(s.edge));
}

// Whether the walks of this tour read better by label: some of its edges have generated ids (that
// are not their labels too, as in seed 000 Figure 1 where edge e1 is labelled e1).
bool by_label(const TestGraph& g, const PostmanTour& tour) {
  for (const TourStep& s : tour.steps)
    if (!s.is_reset() && generated_edge_id(g.name(s.edge)) && g.name(s.edge) != g.label(s.edge)) return true;
  return false;
}

// At most `limit` steps of a walk (0: all): edge ids, or the path by labels.
std::string walk_text(const TestGraph& g, std::span<const TourStep> steps, bool labels, std::size_t limit) {
  const std::size_t n = limit == 0 ? steps.size() : std::min(steps.size(), limit);
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    const TourStep& s = steps[i];
    if (!labels) {
      out += (i ? " " : "") + step_text(g, s);
      continue;
    }
    if (i == 0) out += std::string(g.name(s.from));
    out += " " + (s.is_reset() ? std::string("=reset=>") : edge_step(g, s.edge)) + " " + std::string(g.name(s.to));
  }
  if (n < steps.size()) out += fmt::format(" ... ({} more)", steps.size() - n);
  return out;
}

const char* segment_choice_name(SegmentChoice c) { return c == SegmentChoice::random ? "random" : "prefer-uncovered"; }

}  // namespace

void write_cover_text(std::ostream& out, const TestGraph& g, const CoverReport& r, std::size_t max_tour_steps) {
  const PostmanTour& tour = r.tour();
  const TourSegments& segs = r.segments();
  const bool cut = max_tour_steps != 0 && tour.steps.size() > max_tour_steps;
  const bool labels = by_label(g, tour);
  const std::string line = walk_text(g, tour.steps, labels, max_tour_steps);
  out << fmt::format("tour:        {} steps from '{}': {}\n", tour.steps.size(), g.name(tour.start), line);
  out << fmt::format("cost:        {}\n", tour.cost);
  out << fmt::format("lower bound: {} (each edge once)\n", tour.lower_bound);
  if (tour.resets.enabled) out << fmt::format("resets:      {} of cost {}\n", tour.num_resets, tour.resets.cost);
  if (!tour.exact_costs)
    out << fmt::format("note:        costs were rounded for the flow; the tour is within {:.3g} of optimal\n",
                       tour.optimality_gap_bound);
  for (const UncoverableEdge& u : tour.uncoverable)
    out << fmt::format("uncoverable: {}\n", describe_uncoverable(g, tour.start, u));
  if (segs.cyclic) {
    out << "segments:    1 (no passive vertex on the tour: the tour itself, followed round and round)\n";
  } else {
    out << fmt::format("segments:    {}\n", segs.count());
    const std::uint32_t shown = cut ? std::min<std::uint32_t>(segs.count(), 20) : segs.count();
    for (std::uint32_t i = 0; i < shown; ++i) {
      const std::string s = walk_text(g, segs.segment(i), labels, cut ? 12 : 0);
      out << fmt::format("  T{:<4} {} -> {}: {}\n", i + 1, g.name(segs.first_vertex(i)), g.name(segs.last_vertex(i)),
                         s);
    }
    if (shown < segs.count()) out << fmt::format("  ... and {} more segments\n", segs.count() - shown);
  }
  const CoverBound& b = r.bound;
  if (b.computed) {
    out << fmt::format(
        "bound:       n = {}, p = min p_i,v = {:.6g}: Cover(v, m n) covers every edge with probability "
        ">= 1 - n (1 - p)^m",
        b.num_segments, b.p);
    if (r.rounds_99) out << fmt::format("; >= 0.99 from m = {}", *r.rounds_99);
    out << '\n';
  } else {
    out << fmt::format("bound:       not computed ({} segments is too many for the exact p)\n", b.num_segments);
  }
  if (r.options.sim_runs > 0) {
    out << fmt::format("convergence: {} simulated runs (seed {}, {} segment choice); k = visits of choice points\n",
                       r.options.sim_runs, r.options.seed, segment_choice_name(r.options.cover.choice));
    out << fmt::format("  {:>5}  {:>9}  {:>17}  {:>8}\n", "k", "P(all)", "95% interval", "bound");
    for (const ConvergenceRow& row : r.table.rows)
      out << fmt::format("  {:>5}  {:>9.4f}  [{:.4f}, {:.4f}]  {:>8.4f}\n", row.visits, row.estimate, row.low, row.high,
                         b.bound_after_visits(row.visits));
  }
}

nlohmann::json cover_json(const TestGraph& g, const CoverReport& r) {
  const PostmanTour& tour = r.tour();
  const TourSegments& segs = r.segments();
  const CoverBound& b = r.bound;
  nlohmann::json j;
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
  const nlohmann::json p = b.computed ? nlohmann::json(b.p) : nlohmann::json(nullptr);
  j["p"] = p;
  j["bound"] = {{"n", b.num_segments},
                {"p", p},
                {"formula", "1 - n (1 - p)^m after m n iterations of Cover"},
                {"m_for_0.99", r.rounds_99 ? nlohmann::json(*r.rounds_99) : nlohmann::json(nullptr)}};
  nlohmann::json cj = nlohmann::json::array();
  for (const ConvergenceRow& row : r.table.rows)
    cj.push_back({{"visits", row.visits},
                  {"covered_runs", row.covered_runs},
                  {"estimate", row.estimate},
                  {"low", row.low},
                  {"high", row.high},
                  {"bound", b.bound_after_visits(row.visits)}});
  j["convergence"] = std::move(cj);
  j["simulation"] = {{"runs", r.options.sim_runs},
                     {"max_visits", r.max_visits},
                     {"seed", r.options.seed},
                     {"segment_choice", segment_choice_name(r.options.cover.choice)},
                     {"confidence", 0.95}};
  nlohmann::json uj = nlohmann::json::array();
  for (const UncoverableEdge& u : tour.uncoverable)
    uj.push_back({{"edge", std::string(g.name(u.edge))},
                  {"from", std::string(g.name(g.source(u.edge)))},
                  {"to", std::string(g.name(g.target(u.edge)))},
                  {"unreachable", u.unreachable},
                  {"cannot_return", u.cannot_return}});
  j["uncoverable"] = std::move(uj);
  return j;
}

void write_tour_lines(std::ostream& out, const TestGraph& g, const PostmanTour& tour) {
  for (const TourStep& s : tour.steps)
    out << (s.is_reset()
                ? fmt::format("reset {} -> {}", g.name(s.from), g.name(s.to))
                : fmt::format("{} {} {} {}", g.name(s.edge), g.name(s.from), edge_step(g, s.edge), g.name(s.to)))
        << '\n';
}

}  // namespace playtest
