// The online tester policy: the one interface through which every strategy (random walk, anti-ant,
// solver strategies, the cover strategy, planners, TorX) drives the runner and the simulator.
// The runner owns the game loop (seed 001 §1): at an active vertex it asks the policy for a
// decision; every step taken by either player is reported back with observe().
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "playtest/graph/ids.hpp"
#include "playtest/graph/random.hpp"
#include "playtest/graph/test_graph.hpp"

namespace playtest {

// What a policy sees of the run so far. `G` is the graph the run plays on: a TestGraph, or a model
// explored on the fly (explore/model_graph.hpp, which has the same accessors); RunView and Policy
// are the TestGraph ones.
template <class G>
struct BasicRunView {
  const G& graph;
  VertexId current;
  std::uint64_t step = 0;                       // steps taken so far in this run (both players)
  std::span<const std::uint32_t> edge_visits;   // per EdgeId, since the start of this run
  std::span<const std::uint8_t> purpose_edges;  // per EdgeId: 1 if the test purpose asks to cover it (empty: all)
};
using RunView = BasicRunView<TestGraph>;

struct Decision {
  enum class Kind : std::uint8_t {
    take,   // take `edge` (an out-edge of the current active vertex)
    reset,  // reset the system under test to the initial vertex (only if the graph is resettable)
    stop,   // nothing more worth doing: end the run
  };
  Kind kind = Kind::stop;
  EdgeId edge;

  static Decision take(EdgeId e) { return {Kind::take, e}; }
  static Decision reset() { return {Kind::reset, EdgeId::none()}; }
  static Decision stop() { return {Kind::stop, EdgeId::none()}; }
};

template <class G>
class BasicPolicy {
 public:
  virtual ~BasicPolicy() = default;
  virtual std::string_view name() const = 0;
  // A new run starts at `start` (also called after a reset, with the initial vertex).
  virtual void begin_run(const BasicRunView<G>& view, Rng& rng) {
    (void)view;
    (void)rng;
  }
  // The current vertex is active: choose what to do.
  virtual Decision choose(const BasicRunView<G>& view, Rng& rng) = 0;
  // Edge `taken` was just followed (by the tester or by the system under test); `view.current` is
  // its target already and `view.edge_visits` counts it.
  virtual void observe(EdgeId taken, const BasicRunView<G>& view) {
    (void)taken;
    (void)view;
  }
  // The current vertex is passive and the runner is about to wait for the system: true ends the
  // run here, as Decision::stop() does at an active vertex (TorX's length bound, seed 004 §3).
  virtual bool stop_at_passive(const BasicRunView<G>& view) {
    (void)view;
    return false;
  }
  // Why the last Decision::stop() (or stop_at_passive) was given, in words for the run's message;
  // empty when there is nothing to add.
  virtual std::string stop_reason() const { return {}; }
};
using Policy = BasicPolicy<TestGraph>;

}  // namespace playtest
