// The backward search both expected-cost solvers use to find proper strategies: on the vertex-level
// model (detail::CompactModel, items are compact edges) and on the folded MDP (detail::MdpModel,
// items are actions).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace playtest::detail {

// A model seen backwards: nodes 0..n-1 and the goal slot n; the items (edges or actions) leading
// into node j are item[rev_off[j] .. rev_off[j + 1]), and item k leaves node source[k].
struct BackwardView {
  std::uint32_t n = 0;
  std::span<const std::uint8_t> passive;   // per node
  std::span<const std::uint32_t> rev_off;  // per node and the goal slot, + 1
  std::span<const std::uint32_t> item;     // per reverse entry
  std::span<const std::uint32_t> source;   // per item
};

// Breadth-first search backwards from the goal slot. An active node is reached through an item
// `accept(node, item)` admits, a passive node through any item (a passive node's items all stay in
// the model, which is closed). Sets choice[i] to the item for the active nodes reached; returns how
// many nodes were reached and flags them in `reached` (n + 1 entries). With `fallback`, the nodes
// the admitted items do not reach are then reached through any item.
template <class Accept>
std::uint32_t backward_choose(const BackwardView& v, Accept accept, bool fallback, std::vector<std::uint32_t>& choice,
                              std::vector<std::uint8_t>& reached) {
  const std::uint32_t n = v.n;
  reached.assign(std::size_t{n} + 1, 0);
  reached[n] = 1;
  std::vector<std::uint32_t> queue;
  queue.reserve(std::size_t{n} + 1);
  std::uint32_t count = 0;
  for (int pass = 0; pass < (fallback ? 2 : 1); ++pass) {
    queue.clear();
    queue.push_back(n);
    for (std::uint32_t i = 0; i < n; ++i)
      if (reached[i]) queue.push_back(i);
    for (std::size_t h = 0; h < queue.size(); ++h) {
      const std::uint32_t j = queue[h];
      for (std::uint32_t r = v.rev_off[j]; r < v.rev_off[j + 1]; ++r) {
        const std::uint32_t k = v.item[r];
        const std::uint32_t i = v.source[k];
        if (reached[i]) continue;
        if (!v.passive[i]) {
          if (pass == 0 && !accept(i, k)) continue;
          choice[i] = k;
        }
        reached[i] = 1;
        ++count;
        queue.push_back(i);
      }
    }
    if (count == n) break;
  }
  return count;
}

// Does every node reach the goal slot under `choice` (an item per active node)? `reached`
// receives the nodes that can reach it.
inline bool reaches_goal_under(const BackwardView& v, std::span<const std::uint32_t> choice,
                               std::vector<std::uint8_t>& reached) {
  std::vector<std::uint32_t> scratch(choice.begin(), choice.end());
  return backward_choose(
             v, [&](std::uint32_t i, std::uint32_t k) { return choice[i] == k; }, false, scratch, reached) == v.n;
}

}  // namespace playtest::detail
