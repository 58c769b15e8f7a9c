#include "playtest/explore/explorer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <unordered_map>

#include "playtest/graph/graph_builder.hpp"

namespace playtest {

const char* to_string(ExploreStatus s) {
  switch (s) {
    case ExploreStatus::complete:
      return "complete";
    case ExploreStatus::state_limit:
      return "state limit";
    case ExploreStatus::depth_limit:
      return "depth limit";
    case ExploreStatus::time_limit:
      return "time limit";
  }
  return "?";
}

namespace {

constexpr std::uint32_t no_vertex = UINT32_MAX;

// CPU time of the calling thread (the exploration is single-threaded).
double thread_cpu_seconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

struct Frozen {
  TestGraph graph;
  std::vector<std::string> trap_names;
  std::vector<std::vector<EdgeId>> trap_edges;
};

// The test graph of what was found: vertices in breadth-first order, the expanded ones with their
// successors, the others as active dead ends.
Frozen freeze(StateSpace& space, const std::vector<NodeId>& order, const std::vector<std::uint8_t>& expanded,
              const std::vector<std::uint32_t>& vertex_of_node, VertexNaming naming) {
  Frozen f;
  GraphBuilder b;
  std::size_t num_edges = 0;
  for (std::size_t v = 0; v < order.size(); ++v)
    if (expanded[v]) num_edges += space.successors(order[v]).size();
  b.reserve(order.size(), num_edges);
  std::vector<std::uint32_t> number;  // per natural node: its sN number (numbered naming)
  std::uint32_t next_number = 1;
  auto number_of = [&](NodeId natural) {
    if (number.size() <= natural.index())
      number.resize(std::max<std::size_t>(natural.index() + 1, number.size() * 2), 0);
    if (number[natural.index()] == 0) number[natural.index()] = next_number++;
    return number[natural.index()];
  };
  std::string name;
  std::vector<VertexId> vid(order.size());
  for (std::size_t v = 0; v < order.size(); ++v) {
    const NodeId n = order[v];
    const bool twin = space.is_twin(n);
    const bool companion = space.is_companion(n);
    if (naming == VertexNaming::numbered) {
      // "s<number>" and "'" for a twin, "!" for a companion, without a formatting library per vertex.
      char buf[16];
      char* end = buf + sizeof buf;
      char* p = end;
      if (twin) *--p = '\'';
      if (companion) *--p = '!';
      for (std::uint32_t k = number_of(space.natural(n)); k != 0; k /= 10) *--p = static_cast<char>('0' + k % 10);
      *--p = 's';
      name.assign(p, end);
    } else {
      name = space.state_text(n);
      if (twin) name += "'";
      if (companion) name += "!";
    }
    const bool passive = expanded[v] && space.kind(n) == VertexKind::passive;
    // Names are distinct by construction (distinct natural states, twins marked with '), so the
    // builder need not look each one up; it still reports a duplicate (a C++ model whose state
    // texts collide) at build().
    vid[v] =
        b.add_unique_vertex(name, passive ? VertexKind::passive : VertexKind::active, expanded[v] && space.is_goal(n));
    if (passive && space.timeout_ms(n) != 0) b.set_timeout_ms(vid[v], space.timeout_ms(n));
  }
  b.set_initial(vid[0]);
  b.set_reset_cost(space.model().reset_cost());
  // Label texts by key (label << 1 | kind), the timeout and the observe edges apart: a flat table, as
  // label ids are dense.
  std::vector<std::uint32_t> label_index;  // key -> 1 + index into label_texts, 0 = not yet
  std::vector<std::string> label_texts;
  std::unordered_map<std::uint64_t, std::uint32_t> large_keys;  // keys past the flat table
  constexpr std::uint64_t flat_limit = std::uint64_t{1} << 20;
  std::uint32_t timeout_label = 0, observe_label = 0;
  auto label_of = [&](const SpaceEdge& e) -> const std::string& {
    std::uint32_t* slot = e.observe ? &observe_label : &timeout_label;
    if (!e.timeout && !e.observe) {
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
      spec.observe = e.observe;
      spec.delay_ms = e.delay_ms;
      const std::uint32_t ins = b.add_edge(spec);
      for (std::uint32_t k = e.trap_begin; k < e.trap_end; ++k)
        if (traps[k] < ntraps) trap_insertions[traps[k]].push_back(ins);
    }
  }
  // The model's traps as the graph's declared traps (meta.traps, strategy/traps.hpp), so that
  // `--traps model` selects them on the explored graph and `explore -o` keeps them. An edge is named
  // e<insertion index> by the builder, so the names are known before the graph is built.
  if (ntraps > 0) {
    std::vector<std::uint32_t> hit;
    for (const auto& t : trap_insertions) hit.insert(hit.end(), t.begin(), t.end());
    std::sort(hit.begin(), hit.end());
    hit.erase(std::unique(hit.begin(), hit.end()), hit.end());
    std::string meta = "{\"traps\":[";
    for (std::size_t i = 0; i < hit.size(); ++i) meta += fmt::format("{}\"id:e{}\"", i ? "," : "", hit[i]);
    b.set_meta_json(meta + "]}");
  }
  std::vector<EdgeId> edge_of_insertion;
  f.graph = b.build({}, &edge_of_insertion);
  f.trap_names.reserve(ntraps);
  f.trap_edges.resize(ntraps);
  for (std::uint32_t t = 0; t < ntraps; ++t) {
    f.trap_names.push_back(space.model().trap_name(t));
    for (std::uint32_t ins : trap_insertions[t]) f.trap_edges[t].push_back(edge_of_insertion[ins]);
  }
  return f;
}

}  // namespace

ExploreResult explore(const Model& model, const ExploreOptions& options) {
  StateSpace space(model, options.projection);
  return explore(space, options);
}

ExploreResult explore(StateSpace& space, const ExploreOptions& options) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  ExploreResult r;
  constexpr std::uint32_t none = no_vertex;
  std::vector<std::uint32_t> vertex_of_node;
  std::vector<NodeId> order;
  std::vector<std::uint32_t> depth;
  auto add = [&](NodeId n, std::uint32_t d) {
    if (vertex_of_node.size() <= n.index())
      vertex_of_node.resize(std::max<std::size_t>(n.index() + 1, vertex_of_node.size() * 2), none);
    if (vertex_of_node[n.index()] != none) return;
    vertex_of_node[n.index()] = static_cast<std::uint32_t>(order.size());
    order.push_back(n);
    depth.push_back(d);
  };
  add(space.initial(), 0);
  std::size_t head = 0;
  bool depth_cut = false;
  std::vector<std::uint8_t> expanded;  // per vertex
  // The time budget covers building the graph of what was found too, which takes a model-dependent
  // fraction of the time the expansion took (about half for counter.ptm, docs/performance.md).
  // Once a sixteenth of the budget is spent, the graph of what was found so far is built once and
  // thrown away to measure that fraction (in CPU time of this thread, so that other processes on a
  // loaded machine do not skew it); the expansion then stops when the wall time spent plus the
  // projected building (the expansion's wall time times that fraction, a tenth more for safety)
  // reaches 98% of the budget. The clock is read every 16 expansions (an expansion of a model
  // program takes microseconds).
  const bool timed = options.max_seconds > 0;
  const double cpu_start = thread_cpu_seconds();
  double build_ratio = 1.0;  // building time per second of expansion, until measured
  double calibration_seconds = 0;
  bool calibrated = false;
  auto seconds_since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
  while (head < order.size()) {
    if (order.size() >= options.max_states) {
      r.status = ExploreStatus::state_limit;
      break;
    }
    if (timed && (head & 15) == 0) {
      const double elapsed = seconds_since(t0);
      if (!calibrated && head >= 1024 && elapsed >= options.max_seconds / 16) {
        const auto c0 = clock::now();
        const double cpu0 = thread_cpu_seconds();
        std::vector<std::uint8_t> so_far = expanded;
        so_far.resize(order.size(), 0);
        (void)freeze(space, order, so_far, vertex_of_node, options.naming);
        const double cpu1 = thread_cpu_seconds();
        calibration_seconds = seconds_since(c0);
        build_ratio = (cpu1 - cpu0) / std::max(cpu0 - cpu_start, 1e-6);
        calibrated = true;
      }
      const double expanding = seconds_since(t0) - calibration_seconds;
      if (seconds_since(t0) + expanding * build_ratio * 1.1 >= options.max_seconds * 0.98) {
        r.status = ExploreStatus::time_limit;
        break;
      }
    }
    if (options.on_progress && (head & 4095) == 0 && head > 0) options.on_progress(head, order.size());
    const NodeId n = order[head];
    const std::uint32_t d = depth[head];
    ++head;
    expanded.resize(head, 0);
    if (d >= options.max_depth) {
      // Kept as frontier unless it has no successors anyway.
      if (space.successors(n).empty())
        expanded[head - 1] = 1;
      else
        depth_cut = true;
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

  const std::size_t vertices = order.size();
  // Freeze into a TestGraph.
  if (r.status == ExploreStatus::complete || options.partial_graph) {
    Frozen frozen = freeze(space, order, expanded, vertex_of_node, options.naming);
    r.graph = std::move(frozen.graph);
    r.trap_names = std::move(frozen.trap_names);
    r.trap_edges = std::move(frozen.trap_edges);
    r.node_of_vertex = std::move(order);
  }
  r.states = space.num_states();
  r.store_bytes = space.store_bytes();
  r.memory_bytes = space.memory_bytes();
  r.seconds = std::chrono::duration<double>(clock::now() - t0).count();
  switch (r.status) {
    case ExploreStatus::complete:
      break;
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
          options.max_seconds, vertices, r.frontier);
      break;
  }
  return r;
}

}  // namespace playtest
