// A policy that follows a memoryless strategy: one edge per vertex (a sure-winning or expected-cost
// strategy vector of seed 000 §4 / seed 001 §2), or, for bounded reachability (seed 000 §3.1), an
// edge per vertex and remaining bound k. Where the strategy has no edge (outside the winning
// region, bound spent) the policy resets when the graph allows it, else stops.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "playtest/strategy/policy.hpp"

namespace playtest {

class TablePolicy final : public Policy {
 public:
  // strategy[v.index()]: the edge to take at active vertex v, or none. `no_move` says why a vertex
  // has none (e.g. "it is not a sure win"); the stop reason is "no move at 'v': <no_move>".
  TablePolicy(std::string name, std::vector<EdgeId> strategy, std::string no_move = {});
  std::string_view name() const override { return name_; }
  Decision choose(const RunView& view, Rng& rng) override;
  std::string stop_reason() const override { return stop_reason_; }

 private:
  std::string name_;
  std::vector<EdgeId> strategy_;
  std::string no_move_, stop_reason_;
};

class BoundedPolicy final : public Policy {
 public:
  // choice(v, k): the edge to take at v when at most k moves remain, or none. The bound counts
  // moves since the start of the run or the last reset; when it is spent (or the choice is none
  // part-way), a fresh game of the full bound starts from the current vertex.
  using Choice = std::function<EdgeId(VertexId v, std::uint32_t k)>;
  BoundedPolicy(std::string name, Choice choice, std::uint32_t bound);
  std::string_view name() const override { return name_; }
  void begin_run(const RunView& view, Rng& rng) override;
  Decision choose(const RunView& view, Rng& rng) override;
  std::string stop_reason() const override { return stop_reason_; }

 private:
  std::string name_;
  Choice choice_;
  std::uint32_t bound_;
  std::string stop_reason_;
  std::uint64_t start_step_ = 0;
};

}  // namespace playtest
