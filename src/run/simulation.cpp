#include "playtest/run/simulation.hpp"

#include <fmt/format.h>

#include <cmath>
#include <ostream>

#include "playtest/graph/names.hpp"
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
      case Verdict::pass:
        ++s.passed;
        break;
      case Verdict::fail:
        ++s.failed;
        break;
      case Verdict::inconclusive:
        ++s.inconclusive;
        break;
      case Verdict::error:
        ++s.errors;
        break;
    }
    if (r.purpose_met) {
      s.steps_to_purpose.push_back(r.steps);
      ++met;
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
    for (std::uint32_t i = 0; i < options.mutant_runs; ++i) {
      SimulatedSut sut(mutants[m].graph, derive_seed(options.seed, (m + 1) * 1000003ull + i, 1), options.sut);
      RunResult r = runner.run(policy, sut, nullptr, derive_seed(options.seed, i, 0));
      ++s.mutant_runs;
      progress();
      if (r.verdict == Verdict::fail) {
        detected = true;
        ++s.mutant_runs_failed;
        detect_sum += double(r.steps);
      }
    }
    s.mutants_detected += detected;
    s.mutant_detected.push_back(detected ? 1 : 0);
  }
  if (s.mutant_runs_failed) s.mean_steps_to_detect = detect_sum / s.mutant_runs_failed;
  return s;
}

std::string describe_purpose(const TestGraph& g, const TestPurpose& p) {
  switch (p.kind) {
    case TestPurpose::Kind::none:
      return "none";
    case TestPurpose::Kind::reach: {
      const std::vector<VertexId> goals = p.goals.empty() ? g.goals() : p.goals;
      if (goals.size() == 1) return fmt::format("reach goal '{}'", g.name(goals.front()));
      return fmt::format("reach one of {} goals", goals.size());
    }
    case TestPurpose::Kind::cover:
      if (p.edges.empty()) return fmt::format("cover all {} edges", g.num_edges());
      if (p.edges.size() == 1) return fmt::format("cover {}", describe_edge(g, p.edges.front()));
      return fmt::format("cover {} of {} edges", p.edges.size(), g.num_edges());
  }
  return "?";
}

void write_comparison_text(std::ostream& out, const TestGraph& g, const StrategyComparison& c) {
  const bool mutants = !c.mutants.empty();
  out << fmt::format("{:<11} {:>6} {:>9} {:>10} {:>9} {:>5} {:>5} {:>5} {:>5}{}  {}\n", "strategy", "runs", "success",
                     "mean", "sd", "pass", "fail", "inc", "err", mutants ? "   mutants detected   steps to detect" : "",
                     "purpose");
  for (const auto& row : c.rows) {
    const SimulationStats& s = row.stats;
    const std::string m = mutants ? fmt::format("   {:>3}/{:<3} {:>6.1f}%   {:>10.1f}", s.mutants_detected, s.mutants,
                                                100.0 * s.detected_fraction(), s.mean_steps_to_detect)
                                  : "";
    out << fmt::format("{:<11} {:>6} {:>8.1f}% {:>10.2f} {:>9.2f} {:>5} {:>5} {:>5} {:>5}{}  {}\n", row.strategy,
                       s.runs, 100.0 * s.success_rate, s.mean_steps, s.sd_steps, s.passed, s.failed, s.inconclusive,
                       s.errors, m, describe_purpose(g, row.purpose));
  }
  if (!mutants) return;
  out << "mutants (x: detected by the strategy in that column)\n";
  std::string head = fmt::format("  {:>3}", "#");
  for (const auto& row : c.rows) head += fmt::format(" {:>11}", row.strategy);
  out << head << "  mutation\n";
  for (std::size_t m = 0; m < c.mutants.size(); ++m) {
    std::string line = fmt::format("  {:>3}", m + 1);
    for (const auto& row : c.rows)
      line += fmt::format(" {:>11}", m < row.stats.mutant_detected.size() && row.stats.mutant_detected[m] ? "x" : "-");
    out << line << "  " << c.mutants[m].description << '\n';
  }
}

nlohmann::json comparison_json(const TestGraph& g, const StrategyComparison& c) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : c.rows) {
    const SimulationStats& s = row.stats;
    nlohmann::json j = {{"strategy", row.strategy},
                        {"purpose", std::string(to_string(row.purpose.kind))},
                        {"purpose_description", describe_purpose(g, row.purpose)},
                        {"runs", s.runs},
                        {"passed", s.passed},
                        {"failed", s.failed},
                        {"inconclusive", s.inconclusive},
                        {"errors", s.errors},
                        {"success_rate", s.success_rate},
                        {"mean_steps", s.mean_steps},
                        {"sd_steps", s.sd_steps}};
    if (!c.mutants.empty()) {
      nlohmann::json detected = nlohmann::json::array();
      for (std::size_t m = 0; m < s.mutant_detected.size(); ++m)
        if (s.mutant_detected[m]) detected.push_back(m + 1);
      j["mutants"] = {{"count", s.mutants},
                      {"detected", s.mutants_detected},
                      {"detected_fraction", s.detected_fraction()},
                      {"detected_mutants", std::move(detected)},
                      {"runs", s.mutant_runs},
                      {"runs_failed", s.mutant_runs_failed},
                      {"mean_steps_to_detect", s.mean_steps_to_detect}};
    }
    rows.push_back(std::move(j));
  }
  nlohmann::json j = {{"seed", c.seed}, {"steps", c.max_steps}, {"strategies", std::move(rows)}};
  if (!c.mutants.empty()) {
    j["mutants"] = nlohmann::json::array();
    for (std::size_t m = 0; m < c.mutants.size(); ++m)
      j["mutants"].push_back({{"index", m + 1},
                              {"kind", std::string(to_string(c.mutants[m].kind))},
                              {"description", c.mutants[m].description}});
  }
  return j;
}

}  // namespace playtest
