// Mutants classified, not counted (issue 23, item 4): for a mutant of a test graph, whether any
// sound test can tell it from the model, decided by a game on the product of model and mutant that
// plays exactly what the runner and the simulated system under test do (runner.cpp, simulated_sut):
// the tester sends a stimulus of the model (the mutant follows its edge with that label, if it has
// one), the mutant picks its outputs with its probabilities, and the runner FAILs an output the
// model does not allow where it is, or a silence where the model has no timeout edge.
//
// - equivalent: no FAIL is reachable in the product, whatever the tester does and whatever the
//   mutant picks. Then every behaviour of the mutant is allowed by the model (ioco, seed 004 §2:
//   out(mutant after s) is included in out(model after s) for every trace s the tester can drive),
//   so no sound test can kill it: a mutant that lost one of several allowed outputs, a redirection
//   to a vertex that behaves the same (bisimilar). Proved by exhausting the product.
// - distinguishable: a FAIL is reachable. The witness is a shortest test that can kill it (the
//   stimuli to send and the outputs to see on the way, and the failure at the end), with the
//   probability that this very path happens, and the greatest probability with which any test
//   strategy kills it (Pmax of reaching FAIL on the product, solve_property).
// Combined with a simulation: killed (by the strategies whose runs FAILed on it, after their
// fewest steps), equivalent, or missed (distinguishable, no run killed it) with its witness.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

struct MutantWitness {
  // The steps of the shortest killing path, as "send 'x'", "see 'y'", "silence", and the failure.
  std::vector<std::string> steps;
  std::vector<std::string> stimuli;  // the stimuli alone, in order: a test to play
  std::string failure;               // "the mutant produces 'z' at model vertex 'v', which allows ..."
  double path_probability = 0;       // the probability of the mutant's choices along the path
  double kill_probability = 0;       // the best test strategy's probability of a FAIL (unbounded)
};

struct MutantAnalysis {
  bool complete = true;          // the product was explored whole (else: too large; nothing proved)
  bool distinguishable = false;  // a FAIL is reachable
  std::uint32_t product_states = 0;
  std::optional<MutantWitness> witness;  // when distinguishable
};

// The analysis itself (the product game, which needs a solver) is diagnose/mutant_analysis.hpp;
// simulations carry its result and classify with it here.

enum class MutantClass : std::uint8_t { killed, equivalent, missed, unknown };
std::string_view to_string(MutantClass c);  // "killed", "equivalent", "missed", "unknown"

struct MutantKill {
  std::string strategy;
  std::uint64_t steps = 0;  // the fewest steps of its failing runs
};

struct MutantVerdict {
  MutantClass cls = MutantClass::unknown;
  std::vector<MutantKill> killed_by;
  MutantAnalysis analysis;
};

// The verdict of one mutant from its analysis and the kills the simulation saw.
MutantVerdict classify_mutant(MutantAnalysis analysis, std::vector<MutantKill> kills);

// killed / (mutants - equivalent); 1 when every mutant is equivalent (nothing to kill).
double mutation_score(const std::vector<MutantVerdict>& verdicts);

// Renderings: the lines under a mutant's row (who killed it and when; why it is equivalent; the
// witness of a missed one), the score line, and the JSON fields "class", "killed_by", "witness",
// "product_states" of a mutant and the "mutation_score" object.
void write_mutant_verdict_text(std::ostream& out, const MutantVerdict& v);
void write_mutation_score_text(std::ostream& out, const std::vector<MutantVerdict>& verdicts);
nlohmann::json mutant_verdict_json(const MutantVerdict& v);
// The analysis alone ("product_states", "product_complete", "witness"): what a shard of a
// simulation writes (the same in every shard), and what `playtest merge` reads back (nullopt when
// `j` holds none).
nlohmann::json mutant_analysis_json(const MutantAnalysis& a);
std::optional<MutantAnalysis> mutant_analysis_from_json(const nlohmann::json& j);
nlohmann::json mutation_score_json(const std::vector<MutantVerdict>& verdicts);

}  // namespace playtest
