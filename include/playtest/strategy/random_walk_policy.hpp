// The random walk tester: at an active vertex, take an out-edge chosen uniformly at random.
// The "random choice" baseline of seed 002 §5.1 (Table 4). It plays any graph a run plays on
// (a TestGraph, a model explored on the fly): it needs only out_edges and is_resettable.
//
// With restarts (the `random` strategy of run and simulate, docs/testing.md "Strategies"): on a
// resettable graph the walk resets once it has gone restart_after(n) steps without taking an edge
// it had not taken before in the run (n: the edges it has taken), as random-restart walks do, so that a closed loop of
// the model (every job done, `Take -> ?None` for ever) does not hold it to the end of its budget.
//
// With label weights (GraphWalker's weighted_random, docs/graphwalker.md "Generators"): at an
// active vertex an out-edge whose label has a weight w > 0 is taken with probability w, and the
// out-edges without one share what the weights leave (1 - their sum) equally, as GraphWalker's
// WeightedRandomPath does; weights that sum to more than 1 at a vertex end the run, saying where.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "playtest/strategy/policy.hpp"

namespace playtest {

// Label -> weight in [0, 1]; the strategy argument label_weights_arg carries it as "LABEL\tW" lines
// (set by the GraphWalker generator mapping, not a command-line option).
using LabelWeights = std::map<std::string, double, std::less<>>;
inline constexpr std::string_view label_weights_arg = "label-weights";
// "off": the plain walk, without restarts (GraphWalker's random and weighted_random generators,
// which never reset: docs/graphwalker.md "Generators"). Not a command-line option.
inline constexpr std::string_view restarts_arg = "restarts";
std::shared_ptr<const LabelWeights> parse_label_weights(std::string_view text);  // "" -> nullptr
std::string label_weights_text(const LabelWeights& w);

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
  // `weights`: the label weights of a weighted walk (nullptr: uniform).
  explicit RandomWalkPolicy(bool restart = false, std::shared_ptr<const LabelWeights> weights = nullptr)
      : restart_(restart), weights_(std::move(weights)) {}

  std::string_view name() const override;               // its row's (strategy_row.hpp)
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
    if (weights_) return weighted(view, out, rng);
    return Decision::take(out[rng.below(out.size())]);
  }
  std::string stop_reason() const override { return stop_reason_; }

 private:
  template <class Out>
  Decision weighted(const RunView& view, const Out& out, Rng& rng) {
    std::vector<double> w;
    double fixed = 0;
    std::size_t rest_count = 0;
    for (EdgeId e : out) {
      auto it = weights_->find(view.graph.label(e));
      const double x = it != weights_->end() && it->second > 0 ? it->second : -1;
      w.push_back(x);
      if (x > 0)
        fixed += x;
      else
        ++rest_count;
    }
    if (fixed > 1 + 1e-9) {
      stop_reason_ = "the weights of the edges out of '" + std::string(view.graph.vertex_name(view.current)) +
                     "' sum to more than 1 (GraphWalker's weighted_random stops there too)";
      return Decision::stop();
    }
    const double rest = rest_count == 0 ? 0 : std::max(0.0, 1 - fixed) / static_cast<double>(rest_count);
    double total = 0;
    for (double& x : w) total += (x = x > 0 ? x : rest);
    // Every weight 0 (or weights below 1 on every edge): scaled to their sum, uniform when none.
    if (total <= 0) return Decision::take(out[rng.below(out.size())]);
    const double u = rng.uniform01() * total;
    double cumulative = 0;
    std::size_t i = 0;
    for (EdgeId e : out) {
      cumulative += w[i++];
      if (u < cumulative) return Decision::take(e);
    }
    return Decision::take(out[out.size() - 1]);
  }

  bool restart_;
  std::shared_ptr<const LabelWeights> weights_;
  std::string stop_reason_;
  std::uint64_t last_new_ = 0;  // the step at which the walk last took a new edge (or began)
  std::uint64_t taken_ = 0;     // the different edges the run has taken
};

}  // namespace playtest
