// Import of a Markov decision process in PRISM's explicit format (BASE.tra, BASE.lab, BASE.trew)
// as a test graph, so that playtest runs on the models PRISM and Storm users have (and on the
// anchors' gen_mdp.py benchmarks). Mapping: docs/formats.md, section "PRISM explicit format".
#pragma once

#include <string>
#include <string_view>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

struct PrismImportOptions {
  std::string goal_label = "goal";  // states with this label become goal vertices
  std::string init_label = "init";  // the (first) state with this label is the initial vertex
};

// Each MDP state s becomes active vertex "s" with one edge per choice c ("s.c" is the choice's
// passive vertex): the edge s -> s.c costs the choice's expected transition reward and is labelled
// with the choice's action (or "c<c>"); s.c's edges carry the choice's probabilities at cost 0.
// Rows of .tra must come in (state, choice) order, as PRISM writes them. Throws ParseError with
// file:line on malformed input.
TestGraph parse_prism(std::string_view tra, std::string_view lab, std::string_view trew,
                      const std::string& base_name = "<string>", const PrismImportOptions& options = {});

// Reads BASE.tra, BASE.lab and (when it exists) BASE.trew.
TestGraph load_prism(const std::string& base, const PrismImportOptions& options = {});

}  // namespace playtest
