// Import of a Markov decision process or a discrete-time Markov chain in PRISM's explicit format
// (BASE.tra, BASE.lab, and the reward files BASE.srew / BASE.trew, or BASE1.srew, BASE2.trew, ...
// when the export has several reward structures) as a test graph, so that playtest runs on the
// models PRISM and Storm users have (and on the anchors' gen_mdp.py benchmarks).
// Mapping and the PRISM property each objective equals: docs/formats.md, "PRISM explicit format".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

struct PrismImportOptions {
  std::string goal_label = "goal";  // states with this label become goal vertices; a UsageError
                                    // ("goal_label") when the .lab file does not declare it; "":
                                    // no goal vertices (solve --property names its own targets)
  std::string init_label = "init";  // the state with this label is the initial vertex (state 0
                                    // when no state has it; more than one is an error)
  // Which reward structure load_prism reads when the export has several (BASE1.*, BASE2.*, ...):
  // its number (1-based, as in the file names) or its name (from the files' "# Reward structure
  // "NAME"" header). Empty: the only one; several without a choice is a UsageError ("reward").
  std::string reward;
  // Read no reward files (every cost 0): a probability query needs none, so an export with
  // several reward structures needs no choice then.
  bool no_rewards = false;
  // Accept several states labelled init_label (PRISM models with several initial states, like
  // herman's); the first is the initial vertex. Otherwise two are an error.
  bool several_initial = false;
};

// Every label of BASE.lab with its states as vertices (state s is vertex s in both kinds of model),
// for `solve --property`, whose formulas name labels.
struct PrismLabels {
  bool dtmc = false;  // the .tra file was a DTMC's (one step = one move; an MDP step is two)
  std::vector<std::string> names;
  std::vector<std::vector<VertexId>> vertices;  // per name
  std::vector<VertexId> initial;                // the states labelled init_label (state 0 when none)
  // Per state (vertex s), the chosen reward structure's state reward (.srew); empty when it has
  // none. The edges' costs include it; I=k and dead ends need it alone.
  std::vector<double> state_reward;
};

// The texts of one export; empty srew / trew mean "no such file".
struct PrismText {
  std::string_view tra, lab, srew, trew;
};

// MDP (.tra header "states choices transitions", rows "s c t p [action]"): each state s becomes
// active vertex "s" with one edge per choice c to passive vertex "s.c"; the edge s -> s.c is
// labelled with the choice's action (or "c<c>") and costs the state reward of s plus the choice's
// expected transition reward (sum of probability x reward over its transitions); s.c's edges carry
// the choice's probabilities at cost 0. So one MDP step is two moves.
// DTMC (.tra header "states transitions", rows "s t p [action]"): each state s becomes passive
// vertex "s" whose edges are its transitions (label: the action or "?"), each costing the state
// reward of s plus the transition's reward; one DTMC step is one move. A state without rows is
// an active vertex without edges (a deadlock).
// Lines whose first non-blank character is '#' are comments (PRISM 4.x writes headers so).
// Rows must come sorted by state (and choice), as PRISM writes them. Throws ParseError located at
// file:line:column on malformed input, UsageError for an unknown goal label.
TestGraph parse_prism(const PrismText& text, const std::string& base_name = "<string>",
                      const PrismImportOptions& options = {});

// Older form: an MDP or DTMC with transition rewards only.
TestGraph parse_prism(std::string_view tra, std::string_view lab, std::string_view trew,
                      const std::string& base_name = "<string>", const PrismImportOptions& options = {});

// Reads BASE.tra and BASE.lab and the chosen reward structure's files, streaming (the text is
// never held whole). A header that declares more states, choices or transitions than the file
// can hold is refused before anything is allocated for them.
TestGraph load_prism(const std::string& base, const PrismImportOptions& options = {});
// The same, with every label's states.
TestGraph load_prism(const std::string& base, const PrismImportOptions& options, PrismLabels& labels);

}  // namespace playtest
