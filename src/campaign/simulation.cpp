#include "playtest/campaign/simulation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <mutex>
#include <ostream>
#include <thread>

#include "playtest/base/error.hpp"
#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/explore/model_graph.hpp"
#include "playtest/graph/names.hpp"
#include "playtest/graph/transforms.hpp"

namespace playtest {

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t index, std::uint64_t stream) {
  Rng r(seed ^ (index * 0x9e3779b97f4a7c15ull) ^ (stream * 0xd1b54a32d192ed03ull));
  return r.next();
}

namespace {

// One run of a simulation: against the model (mutant < 0) or against mutant `mutant`.
struct SimTask {
  std::int64_t mutant = -1;
  std::uint32_t run = 0;
};
struct SimOutcome {
  Verdict verdict = Verdict::inconclusive;
  bool purpose_met = false;
  std::uint64_t steps = 0;
};

// What one thread plays with: its policy and the runner (on a TestGraph all threads share one; on
// the fly each has its own ModelGraph and runner).
struct Player {
  const Runner* runner;
  Policy* policy;                      // the caller's one policy (one thread), or
  const PolicyMaker* maker = nullptr;  // a fresh policy per run from this maker
};

SimulationStats simulate_with(std::vector<Player> players, const SimulationOptions& options,
                              std::span<const Mutant> mutants) {
  SimulationStats s;
  s.strategy = std::string(players.front().policy->name());
  std::mutex maker_mutex;  // policy makers are called by one thread at a time
  // The runs of the shard, in order: the model's, then each mutant's. Their seeds depend on their
  // numbers only.
  std::vector<SimTask> tasks;
  for (std::uint32_t i = 0; i < options.runs; ++i)
    if (options.shard.contains(std::uint64_t(i) + 1)) tasks.push_back({-1, i});
  for (std::size_t m = 0; m < mutants.size(); ++m)
    for (std::uint32_t i = 0; i < options.mutant_runs; ++i)
      if (options.shard.contains(m * std::uint64_t(options.mutant_runs) + i + 1))
        tasks.push_back({static_cast<std::int64_t>(m), i});
  std::vector<SimOutcome> outcomes(tasks.size());
  std::mutex progress_mutex;
  std::uint64_t done_runs = 0;
  auto play = [&](const Player& player, std::size_t t) {
    const SimTask& task = tasks[t];
    const bool model_run = task.mutant < 0;
    const std::uint64_t sut_seed =
        model_run ? derive_seed(options.seed, task.run, 1)
                  : derive_seed(options.seed, (static_cast<std::uint64_t>(task.mutant) + 1) * 1000003ull + task.run, 1);
    const GameGraph& model = player.runner->graph();
    const GameGraph* sut_graph = &model;  // on the fly: the model program itself
    if (model.is_explored())
      sut_graph = model_run ? (options.implementation ? options.implementation : &model)
                            : &mutants[static_cast<std::size_t>(task.mutant)].graph;
    SimulatedSut sut(*sut_graph, sut_seed, options.sut);
    // A fresh policy per run: what a policy keeps between runs must not depend on which thread
    // played which run before (results never depend on thread timing).
    std::unique_ptr<Policy> fresh;
    if (player.maker != nullptr) {
      const std::lock_guard lock(maker_mutex);
      fresh = (*player.maker)(model);
    }
    Policy& policy = fresh ? *fresh : *player.policy;
    const RunResult r = player.runner->run(policy, sut, nullptr, derive_seed(options.seed, task.run, 0));
    // The simulated system is the model itself: a model that fails in a run (on the fly) is a bad
    // input, not an ERROR to count among the runs.
    if (r.model_error) throw ModelError(*r.model_error);
    outcomes[t] = {r.verdict, r.purpose_met, r.steps};
    if (options.on_progress) {  // one call at a time, whichever thread finished the run
      const std::lock_guard lock(progress_mutex);
      options.on_progress(++done_runs, tasks.size());
    }
  };
  if (players.size() == 1) {
    for (std::size_t t = 0; t < tasks.size(); ++t) play(players.front(), t);
  } else {
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex error_mutex;
    std::vector<std::thread> threads;
    for (const Player& player : players)
      threads.emplace_back([&, player] {
        try {
          for (std::size_t t; !failed.load() && (t = next.fetch_add(1)) < tasks.size();) play(player, t);
        } catch (...) {
          const std::lock_guard lock(error_mutex);
          if (!error) error = std::current_exception();
          failed = true;
        }
      });
    for (std::thread& t : threads) t.join();
    if (error) std::rethrow_exception(error);
  }
  // Added up in run order, whatever the thread that played each run.
  s.mutants = static_cast<std::uint32_t>(mutants.size());
  s.mutant_detected.assign(mutants.size(), 0);
  s.mutant_fail_steps.assign(mutants.size(), 0);
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    const SimOutcome& r = outcomes[t];
    if (tasks[t].mutant >= 0) {
      ++s.mutant_runs;
      if (r.verdict == Verdict::fail) {
        s.mutant_detected[static_cast<std::size_t>(tasks[t].mutant)] = 1;
        std::uint64_t& fewest = s.mutant_fail_steps[static_cast<std::size_t>(tasks[t].mutant)];
        if (fewest == 0 || r.steps < fewest) fewest = std::max<std::uint64_t>(1, r.steps);
        ++s.mutant_runs_failed;
        s.steps_to_detect_sum += r.steps;
      }
      continue;
    }
    ++s.runs;
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
      ++s.purpose_met;
      s.steps_sum += r.steps;
      s.steps_sq_sum += r.steps * r.steps;
    }
  }
  for (std::uint8_t d : s.mutant_detected) s.mutants_detected += d;
  finish_stats(s);
  return s;
}

}  // namespace

void finish_stats(SimulationStats& s) {
  s.success_rate = s.runs ? double(s.purpose_met) / s.runs : 0.0;
  s.mean_steps = s.sd_steps = 0;
  if (s.purpose_met > 0) {
    const double met = s.purpose_met, sum = double(s.steps_sum), sum2 = double(s.steps_sq_sum);
    s.mean_steps = sum / met;
    s.sd_steps = s.purpose_met > 1 ? std::sqrt(std::max(0.0, (sum2 - sum * sum / met) / (met - 1))) : 0.0;
  }
  s.mean_steps_to_detect = s.mutant_runs_failed ? double(s.steps_to_detect_sum) / s.mutant_runs_failed : 0.0;
}

namespace {

std::uint32_t thread_count(const SimulationOptions& options, std::size_t mutants) {
  std::uint32_t threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  const std::uint64_t runs = std::uint64_t(options.runs) + mutants * std::uint64_t(options.mutant_runs);
  return static_cast<std::uint32_t>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, runs)));
}

RunOptions simulation_run_options(const SimulationOptions& options) {
  RunOptions ro = options.run;
  ro.keep_trace = false;
  return ro;
}

}  // namespace

SimulationStats simulate(const TestGraph& model, const PolicyMaker& policies, const SimulationOptions& options,
                         std::span<const Mutant> mutants) {
  const std::uint32_t threads = thread_count(options, mutants.size());
  const Runner runner(model, simulation_run_options(options));
  std::vector<std::unique_ptr<Policy>> owned;
  std::vector<Player> players;
  for (std::uint32_t t = 0; t < threads; ++t) {
    owned.push_back(policies(model));
    players.push_back({&runner, owned.back().get(), &policies});
  }
  return simulate_with(std::move(players), options, mutants);
}

SimulationStats simulate(const TestGraph& model, Policy& policy, const SimulationOptions& options,
                         std::span<const Mutant> mutants) {
  const Runner runner(model, simulation_run_options(options));
  return simulate_with({{&runner, &policy}}, options, mutants);
}

SimulationStats simulate(const Model& model, const PolicyMaker& policies, const SimulationOptions& options) {
  if (options.implementation != nullptr)
    throw UsageError("implementation", "a model explored on the fly is simulated against itself only");
  const std::uint32_t threads = thread_count(options, 0);
  const RunOptions ro = simulation_run_options(options);
  // Each thread explores the model in its own ModelGraph (the choices do not depend on ids, so the
  // result is the same for any number of threads).
  std::vector<std::unique_ptr<ModelGraph>> graphs;
  std::vector<std::unique_ptr<Runner>> runners;
  std::vector<std::unique_ptr<Policy>> owned;
  std::vector<Player> players;
  for (std::uint32_t t = 0; t < threads; ++t) {
    graphs.push_back(std::make_unique<ModelGraph>(model));
    runners.push_back(std::make_unique<Runner>(*graphs.back(), ro));
    owned.push_back(policies(*graphs.back()));
    players.push_back({runners.back().get(), owned.back().get(), &policies});
  }
  return simulate_with(std::move(players), options, {});
}

std::string describe_purpose(const GameGraph& game, const TestPurpose& p) {
  const TestGraph* whole = game.explored();
  if (whole == nullptr) switch (p.kind) {
      case TestPurpose::Kind::none:
        return "none";
      case TestPurpose::Kind::reach:
        return "reach a final state (on the fly)";
      case TestPurpose::Kind::cover:
        return "cover every edge (on the fly: total unknown)";
    }
  const TestGraph& g = *whole;
  switch (p.kind) {
    case TestPurpose::Kind::none:
      return "none";
    case TestPurpose::Kind::reach: {
      const std::vector<VertexId> goals = p.goals.empty() ? g.goals() : p.goals;
      if (goals.size() == 1) return fmt::format("reach goal '{}'", g.name(goals.front()));
      return fmt::format("reach one of {} goals", goals.size());
    }
    case TestPurpose::Kind::cover:
      if (p.by_label) {
        std::vector<std::uint8_t> seen(g.num_labels(), 0);
        for (EdgeId e : g.edges())
          if (p.edges.empty() || std::find(p.edges.begin(), p.edges.end(), e) != p.edges.end())
            seen[g.label_id(e).index()] = 1;
        const auto labels = static_cast<std::uint32_t>(std::count(seen.begin(), seen.end(), 1));
        return p.threshold < 1 ? fmt::format("cover {} of {} labels ({:g}%)", purpose_needed(p.threshold, labels),
                                             labels, p.threshold * 100)
                               : fmt::format("cover all {} labels", labels);
      }
      if (p.threshold < 1) {
        const auto total = p.edges.empty() ? g.num_edges() : static_cast<std::uint32_t>(p.edges.size());
        return fmt::format("cover {} of {} edges ({:g}%)", purpose_needed(p.threshold, total), total,
                           p.threshold * 100);
      }
      if (p.edges.empty()) return fmt::format("cover all {} edges", g.num_edges());
      if (p.edges.size() == 1) return fmt::format("cover {}", describe_edge(g, p.edges.front()));
      return fmt::format("cover {} of {} edges", p.edges.size(), g.num_edges());
  }
  return "?";
}

void write_comparison_text(std::ostream& out, const StrategyComparison& c) {
  const bool mutants = !c.mutants.empty();
  out << fmt::format("{:<11} {:>6} {:>9} {:>10} {:>9} {:>5} {:>5} {:>5} {:>5}{}  {}\n", "strategy", "runs", "success",
                     "mean", "sd", "pass", "fail", "inc", "err", mutants ? "   mutants detected   steps to detect" : "",
                     "purpose");
  for (const auto& row : c.rows) {
    const SimulationStats& s = row.stats;
    // A mean over no run and a deviation over fewer than two are undefined: "-", not 0.
    const std::string m = mutants
                              ? fmt::format("   {:>3}/{:<3} {:>6.1f}%   {:>10}", s.mutants_detected, s.mutants,
                                            100.0 * s.detected_fraction(),
                                            s.mutant_runs_failed ? fmt::format("{:.1f}", s.mean_steps_to_detect) : "-")
                              : "";
    out << fmt::format("{:<11} {:>6} {:>8.1f}% {:>10} {:>9} {:>5} {:>5} {:>5} {:>5}{}  {}\n", row.strategy, s.runs,
                       100.0 * s.success_rate, s.purpose_met ? fmt::format("{:.2f}", s.mean_steps) : "-",
                       s.purpose_met > 1 ? fmt::format("{:.2f}", s.sd_steps) : "-", s.passed, s.failed, s.inconclusive,
                       s.errors, m, row.purpose_description);
  }
  if (!mutants) return;
  out << "mutants (x: detected by the strategy in that column)\n";
  std::string head = fmt::format("  {:>3}", "#");
  for (const auto& row : c.rows) head += fmt::format(" {:>11}", row.strategy);
  const std::vector<MutantVerdict> verdicts = mutant_verdicts(c);
  out << head << (verdicts.empty() ? "" : "  class     ") << "  mutation\n";
  for (std::size_t m = 0; m < c.mutants.size(); ++m) {
    std::string line = fmt::format("  {:>3}", m + 1);
    for (const auto& row : c.rows)
      line += fmt::format(" {:>11}", m < row.stats.mutant_detected.size() && row.stats.mutant_detected[m] ? "x" : "-");
    if (!verdicts.empty()) line += fmt::format("  {:<10}", to_string(verdicts[m].cls));
    out << line << "  " << c.mutants[m].description << '\n';
    if (!verdicts.empty()) write_mutant_verdict_text(out, verdicts[m]);
  }
  if (!verdicts.empty()) write_mutation_score_text(out, verdicts);
}

std::vector<MutantVerdict> mutant_verdicts(const StrategyComparison& c) {
  std::vector<MutantVerdict> out;
  for (std::size_t m = 0; m < c.mutants.size(); ++m) {
    if (!c.mutants[m].analysis) return {};
    std::vector<MutantKill> kills;
    for (const auto& row : c.rows)
      if (m < row.stats.mutant_detected.size() && row.stats.mutant_detected[m])
        kills.push_back({row.strategy, m < row.stats.mutant_fail_steps.size() ? row.stats.mutant_fail_steps[m] : 0});
    out.push_back(classify_mutant(*c.mutants[m].analysis, std::move(kills)));
  }
  return out;
}

nlohmann::json comparison_json(const StrategyComparison& c) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : c.rows) {
    const SimulationStats& s = row.stats;
    nlohmann::json j = {{"strategy", row.strategy},
                        {"purpose", std::string(to_string(row.purpose.kind))},
                        {"purpose_description", row.purpose_description},
                        {"runs", s.runs},
                        {"passed", s.passed},
                        {"failed", s.failed},
                        {"inconclusive", s.inconclusive},
                        {"errors", s.errors},
                        {"success_rate", s.success_rate},
                        {"mean_steps", s.mean_steps},
                        {"sd_steps", s.sd_steps},
                        {"purpose_met", s.purpose_met},
                        {"steps_sum", s.steps_sum},
                        {"steps_sq_sum", s.steps_sq_sum}};
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
                      {"mean_steps_to_detect", s.mean_steps_to_detect},
                      {"steps_to_detect_sum", s.steps_to_detect_sum},
                      {"fail_steps", s.mutant_fail_steps}};
    }
    rows.push_back(std::move(j));
  }
  nlohmann::json j = {{"seed", c.seed},
                      {"steps", c.max_steps},
                      {"runs", c.runs},
                      {"mutant_runs", c.mutant_runs},
                      {"strategies", std::move(rows)}};
  if (!c.shard.is_whole()) j["shard"] = to_string(c.shard);
  if (!c.model.empty()) j["model"] = c.model;
  if (!c.implementation.empty()) j["implementation"] = c.implementation;
  if (!c.mutants.empty()) {
    // A shard's kills are part of the whole campaign's: only the whole comparison is classified
    // (and shards stay equal in "mutants", which `playtest merge` checks).
    const std::vector<MutantVerdict> verdicts = c.shard.is_whole() ? mutant_verdicts(c) : std::vector<MutantVerdict>{};
    j["mutants"] = nlohmann::json::array();
    for (std::size_t m = 0; m < c.mutants.size(); ++m) {
      nlohmann::json x = {{"index", m + 1}, {"kind", c.mutants[m].kind}, {"description", c.mutants[m].description}};
      if (!verdicts.empty())
        x.update(mutant_verdict_json(verdicts[m]));
      else if (c.mutants[m].analysis)
        x.update(mutant_analysis_json(*c.mutants[m].analysis));
      j["mutants"].push_back(std::move(x));
    }
    if (!verdicts.empty()) j["mutation_score"] = mutation_score_json(verdicts);
  }
  return j;
}

TestGraph system_graph(const TestGraph& model, const TestGraph& learned, const std::string& path) {
  if (learned.num_vertices() != model.num_vertices() || learned.num_edges() != model.num_edges())
    throw InputError(
        Diagnostic{{path, 0, 0, ""},
                   fmt::format("--system: {} vertices and {} edges, the model has {} and {}: it must be the "
                               "same graph with other probabilities",
                               learned.num_vertices(), learned.num_edges(), model.num_vertices(), model.num_edges()),
                   {}});
  std::vector<double> probs(model.num_edges(), 0.0);
  for (EdgeId e : model.edges()) {
    const auto f = learned.find_edge(model.name(e));
    if (!f || learned.name(learned.source(*f)) != model.name(model.source(e)) ||
        learned.name(learned.target(*f)) != model.name(model.target(e)) || learned.label(*f) != model.label(e))
      throw InputError(
          Diagnostic{{path, 0, 0, ""},
                     fmt::format("--system: edge '{}' ({} --{}--> {}) of the model is not in it", model.name(e),
                                 model.name(model.source(e)), model.label(e), model.name(model.target(e))),
                     {}});
    probs[e.index()] = learned.probability(*f);
  }
  return with_probabilities(model, probs);
}

}  // namespace playtest
