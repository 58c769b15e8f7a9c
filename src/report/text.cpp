#include "playtest/report/text.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace playtest::report {

bool generated_edge_id(std::string_view id) {
  if (id.size() < 2 || id[0] != 'e') return false;
  for (char c : id.substr(1))
    if (c < '0' || c > '9') return false;
  return true;
}

std::string edge_step(const TestGraph& g, EdgeId e) {
  const std::string_view id = g.name(e), label = g.label(e);
  std::string text = label.empty() ? (g.is_timeout(e) ? std::string("(timeout)") : std::string("(no label)"))
                                   : std::string(label);
  if (!generated_edge_id(id) && id != label) text = fmt::format("{}:{}", id, text);
  return "-" + text + "->";
}

std::vector<EdgeId> uncovered_purpose_edges(const TestGraph& g, const TestPurpose& p,
                                            std::span<const std::uint32_t> visits) {
  std::vector<EdgeId> out;
  if (p.kind != TestPurpose::Kind::cover) return out;
  auto missed = [&](EdgeId e) { return e.index() >= visits.size() || visits[e.index()] == 0; };
  if (p.edges.empty()) {
    for (EdgeId e : g.edges())
      if (missed(e)) out.push_back(e);
  } else {
    for (EdgeId e : p.edges)
      if (missed(e) && std::find(out.begin(), out.end(), e) == out.end()) out.push_back(e);
  }
  return out;
}

std::string describe_edge(const TestGraph& g, EdgeId e) {
  const std::string_view id = g.name(e), label = g.label(e);
  std::string head = label.empty() ? (g.is_timeout(e) ? std::string("(timeout)") : std::string("(no label)"))
                                   : std::string(label);
  if (!generated_edge_id(id) && id != label) head = fmt::format("{}: {}", id, head);
  return fmt::format("{} ({} -> {})", head, g.name(g.source(e)), g.name(g.target(e)));
}

std::string describe_edges(const TestGraph& g, std::span<const EdgeId> edges, std::size_t max_named) {
  std::string out;
  for (std::size_t i = 0; i < edges.size() && i < max_named; ++i) out += (i ? ", " : "") + describe_edge(g, edges[i]);
  if (edges.size() > max_named) out += fmt::format(" and {} more", edges.size() - max_named);
  return out;
}

std::string describe_purpose(const TestGraph& g, const TestPurpose& p, std::size_t max_named) {
  switch (p.kind) {
    case TestPurpose::Kind::none: return "none (run the budget)";
    case TestPurpose::Kind::reach: {
      const std::vector<VertexId> goals = p.goals.empty() ? g.goals() : p.goals;
      if (goals.size() == 1) return fmt::format("reach {}", g.name(goals[0]));
      std::string names;
      for (std::size_t i = 0; i < goals.size() && i < max_named; ++i) names += (i ? ", " : "") + std::string(g.name(goals[i]));
      if (goals.size() > max_named) names += fmt::format(" and {} more", goals.size() - max_named);
      return fmt::format("reach one of {{{}}}", names);
    }
    case TestPurpose::Kind::cover:
      if (p.edges.empty()) return fmt::format("cover all {} edges", g.num_edges());
      return fmt::format("cover {} edge{}: {}", p.edges.size(), p.edges.size() == 1 ? "" : "s",
                         describe_edges(g, p.edges, max_named));
  }
  return "?";
}

}  // namespace playtest::report
