// A simulated system under test that plays a test graph's own probabilities (seed 000 §2, seed 001
// §2: the IUT picks an edge out of a passive vertex with probability p). Played with the model itself
// it is a conforming SUT; played with a mutant (mutation.hpp) it is a faulty one. Seeded: the same
// seed gives the same choices. It never waits: silence (a timeout edge, or an active state) is
// reported at once as quiescence.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "playtest/graph/random.hpp"
#include "playtest/graph/test_graph.hpp"
#include "playtest/run/adapter.hpp"

namespace playtest {

struct SimulatedSutOptions {
  // false: a stimulus the graph has no edge for at the SUT's state is ignored (the SUT stays; what
  // it does next tells), and a poll (a deadline already past) at a passive state gets an output.
  // true, the graph is the test graph of an ioco implementation (docs/ioco.md, seed 004 §3): such a
  // stimulus is refused (AdapterEvent::refusal(): not input-enabled there), and outputs come only
  // when the tester waits for them (a poll gets nothing), as TorX's probabilities assume.
  bool ioco_implementation = false;
  // How the system chooses at a passive vertex: with the graph's probabilities (an honest coin), or
  // as a fixed function of the edge that led into the vertex (a system whose "random" choices are
  // decided by history, as a server that serves the client that has waited longest: issue 22,
  // for measuring adaptive strategies offline). With incoming_edge an outcome that no incoming edge
  // selects is never chosen.
  // history: `system` chooses, from the state and every edge taken since the system was started or
  // reset (a server's hidden state, of any length: who waits first, whose turn a round-robin is,
  // a counter; issue 31); an edge it returns that is not an out-edge of the state is a bug.
  enum class Choice : std::uint8_t { probabilities, incoming_edge, history };
  Choice choice = Choice::probabilities;
  std::function<EdgeId(const GameGraph& g, VertexId state, std::span<const EdgeId> path)> system;
};

// `g`: a TestGraph, or a model explored on the fly (the system plays the model program itself,
// expanding the states it moves to; with the same edge order and the same probabilities it makes
// the same choices as on the explored graph).
class SimulatedSut final : public Adapter {
 public:
  // Keeps a reference to `g`.
  SimulatedSut(const GameGraph& g, std::uint64_t seed, SimulatedSutOptions options = {});

  void start() override {
    state_ = g_.initial();
    last_ = EdgeId::none();
    path_.clear();
  }
  // At an active state, follows the out-edge with that label; a stimulus the SUT does not accept
  // there is ignored (the model will notice what the SUT does next).
  AdapterEvent stimulate(std::string_view label) override;
  // At a passive state, picks an out-edge with its probability and follows it: its label is the
  // output, or quiescence for a timeout edge. At an active state with an "observe" edge (an ioco
  // graph, docs/ioco.md) it moves to that edge's passive vertex first. At another active state:
  // quiescence.
  AdapterEvent next_event(Clock::time_point deadline) override;
  // A delay edge: followed at once, as a stimulus.
  bool simulate_delay(std::string_view label) override {
    (void)stimulate(label);
    return true;
  }
  void reset() override {
    state_ = g_.initial();
    last_ = EdgeId::none();
    path_.clear();
  }
  void finish() noexcept override {}

  VertexId state() const { return state_; }

 private:
  const GameGraph& g_;
  Rng rng_;
  SimulatedSutOptions options_;
  VertexId state_;
  EdgeId last_;               // the edge that led to state_ (none at the start and after a reset)
  std::vector<EdgeId> path_;  // Choice::history: every edge since the start or the last reset
  void moved(EdgeId e) {
    last_ = e;
    if (options_.choice == SimulatedSutOptions::Choice::history) path_.push_back(e);
  }
};

}  // namespace playtest
