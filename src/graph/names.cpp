#include "playtest/graph/names.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "playtest/base/error.hpp"

namespace playtest {

namespace {

// Edit distance with an early cut (names are short; only the few closest matter).
std::size_t distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0u : 1u)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<std::string> closest_vertex_names(const TestGraph& g, std::string_view name) {
  constexpr std::uint32_t max_scanned = 100000;  // large graphs: do not spend seconds on a hint
  std::vector<std::pair<std::size_t, std::string_view>> scored;
  std::uint32_t n = std::min(g.num_vertices(), max_scanned);
  for (std::uint32_t i = 0; i < n; ++i) {
    std::string_view v = g.name(VertexId{i});
    const std::size_t limit = std::max<std::size_t>(2, name.size() / 3);  // further is not a typo
    if (v.size() > name.size() + limit || name.size() > v.size() + limit) continue;
    if (std::size_t d = distance(name, v); d <= limit) scored.emplace_back(d, v);
  }
  std::size_t keep = std::min<std::size_t>(5, scored.size());
  std::partial_sort(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(keep), scored.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < keep; ++i) out.emplace_back(scored[i].second);
  return out;
}

}  // namespace

std::optional<std::uint32_t> short_vertex_index(std::string_view name) {
  if (name.size() < 2 || name.size() > 11 || name[0] != 'v') return std::nullopt;
  std::uint64_t n = 0;
  for (char c : name.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (n > UINT32_MAX || (name.size() > 2 && name[1] == '0')) return std::nullopt;
  return static_cast<std::uint32_t>(n);
}

VertexId vertex_named(const TestGraph& g, std::string_view name, std::string_view role) {
  if (auto v = g.find_vertex(name)) return *v;
  // The short name a report's picture gives a vertex ("v12": the vertex with index 12).
  if (const auto i = short_vertex_index(name); i && *i < g.num_vertices()) return VertexId{*i};
  std::vector<std::string> notes;
  auto close = closest_vertex_names(g, name);
  if (!close.empty()) {
    std::string list;
    for (const auto& c : close) list += (list.empty() ? "'" : ", '") + c + "'";
    notes.push_back("vertices with similar ids: " + list);
  }
  throw GraphError(
      Diagnostic{{}, fmt::format("no vertex '{}' in the graph (given as {})", name, role), std::move(notes)});
}

std::vector<EdgeId> edges_named(const TestGraph& g, std::string_view name, std::string_view role) {
  if (auto e = g.find_edge(name)) return {*e};
  std::vector<EdgeId> out;
  if (auto l = g.find_label(name)) {
    for (EdgeId e : g.edges())
      if (g.label_id(e) == *l) out.push_back(e);
  }
  if (out.empty())
    throw GraphError(
        Diagnostic{{}, fmt::format("no edge with id or label '{}' in the graph (given as {})", name, role), {}});
  return out;
}

std::string describe_edge(const TestGraph& g, EdgeId e) {
  return fmt::format("{} --{}--> {}", g.name(g.source(e)), g.label(e), g.name(g.target(e)));
}

bool generated_edge_id(std::string_view id) {
  if (id.size() < 2 || id[0] != 'e') return false;
  for (char c : id.substr(1))
    if (c < '0' || c > '9') return false;
  return true;
}

std::string edge_step(const TestGraph& g, EdgeId e) {
  const std::string_view id = g.name(e), label = g.label(e);
  std::string text(label);
  if (text.empty()) text = g.is_timeout(e) ? "(timeout)" : "(no label)";
  if (!generated_edge_id(id) && id != label) text = fmt::format("{}:{}", id, text);
  return "-" + text + "->";
}

}  // namespace playtest
