// What the system's choice at a passive vertex depends on (issue 31, docs/testing.md "Adaptive
// strategies"): learned from the paths of the evidence (strategy/evidence.hpp), of any length.
//
// A real server keeps hidden state the model does not show: the order of its waiters, whose turn a
// round-robin is, how many requests it has counted. Such state is a function of what happened since
// the server was last reset, and it is usually written by a few kinds of event only. A *memory*
// is a small deterministic automaton over the path: it watches one class of labels (those of one
// action, say every `!Reserve(...)`, or the outcomes of one vertex, or every label) and keeps the
// last `length` labels of that class, however far back they lie; other edges leave it as it is.
// Its states refine the model's vertices: the system's choice at vertex v is learned per (v,
// memory state).
//
// Which memory explains a vertex is a model-selection question, answered with the Bayesian
// information criterion over every candidate (each class, each length up to max_length) and the
// vertex alone (no memory): the log-likelihood of the outcomes seen, per memory state, less half
// the number of free probabilities times the log of the visits. A memory is kept only where it
// explains the outcomes better than the vertex alone by that measure; a system whose coins are the
// model's (or any coins independent of history) keeps none. The classes are chosen as passive
// state-merging learners (ALERGIA, IOALERGIA: Mao et al. 2016) would merge prefix-tree states, by
// a statistical criterion, but over a family of automata that fits long, rarely reset paths, where
// a prefix tree has one visit per node.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "playtest/graph/game_graph.hpp"
#include "playtest/strategy/evidence.hpp"

namespace playtest {

// The last `length` labels among `labels` (sorted label ids; empty: every label) taken since the
// system was reset.
struct Memory {
  std::vector<LabelId> labels;
  std::uint32_t length = 0;
  std::string name;  // for people: "the last 2 of !Reserve(..)"

  bool watches(LabelId l) const;
  // The state after a path (most recent last): its last `length` watched labels, most recent last.
  std::vector<LabelId> state_after(const GameGraph& g, std::span<const EdgeId> path) const;
  bool operator==(const Memory& o) const { return labels == o.labels && length == o.length; }
};

// The learned choice of one passive vertex: its outcomes per memory state.
struct LearnedChoice {
  VertexId vertex;
  std::uint32_t memory = 0;  // index into HistoryModel::memories
  double gain = 0;           // the criterion's gain over the vertex alone (nats)
  std::uint64_t visits = 0;
  struct State {
    std::vector<LabelId> history;                            // the memory's state, most recent last
    std::vector<std::pair<EdgeId, std::uint64_t>> outcomes;  // seen there, by edge
    std::uint64_t visits = 0;
    std::uint64_t count(EdgeId e) const;
  };
  std::vector<State> states;  // every state seen at the vertex, ordered by history
  const State* find(std::span<const LabelId> history) const;
};

struct HistoryModel {
  std::vector<Memory> memories;
  std::vector<LearnedChoice> choices;  // the vertices a memory explains, ascending
  std::uint64_t work = 0;              // path edges read times candidates (what learning cost)

  // The learned choice of v, or nullptr where the vertex alone explains its outcomes.
  const LearnedChoice* at(VertexId v) const;
  // A history in words: "[!Reserve(1) !Reserve(0)]" ("[]": nothing watched yet).
  static std::string describe(const GameGraph& g, std::span<const LabelId> history);
};

struct HistoryLearningOptions {
  std::uint32_t max_length = 6;    // the longest memory tried
  std::uint64_t min_visits = 8;    // vertices with fewer visits are not learned
  std::uint32_t max_states = 128;  // a memory seen in more states at a vertex is not tried there
  double min_gain = 3.0;           // nats the criterion must gain over the vertex alone
  // Per vertex: learn it (empty: every passive vertex with at least two out-edges).
  std::span<const std::uint8_t> vertices;
};

HistoryModel learn_history(const GameGraph& g, const Evidence& evidence, const HistoryLearningOptions& o = {});

}  // namespace playtest
