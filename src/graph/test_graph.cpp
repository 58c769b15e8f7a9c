#include "playtest/graph/test_graph.hpp"

namespace playtest {

std::optional<LabelId> TestGraph::find_label(std::string_view s) const {
  if (auto id = labels_.find(s)) return LabelId{*id};
  return std::nullopt;
}

EdgeId TestGraph::timeout_edge(VertexId v) const {
  for (EdgeId e : out_edges(v))
    if (is_timeout(e)) return e;
  return EdgeId::none();
}

EdgeId TestGraph::observe_edge(VertexId v) const {
  for (EdgeId e : out_edges(v))
    if (is_observe(e)) return e;
  return EdgeId::none();
}

std::vector<VertexId> TestGraph::goals() const {
  std::vector<VertexId> out;
  out.reserve(num_goals_);
  for (VertexId v : vertices())
    if (is_goal(v)) out.push_back(v);
  return out;
}

std::optional<VertexId> TestGraph::find_vertex(std::string_view name) const {
  if (auto id = vertex_names_.find(name)) return VertexId{*id};
  return std::nullopt;
}

std::optional<EdgeId> TestGraph::find_edge(std::string_view name) const {
  if (auto id = edge_names_.find(name)) return edge_of_explicit_name_[*id];
  // Default names "e<insertion index>" are not indexed.
  if (name.size() < 2 || name.size() > 11 || name[0] != 'e' || (name[1] == '0' && name.size() > 2)) return std::nullopt;
  std::uint64_t k = 0;
  for (char c : name.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    k = k * 10 + static_cast<std::uint64_t>(c - '0');
  }
  if (k >= num_edges()) return std::nullopt;
  // An empty edge_of_insertion_ means the builder got the edges grouped by source: the identity.
  const EdgeId e = edge_of_insertion_.empty() ? EdgeId{static_cast<std::uint32_t>(k)} : edge_of_insertion_[k];
  if (this->name(e) != name) return std::nullopt;
  return e;
}

std::string_view TestGraph::default_edge_name(std::uint32_t i) const {
  // "e<j>" for j = 0, 1, ... one after another: the name of i starts after i letters 'e' and the
  // digits of 0 .. i - 1.
  std::uint64_t digits_before = 0, lo = 0, hi = 10, d = 1;
  while (i > hi) {
    digits_before += (hi - lo) * d;
    lo = hi;
    hi *= 10;
    ++d;
  }
  digits_before += (i - lo) * d;
  const std::uint64_t width = i < hi ? d : d + 1;  // i == hi has one digit more
  return std::string_view(default_edge_names_).substr(i + digits_before, 1 + width);
}

std::size_t TestGraph::memory_bytes() const {
  auto bytes = [](const auto& v) { return v.capacity() * sizeof(typename std::decay_t<decltype(v)>::value_type); };
  return bytes(vflags_) + bytes(out_offsets_) + bytes(in_offsets_) + bytes(in_edges_) + bytes(source_) +
         bytes(target_) + bytes(cost_) + bytes(prob_) + bytes(label_) + bytes(edge_name_) +
         bytes(edge_of_explicit_name_) + bytes(edge_of_insertion_) + bytes(eflags_) + bytes(vtimeout_ms_) +
         bytes(edelay_ms_) + vertex_names_.memory_bytes() + edge_names_.memory_bytes() + labels_.memory_bytes() +
         meta_json_.capacity() + default_edge_names_.capacity();
}

}  // namespace playtest
