#include "playtest/run/simulation.hpp"

#include <cmath>

#include "playtest/run/simulated_sut.hpp"

namespace playtest {

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t index, std::uint64_t stream) {
  Rng r(seed ^ (index * 0x9e3779b97f4a7c15ull) ^ (stream * 0xd1b54a32d192ed03ull));
  return r.next();
}

SimulationStats simulate(const TestGraph& model, Policy& policy, const SimulationOptions& options,
                         std::span<const Mutant> mutants) {
  SimulationStats s;
  s.strategy = std::string(policy.name());
  RunOptions ro = options.run;
  ro.keep_trace = false;
  Runner runner(model, ro);
  double sum = 0, sum2 = 0;
  std::uint32_t met = 0;
  const std::uint64_t total_runs = options.runs + std::uint64_t{options.mutant_runs} * mutants.size();
  std::uint64_t done_runs = 0;
  auto progress = [&] {
    if (options.on_progress) options.on_progress(++done_runs, total_runs);
  };
  for (std::uint32_t i = 0; i < options.runs; ++i) {
    SimulatedSut sut(options.implementation ? *options.implementation : model, derive_seed(options.seed, i, 1),
                     options.sut);
    RunResult r = runner.run(policy, sut, nullptr, derive_seed(options.seed, i, 0));
    ++s.runs;
    progress();
    switch (r.verdict) {
      case Verdict::pass: ++s.passed; break;
      case Verdict::fail: ++s.failed; break;
      case Verdict::inconclusive: ++s.inconclusive; break;
      case Verdict::error: ++s.errors; break;
    }
    if (r.purpose_met) {
      ++met;
      s.steps_to_purpose.push_back(r.steps);
      sum += double(r.steps);
      sum2 += double(r.steps) * double(r.steps);
    }
  }
  s.success_rate = s.runs ? double(met) / s.runs : 0.0;
  if (met > 0) {
    s.mean_steps = sum / met;
    s.sd_steps = met > 1 ? std::sqrt(std::max(0.0, (sum2 - sum * sum / met) / (met - 1))) : 0.0;
  }
  double detect_sum = 0;
  for (std::size_t m = 0; m < mutants.size(); ++m) {
    ++s.mutants;
    bool detected = false;
    s.failed_runs_per_mutant.push_back(0);
    for (std::uint32_t i = 0; i < options.mutant_runs; ++i) {
      SimulatedSut sut(mutants[m].graph, derive_seed(options.seed, (m + 1) * 1000003ull + i, 1), options.sut);
      RunResult r = runner.run(policy, sut, nullptr, derive_seed(options.seed, i, 0));
      ++s.mutant_runs;
      progress();
      if (r.verdict == Verdict::fail) {
        detected = true;
        ++s.mutant_runs_failed;
        ++s.failed_runs_per_mutant.back();
        detect_sum += double(r.steps);
      }
    }
    s.mutants_detected += detected;
  }
  if (s.mutant_runs_failed) s.mean_steps_to_detect = detect_sum / s.mutant_runs_failed;
  return s;
}

}  // namespace playtest
