// The product game of a model and one of its mutants (issue 23, item 4): whether any sound test can
// tell the mutant from the model, with a shortest killing test and the best kill probability. The
// verdict types and the classification of a simulation's kills are campaign/mutant_classification.hpp.
#pragma once

#include <cstdint>

#include "playtest/campaign/mutant_classification.hpp"
#include "playtest/graph/test_graph.hpp"

namespace playtest {

struct MutantAnalysisOptions {
  std::uint32_t max_product_states = 1u << 18;  // explored product states at most
};

// The product game of `model` (the tester's and the judge's view) and `mutant` (the simulated
// system), both test graphs with the same vertex names (make_mutants keeps them).
MutantAnalysis analyze_mutant(const TestGraph& model, const TestGraph& mutant, const MutantAnalysisOptions& o = {});

}  // namespace playtest
