#include "playtest/plan/reactive_planner.hpp"
#include <fmt/format.h>

#include <algorithm>

#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <stdexcept>
#include "playtest/base/error.hpp"

#include "playtest/strategy/traps.hpp"

namespace playtest {

namespace {
constexpr std::uint32_t no_parent = std::numeric_limits<std::uint32_t>::max();
constexpr std::uint64_t no_tree = std::numeric_limits<std::uint64_t>::max();
}  // namespace

ReactivePlanner::ReactivePlanner(const TestGraph& g, std::vector<EdgeId> traps, PlannerOptions options)
    : g_(g), o_(options), trap_(trap_flags(g, traps)) {
  if (!(o_.c > 0) || !std::isfinite(o_.c)) throw UsageError("c", fmt::format("must be a positive finite number, got {}", o_.c));
  std::uint64_t num_traps = 0;
  for (std::uint8_t t : trap_) num_traps += t;
  use_trees_ = o_.evaluation == GainEvaluation::trees ||
               (o_.evaluation == GainEvaluation::automatic &&
                std::uint64_t{g.num_vertices()} * num_traps <= o_.max_tree_nodes);
  if (o_.length == PathLength::cost)
    for (EdgeId e : g.edges()) has_field_ = has_field_ && g.cost(e) > 0;
  tree_begin_.assign(g.num_vertices(), no_tree);
  tree_size_.assign(g.num_vertices(), 0);
  dist_.assign(g.num_vertices(), 0);
  pred_.assign(g.num_vertices(), EdgeId::none());
  nta_.assign(g.num_vertices(), no_parent);
  seen_stamp_.assign(g.num_vertices(), 0);
}

double ReactivePlanner::length(EdgeId e) const {
  return o_.length == PathLength::unit ? 1.0 : std::max(g_.cost(e), 0.0);
}

void ReactivePlanner::build(VertexId u, std::vector<Node>& out) {
  // Single-source shortest paths from u, in settle order. Ties go to the vertex discovered first
  // and, within a vertex, to the earlier out-edge (the order the tester model lists them), which is
  // what reproduces the paper's trees. Every trap out-edge of a settled vertex w becomes a node
  // whose parent is the nearest trap edge on the tree path to w (nta_).
  out.clear();
  if (++stamp_ == 0) {
    std::fill(seen_stamp_.begin(), seen_stamp_.end(), 0);
    std::fill(settled_.begin(), settled_.end(), 0);
    stamp_ = 1;
  }
  auto settle = [&](VertexId w) {
    EdgeId p = pred_[w.index()];
    if (p.is_none()) nta_[w.index()] = no_parent;
    else nta_[w.index()] = trap_[p.index()] ? edge_node_[p.index()] : nta_[g_.source(p).index()];
    for (EdgeId x : g_.out_edges(w)) {
      if (!trap_[x.index()]) continue;
      edge_node_[x.index()] = static_cast<std::uint32_t>(out.size());
      out.push_back(Node{x.value, nta_[w.index()], static_cast<float>(dist_[w.index()] + length(x))});
    }
  };
  if (edge_node_.size() != g_.num_edges()) edge_node_.assign(g_.num_edges(), 0);
  seen_stamp_[u.index()] = stamp_;
  dist_[u.index()] = 0;
  pred_[u.index()] = EdgeId::none();
  if (o_.length == PathLength::unit) {
    order_.clear();
    order_.push_back(u.value);
    for (std::size_t i = 0; i < order_.size(); ++i) {
      VertexId w{order_[i]};
      settle(w);
      for (EdgeId x : g_.out_edges(w)) {
        VertexId b = g_.target(x);
        if (seen_stamp_[b.index()] == stamp_) continue;
        seen_stamp_[b.index()] = stamp_;
        dist_[b.index()] = dist_[w.index()] + 1;
        pred_[b.index()] = x;
        order_.push_back(b.value);
      }
    }
    return;
  }
  // Dijkstra with (distance, discovery sequence) keys; settled vertices get stamp_ + marker via
  // order_ membership tracked in a second stamp (settled_) below.
  struct Item {
    double d;
    std::uint64_t seq;
    std::uint32_t v;
    bool operator>(const Item& o) const { return d != o.d ? d > o.d : seq > o.seq; }
  };
  std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
  if (settled_.size() != g_.num_vertices()) settled_.assign(g_.num_vertices(), 0);
  std::uint64_t seq = 0;
  heap.push({0.0, seq++, u.value});
  while (!heap.empty()) {
    Item it = heap.top();
    heap.pop();
    if (settled_[it.v] == stamp_ || it.d != dist_[it.v]) continue;
    settled_[it.v] = stamp_;
    VertexId w{it.v};
    settle(w);
    for (EdgeId x : g_.out_edges(w)) {
      VertexId b = g_.target(x);
      double nd = it.d + length(x);
      if (settled_[b.index()] == stamp_) continue;
      if (seen_stamp_[b.index()] != stamp_ || nd < dist_[b.index()]) {
        seen_stamp_[b.index()] = stamp_;
        dist_[b.index()] = nd;
        pred_[b.index()] = x;
        heap.push({nd, seq++, b.value});
      }
    }
  }
}

std::span<const ReactivePlanner::Node> ReactivePlanner::tree_of(VertexId u) {
  if (tree_begin_[u.index()] != no_tree)
    return std::span<const Node>(pool_).subspan(tree_begin_[u.index()], tree_size_[u.index()]);
  build(u, scratch_);
  if (pool_.size() + scratch_.size() <= o_.max_tree_nodes) {
    tree_begin_[u.index()] = pool_.size();
    tree_size_[u.index()] = static_cast<std::uint32_t>(scratch_.size());
    pool_.insert(pool_.end(), scratch_.begin(), scratch_.end());
    ++trees_built_;
    return std::span<const Node>(pool_).subspan(tree_begin_[u.index()], tree_size_[u.index()]);
  }
  return scratch_;
}

GainTree ReactivePlanner::gain_tree(EdgeId e) {
  if (e.index() >= g_.num_edges()) throw InternalError("ReactivePlanner::gain_tree: edge out of range");
  GainTree t;
  t.root = e;
  t.root_is_trap = trap_[e.index()] != 0;
  t.root_length = std::max(length(e), o_.length == PathLength::unit ? 1.0 : o_.min_length);
  t.nodes.push_back(GainNode{e, 0, 0});
  std::span<const Node> tree = tree_of(g_.target(e));
  // Drop the root's own later occurrence (a leaf, see build); renumber parents.
  std::vector<std::uint32_t> index(tree.size(), 0);
  for (std::size_t i = 0; i < tree.size(); ++i) {
    if (tree[i].edge == e.value) continue;
    index[i] = static_cast<std::uint32_t>(t.nodes.size());
    std::uint32_t p = tree[i].parent == no_parent ? 0 : index[tree[i].parent];
    t.nodes.push_back(GainNode{EdgeId{tree[i].edge}, p, static_cast<double>(tree[i].d)});
  }
  return t;
}

double ReactivePlanner::gain(EdgeId e, std::span<const std::uint32_t> visited) {
  return use_trees_ ? tree_gain(e, visited) : online_gain(e, visited, o_.horizon);
}

double ReactivePlanner::tree_gain(EdgeId e, std::span<const std::uint32_t> visited) {
  if (e.index() >= g_.num_edges()) throw InternalError("ReactivePlanner::tree_gain: edge out of range");
  if (visited.size() != g_.num_edges()) throw InternalError("ReactivePlanner::tree_gain: visited size");
  const double rl = length(e);
  std::span<const Node> tree = tree_of(g_.target(e));
  best_.assign(tree.size(), 0.0);
  double top = 0;
  for (std::size_t i = tree.size(); i-- > 0;) {
    const Node& n = tree[i];
    double w = 0;
    if (trap_[n.edge] && visited[n.edge] == 0 && n.edge != e.value)
      w = o_.c / std::max(rl + static_cast<double>(n.d), o_.min_length);
    double val = w + best_[i];
    if (n.parent == no_parent) top = std::max(top, val);
    else best_[n.parent] = std::max(best_[n.parent], val);
  }
  double root = trap_[e.index()] && visited[e.index()] == 0 ? o_.c / std::max(rl, o_.min_length) : 0.0;
  return root + top;
}

double ReactivePlanner::online_gain(EdgeId e, std::span<const std::uint32_t> visited, std::uint32_t horizon) {
  // The tree of build() walked in the same settle order with the same tie-breaking, but valued on
  // the fly: prefix_[w] is the sum of the weights of the unvisited trap edges on the tree path to w
  // (the nearest-trap-ancestor chain of the stored tree), and a node's value in rules (3)/(4),
  // maximised over the tree, is the largest prefix_ + own weight over all nodes, because every
  // weight is non-negative. The horizon cut keeps the tree closed under ancestors (lengths >= 0).
  if (e.index() >= g_.num_edges()) throw InternalError("ReactivePlanner::online_gain: edge out of range");
  if (visited.size() != g_.num_edges()) throw InternalError("ReactivePlanner::online_gain: visited size");
  const double rl = length(e);
  auto weight = [&](EdgeId x, double w_dist) {
    if (!trap_[x.index()] || visited[x.index()] != 0 || x == e) return 0.0;
    // d rounded as the stored trees round it, so both evaluations agree.
    const double d = static_cast<double>(static_cast<float>(w_dist + length(x)));
    return o_.c / std::max(rl + d, o_.min_length);
  };
  const double root = trap_[e.index()] && visited[e.index()] == 0 ? o_.c / std::max(rl, o_.min_length) : 0.0;
  if (prefix_.size() != g_.num_vertices()) prefix_.assign(g_.num_vertices(), 0.0);
  if (settled_.size() != g_.num_vertices()) settled_.assign(g_.num_vertices(), 0);
  if (++stamp_ == 0) {
    std::fill(seen_stamp_.begin(), seen_stamp_.end(), 0);
    std::fill(settled_.begin(), settled_.end(), 0);
    stamp_ = 1;
  }
  double top = 0;
  std::uint64_t unvisited_seen = 0;
  bool cut = false;
  double cut_dist = 0;
  auto settle = [&](VertexId w) {
    const EdgeId p = pred_[w.index()];
    prefix_[w.index()] = p.is_none() ? 0.0 : prefix_[g_.source(p).index()] + weight(p, dist_[g_.source(p).index()]);
    for (EdgeId x : g_.out_edges(w)) {
      if (!trap_[x.index()]) continue;
      const double wx = weight(x, dist_[w.index()]);
      top = std::max(top, prefix_[w.index()] + wx);
      if (wx > 0) ++unvisited_seen;
    }
    if (!cut && horizon != 0 && unvisited_seen >= horizon) {
      cut = true;
      cut_dist = dist_[w.index()];
    }
  };
  const VertexId u = g_.target(e);
  seen_stamp_[u.index()] = stamp_;
  dist_[u.index()] = 0;
  pred_[u.index()] = EdgeId::none();
  if (o_.length == PathLength::unit) {
    order_.clear();
    order_.push_back(u.value);
    for (std::size_t i = 0; i < order_.size(); ++i) {
      const VertexId w{order_[i]};
      if (cut && dist_[w.index()] > cut_dist) break;
      settle(w);
      for (EdgeId x : g_.out_edges(w)) {
        const VertexId b = g_.target(x);
        if (seen_stamp_[b.index()] == stamp_) continue;
        seen_stamp_[b.index()] = stamp_;
        dist_[b.index()] = dist_[w.index()] + 1;
        pred_[b.index()] = x;
        order_.push_back(b.value);
      }
    }
    return root + top;
  }
  heap_.clear();
  std::uint64_t seq = 0;
  heap_.push_back({0.0, seq++, u.value});
  auto later = [](const HeapItem& a, const HeapItem& b) { return a.d != b.d ? a.d > b.d : a.seq > b.seq; };
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const auto it = heap_.back();
    heap_.pop_back();
    if (settled_[it.v] == stamp_ || it.d != dist_[it.v]) continue;
    if (cut && it.d > cut_dist) break;
    settled_[it.v] = stamp_;
    const VertexId w{it.v};
    settle(w);
    for (EdgeId x : g_.out_edges(w)) {
      const VertexId b = g_.target(x);
      const double nd = it.d + length(x);
      if (settled_[b.index()] == stamp_) continue;
      if (seen_stamp_[b.index()] != stamp_ || nd < dist_[b.index()]) {
        seen_stamp_[b.index()] = stamp_;
        dist_[b.index()] = nd;
        pred_[b.index()] = x;
        heap_.push_back({nd, seq++, b.value});
        std::push_heap(heap_.begin(), heap_.end(), later);
      }
    }
  }
  return root + top;
}

void ReactivePlanner::build_field(std::span<const std::uint32_t> visited) {
  if (!has_field_) throw InternalError("ReactivePlanner::build_field: a length is not positive");
  if (visited.size() != g_.num_edges()) throw InternalError("ReactivePlanner::build_field: visited size");
  // Multi-source Dijkstra on reversed edges with keys (distance to a source, length of the
  // shortest unvisited trap leaving it), lexicographic: the nearest unvisited trap x maximises
  // c / (rl + d(w) + len(x)). Unit lengths: the second key is 1 everywhere and this is a BFS.
  const double inf = std::numeric_limits<double>::infinity();
  field_d_.assign(g_.num_vertices(), inf);
  field_l_.assign(g_.num_vertices(), inf);
  heap_.clear();
  // Lengths are positive, so every vertex that can lower a key (distance, length) settles before
  // the vertex holding it: heap order by distance alone suffices, stale items are recognised by it.
  auto later = [](const HeapItem& a, const HeapItem& b) { return a.d > b.d; };
  for (VertexId v : g_.vertices()) {
    double best = inf;
    for (EdgeId x : g_.out_edges(v))
      if (trap_[x.index()] && visited[x.index()] == 0) best = std::min(best, length(x));
    if (best < inf) {
      field_d_[v.index()] = 0;
      field_l_[v.index()] = best;
      heap_.push_back({0.0, 0, v.value});
    }
  }
  if (o_.length == PathLength::unit) {  // every key length is 1: a multi-source BFS
    order_.clear();
    for (const HeapItem& it : heap_) order_.push_back(it.v);
    for (std::size_t i = 0; i < order_.size(); ++i) {
      const std::uint32_t w = order_[i];
      for (EdgeId y : g_.in_edges(VertexId{w})) {
        const std::uint32_t a = g_.source(y).value;
        if (field_d_[a] != inf) continue;
        field_d_[a] = field_d_[w] + 1;
        field_l_[a] = 1;
        order_.push_back(a);
      }
    }
    return;
  }
  std::make_heap(heap_.begin(), heap_.end(), later);
  if (settled_.size() != g_.num_vertices()) settled_.assign(g_.num_vertices(), 0);
  if (++stamp_ == 0) {
    std::fill(seen_stamp_.begin(), seen_stamp_.end(), 0);
    std::fill(settled_.begin(), settled_.end(), 0);
    stamp_ = 1;
  }
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const HeapItem it = heap_.back();
    heap_.pop_back();
    if (settled_[it.v] == stamp_ || it.d != field_d_[it.v]) continue;
    settled_[it.v] = stamp_;
    for (EdgeId y : g_.in_edges(VertexId{it.v})) {
      const std::uint32_t a = g_.source(y).value;
      if (settled_[a] == stamp_) continue;
      const double nd = it.d + length(y);
      if (nd < field_d_[a] || (nd == field_d_[a] && field_l_[it.v] < field_l_[a])) {
        field_d_[a] = nd;
        field_l_[a] = field_l_[it.v];
        heap_.push_back({nd, 0, a});
        std::push_heap(heap_.begin(), heap_.end(), later);
      }
    }
  }
}

double ReactivePlanner::field_gain(EdgeId e, std::span<const std::uint32_t> visited) {
  if (e.index() >= g_.num_edges()) throw InternalError("ReactivePlanner::field_gain: edge out of range");
  if (field_d_.size() != g_.num_vertices()) throw InternalError("ReactivePlanner::field_gain: no field built");
  if (trap_[e.index()] && visited[e.index()] == 0) return online_gain(e, visited, 1);
  const VertexId u = g_.target(e);
  if (field_d_[u.index()] == std::numeric_limits<double>::infinity()) return 0.0;
  const double d = static_cast<double>(static_cast<float>(field_d_[u.index()] + field_l_[u.index()]));
  return o_.c / std::max(length(e) + d, o_.min_length);
}

std::size_t ReactivePlanner::memory_bytes() const {
  auto bytes = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
  return sizeof(*this) + bytes(trap_) + bytes(tree_begin_) + bytes(tree_size_) + bytes(pool_) + bytes(scratch_) +
         bytes(best_) + bytes(dist_) + bytes(prefix_) + bytes(pred_) + bytes(nta_) + bytes(order_) +
         bytes(seen_stamp_) + bytes(settled_) + bytes(edge_node_) + bytes(heap_) + bytes(field_d_) +
         bytes(field_l_);
}

std::string ReactivePlanner::formula(EdgeId e) {
  GainTree t = gain_tree(e);
  std::vector<std::vector<std::uint32_t>> children(t.nodes.size());
  for (std::uint32_t i = 1; i < t.nodes.size(); ++i) children[t.nodes[i].parent].push_back(i);
  auto num = [](double x) { return std::abs(x - std::round(x)) < 1e-9 ? fmt::format("{}", std::llround(x)) : fmt::format("{:g}", x); };
  auto term = [&](std::uint32_t i) {
    return fmt::format("¬t_{}/{}", g_.name(t.nodes[i].edge), num(t.root_length + t.nodes[i].d));
  };
  std::function<std::string(std::uint32_t)> expr = [&](std::uint32_t i) -> std::string {
    std::string kids;
    if (children[i].size() == 1) {
      kids = expr(children[i][0]);
    } else if (children[i].size() > 1) {
      kids = "max(";
      for (std::size_t k = 0; k < children[i].size(); ++k) kids += (k ? ", " : "") + expr(children[i][k]);
      kids += ")";
    }
    bool has_term = i != 0 || t.root_is_trap;
    if (!has_term) return kids.empty() ? "0" : kids;
    std::string s = i == 0 ? fmt::format("¬t_{}/{}", g_.name(e), num(t.root_length)) : term(i);
    return kids.empty() ? s : s + " + " + kids;
  };
  std::string body = expr(0);
  bool bare_max = body.starts_with("max(");
  if (bare_max) {
    // "max(...)" spanning the whole body: print as c·max(...), as the paper does.
    int depth = 0;
    for (std::size_t i = 3; i < body.size(); ++i) {
      if (body[i] == '(') ++depth;
      else if (body[i] == ')' && --depth == 0) {
        bare_max = i == body.size() - 1;
        break;
      }
    }
  }
  return bare_max ? "c·" + body : "c·(" + body + ")";
}

PlannerPolicy::PlannerPolicy(const TestGraph& g, PlannerOptions options, std::vector<EdgeId> traps)
    : g_(g), o_(options), traps_(std::move(traps)) {}

void PlannerPolicy::begin_run(const RunView& view, Rng& rng) {
  (void)rng;
  if (view.step != 0 && planner_) return;  // after a reset: same run, same traps
  std::vector<std::uint8_t> flags;
  if (!traps_.empty()) flags = trap_flags(g_, traps_);
  else if (!view.purpose_edges.empty()) flags.assign(view.purpose_edges.begin(), view.purpose_edges.end());
  else flags.assign(g_.num_edges(), 1);
  if (!planner_ || flags != planner_traps_) {
    std::vector<EdgeId> list;
    for (EdgeId e : g_.edges())
      if (flags[e.index()]) list.push_back(e);
    no_traps_ = list.empty();
    planner_traps_ = std::move(flags);
    planner_ = std::make_unique<ReactivePlanner>(g_, std::move(list), o_);
    gain_.assign(g_.num_edges(), 0.0);
    gain_epoch_.assign(g_.num_edges(), 0);
  }
  ++epoch_;
  unvisited_ = 0;
  for (EdgeId e : g_.edges())
    unvisited_ += planner_traps_[e.index()] && (view.edge_visits.empty() || view.edge_visits[e.index()] == 0);
  stop_reason_.clear();
}

bool PlannerPolicy::use_field() const {
  return !planner_->uses_trees() && planner_->has_field() && o_.horizon != 0 && o_.tail_traps != 0 &&
         unvisited_ <= o_.tail_traps;
}

double PlannerPolicy::cached_gain(EdgeId e, const RunView& view) {
  if (gain_epoch_[e.index()] != epoch_) {
    if (use_field()) {
      if (field_epoch_ != epoch_) {
        planner_->build_field(view.edge_visits);
        field_epoch_ = epoch_;
      }
      gain_[e.index()] = planner_->field_gain(e, view.edge_visits);
    } else {
      gain_[e.index()] = planner_->gain(e, view.edge_visits);
    }
    gain_epoch_[e.index()] = epoch_;
  }
  return gain_[e.index()];
}

Decision PlannerPolicy::choose(const RunView& view, Rng& rng) {
  if (!planner_) begin_run(view, rng);
  if (no_traps_) {
    stop_reason_ = "the test purpose has no traps";
    return Decision::stop();
  }
  double top = 0;
  best_.clear();
  for (EdgeId e : g_.out_edges(view.current)) {
    double gv = cached_gain(e, view);
    if (gv <= 0) continue;
    if (gv > top * (1 + 1e-12)) {
      top = gv;
      best_.clear();
      best_.push_back(e);
    } else if (gv >= top * (1 - 1e-12)) {
      best_.push_back(e);
    }
  }
  if (!best_.empty()) return Decision::take(best_[best_.size() == 1 ? 0 : rng.below(best_.size())]);
  if (o_.use_resets && g_.is_resettable() && view.current != g_.initial()) {
    for (EdgeId e : g_.out_edges(g_.initial()))
      if (cached_gain(e, view) > 0) return Decision::reset();
  }
  stop_reason_ = fmt::format("every gain is 0 at vertex '{}': no unvisited trap is reachable{}", g_.name(view.current),
                             g_.is_resettable() ? ", not even after a reset" : "");
  return Decision::stop();
}

void PlannerPolicy::observe(EdgeId taken, const RunView& view) {
  if (planner_ && planner_->is_trap(taken) && view.edge_visits[taken.index()] == 1) {
    ++epoch_;
    if (unvisited_ > 0) --unvisited_;
  }
}

}  // namespace playtest
