// Words for what a run was about, shared by the HTML report and the tool's terminal output: a
// test purpose by the names of its goals and edges, an edge by its label where its id is generated.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "playtest/strategy/test_purpose.hpp"

namespace playtest::report {

// "reach off", "reach one of {a, b}", "cover all 16 edges", "cover 2 edges: submit (idle0 -> both0),
// bye (closing -> off)", "none (run the budget)"; at most `max_named` edges are named.
std::string describe_purpose(const TestGraph& g, const TestPurpose& p, std::size_t max_named = 6);

// An edge as a person reads it: "submit (idle0 -> both0)"; its id too when the id was given in the
// model and differs from the label: "go: submit (idle0 -> both0)".
std::string describe_edge(const TestGraph& g, EdgeId e);

// True for the ids the builder gives edges without one ("e<insertion index>"): they say nothing to
// a reader, so text names such edges by label.
bool generated_edge_id(std::string_view id);

// An edge in one step of a walk, "-submit->": its label (its id too when the id was given and
// differs); used for tours and strategies.
std::string edge_step(const TestGraph& g, EdgeId e);

// The edges the purpose asks to cover that `visits` (per EdgeId) never counted; empty for a purpose
// that covers nothing.
std::vector<EdgeId> uncovered_purpose_edges(const TestGraph& g, const TestPurpose& p,
                                            std::span<const std::uint32_t> visits);

// Edges listed with describe_edge, at most `max_named`, then "and N more".
std::string describe_edges(const TestGraph& g, std::span<const EdgeId> edges, std::size_t max_named = 6);

}  // namespace playtest::report
