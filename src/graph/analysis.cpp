#include "playtest/graph/analysis.hpp"

#include <limits>

namespace playtest {

namespace {

// Marks everything reachable from `seeds` along `next(v, visit)`, which calls visit(w) for each
// neighbour w of v (successors or predecessors).
template <class Next>
std::vector<std::uint8_t> mark_closure(const TestGraph& g, std::span<const VertexId> seeds, Next next) {
  std::vector<std::uint8_t> mark(g.num_vertices(), 0);
  std::vector<VertexId> stack;
  auto visit = [&](VertexId w) {
    if (!mark[w.index()]) {
      mark[w.index()] = 1;
      stack.push_back(w);
    }
  };
  for (VertexId v : seeds) visit(v);
  while (!stack.empty()) {
    VertexId v = stack.back();
    stack.pop_back();
    next(v, visit);
  }
  return mark;
}

}  // namespace

std::vector<std::uint8_t> reachable_from(const TestGraph& g, std::span<const VertexId> from) {
  return mark_closure(g, from, [&](VertexId v, auto& visit) {
    for (EdgeId e : g.out_edges(v)) visit(g.target(e));
  });
}

std::vector<std::uint8_t> can_reach(const TestGraph& g, std::span<const VertexId> to) {
  return mark_closure(g, to, [&](VertexId v, auto& visit) {
    for (EdgeId e : g.in_edges(v)) visit(g.source(e));
  });
}

SccResult strongly_connected_components(const TestGraph& g) {
  // Iterative Tarjan.
  constexpr std::uint32_t unvisited = std::numeric_limits<std::uint32_t>::max();
  const std::uint32_t n = g.num_vertices();
  SccResult r;
  r.component.assign(n, unvisited);
  std::vector<std::uint32_t> index(n, unvisited), low(n, 0);
  std::vector<std::uint32_t> stack;  // Tarjan's stack
  struct Frame {
    std::uint32_t v;
    std::uint32_t next;  // next out-edge id to look at
  };
  std::vector<Frame> call;
  std::uint32_t counter = 0;
  auto offs = g.out_offsets();
  for (std::uint32_t root = 0; root < n; ++root) {
    if (index[root] != unvisited) continue;
    call.push_back({root, offs[root]});
    index[root] = low[root] = counter++;
    stack.push_back(root);
    while (!call.empty()) {
      Frame& f = call.back();
      const std::uint32_t v = f.v;
      if (f.next < offs[v + 1]) {
        const std::uint32_t w = g.target(EdgeId{f.next++}).value;
        if (index[w] == unvisited) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          call.push_back({w, offs[w]});
        } else if (r.component[w] == unvisited) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      if (low[v] == index[v]) {
        std::uint32_t w;
        do {
          w = stack.back();
          stack.pop_back();
          r.component[w] = r.count;
        } while (w != v);
        ++r.count;
      }
      call.pop_back();
      if (!call.empty()) {
        const std::uint32_t parent = call.back().v;
        low[parent] = std::min(low[parent], low[v]);
      }
    }
  }
  return r;
}

}  // namespace playtest
