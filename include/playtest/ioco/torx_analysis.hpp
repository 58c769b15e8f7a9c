// Exact and simulated probabilities of the TorX algorithm with probabilities (seed 004 §3) against
// a simulated implementation: Lemma 3.1's probability of one trace, the probability of a FAIL
// verdict in one run (a Markov chain over the product of the two suspension automata), the list
// of Fail traces up to a length, and a seeded simulation driving TorxPolicy over the test graph.
//
// The simulated implementation is an LTS: after a suspension trace sigma it produces each element
// of out(impl after sigma) (delta included) with equal probability; an input it refuses ends the
// run with PASS (impl after sigma·a is empty, ioco cannot fail after it).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "playtest/ioco/lts.hpp"
#include "playtest/ioco/torx_policy.hpp"

namespace playtest::ioco {

// Lemma 3.1, generalized: the probability that one run of TorX against `impl` produces `trace`
// (inputs and outputs, "delta" or "null" for quiescence) as a prefix of its trace. At a set with
// inputs an input step contributes p_input/n_l and an output step p_observe*P_k; where the
// specification allows no input the runner observes without a choice (factor P_k). A run ends
// once max_length inputs and outputs happened, at active and passive vertices alike. 0 when the
// trace cannot happen (an input the specification does not offer, an output the implementation
// cannot give, a step after a FAIL or past max_length).
double torx_trace_probability(const Lts& spec, const Lts& impl, const std::vector<std::string>& trace,
                              const TorxOptions& options);

struct LabelledTrace {
  std::vector<std::string> trace;
  std::uint32_t inputs = 0, outputs = 0;
  double probability = 0.0;  // torx_trace_probability
};

// Every Fail trace of length <= max_length: sigma·x with sigma a suspension trace of both
// systems and x in out(impl after sigma) \ out(spec after sigma); in depth-first order.
std::vector<LabelledTrace> fail_traces(const Lts& spec, const Lts& impl, std::uint32_t max_length,
                                       const TorxOptions& options);

struct TorxOutcome {
  double fail = 0.0;        // a FAIL verdict
  double pass_stop = 0.0;   // the tester stopped (choice 1 or max_length)
  double pass_refused = 0.0;  // the implementation refused an input
  double unresolved = 0.0;  // mass still running when max_levels was reached
  std::uint32_t levels = 0;
};

struct TorxExactOptions {
  std::uint32_t max_levels = 100'000;  // steps of the chain (with max_length = 0)
  double epsilon = 1e-15;              // stop when the running mass is below this
  std::uint32_t max_sets = 1'000'000;
};

// The distribution of the verdict of one run: a Markov chain over (spec set, impl set) pairs,
// advanced one input/output step at a time.
TorxOutcome torx_exact(const Lts& spec, const Lts& impl, const TorxOptions& options,
                       const TorxExactOptions& exact = {});

struct TorxSimulation {
  std::uint64_t runs = 0, fails = 0, pass_stop = 0, pass_refused = 0;
  // How often each trace ending in FAIL occurred (space-separated labels), sorted by trace.
  std::vector<std::pair<std::string, std::uint64_t>> fail_trace_counts;
  // How often `watch` (if given) was a prefix of the run's trace.
  std::uint64_t watch_hits = 0;
};

// Runs TorxPolicy on the test graph of `spec` (build_ioco_graph) against `impl`, `runs` times,
// seeded; a run also ends after `max_steps` graph steps (a guard; counted as pass_stop).
TorxSimulation simulate_torx(const Lts& spec, const Lts& impl, const TorxOptions& options, std::uint64_t runs,
                             std::uint64_t seed, const std::vector<std::string>& watch = {},
                             std::uint64_t max_steps = 1'000'000);

// "null" is accepted for delta (the paper's notation); returns the canonical label.
std::string canonical_label(const std::string& label);

}  // namespace playtest::ioco
