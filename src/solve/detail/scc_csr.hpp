// Strongly connected components of a graph given as compressed sparse rows (iterative Tarjan), for
// the solvers' internal graphs (a strategy's induced chain, the zero-cost subgraph) that are not
// TestGraphs.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

namespace playtest::detail {

// comp[v] in 0..count-1 in Tarjan's emission order: every edge goes from a component to one with
// a number <= its own (successors first). Returns count.
inline std::uint32_t scc_csr(std::span<const std::uint32_t> off, std::span<const std::uint32_t> adj,
                             std::vector<std::uint32_t>& comp) {
  constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();
  const std::uint32_t n = static_cast<std::uint32_t>(off.size() - 1);
  std::vector<std::uint32_t> index(n, none), low(n), stack;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> call;  // (vertex, next adjacency position)
  comp.assign(n, none);
  std::uint32_t counter = 0, count = 0;
  for (std::uint32_t s = 0; s < n; ++s) {
    if (index[s] != none) continue;
    index[s] = low[s] = counter++;
    stack.push_back(s);
    call.emplace_back(s, off[s]);
    while (!call.empty()) {
      const std::uint32_t v = call.back().first;
      const std::uint32_t pos = call.back().second;
      if (pos < off[v + 1]) {
        call.back().second = pos + 1;
        const std::uint32_t w = adj[pos];
        if (index[w] == none) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          call.emplace_back(w, off[w]);
        } else if (comp[w] == none && index[w] < low[v]) {
          low[v] = index[w];
        }
      } else {
        if (low[v] == index[v]) {
          std::uint32_t w;
          do {
            w = stack.back();
            stack.pop_back();
            comp[w] = count;
          } while (w != v);
          ++count;
        }
        call.pop_back();
        if (!call.empty()) {
          const std::uint32_t u = call.back().first;
          if (low[v] < low[u]) low[u] = low[v];
        }
      }
    }
  }
  return count;
}

}  // namespace playtest::detail
