// Mutation operators on a test graph, to make faulty simulated systems under test and measure how
// fast a strategy finds a fault: an edge redirected, an output added, an output dropped, two labels
// swapped. A mutant may be equivalent to the original (no test can tell them apart).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/graph/random.hpp"
#include "playtest/graph/test_graph.hpp"

namespace playtest {

enum class MutationKind : std::uint8_t {
  redirect_edge,  // an edge leads to another vertex
  add_output,     // a passive vertex gains an output the model does not allow there
  drop_output,    // a passive vertex loses one of its outputs (the others keep their relative odds)
  swap_labels,    // two edges out of one vertex exchange their labels
};
std::string_view to_string(MutationKind k);

struct Mutant {
  TestGraph graph;
  MutationKind kind = MutationKind::redirect_edge;
  std::string description;  // e.g. "edge 'e3' (a -> b) redirected to 'c'"
};

// One mutant of `g` of the given kind, chosen with `rng`; nullopt when `g` has no place for it
// (no passive vertex with two outputs to drop one, ...).
std::optional<Mutant> mutate(const TestGraph& g, MutationKind kind, Rng& rng);

// `count` mutants cycling through the four kinds (kinds without a place are skipped).
std::vector<Mutant> make_mutants(const TestGraph& g, std::uint32_t count, std::uint64_t seed);

}  // namespace playtest
