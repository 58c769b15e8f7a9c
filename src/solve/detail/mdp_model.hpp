// The certified expected-cost solver's working form of a TestGraph: a Markov decision process
// whose states ("nodes") are the work set's active vertices and those passive vertices that cannot
// be folded into their predecessor, and whose actions carry a cost and a distribution.
//
// A passive vertex j of the work set whose only predecessor in the work set is an active vertex i
// (the PRISM import's choice vertices, seed 001 §2.4's "choice points") is folded into i's edge
// e = (i, j): the action e costs c(e) + sum_k p_k c_k and leads to j's successors with j's
// probabilities. The value of j is then base(j) + sum_k p_k x_k, computed after the solve. Every
// other vertex is a node: an active node minimizes over its actions, a passive node has exactly one
// action (its expectation). For an MDP imported from PRISM, the nodes are exactly the MDP's states,
// a quarter of the test graph's vertices, and a value-iteration sweep touches each transition once.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "solve/detail/team.hpp"

namespace playtest::detail {

inline constexpr std::uint32_t mdp_outside = std::numeric_limits<std::uint32_t>::max();
inline constexpr std::uint32_t mdp_folded = std::numeric_limits<std::uint32_t>::max() - 1;

struct MdpModel {
  std::uint32_t n = 0;                      // nodes; index n is the goal slot (value 0)
  std::vector<std::uint32_t> first_action;  // per node + 1
  std::vector<std::uint32_t> action_node;   // per action: its node
  std::vector<std::uint32_t> first_trans;   // per action + 1
  std::vector<double> cost;                 // per action
  std::vector<std::uint32_t> tgt;           // per transition: node or n
  std::vector<double> prob;                 // per transition
  std::vector<VertexId> node_vertex;        // per node
  std::vector<std::uint8_t> passive;        // per node
  // Per action of an active node: its edge in the graph (the strategy's answer); none for the
  // action of a passive node.
  std::vector<EdgeId> action_edge;
  // Per action: the number of moves it takes in the test graph (2 through a folded vertex, else 1).
  std::vector<std::uint8_t> moves;
  // Per vertex: its node, n for a goal, mdp_folded for a folded passive vertex, mdp_outside for a
  // vertex outside the work set.
  std::vector<std::uint32_t> index;
  std::uint32_t max_trans = 0;  // the most transitions of one action

  std::uint32_t num_actions() const { return static_cast<std::uint32_t>(cost.size()); }
};

// `order` lists the work set (no goals) in the order the nodes should get: a work set is closed
// for passive vertices (all their edges stay in the work set or reach a goal); active vertices
// keep only their edges into the work set or a goal. Nodes are numbered in `order`'s order.
// The node ranges are filled by the team's threads (the model is the same for every count).
MdpModel build_mdp(Team& team, const TestGraph& g, std::span<const std::uint8_t> is_goal,
                   std::span<const VertexId> order);

// For every node, the actions with a transition into it (the goal slot n included): rev_action
// [rev_off[t], rev_off[t + 1]) (an action appears once per transition into t).
struct MdpReverse {
  std::vector<std::uint32_t> rev_off, rev_action;
};
MdpReverse reverse_mdp(const MdpModel& m);

}  // namespace playtest::detail
