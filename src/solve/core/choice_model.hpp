// The solver core's one model: a row-grouped sparse choice model (as Storm's row-grouped matrix).
// States 0..n-1 each own a group of choices (rows); a choice has a cost and a distribution over
// successor states (entries: column, probability, and optionally a cost per entry); column n is the
// goal slot, whose value is fixed (0 for expected cost, (1, 0) for bounded reachability). A passive
// state has exactly one choice, made by the system; an active state's choices are the tester's.
//
// Two builders make it from a TestGraph, both keeping the maps back to vertices and edges:
// - per vertex: every vertex of the work set is a state; an active vertex's choices are its edges
//   (one entry each), a passive vertex's one choice is its edges (the system's distribution);
// - folded: a passive vertex whose only predecessor in the work set is an active vertex (the
//   choice vertices of an MDP imported from PRISM) is folded into that vertex's edge: the choice
//   is the edge followed by the passive vertex's distribution, two moves in the test graph. Passive
//   vertices of the work set that no vertex of the work set leads to are "detached" choices (rows
//   after the last group; no state owns them): their values are computed from the states'.
// The value iteration, policy iteration, linear program, error bounds and bounded-reachability
// sweeps are all written against this model (docs/performance.md "One solver core").
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "solve/detail/team.hpp"

namespace playtest::detail {

inline constexpr std::uint32_t model_outside = std::numeric_limits<std::uint32_t>::max();
inline constexpr std::uint32_t model_folded = std::numeric_limits<std::uint32_t>::max() - 1;

// How a choice's costs are kept: `expected` folds the entries' costs into the choice's cost
// (c(e) + sum p_k c_k, what expected cost needs); `worst_case` keeps the choice's own cost (the
// tester's edge, 0 for a passive state's choice) and a cost per entry (bounded reachability's
// worst-case path cost takes the maximum over entries).
enum class ModelCosts : std::uint8_t { expected, worst_case };

struct ChoiceModel {
  std::uint32_t n = 0;                      // states; column n is the goal slot
  std::vector<std::uint32_t> first_choice;  // per state + 1; choices [first_choice[n], num_choices) are detached
  std::vector<std::uint32_t> choice_state;  // per choice: its state (n for a detached choice)
  std::vector<std::uint32_t> first_entry;   // per choice + 1
  std::vector<double> cost;                 // per choice (see ModelCosts)
  std::vector<std::uint32_t> column;        // per entry: a state or n
  std::vector<double> prob;                 // per entry
  std::vector<double> entry_cost;           // per entry; ModelCosts::worst_case only, else empty
  std::vector<std::uint8_t> passive;        // per state
  // Maps back to the graph.
  std::vector<VertexId> state_vertex;   // per state
  std::vector<EdgeId> choice_edge;      // per choice: the tester's edge; none for a passive state's or detached choice
  std::vector<VertexId> choice_vertex;  // per choice: the passive vertex folded into it; none when not folded
  // Per vertex: its state, n for a goal, model_folded (folded into a choice), model_outside.
  std::vector<std::uint32_t> vertex_index;
  std::uint32_t max_entries = 0;  // the most entries of one choice
  bool folded = false;            // built by the folding builder (some choices may still be single moves)

  std::uint32_t num_choices() const { return static_cast<std::uint32_t>(cost.size()); }
  std::uint32_t num_entries() const { return static_cast<std::uint32_t>(column.size()); }
  std::uint32_t num_detached() const { return num_choices() - first_choice[n]; }
  // Moves the choice takes in the test graph: 2 through a folded vertex, else 1.
  std::uint32_t moves(std::uint32_t c) const { return choice_vertex[c].is_none() ? 1 : 2; }
  // Every choice of every state (not the detached ones) takes two moves, and no state is passive:
  // one pass over the states is one MDP step (bounded reachability sweeps then skip odd budgets).
  bool two_move_steps() const;
};

// The work set `order` (no goals; passive vertices of it have all their edges into it or a goal)
// in the order the states should get; active vertices keep only their edges into the work set or
// a goal. Builders fill node ranges with the team's threads (the model is the same for any count).
ChoiceModel build_vertex_model(Team& team, const TestGraph& g, std::span<const std::uint8_t> is_goal,
                               std::span<const VertexId> order, ModelCosts costs);
ChoiceModel build_folded_model(Team& team, const TestGraph& g, std::span<const std::uint8_t> is_goal,
                               std::span<const VertexId> order, ModelCosts costs);

// For every state and the goal slot, the choices with an entry into it: choice[off[t], off[t + 1])
// (a choice appears once per entry into t). Detached choices are left out.
struct ModelReverse {
  std::vector<std::uint32_t> off, choice;
};
ModelReverse reverse_model(const ChoiceModel& m);

}  // namespace playtest::detail
