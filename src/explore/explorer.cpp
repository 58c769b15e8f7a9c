#include "playtest/explore/explorer.hpp"

#include <fmt/format.h>

#include <chrono>
#include <algorithm>
#include <unordered_map>

#include "playtest/graph/graph_builder.hpp"

namespace playtest {

const char* to_string(ExploreStatus s) {
  switch (s) {
    case ExploreStatus::complete: return "complete";
    case ExploreStatus::state_limit: return "state limit";
    case ExploreStatus::depth_limit: return "depth limit";
    case ExploreStatus::time_limit: return "time limit";
  }
  return "?";
}

ExploreResult explore(const Model& model, const ExploreOptions& options) {
  StateSpace space(model, options.projection);
  return explore(space, options);
}

ExploreResult explore(StateSpace& space, const ExploreOptions& options) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  ExploreResult r;
  constexpr std::uint32_t none = UINT32_MAX;
  std::vector<std::uint32_t> vertex_of_node;
  std::vector<NodeId> order;
  std::vector<std::uint32_t> depth;
  auto add = [&](NodeId n, std::uint32_t d) {
    if (vertex_of_node.size() <= n.index()) vertex_of_node.resize(std::max<std::size_t>(n.index() + 1, vertex_of_node.size() * 2), none);
    if (vertex_of_node[n.index()] != none) return;
    vertex_of_node[n.index()] = static_cast<std::uint32_t>(order.size());
    order.push_back(n);
    depth.push_back(d);
  };
  add(space.initial(), 0);
  std::size_t head = 0;
  bool depth_cut = false;
  std::vector<std::uint8_t> expanded;  // per vertex
  // The time budget covers building the graph too, which takes a fraction of the time the
  // expansion took (measured: docs/performance.md); stop expanding at 85% of it. The clock is read
  // every 16 expansions (an expansion of a model program takes microseconds).
  const double expand_seconds = options.max_seconds * 0.85;
  while (head < order.size()) {
    if (order.size() >= options.max_states) {
      r.status = ExploreStatus::state_limit;
      break;
    }
    if (options.max_seconds > 0 && (head & 15) == 0 &&
        std::chrono::duration<double>(clock::now() - t0).count() > expand_seconds) {
      r.status = ExploreStatus::time_limit;
      break;
    }
    if (options.on_progress && (head & 4095) == 0 && head > 0) options.on_progress(head, order.size());
    const NodeId n = order[head];
    const std::uint32_t d = depth[head];
    ++head;
    expanded.resize(head, 0);
    if (d >= options.max_depth) {
      // Kept as frontier unless it has no successors anyway.
      if (space.successors(n).empty()) expanded[head - 1] = 1;
      else depth_cut = true;
      continue;
    }
    for (const SpaceEdge& e : space.successors(n)) add(e.target, d + 1);
    expanded[head - 1] = 1;
  }
  expanded.resize(order.size(), 0);
  if (r.status == ExploreStatus::complete && depth_cut) r.status = ExploreStatus::depth_limit;
  for (std::size_t v = 0; v < order.size(); ++v) r.frontier += expanded[v] ? 0 : 1;
  r.depth = 0;
  for (std::size_t v = 0; v < order.size(); ++v) r.depth = std::max(r.depth, depth[v]);
  if (r.frontier == 0) r.status = ExploreStatus::complete;

  // Freeze into a TestGraph.
  GraphBuilder b;
  std::size_t num_edges = 0;
  for (std::size_t v = 0; v < order.size(); ++v)
    if (expanded[v]) num_edges += space.successors(order[v]).size();
  b.reserve(order.size(), num_edges);
  std::vector<std::uint32_t> number;  // per natural node: its sN number (numbered naming)
  std::uint32_t next_number = 1;
  auto number_of = [&](NodeId natural) {
    if (number.size() <= natural.index()) number.resize(std::max<std::size_t>(natural.index() + 1, number.size() * 2), 0);
    if (number[natural.index()] == 0) number[natural.index()] = next_number++;
    return number[natural.index()];
  };
  std::string name;
  std::vector<VertexId> vid(order.size());
  for (std::size_t v = 0; v < order.size(); ++v) {
    const NodeId n = order[v];
    const bool twin = space.is_twin(n);
    if (options.naming == VertexNaming::numbered) {
      // "s<number>" and "'" for a twin, without a formatting library per vertex.
      char buf[16];
      char* end = buf + sizeof buf;
      char* p = end;
      if (twin) *--p = '\'';
      for (std::uint32_t k = number_of(space.natural(n)); k != 0; k /= 10) *--p = static_cast<char>('0' + k % 10);
      *--p = 's';
      name.assign(p, end);
    } else {
      name = space.state_text(n);
      if (twin) name += "'";
    }
    const bool passive = expanded[v] && space.kind(n) == VertexKind::passive;
    // Names are distinct by construction (distinct natural states, twins marked with '), so the
    // builder need not look each one up; it still reports a duplicate (a C++ model whose state
    // texts collide) at build().
    vid[v] = b.add_unique_vertex(name, passive ? VertexKind::passive : VertexKind::active,
                                 expanded[v] && space.is_goal(n));
  }
  b.set_initial(vid[0]);
  b.set_reset_cost(space.model().reset_cost());
  // Label texts by key (label << 1 | kind), the timeout last: a flat table, as label ids are dense.
  std::vector<std::uint32_t> label_index;  // key -> 1 + index into label_texts, 0 = not yet
  std::vector<std::string> label_texts;
  std::unordered_map<std::uint64_t, std::uint32_t> large_keys;  // keys past the flat table
  constexpr std::uint64_t flat_limit = std::uint64_t{1} << 20;
  std::uint32_t timeout_label = 0;
  auto label_of = [&](const SpaceEdge& e) -> const std::string& {
    std::uint32_t* slot = &timeout_label;
    if (!e.timeout) {
      const std::uint64_t key = (std::uint64_t{e.label} << 1) | static_cast<std::uint64_t>(e.kind);
      if (key < flat_limit) {
        if (key >= label_index.size()) label_index.resize(std::max<std::uint64_t>(key + 1, 2 * label_index.size()), 0);
        slot = &label_index[key];
      } else {
        slot = &large_keys[key];
      }
    }
    if (*slot == 0) {
      label_texts.push_back(space.edge_label(e));
      *slot = static_cast<std::uint32_t>(label_texts.size());
    }
    return label_texts[*slot - 1];
  };
  const std::uint32_t ntraps = space.model().num_traps();
  std::vector<std::vector<std::uint32_t>> trap_insertions(ntraps);
  auto traps = space.edge_traps();
  for (std::size_t v = 0; v < order.size(); ++v) {
    if (!expanded[v]) continue;
    const bool passive = space.kind(order[v]) == VertexKind::passive;
    for (const SpaceEdge& e : space.successors(order[v])) {
      EdgeSpec spec{.from = vid[v], .to = vid[vertex_of_node[e.target.index()]], .label = label_of(e), .cost = e.cost};
      if (passive) spec.weight = e.probability;
      spec.timeout = e.timeout;
      const std::uint32_t ins = b.add_edge(spec);
      for (std::uint32_t k = e.trap_begin; k < e.trap_end; ++k)
        if (traps[k] < ntraps) trap_insertions[traps[k]].push_back(ins);
    }
  }
  std::vector<EdgeId> edge_of_insertion;
  r.graph = b.build({}, &edge_of_insertion);
  r.trap_names.reserve(ntraps);
  r.trap_edges.resize(ntraps);
  for (std::uint32_t t = 0; t < ntraps; ++t) {
    r.trap_names.push_back(space.model().trap_name(t));
    for (std::uint32_t ins : trap_insertions[t]) r.trap_edges[t].push_back(edge_of_insertion[ins]);
  }
  r.node_of_vertex = std::move(order);
  r.states = space.num_states();
  r.store_bytes = space.store_bytes();
  r.memory_bytes = space.memory_bytes();
  r.seconds = std::chrono::duration<double>(clock::now() - t0).count();
  switch (r.status) {
    case ExploreStatus::complete: break;
    case ExploreStatus::state_limit:
      r.message = fmt::format(
          "exploration stopped at the state limit ({} vertices): {} vertices are left unexplored and the graph is "
          "partial; raise the limit, bound the model's variables more tightly, or abstract the state",
          options.max_states, r.frontier);
      break;
    case ExploreStatus::depth_limit:
      r.message = fmt::format(
          "exploration stopped at the depth limit ({} steps from the initial state): {} vertices at that depth are "
          "left unexplored and the graph is partial",
          options.max_depth, r.frontier);
      break;
    case ExploreStatus::time_limit:
      r.message = fmt::format(
          "exploration stopped at the time limit ({} s) after {} vertices: {} are left unexplored and the graph is "
          "partial",
          options.max_seconds, r.graph.num_vertices(), r.frontier);
      break;
  }
  return r;
}

}  // namespace playtest
