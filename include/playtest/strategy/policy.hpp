// The online tester policy: the one interface through which every strategy (random walk, anti-ant,
// solver strategies, the cover strategy, planners, TorX) drives the runner and the simulator.
// The runner owns the game loop (seed 001 §1): at an active vertex it asks the policy for a
// decision; every step taken by either player is reported back with observe().
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "playtest/graph/ids.hpp"
#include "playtest/graph/random.hpp"
#include "playtest/graph/game_graph.hpp"

namespace playtest {

class Evidence;

// What a policy sees of the run so far. `graph` is what the run plays on: an explored TestGraph, or
// a model explored on the fly (graph/game_graph.hpp).
struct RunView {
  const GameGraph& graph;
  VertexId current;
  std::uint64_t step = 0;                       // steps taken so far in this run (both players)
  std::span<const std::uint32_t> edge_visits;   // per EdgeId, since the start of this run
  std::span<const std::uint8_t> purpose_edges;  // per EdgeId: 1 if the test purpose asks to cover it (empty: all)
  // What the system has shown so far, this run and the campaign's earlier runs (strategy/evidence.hpp);
  // adaptive strategies re-plan on it. nullptr when nothing records it.
  const Evidence* evidence = nullptr;
};

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

class Policy {
 public:
  virtual ~Policy() = default;
  virtual std::string_view name() const = 0;
  // A new run starts at `start` (also called after a reset, with the initial vertex).
  virtual void begin_run(const RunView& view, Rng& rng) {
    (void)view;
    (void)rng;
  }
  // The current vertex is active: choose what to do.
  virtual Decision choose(const RunView& view, Rng& rng) = 0;
  // Edge `taken` was just followed (by the tester or by the system under test); `view.current` is
  // its target already and `view.edge_visits` counts it.
  virtual void observe(EdgeId taken, const RunView& view) {
    (void)taken;
    (void)view;
  }
  // The current vertex is passive and the runner is about to wait for the system: true ends the
  // run here, as Decision::stop() does at an active vertex (TorX's length bound, seed 004 §3).
  virtual bool stop_at_passive(const RunView& view) {
    (void)view;
    return false;
  }
  // Why the last Decision::stop() (or stop_at_passive) was given, in words for the run's message;
  // empty when there is nothing to add.
  virtual std::string stop_reason() const { return {}; }
};

// Makes one policy for a graph a run plays on (a policy keeps per-run state, so every worker of a
// campaign and every thread of a simulation gets its own). What is expensive (a solver's solution,
// the cover strategy's tour) is computed once when the maker is made and shared read-only by every
// policy it makes. The policy may keep a reference to the graph.
using PolicyMaker = std::function<std::unique_ptr<Policy>(const GameGraph& g)>;

}  // namespace playtest
