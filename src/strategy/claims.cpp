#include "playtest/strategy/claims.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_map>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

double rate_ruled_out(std::uint64_t visits, double confidence) {
  if (visits == 0) return 1.0;
  // 1 - (1 - c)^(1/n), computed as -expm1(log1p(-c) / n) so that it stays exact for large n.
  return -std::expm1(std::log1p(-confidence) / static_cast<double>(visits));
}

std::uint64_t visits_to_rule_out(double rate, double confidence) {
  if (!(rate > 0)) return std::numeric_limits<std::uint64_t>::max();
  if (rate >= 1) return 1;
  const double n = std::log1p(-confidence) / std::log1p(-rate);
  if (!(n < 1e18)) return std::numeric_limits<std::uint64_t>::max();
  auto k = static_cast<std::uint64_t>(std::ceil(n - 1e-9));
  if (k == 0) k = 1;
  while (k > 1 && rate_ruled_out(k - 1, confidence) <= rate) --k;  // rounding of the division
  while (rate_ruled_out(k, confidence) > rate) ++k;
  return k;
}

namespace {

// "1.7%", "0.25%", "12%": two significant digits.
std::string percent(double rate) {
  const double p = rate * 100;
  if (p >= 10) return fmt::format("{:.0f}%", p);
  if (p >= 1) return fmt::format("{:.1f}%", p);
  return fmt::format("{:.2g}%", p);
}

std::string histories_list(const GameGraph& g, const std::vector<HistoryVisits>& hs, bool with_counts) {
  std::string s;
  const std::size_t shown = std::min<std::size_t>(hs.size(), 4);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i) s += ", ";
    s += HistoryModel::describe(g, hs[i].history);
    s += with_counts ? fmt::format(" ({} time{})", hs[i].count, hs[i].count == 1 ? "" : "s")
                     : fmt::format(" ({} visit{})", hs[i].visits, hs[i].visits == 1 ? "" : "s");
  }
  if (hs.size() > shown) s += fmt::format(" and {} more", hs.size() - shown);
  return s;
}

// A confidence as people write it: "99.9%", never rounded up to 100%.
std::string confidence_percent(double c) { return fmt::format("{:.10g}%", c * 100); }

}  // namespace

std::string describe_claim(const GameGraph& g, const OutcomeClaim& c) {
  const std::string label(g.label(c.outcome));
  const std::string vertex = g.vertex_name(c.vertex);
  if (c.kind == OutcomeClaim::Kind::never_at_vertex && c.at_stop)
    return fmt::format("'{}' had not been seen at '{}' in the {} visit{} known when the run stopped, over {} histor{}: "
                       "a rate above {} was ruled out at {}",
                       label, vertex, c.visits, c.visits == 1 ? "" : "s", c.histories, c.histories == 1 ? "y" : "ies",
                       percent(c.rate), confidence_percent(c.confidence));
  if (c.kind == OutcomeClaim::Kind::never_at_vertex)
    return fmt::format("the system never chose '{}' at '{}': not seen in {} visit{} over {} histor{}: a rate above {} "
                       "is ruled out at {}",
                       label, vertex, c.visits, c.visits == 1 ? "" : "s", c.histories, c.histories == 1 ? "y" : "ies",
                       percent(c.rate), confidence_percent(c.confidence));
  return fmt::format(
      "the system never chose '{}' at '{}' in the histories {} tried ({}): not seen in {} visit{} there: a rate "
      "above {} in them is ruled out at {}; seen {} time{} after {}",
      label, vertex, histories_list(g, c.without, false), c.memory, c.visits, c.visits == 1 ? "" : "s",
      percent(c.rate), confidence_percent(c.confidence), c.seen, c.seen == 1 ? "" : "s", histories_list(g, c.with, true));
}

std::vector<OutcomeClaim> model_slack(const GameGraph& g, const Evidence& evidence, const HistoryModel* history,
                                      const ClaimOptions& o, std::uint64_t min_history_visits) {
  std::vector<OutcomeClaim> out;
  const auto contexts =
      evidence.max_context() > 0 ? evidence.num_contexts_by_vertex(1) : std::unordered_map<std::uint32_t, std::uint32_t>{};
  for (VertexId v : evidence.vertices()) {
    if (v.index() >= g.num_vertices() || !g.is_passive(v)) continue;
    const std::uint64_t visits = evidence.visits(v);
    const LearnedChoice* learned = history ? history->at(v) : nullptr;
    const auto c = contexts.find(v.value);
    const auto histories = static_cast<std::uint32_t>(
        learned ? learned->states.size() : (c != contexts.end() ? c->second : 1));
    for (EdgeId e : g.out_edges(v)) {
      const std::uint64_t seen = evidence.count(v, e);
      if (seen == 0) {
        out.push_back({.kind = OutcomeClaim::Kind::never_at_vertex,
                       .vertex = v,
                       .outcome = e,
                       .visits = visits,
                       .histories = std::max<std::uint32_t>(1, histories),
                       .rate = rate_ruled_out(visits, o.confidence),
                       .confidence = o.confidence,
                       .declared_prob = g.probability(e)});
        continue;
      }
      if (learned == nullptr) continue;
      OutcomeClaim c{.kind = OutcomeClaim::Kind::never_in_histories,
                     .vertex = v,
                     .outcome = e,
                     .confidence = o.confidence,
                     .declared_prob = g.probability(e),
                     .seen = 0,
                     .memory = history->memories[learned->memory].name};
      for (const LearnedChoice::State& s : learned->states) {
        const std::uint64_t k = s.count(e);
        if (k > 0) {
          c.with.push_back({s.history, s.visits, k});
          c.seen += k;
        } else if (s.visits >= min_history_visits) {
          c.without.push_back({s.history, s.visits, 0});
          c.visits += s.visits;
        }
      }
      if (c.without.empty()) continue;
      std::sort(c.with.begin(), c.with.end(), [](const auto& a, const auto& b) { return a.count > b.count; });
      std::sort(c.without.begin(), c.without.end(), [](const auto& a, const auto& b) { return a.visits > b.visits; });
      c.histories = static_cast<std::uint32_t>(c.without.size());
      c.rate = rate_ruled_out(c.visits, o.confidence);
      out.push_back(std::move(c));
    }
  }
  return out;
}

std::vector<SlackSummary> summarize_slack(const GameGraph& g, std::span<const OutcomeClaim> claims) {
  std::map<std::string, SlackSummary> by_label;
  for (const OutcomeClaim& c : claims) {
    if (c.kind != OutcomeClaim::Kind::never_at_vertex) continue;
    const bool silence = g.is_timeout(c.outcome);
    const std::string label = silence ? std::string("silence") : std::string(g.label(c.outcome));
    SlackSummary& s = by_label[label];
    s.label = label;
    ++s.vertices;
    s.visits += c.visits;
  }
  std::vector<SlackSummary> out;
  for (auto& [label, s] : by_label) out.push_back(std::move(s));
  std::stable_sort(out.begin(), out.end(), [](const SlackSummary& a, const SlackSummary& b) { return a.visits > b.visits; });
  return out;
}

bool every_history_offered(const GameGraph& g, const Evidence& evidence, VertexId v,
                           std::span<const std::uint32_t> edge_visits, std::uint64_t visits, std::uint32_t length) {
  if (evidence.visits(v) < visits) return false;
  const TestGraph* t = g.explored();
  if (t == nullptr || evidence.max_context() == 0) return true;
  auto taken = [&](EdgeId f) { return f.index() < edge_visits.size() && edge_visits[f.index()] > 0; };
  auto reached = [&](VertexId u) {
    if (u == t->initial()) return true;
    for (EdgeId f : t->in_edges(u))
      if (taken(f)) return true;
    return false;
  };
  // Contexts grow backwards from v: the last edge first. A context the run can offer: a path whose
  // edges it has all taken, or a single stimulus from a vertex it has reached.
  std::vector<EdgeId> context;  // most recent first while building
  bool ok = true;
  auto check = [&](auto&& self, VertexId at, std::uint32_t depth) -> void {
    if (!ok || depth == std::min(length, evidence.max_context())) return;
    for (EdgeId f : t->in_edges(at)) {
      const VertexId u = t->source(f);
      const bool offerable = taken(f) || (depth == 0 && t->is_active(u) && reached(u));
      if (!offerable) continue;
      context.push_back(f);
      std::vector<EdgeId> ordered(context.rbegin(), context.rend());
      if (evidence.visits(v, ordered) < visits) {
        ok = false;
      } else {
        self(self, u, depth + 1);
      }
      context.pop_back();
      if (!ok) return;
    }
  };
  check(check, v, 0);
  return ok;
}

bool is_futile(const GameGraph& g, const Evidence& evidence, VertexId v, EdgeId e,
               std::span<const std::uint32_t> edge_visits, const ClaimOptions& o) {
  if (evidence.count(v, e) != 0) return false;
  const std::uint64_t n = visits_to_rule_out(o.rare_rate, o.confidence);
  return every_history_offered(g, evidence, v, edge_visits, n, o.history_length);
}

namespace {

// Vertices reachable from `from` without taking a futile edge (marks into `seen`).
void reach(const GameGraph& g, VertexId from, std::span<const std::uint8_t> futile, std::vector<std::uint8_t>& seen,
           std::vector<VertexId>& stack) {
  if (seen[from.index()]) return;
  seen[from.index()] = 1;
  stack.push_back(from);
  while (!stack.empty()) {
    const VertexId u = stack.back();
    stack.pop_back();
    for (EdgeId e : g.out_edges(u)) {
      if (e.index() < futile.size() && futile[e.index()]) continue;
      const VertexId t = g.target(e);
      if (!seen[t.index()]) {
        seen[t.index()] = 1;
        stack.push_back(t);
      }
    }
  }
}

}  // namespace

FutilityVerdict check_futility(const GameGraph& g, const Evidence& evidence, VertexId current,
                               std::span<const std::uint8_t> futile, std::span<const std::uint8_t> wanted,
                               const ClaimOptions& o) {
  FutilityVerdict v;
  const std::uint32_t n = g.num_vertices();
  std::vector<std::uint8_t> seen(n, 0);
  std::vector<VertexId> stack;
  reach(g, current, futile, seen, stack);
  if (g.is_resettable()) reach(g, g.initial(), futile, seen, stack);
  bool any_testable = false, any_wanted = false;
  for (EdgeId e : g.edges()) {
    if (e.index() >= wanted.size() || !wanted[e.index()]) continue;
    any_wanted = true;
    const bool is_futile_edge = e.index() < futile.size() && futile[e.index()];
    if (seen[g.source(e).index()] && !is_futile_edge) {
      any_testable = true;
    } else {
      ++v.untestable;
    }
  }
  v.only_futile_left = any_wanted && !any_testable;
  if (!v.only_futile_left) return v;
  for (EdgeId s : g.edges()) {
    if (s.index() >= futile.size() || !futile[s.index()]) continue;
    const VertexId at = g.source(s);
    OutcomeClaim c{.kind = OutcomeClaim::Kind::never_at_vertex,
                   .vertex = at,
                   .outcome = s,
                   .visits = evidence.visits(at),
                   .histories = std::max<std::uint32_t>(1, evidence.max_context() > 0 ? evidence.num_contexts(at, 1) : 1),
                   .rate = rate_ruled_out(evidence.visits(at), o.confidence),
                   .confidence = o.confidence,
                   .declared_prob = g.probability(s),
                   .at_stop = true};
    std::vector<std::uint8_t> behind(n, 0);
    reach(g, g.target(s), futile, behind, stack);
    if (s.index() < wanted.size() && wanted[s.index()]) ++c.edges_behind;
    for (EdgeId e : g.edges())
      if (e.index() < wanted.size() && wanted[e.index()] && e != s && behind[g.source(e).index()] &&
          !seen[g.source(e).index()])
        ++c.edges_behind;
    v.futile.push_back(std::move(c));
  }
  return v;
}

}  // namespace playtest
