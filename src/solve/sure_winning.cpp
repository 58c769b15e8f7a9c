#include "playtest/solve/sure_winning.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "playtest/base/error.hpp"

namespace playtest {

namespace {

// Binary min-heap of vertices keyed by cost, with positions for decrease-key: at most V entries.
class VertexHeap {
 public:
  explicit VertexHeap(std::uint32_t n) : pos_(n, absent) {}
  bool empty() const { return heap_.empty(); }
  bool contains(std::uint32_t v) const { return pos_[v] != absent; }

  void push_or_decrease(std::uint32_t v, double key) {
    if (pos_[v] == absent) {
      pos_[v] = static_cast<std::uint32_t>(heap_.size());
      heap_.push_back({key, v});
    } else {
      heap_[pos_[v]].key = key;
    }
    sift_up(pos_[v]);
  }

  std::uint32_t pop() {
    const std::uint32_t v = heap_.front().v;
    pos_[v] = absent;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) {
      heap_[0] = last;
      pos_[last.v] = 0;
      sift_down(0);
    }
    return v;
  }

 private:
  static constexpr std::uint32_t absent = std::numeric_limits<std::uint32_t>::max();
  struct Entry {
    double key;
    std::uint32_t v;
  };
  // Ties broken by vertex id, so that the result does not depend on heap history.
  static bool less(const Entry& a, const Entry& b) { return a.key < b.key || (a.key == b.key && a.v < b.v); }

  void sift_up(std::uint32_t i) {
    const Entry x = heap_[i];
    while (i > 0) {
      const std::uint32_t parent = (i - 1) / 2;
      if (!less(x, heap_[parent])) break;
      heap_[i] = heap_[parent];
      pos_[heap_[i].v] = i;
      i = parent;
    }
    heap_[i] = x;
    pos_[x.v] = i;
  }

  void sift_down(std::uint32_t i) {
    const Entry x = heap_[i];
    const std::uint32_t n = static_cast<std::uint32_t>(heap_.size());
    for (;;) {
      std::uint32_t child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && less(heap_[child + 1], heap_[child])) ++child;
      if (!less(heap_[child], x)) break;
      heap_[i] = heap_[child];
      pos_[heap_[i].v] = i;
      i = child;
    }
    heap_[i] = x;
    pos_[x.v] = i;
  }

  std::vector<Entry> heap_;
  std::vector<std::uint32_t> pos_;
};

}  // namespace

SureWinResult solve_sure_winning(const TestGraph& g, std::span<const VertexId> goals) {
  const std::uint32_t n = g.num_vertices();
  constexpr double inf = std::numeric_limits<double>::infinity();
  SureWinResult r;
  r.winnable.assign(n, 0);
  r.cost.assign(n, inf);
  r.strategy.assign(n, EdgeId::none());

  std::vector<std::uint8_t> goal(n, 0);
  for (VertexId v : goals) {
    if (v.index() >= n) throw UsageError("goals", "solve_sure_winning: goal vertex id out of range");
    goal[v.index()] = 1;
  }
  // Unsettled successors (edges, counted with multiplicity) of each passive non-goal vertex.
  std::vector<std::uint32_t> pending(n, 0);
  for (std::uint32_t v = 0; v < n; ++v)
    if (!goal[v] && g.is_passive(VertexId{v})) pending[v] = g.out_degree(VertexId{v});

  const auto targets = g.targets();
  const auto costs = g.costs();
  const auto sources = g.sources();
  const auto offsets = g.out_offsets();
  std::vector<std::uint8_t>& settled = r.winnable;
  VertexHeap heap(n);
  for (std::uint32_t v = 0; v < n; ++v)
    if (goal[v]) {
      r.cost[v] = 0.0;
      heap.push_or_decrease(v, 0.0);
    }
  while (!heap.empty()) {
    const std::uint32_t v = heap.pop();
    settled[v] = 1;
    ++r.num_winnable;
    const double cv = r.cost[v];
    for (EdgeId e : g.in_edges(VertexId{v})) {
      const std::uint32_t u = sources[e.index()].value;
      if (settled[u] || goal[u]) continue;
      if (g.is_passive(VertexId{u})) {
        if (--pending[u] == 0) {
          double c = 0.0;
          for (std::uint32_t d = offsets[u]; d < offsets[u + 1]; ++d)
            c = std::max(c, costs[d] + r.cost[targets[d].index()]);
          r.cost[u] = c;
          heap.push_or_decrease(u, c);
        }
      } else {
        const double c = costs[e.index()] + cv;
        if (c < r.cost[u]) {
          r.cost[u] = c;
          r.strategy[u] = e;
          heap.push_or_decrease(u, c);
        }
      }
    }
  }
  return r;
}

}  // namespace playtest
