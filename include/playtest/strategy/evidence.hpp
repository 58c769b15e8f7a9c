// What the system under test has shown (issue 22, docs/testing.md "Adaptive strategies"): at every
// passive vertex, how often it chose each outcome (an out-edge, the timeout edge included), per
// vertex and per context, the context being the last k edges that led into the vertex (k = 1 ..
// max_context: the incoming edge, the two edges before, ...), since the run began or the system
// was last reset. The runner writes it; adaptive strategies read it to re-plan on what the system
// does rather than on the model's declared probabilities; `playtest learn` and the report render
// it. Shared by the runs of a campaign in run order (campaign/campaign.hpp).
//
// Besides the counts it keeps the paths themselves: every edge taken (by either player), cut where
// the system was reset or a run began, so that what a choice depends on can be learned from
// histories of any length (strategy/history_model.hpp).
//
// An Evidence may sit on a read-only base (the campaign's evidence when the run began): counts are
// the base's plus its own, and only its own are written, so that a run's share can be merged into
// the campaign's afterwards.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "playtest/graph/ids.hpp"

namespace playtest {

class Evidence {
 public:
  static constexpr std::uint32_t max_context_limit = 6;

  // Contexts up to `max_context` edges (at most max_context_limit; 0: per vertex only).
  explicit Evidence(std::uint32_t max_context = 3, const Evidence* base = nullptr);
  Evidence(const Evidence&) = default;
  Evidence& operator=(const Evidence&) = default;

  std::uint32_t max_context() const { return max_context_; }
  const Evidence* base() const { return base_; }

  // At passive vertex v, reached by `history` (the edges taken since the run began or the last
  // reset, most recent last; only the last max_context() are used), the system chose `outcome`.
  void record(VertexId v, std::span<const EdgeId> history, EdgeId outcome);
  // Adds the own counts of `other` (not its base's) to this one's own: a run's share, merged into
  // the campaign's.
  void merge_own(const Evidence& other);

  // The path: edge `e` was taken (by either player); cut() starts a new segment (a reset, a new
  // run). A run's first edge starts a segment of its own.
  void extend(EdgeId e);
  void cut();
  // Every segment, the base's first, in the order they were recorded (and merged).
  template <class F>
  void for_each_segment(F&& f) const {
    if (base_) base_->for_each_segment(f);
    for (std::size_t i = 0; i < starts_.size(); ++i) {
      const std::size_t end = i + 1 < starts_.size() ? starts_[i + 1] : path_.size();
      if (end > starts_[i]) f(std::span<const EdgeId>(path_.data() + starts_[i], end - starts_[i]));
    }
  }
  // Edges on the paths (own and base's).
  std::uint64_t path_length() const { return path_.size() + (base_ ? base_->path_length() : 0); }

  // Visits of v (outcomes recorded there), and how often `outcome` was the system's choice.
  std::uint64_t visits(VertexId v) const;
  std::uint64_t count(VertexId v, EdgeId outcome) const;
  // The same in the context `context` (the last |context| edges before v, most recent last; its
  // length at most max_context()).
  std::uint64_t visits(VertexId v, std::span<const EdgeId> context) const;
  std::uint64_t count(VertexId v, std::span<const EdgeId> context, EdgeId outcome) const;

  // One context seen at a vertex, with its counts (own and base's added up).
  struct Context {
    VertexId vertex;
    std::vector<EdgeId> edges;  // most recent last
    std::vector<std::pair<EdgeId, std::uint64_t>> outcomes;
    std::uint64_t visits = 0;
  };
  // Every context of length `length` (1 .. max_context()) seen at v, in a fixed order (by edges).
  std::vector<Context> contexts(VertexId v, std::uint32_t length) const;
  // How many distinct contexts of length `length` were seen at v.
  std::uint32_t num_contexts(VertexId v, std::uint32_t length) const;
  // The same for every vertex at once (one pass over the contexts: num_contexts per vertex would
  // read them all for each vertex), by vertex index.
  std::unordered_map<std::uint32_t, std::uint32_t> num_contexts_by_vertex(std::uint32_t length) const;
  // The passive vertices with at least one visit, ascending.
  std::vector<VertexId> vertices() const;
  // Outcomes recorded in all (own and base).
  std::uint64_t total() const;
  bool empty() const { return total() == 0; }

 private:
  struct Key {
    std::uint32_t vertex = 0, length = 0;
    EdgeId edges[max_context_limit];
    bool operator==(const Key& o) const;
  };
  struct KeyHash {
    std::size_t operator()(const Key& k) const;
  };
  using Counts = std::vector<std::pair<EdgeId, std::uint64_t>>;  // small: a vertex's outcomes
  static void add(Counts& c, EdgeId outcome, std::uint64_t n);
  static std::uint64_t get(const Counts& c, EdgeId outcome);
  static std::uint64_t sum(const Counts& c);
  Key key(VertexId v, std::span<const EdgeId> context) const;
  void collect(std::unordered_map<Key, Counts, KeyHash>& into, VertexId v, std::uint32_t length) const;

  std::uint32_t max_context_;
  const Evidence* base_;
  std::unordered_map<std::uint32_t, Counts> vertex_;  // own counts per vertex
  std::unordered_map<Key, Counts, KeyHash> context_;  // own counts per context
  std::uint64_t total_ = 0;                           // own outcomes
  std::vector<EdgeId> path_;                          // own paths, one after the other
  std::vector<std::size_t> starts_;                   // where each own segment starts in path_
  bool cut_ = true;                                   // the next edge starts a segment
};

}  // namespace playtest
