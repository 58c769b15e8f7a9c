// Strategies compared on a simulated system under test (seed 002 §5.1, Table 4): many seeded runs
// against the model's own probabilities give the mean and standard deviation of the steps needed to
// meet the test purpose and the success rate; runs against mutants give the fraction detected.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "playtest/campaign/mutant_classification.hpp"
#include "playtest/campaign/mutation.hpp"
#include "playtest/campaign/shard.hpp"
#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/explore/model.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/strategy/policy.hpp"

namespace playtest {

struct SimulationOptions {
  RunOptions run;                  // purpose and budgets of every run (its seed is ignored)
  std::uint32_t runs = 100;        // runs against the model itself
  std::uint32_t mutant_runs = 10;  // runs against each mutant
  std::uint64_t seed = 0;
  // The simulated SUT plays this graph instead of the model (a faulty implementation, e.g. the
  // test graph of an ioco implementation, docs/ioco.md); nullptr: the model itself.
  const TestGraph* implementation = nullptr;
  SimulatedSutOptions sut;  // the simulated SUTs' options (ioco implementations)
  // Called after every run (against the model and against the mutants) with the runs done and the
  // runs in all (of the shard); may be empty. Calls never overlap but may come from any thread.
  std::function<void(std::uint64_t done, std::uint64_t total)> on_progress;
  // Threads playing runs at once (0: the hardware's). Each has its own policy and simulated SUT;
  // the result is the same for any number.
  std::uint32_t threads = 1;
  // Play only this shard's runs (shard.hpp): run i (0-based) against the model when i mod M = K-1,
  // and the mutant runs numbered m * mutant_runs + i (mutant m, run i) likewise.
  Shard shard;
};

struct SimulationStats {
  std::string strategy;
  std::uint32_t runs = 0, passed = 0, failed = 0, inconclusive = 0, errors = 0;
  double success_rate = 0;  // fraction of runs that met the purpose
  double mean_steps = 0;    // over the runs that met the purpose
  double sd_steps = 0;      // sample standard deviation, same runs
  // Against mutants (zero when none were given).
  std::uint32_t mutants = 0, mutants_detected = 0;  // a mutant is detected when one of its runs FAILs
  std::uint32_t mutant_runs = 0, mutant_runs_failed = 0;
  double mean_steps_to_detect = 0;  // over the failing mutant runs
  double detected_fraction() const { return mutants ? double(mutants_detected) / mutants : 0.0; }
  // Exact sums behind the means (integers, so shards add up to the whole campaign's numbers).
  std::uint32_t purpose_met = 0;                  // runs that met the purpose
  std::uint64_t steps_sum = 0, steps_sq_sum = 0;  // of their steps, and of their squares
  std::uint64_t steps_to_detect_sum = 0;          // steps of the failing mutant runs
  // The steps of each run that met the purpose, in run order (the distribution behind mean and sd).
  std::vector<std::uint64_t> steps_to_purpose;
  // Per mutant (same order as given): 1 if one of its runs FAILed.
  std::vector<std::uint8_t> mutant_detected;
  // Per mutant: the fewest steps of its FAILing runs (0: none failed).
  std::vector<std::uint64_t> mutant_fail_steps;
};

// The means and standard deviation of `s` from its sums (finish_stats after adding shards up).
void finish_stats(SimulationStats& s);

// Several strategies measured on one model with the same seeds (simulate's result).
struct StrategyComparison {
  struct Row {
    std::string strategy;
    TestPurpose purpose;  // what the row's runs aimed at
    SimulationStats stats;
    std::string purpose_description;  // describe_purpose(graph, purpose)
  };
  struct MutantInfo {
    std::string kind;  // to_string(MutationKind)
    std::string description;
    // The product game's verdict (mutant_classification.hpp): equivalent, or distinguishable with
    // a witness; with the rows' kills it classifies the mutant. nullopt: not analysed.
    std::optional<MutantAnalysis> analysis;
  };
  std::vector<Row> rows;
  std::vector<MutantInfo> mutants;
  std::uint64_t seed = 0, max_steps = 0;
  std::uint32_t runs = 0, mutant_runs = 0;  // asked for per strategy (the whole campaign)
  Shard shard;
  std::string model, implementation;  // the inputs' names as given, shown when not empty
};

// "reach goal 'off'", "reach one of 3 goals", "cover all 20 edges", "cover 4 of 20 edges", "none".
// On the fly: "reach a final state (on the fly)", "cover every edge (on the fly: total unknown)".
std::string describe_purpose(const GameGraph& g, const TestPurpose& p);

// The comparison as a table for people (a row per strategy, the purpose it was measured on, and
// with mutants the ones each strategy detected) and as JSON.
// The JSON also holds the exact sums (SimulationStats) and the shard, so that `playtest merge` can add
// shards up to the whole comparison.
void write_comparison_text(std::ostream& out, const StrategyComparison& c);
// Each mutant's class (killed by the rows' strategies that FAILed it, equivalent, missed) when it
// was analysed; empty otherwise.
std::vector<MutantVerdict> mutant_verdicts(const StrategyComparison& c);
nlohmann::json comparison_json(const StrategyComparison& c);

// Seeds are derived from options.seed and the run index only, so every strategy meets the same
// sequence of simulated systems (common random numbers), whatever the number of threads.
// `policies` makes one policy per thread (a strategy's prepared maker, strategy/strategy_row.hpp).
SimulationStats simulate(const TestGraph& model, const PolicyMaker& policies, const SimulationOptions& options,
                         std::span<const Mutant> mutants = {});
// The same with one policy, in the calling thread (options.threads is not used).
SimulationStats simulate(const TestGraph& model, Policy& policy, const SimulationOptions& options,
                         std::span<const Mutant> mutants = {});

// On the fly: the simulated system plays the model program itself, each thread exploring it in its
// own ModelGraph as its runs go (docs/testing.md "Models too big to explore"); no mutants and no
// implementation (UsageError("implementation")). With the same seeds the runs make the same choices
// as on the explored graph (same edge order, same probabilities), so the statistics are the same.
SimulationStats simulate(const Model& model, const PolicyMaker& policies, const SimulationOptions& options);

// The seed of run `index` of stream `stream` (0: the tester, 1: the simulated SUT).
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t index, std::uint64_t stream);

// The simulated system of `playtest simulate --system FILE`: the model's structure with the
// probabilities of `learned` (read from `path`, for the messages), which must have the model's
// vertices and edges (by name, in any order); InputError naming the first difference otherwise.
TestGraph system_graph(const TestGraph& model, const TestGraph& learned, const std::string& path);

}  // namespace playtest
