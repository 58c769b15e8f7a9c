// The random walk tester: at an active vertex, take an out-edge chosen uniformly at random.
// The "random choice" baseline of seed 002 §5.1 (Table 4). It plays any graph a run plays on
// (a TestGraph, a model explored on the fly): it needs only out_edges and is_resettable.
//
// With restarts (the `random` strategy of run and simulate, docs/testing.md "Strategies"): on a
// resettable graph the walk resets once it has gone restart_after(n) steps without taking an edge
// it had not taken before in the run (n: the edges it has taken), as random-restart walks do, so that a closed loop of the
// model (every job done, `Take -> ?None` for ever) does not hold it to the end of its budget.
#pragma once

#include <algorithm>
#include <cstdint>

#include "playtest/strategy/policy.hpp"

namespace playtest {

class RandomWalkPolicy final : public Policy {
 public:
  // The steps without a new edge after which a restarting walk resets: twice the number of
  // different edges the run has taken, at least 20. What the walk has seen, not the graph's size:
  // the same on an explored graph and on the fly (where the graph grows as it is discovered).
  static constexpr std::uint64_t min_restart_steps = 20;
  static std::uint64_t restart_after(std::uint64_t edges_taken) {
    return std::max<std::uint64_t>(min_restart_steps, 2 * edges_taken);
  }

  // `restart`: reset after restart_after(edges taken) steps without a new edge (false: the plain walk of
  // the paper, which resets only at dead ends).
  explicit RandomWalkPolicy(bool restart = false) : restart_(restart) {}

  std::string_view name() const override { return "random"; }
  void begin_run(const RunView& view, Rng&) override {  // the run's start, and after each reset
    if (view.step == 0) taken_ = 0;
    last_new_ = view.step;
  }
  void observe(EdgeId taken, const RunView& view) override {
    if (taken.index() < view.edge_visits.size() && view.edge_visits[taken.index()] == 1) {
      last_new_ = view.step;
      ++taken_;
    }
  }
  Decision choose(const RunView& view, Rng& rng) override {
    auto out = view.graph.out_edges(view.current);
    if (out.empty()) return view.graph.is_resettable() ? Decision::reset() : Decision::stop();
    if (restart_ && view.graph.is_resettable() && view.current != view.graph.initial() &&
        view.step - last_new_ >= restart_after(taken_))
      return Decision::reset();
    return Decision::take(out[rng.below(out.size())]);
  }

 private:
  bool restart_;
  std::uint64_t last_new_ = 0;  // the step at which the walk last took a new edge (or began)
  std::uint64_t taken_ = 0;     // the different edges the run has taken
};

}  // namespace playtest
