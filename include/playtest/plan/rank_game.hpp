// The pessimistic testing game of seed 003 as a directed hypergraph with decrementally maintained
// ranks. A hyperedge has a head (where the stimulus is given) and a nonempty tail (where the system
// may go); every unmarked vertex has an implicit trivial edge with an empty tail. An edge is
// reachable iff all its tail vertices are; a vertex iff one of its edges is. rank(edge) = max rank
// of its tail (0 for the trivial edge); rank(vertex) = 1 + min rank of its reachable edges.
// Marking a vertex removes its trivial edge, so ranks only grow. They are kept as lower bounds and
// made exact lazily, in increasing rank order, only up to the rank that a query needs (seed 003:
// "delay updating ranks ... whenever they exceed that of the current system state"), with an
// Even-Shiloach scan pointer per vertex: total work O(marks + R * H) for maximum queried rank R.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace playtest {

class RankGame {
 public:
  static constexpr std::uint32_t unreachable = std::numeric_limits<std::uint32_t>::max();

  // A new vertex. Unmarked vertices have rank 1. A marked vertex may only be added before the first
  // query (it has no edge of its own until add_edge gives it some).
  std::uint32_t add_vertex(bool marked);
  // A hyperedge; `tail` nonempty, every vertex in it already added. After the first query the head
  // must be unmarked: the edges of a vertex are added when it is marked (lazy state spaces; edges of
  // unmarked vertices are "dead" and need not exist before).
  std::uint32_t add_edge(std::uint32_t head, std::span<const std::uint32_t> tail);
  // Removes the trivial edge of unmarked `v`.
  void mark(std::uint32_t v);

  // The exact rank of `v` (or `unreachable`): settles pending updates up to that rank only.
  std::uint32_t rank(std::uint32_t v);
  // The edges of `v` of minimal rank (rank(v) - 1) once rank(v) is known and finite; empty otherwise.
  void best_edges(std::uint32_t v, std::vector<std::uint32_t>& out);
  // Settles every pending update: afterwards stored ranks are exact (unreachable included).
  void settle_all();

  // Ranks by a from-scratch level-order computation on the current hypergraph (the reference).
  std::vector<std::uint32_t> ranks_from_scratch() const;

  std::uint32_t num_vertices() const { return static_cast<std::uint32_t>(r_.size()); }
  std::uint32_t num_edges() const { return static_cast<std::uint32_t>(head_.size()); }
  bool is_marked(std::uint32_t v) const { return marked_[v] != 0; }
  std::uint32_t head(std::uint32_t h) const { return head_[h]; }
  std::span<const std::uint32_t> tail(std::uint32_t h) const {
    return std::span<const std::uint32_t>(tails_).subspan(tail_begin_[h], tail_begin_[h + 1] - tail_begin_[h]);
  }
  std::span<const std::uint32_t> edges_of(std::uint32_t v) const { return inc_[v]; }
  // Lower bound of the rank (exact below pending_level()).
  std::uint32_t stored_rank(std::uint32_t v) const { return r_[v]; }
  std::uint32_t stored_edge_rank(std::uint32_t h) const { return erank_[h]; }
  // The lowest rank with a pending update (unreachable when none).
  std::uint32_t pending_level() const { return min_level_; }
  // Incidence entries scanned so far (for complexity measurements).
  std::uint64_t work() const { return work_; }

 private:
  void init();
  void push(std::uint32_t v);
  void process(std::uint32_t w);
  void advance_min();
  void set_rank(std::uint32_t v, std::uint32_t r);
  bool gap_at_min() const;

  std::vector<std::uint32_t> r_, ptr_;
  std::vector<std::uint8_t> marked_, dirty_;
  std::vector<std::vector<std::uint32_t>> inc_, in_tail_;
  std::vector<std::uint32_t> head_, erank_, tail_begin_{0}, tails_;
  std::vector<std::vector<std::uint32_t>> buckets_;
  std::vector<std::uint32_t> count_;  // vertices per finite stored rank
  std::uint32_t min_level_ = unreachable;
  bool started_ = false;
  std::uint64_t work_ = 0;
};

}  // namespace playtest
