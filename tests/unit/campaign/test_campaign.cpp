// Campaigns: several jobs give the results of one job (run by run, trace event by trace event), shards
// partition the runs and keep their seeds, fail-fast stops only the runs after the first FAIL, an
// adapter failure makes only its run ERROR, a stop request ends every worker; simulate gives the same
// numbers on any number of threads.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>

#include <atomic>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>

#include "playtest/base/error.hpp"
#include "playtest/base/source_text.hpp"
#include "playtest/campaign/campaign.hpp"
#include "playtest/campaign/campaign_output.hpp"
#include "playtest/campaign/junit_report.hpp"
#include "playtest/campaign/merge.hpp"
#include "playtest/campaign/mutation.hpp"
#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/campaign/simulation.hpp"
#include "playtest/campaign/trace_writer.hpp"
#include "playtest/catalog/strategy_table.hpp"
#include "playtest/io/graph_json.hpp"
#include "test_paths.hpp"

namespace playtest {
namespace {

TestGraph workers_model() {
  return parse_graph(read_source_text(playtest::testing::source_dir() + "/examples/sut/workers.json"));
}

// A simulated system that starts every run from the same seed: its answers depend only on what the
// tester did in this run, so a run's result depends only on the tester's seed, whichever worker
// (and adapter) plays it. Optionally slow (to make runs overlap) and stoppable.
class ReseededSut final : public Adapter {
 public:
  ReseededSut(const TestGraph& g, std::uint64_t seed, const StopSignal* stop = nullptr, int delay_us = 0)
      : g_(g), seed_(seed), stop_(stop), delay_us_(delay_us) {}
  void start() override {
    sut_.emplace(g_, seed_);
    sut_->start();
  }
  AdapterEvent stimulate(std::string_view label) override {
    pause();
    return sut_->stimulate(label);
  }
  AdapterEvent next_event(Clock::time_point deadline) override {
    pause();
    return sut_->next_event(deadline);
  }
  void reset() override { sut_->reset(); }
  void finish() noexcept override {}

 private:
  void pause() {
    if (delay_us_ > 0) std::this_thread::sleep_for(std::chrono::microseconds(delay_us_));
    if (stop_ != nullptr && stop_->requested()) throw StopRequested("stopped");
  }
  const TestGraph& g_;
  std::uint64_t seed_;
  const StopSignal* stop_;
  int delay_us_;
  std::optional<SimulatedSut> sut_;
};

// Every observer event as a line, times left out.
class Recorder final : public CampaignObserver {
 public:
  std::vector<std::string> events;
  void on_campaign_begin(const GameGraph&, const CampaignOptions& o) override {
    events.push_back("campaign " + std::to_string(o.runs));
  }
  void on_run_begin(std::uint32_t run, std::uint64_t seed) override {
    events.push_back("begin " + std::to_string(run) + " " + std::to_string(seed));
  }
  void on_step(const GameGraph& g, const TraceStep& s) override {
    events.push_back("step " + std::to_string(s.step) + " " + g.vertex_name(s.from) + " " + s.label);
  }
  void on_end(const GameGraph&, const RunResult& r) override {
    events.push_back("end " + std::to_string(r.run) + " " + std::string(to_string(r.verdict)) + " " + r.message);
  }
};

CampaignWorkers workers_for(const TestGraph& model, const TestGraph& sut, std::string_view kind, int delay_us = 0) {
  return {.policy = policy_maker(kind, model),
          .adapter = [&sut, delay_us](std::uint32_t job, const StopSignal& stop) -> std::unique_ptr<Adapter> {
            // Jobs differ in speed, so that runs finish out of order.
            return std::make_unique<ReseededSut>(sut, 7, &stop, delay_us * static_cast<int>(job % 3));
          }};
}

RunOptions reach_off(const TestGraph& g) {
  RunOptions o;
  o.purpose.kind = TestPurpose::Kind::reach;
  o.purpose.goals = {*g.find_vertex("off")};
  o.max_steps = 60;
  o.timeout = std::chrono::milliseconds(1);
  return o;
}

void expect_same_runs(const CampaignResult& a, const CampaignResult& b) {
  ASSERT_EQ(a.runs.size(), b.runs.size());
  for (std::size_t i = 0; i < a.runs.size(); ++i) {
    SCOPED_TRACE("run " + std::to_string(a.runs[i].run));
    EXPECT_EQ(a.runs[i].run, b.runs[i].run);
    EXPECT_EQ(a.runs[i].seed, b.runs[i].seed);
    EXPECT_EQ(a.runs[i].verdict, b.runs[i].verdict);
    EXPECT_EQ(a.runs[i].message, b.runs[i].message);
    EXPECT_EQ(a.runs[i].steps, b.runs[i].steps);
    EXPECT_EQ(a.runs[i].edge_visits, b.runs[i].edge_visits);
    ASSERT_EQ(a.runs[i].trace.size(), b.runs[i].trace.size());
    for (std::size_t s = 0; s < a.runs[i].trace.size(); ++s)
      EXPECT_EQ(a.runs[i].trace[s].edge, b.runs[i].trace[s].edge);
  }
}

TEST(Shard, PartitionsTheRunsAndParses) {
  for (std::uint32_t m = 1; m <= 7; ++m)
    for (std::uint32_t runs = 1; runs <= 30; ++runs) {
      std::uint32_t total = 0;
      for (std::uint32_t i = 1; i <= runs; ++i) {
        int owners = 0;
        for (std::uint32_t k = 1; k <= m; ++k) owners += Shard{k, m}.contains(i);
        EXPECT_EQ(owners, 1) << i << " of " << runs << " in " << m << " shards";
      }
      for (std::uint32_t k = 1; k <= m; ++k) {
        std::uint32_t n = 0;
        for (std::uint32_t i = 1; i <= runs; ++i) n += Shard{k, m}.contains(i);
        EXPECT_EQ(Shard({k, m}).runs_of(runs), n);
        total += n;
      }
      EXPECT_EQ(total, runs);
    }
  EXPECT_EQ(parse_shard("2/4"), (Shard{2, 4}));
  for (const char* bad : {"", "2", "0/4", "5/4", "2/0", "a/b", "-1/4", "2/4/1", "+1/2"})
    EXPECT_THROW(parse_shard(bad), UsageError) << bad;
}

TEST(Campaign, JobsGiveTheResultsAndTheEventsOfOneJob) {
  const TestGraph g = workers_model();
  const std::vector<Mutant> mutants = make_mutants(g, 6, 3);
  ASSERT_FALSE(mutants.empty());
  const Runner runner(g, reach_off(g));
  for (std::string_view kind : {"random", "anti-ant", "reach", "cover"}) {
    for (const TestGraph* sut : {&g, &mutants.front().graph}) {
      SCOPED_TRACE(std::string(kind));
      Recorder one, four;
      const CampaignResult a =
          run_campaign(runner, workers_for(g, *sut, kind), {.runs = 12, .seed = 5, .jobs = 1}, &one);
      const CampaignResult b =
          run_campaign(runner, workers_for(g, *sut, kind, 300), {.runs = 12, .seed = 5, .jobs = 4}, &four);
      expect_same_runs(a, b);
      EXPECT_EQ(a.verdict, b.verdict);
      EXPECT_EQ(a.edge_visits, b.edge_visits);
      EXPECT_EQ(one.events, four.events);
      ASSERT_EQ(a.runs.size(), 12u);
      for (std::uint32_t i = 0; i < 12; ++i) {
        EXPECT_EQ(a.runs[i].run, i + 1);
        EXPECT_EQ(a.runs[i].seed, campaign_seed(5, i + 1));
      }
    }
  }
}

TEST(Campaign, OnePolicyAndAdapterOfTheCallerPlayOneJob) {
  const TestGraph g = workers_model();
  const std::vector<Mutant> mutants = make_mutants(g, 6, 3);
  const Runner runner(g, reach_off(g));
  auto policy = make_policy("random", g);
  ReseededSut sut(mutants.front().graph, 7);
  Recorder lent, made;
  const CampaignResult a = run_campaign(runner, *policy, sut, {.runs = 8, .seed = 5}, &lent);
  const CampaignResult b =
      run_campaign(runner, workers_for(g, mutants.front().graph, "random"), {.runs = 8, .seed = 5}, &made);
  expect_same_runs(a, b);
  EXPECT_EQ(lent.events, made.events);
  EXPECT_THROW(run_campaign(runner, *policy, sut, {.runs = 8, .jobs = 2}), UsageError);
}

TEST(Campaign, ShardsPartitionTheCampaignWithItsSeeds) {
  const TestGraph g = workers_model();
  const std::vector<Mutant> mutants = make_mutants(g, 4, 9);
  const Runner runner(g, reach_off(g));
  const TestGraph& sut = mutants.front().graph;
  const CampaignResult whole = run_campaign(runner, workers_for(g, sut, "random"), {.runs = 10, .seed = 2});
  CampaignResult joined;
  for (std::uint32_t k = 1; k <= 3; ++k) {
    const CampaignResult part = run_campaign(runner, workers_for(g, sut, "random"),
                                             {.runs = 10, .seed = 2, .jobs = 2, .shard = {k, 3}});
    EXPECT_EQ(part.runs_in_shard, Shard({k, 3}).runs_of(10));
    for (const RunResult& r : part.runs) {
      EXPECT_TRUE(Shard({k, 3}).contains(r.run));
      joined.runs.push_back(r);
    }
  }
  std::sort(joined.runs.begin(), joined.runs.end(),
            [](const RunResult& a, const RunResult& b) { return a.run < b.run; });
  expect_same_runs(whole, joined);
  EXPECT_THROW(run_campaign(runner, workers_for(g, sut, "random"), {.runs = 2, .shard = {3, 3}}),
               UsageError);
  EXPECT_THROW(run_campaign(runner, workers_for(g, sut, "random"), {.runs = 0}), UsageError);
  EXPECT_THROW(run_campaign(runner, workers_for(g, sut, "random"), {.jobs = 0}), UsageError);
}

TEST(Campaign, FailFastKeepsTheRunsUpToTheFirstFailure) {
  const TestGraph g = workers_model();
  // A mutant that some runs catch and others do not.
  const std::vector<Mutant> mutants = make_mutants(g, 20, 4);
  const Runner runner(g, reach_off(g));
  bool tested = false;
  for (const Mutant& m : mutants) {
    const CampaignResult all =
        run_campaign(runner, workers_for(g, m.graph, "random"), {.runs = 16, .seed = 1});
    std::uint32_t first = 0;
    for (const RunResult& r : all.runs)
      if (r.verdict == Verdict::fail && first == 0) first = r.run;
    if (first < 2 || first > 12) continue;
    tested = true;
    SCOPED_TRACE(m.description + ", first FAIL at run " + std::to_string(first));
    const CampaignResult one =
        run_campaign(runner, workers_for(g, m.graph, "random"), {.runs = 16, .seed = 1, .fail_fast = true});
    ASSERT_EQ(one.runs.size(), first);
    EXPECT_EQ(one.failed_fast, first);
    EXPECT_EQ(one.verdict, Verdict::fail);
    EXPECT_EQ(one.runs_not_started(), 16 - first);
    const CampaignResult four = run_campaign(runner, workers_for(g, m.graph, "random", 2000),
                                             {.runs = 16, .seed = 1, .jobs = 4, .fail_fast = true});
    EXPECT_EQ(four.failed_fast, first);
    EXPECT_EQ(four.verdict, Verdict::fail);
    ASSERT_GE(four.runs.size(), first);
    for (std::size_t i = 0; i < four.runs.size(); ++i) {
      const RunResult& r = four.runs[i];
      if (r.run <= first) {  // exactly the runs of one job
        EXPECT_EQ(r.verdict, all.runs[r.run - 1].verdict);
        EXPECT_EQ(r.steps, all.runs[r.run - 1].steps);
        EXPECT_FALSE(r.interrupted);
      } else if (r.interrupted) {  // stopped: reported as not completed
        EXPECT_EQ(r.verdict, Verdict::error);
        EXPECT_EQ(r.signal, 0);
        EXPECT_NE(r.message.find("not completed"), std::string::npos) << r.message;
        EXPECT_NE(r.message.find("run " + std::to_string(first) + " failed"), std::string::npos) << r.message;
      } else {  // finished before the failure was known
        EXPECT_EQ(r.verdict, all.runs[r.run - 1].verdict);
      }
    }
    // Four workers: at most three runs after the failing one were under way.
    EXPECT_LE(four.runs.size(), first + 3);
    EXPECT_FALSE(four.interrupted);
    break;
  }
  EXPECT_TRUE(tested) << "no mutant fails in some runs only: choose other mutants";
}

// Waits in its first start() until `n` adapters have started (at most 5 s): so every one of n jobs
// plays a run, whatever the timing of the threads.
void barrier(std::atomic<int>& started, int n) {
  ++started;
  for (int i = 0; i < 5000 && started.load() < n; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

// An adapter that breaks in every run of job 2.
TEST(Campaign, AnAdapterFailureIsAnErrorOfItsRunOnly) {
  const TestGraph g = workers_model();
  const Runner runner(g, reach_off(g));
  std::atomic<int> started{0};
  class Broken final : public Adapter {
   public:
    explicit Broken(std::atomic<int>& started) : started_(started) {}
    void start() override {
      if (first_) barrier(started_, 3);
      first_ = false;
      throw AdapterError("adapter 'broken': closed its output");
    }
    AdapterEvent stimulate(std::string_view) override { return {}; }
    AdapterEvent next_event(Clock::time_point) override { return {}; }
    void reset() override {}
    void finish() noexcept override {}

   private:
    std::atomic<int>& started_;
    bool first_ = true;
  };
  class Waiting final : public Adapter {
   public:
    Waiting(const TestGraph& g, const StopSignal& stop, std::atomic<int>& started)
        : sut_(g, 1, &stop, 200), started_(started) {}
    void start() override {
      if (first_) barrier(started_, 3);
      first_ = false;
      sut_.start();
    }
    AdapterEvent stimulate(std::string_view label) override { return sut_.stimulate(label); }
    AdapterEvent next_event(Clock::time_point deadline) override { return sut_.next_event(deadline); }
    void reset() override { sut_.reset(); }
    void finish() noexcept override {}

   private:
    ReseededSut sut_;
    std::atomic<int>& started_;
    bool first_ = true;
  };
  const CampaignWorkers w{.policy = policy_maker("reach", g),
                          .adapter = [&](std::uint32_t job, const StopSignal& stop) -> std::unique_ptr<Adapter> {
                            if (job == 2) return std::make_unique<Broken>(started);
                            return std::make_unique<Waiting>(g, stop, started);
                          }};
  const CampaignResult c = run_campaign(runner, w, {.runs = 12, .jobs = 3});
  ASSERT_EQ(c.runs.size(), 12u);
  int errors = 0, passes = 0;
  for (const RunResult& r : c.runs) {
    if (r.verdict == Verdict::error) {
      ++errors;
      EXPECT_EQ(r.message, "adapter 'broken': closed its output");
    } else {
      ++passes;
      EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
    }
  }
  EXPECT_GE(errors, 1);  // job 2 played at least one run (the barrier)
  EXPECT_GE(passes, 2);  // jobs 1 and 3 too
  EXPECT_EQ(c.verdict, Verdict::error);
}

// Adapters that wait until they are stopped: a stop request (SIGTERM) ends every worker at once.
TEST(Campaign, AStopEndsEveryWorker) {
  const TestGraph g = workers_model();
  StopSignal stop;
  RunOptions o = reach_off(g);
  o.stop = &stop;
  const Runner runner(g, o);
  class Hang final : public Adapter {
   public:
    Hang(const StopSignal& stop, std::atomic<int>& waiting) : stop_(stop), waiting_(waiting) {}
    void start() override {}
    AdapterEvent stimulate(std::string_view) override {
      ++waiting_;
      pollfd p{stop_.fd(), POLLIN, 0};
      ::poll(&p, 1, 20000);
      throw StopRequested("stopped");
    }
    AdapterEvent next_event(Clock::time_point) override { return {}; }
    void reset() override {}
    void finish() noexcept override {}

   private:
    const StopSignal& stop_;
    std::atomic<int>& waiting_;
  };
  std::atomic<int> waiting{0};
  const CampaignWorkers w{.policy = policy_maker("random", g),
                          .adapter = [&](std::uint32_t, const StopSignal& s) -> std::unique_ptr<Adapter> {
                            return std::make_unique<Hang>(s, waiting);
                          }};
  std::thread stopper([&] {
    while (waiting.load() < 4) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    stop.request(SIGTERM);
  });
  Recorder rec;
  const CampaignResult c = run_campaign(runner, w, {.runs = 10, .jobs = 4}, &rec);
  stopper.join();
  ASSERT_EQ(c.runs.size(), 4u);
  EXPECT_TRUE(c.interrupted);
  EXPECT_EQ(c.signal, SIGTERM);
  EXPECT_EQ(c.runs_not_started(), 6u);
  EXPECT_EQ(c.verdict, Verdict::error);
  for (const RunResult& r : c.runs) {
    EXPECT_TRUE(r.interrupted);
    EXPECT_EQ(r.signal, SIGTERM);
    EXPECT_NE(r.message.find("interrupted by SIGTERM"), std::string::npos) << r.message;
  }
  // Every run that started is reported, in order.
  int begins = 0, ends = 0;
  for (const std::string& e : rec.events) {
    begins += e.rfind("begin ", 0) == 0;
    ends += e.rfind("end ", 0) == 0;
  }
  EXPECT_EQ(begins, 4);
  EXPECT_EQ(ends, 4);
}

TEST(Campaign, AnExceptionInAWorkerStopsTheCampaignAndIsRethrown) {
  const TestGraph g = workers_model();
  const Runner runner(g, reach_off(g));
  class Throwing final : public Policy {
   public:
    std::string_view name() const override { return "throwing"; }
    Decision choose(const RunView&, Rng&) override { throw InternalError("policy bug"); }
  };
  const CampaignWorkers w{.policy = [](const GameGraph&) -> std::unique_ptr<Policy> { return std::make_unique<Throwing>(); },
                          .adapter = [&g](std::uint32_t, const StopSignal& s) -> std::unique_ptr<Adapter> {
                            return std::make_unique<ReseededSut>(g, 1, &s);
                          }};
  EXPECT_THROW(run_campaign(runner, w, {.runs = 8, .jobs = 3}), InternalError);
}

TEST(Simulate, ThreadsGiveTheSameNumbersAndShardsAddUp) {
  const TestGraph g = workers_model();
  const std::vector<Mutant> mutants = make_mutants(g, 5, 2);
  for (std::string_view kind : {"random", "reach", "cover"}) {
    SCOPED_TRACE(std::string(kind));
    SimulationOptions so{.runs = 40, .mutant_runs = 3, .seed = 11};
    so.run = reach_off(g);
    const auto policies = policy_maker(kind, g);
    auto one_policy = policies(g);
    const SimulationStats base = simulate(g, *one_policy, so, mutants);
    for (std::uint32_t threads : {1u, 2u, 5u}) {
      so.threads = threads;
      const SimulationStats s = simulate(g, policies, so, mutants);
      EXPECT_EQ(s.runs, base.runs);
      EXPECT_EQ(s.passed, base.passed);
      EXPECT_EQ(s.steps_to_purpose, base.steps_to_purpose);
      EXPECT_EQ(s.mean_steps, base.mean_steps);
      EXPECT_EQ(s.sd_steps, base.sd_steps);
      EXPECT_EQ(s.mutant_detected, base.mutant_detected);
      EXPECT_EQ(s.mean_steps_to_detect, base.mean_steps_to_detect);
    }
    // Three shards, merged through their JSON, are the whole.
    so.threads = 2;
    StrategyComparison whole{.seed = 11, .max_steps = 60, .runs = 40, .mutant_runs = 3};
    whole.rows.push_back({"x", so.run.purpose, base, "reach goal 'off'"});
    for (const Mutant& m : mutants) whole.mutants.push_back({std::string(to_string(m.kind)), m.description});
    std::vector<CampaignPart> parts;
    for (std::uint32_t k = 1; k <= 3; ++k) {
      so.shard = {k, 3};
      StrategyComparison part = whole;
      part.shard = so.shard;
      part.rows[0].stats = simulate(g, policies, so, mutants);
      parts.push_back(read_campaign_part(comparison_json(part).dump(), "shard" + std::to_string(k)));
    }
    so.shard = {};
    const MergedCampaign merged = merge_campaign(std::move(parts));
    ASSERT_TRUE(merged.comparison);
    EXPECT_EQ(comparison_json(*merged.comparison), comparison_json(whole));
  }
}

// --- merge ---------------------------------------------------------------------------------------------

TEST(Merge, JunitReadsBackAsWritten) {
  JunitSuite suite{.name = "playtest run m<1>.json", .classname = "playtest.random"};
  suite.properties = {{"strategy", "random"}, {"seed", "3"}, {"runs", "4"}, {"shard", "1/2"}};
  suite.cases.push_back(
      {.run = 1, .seed = 3, .time_s = 0.25, .verdict = Verdict::pass, .message = "ok", .detail = "ok"});
  suite.cases.push_back({.run = 3,
                         .seed = 5,
                         .time_s = 1.5,
                         .verdict = Verdict::fail,
                         .message = "allowed {a & b}, observed 'c <d>'",
                         .detail = "trace:\n  1  go \"now\"\n\x01 caf\xc3\xa9"});
  std::ostringstream out;
  write_junit(out, suite);
  const CampaignPart p = read_campaign_part(out.str(), "j.xml");
  EXPECT_EQ(p.kind, CampaignPartKind::junit);
  EXPECT_EQ(p.strategy, "random");
  EXPECT_EQ(p.seed, 3u);
  EXPECT_EQ(p.runs, 4u);
  EXPECT_EQ(p.shard, (Shard{1, 2}));
  std::ostringstream again;
  write_junit(again, p.junit);
  EXPECT_EQ(again.str(), out.str());
}

TEST(Merge, RefusesWhatDoesNotBelongTogether) {
  auto junit = [](const std::string& shard, std::uint64_t seed, std::vector<std::uint32_t> runs) {
    JunitSuite s{.name = "s", .classname = "c"};
    s.properties = {{"strategy", "random"}, {"seed", std::to_string(seed)}, {"runs", "4"}, {"shard", shard}};
    for (std::uint32_t r : runs) s.cases.push_back({.run = r, .seed = r, .verdict = Verdict::pass});
    std::ostringstream out;
    write_junit(out, s);
    return out.str();
  };
  auto merge = [](std::vector<std::pair<std::string, std::string>> files) {
    std::vector<CampaignPart> parts;
    for (auto& [name, text] : files) parts.push_back(read_campaign_part(text, name));
    return merge_campaign(std::move(parts));
  };
  auto message = [&](std::vector<std::pair<std::string, std::string>> files) -> std::string {
    try {
      merge(std::move(files));
    } catch (const InputError& e) {
      return e.diagnostic().message;
    }
    return "(merged)";
  };
  const MergedCampaign ok = merge({{"a", junit("1/2", 1, {1, 3})}, {"b", junit("2/2", 1, {2, 4})}});
  ASSERT_TRUE(ok.junit);
  ASSERT_EQ(ok.junit->cases.size(), 4u);
  for (std::uint32_t i = 0; i < 4; ++i) EXPECT_EQ(ok.junit->cases[i].run, i + 1);
  EXPECT_EQ(ok.junit->properties.size(), 3u);  // no shard property
  EXPECT_EQ(message({{"a", junit("1/2", 1, {1, 3})}}), "shard 2/2 is missing among the JUnit inputs");
  EXPECT_EQ(message({{"a", junit("1/2", 1, {1, 3})}, {"b", junit("1/2", 1, {1, 3})}}),
            "a and b are both shard 1/2 (JUnit)");
  EXPECT_EQ(message({{"a", junit("1/2", 1, {1, 3})}, {"b", junit("2/2", 2, {2, 4})}}),
            "a and b are not shards of the same campaign: seed 1 and 2");
  EXPECT_EQ(message({{"a", junit("1/2", 1, {1, 2})}, {"b", junit("2/2", 1, {4})}}),
            "a: run 2 is not a run of shard 1/2 of a campaign of 4 runs");
  // Not XML playtest writes: located errors.
  for (const char* bad :
       {"<testsuites><testsuite name='x'><testcase name='first'/></testsuite></testsuites>", "<testsuites><testsuite>",
        "<!DOCTYPE x [<!ENTITY a 'b'>]><testsuites/>", "{\"a\": 1}", "hello", "  "})
    EXPECT_THROW(read_campaign_part(bad, "bad"), ParseError) << bad;
  try {
    read_campaign_part("<testsuites>\n<testsuite name='x'>\n<testcase name='run x'/>", "j.xml");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.diagnostic().where.line, 3u);
    EXPECT_NE(e.diagnostic().message.find("'run N (seed S)'"), std::string::npos) << e.diagnostic().message;
  }
}

TEST(Merge, TraceAndJsonOfShardsAreThoseOfTheWhole) {
  const TestGraph g = workers_model();
  const std::vector<Mutant> mutants = make_mutants(g, 6, 3);
  const Runner runner(g, reach_off(g));
  const TestGraph& sut = mutants.front().graph;
  auto outputs = [&](const CampaignOptions& o) {
    std::ostringstream trace;
    JsonlTraceWriter w(trace, "random");
    const CampaignResult c = run_campaign(runner, workers_for(g, sut, "random"), o, &w);
    nlohmann::json j =
        campaign_json(runner, c, "random",
                      {.replay = [](std::uint64_t seed) { return "playtest run m --seed " + std::to_string(seed); }});
    for (auto& r : j["runs"]) r.erase("elapsed_ms");
    return std::make_pair(trace.str(), j);
  };
  auto untimed = [](const std::string& trace) {
    std::string out;
    std::istringstream in(trace);
    for (std::string line; std::getline(in, line);) {
      nlohmann::json j = nlohmann::json::parse(line);
      j.erase("time_ms");
      j.erase("elapsed_ms");
      out += j.dump() + "\n";
    }
    return out;
  };
  const auto [whole_trace, whole_json] = outputs({.runs = 9, .seed = 4});
  std::vector<CampaignPart> parts;
  for (std::uint32_t k = 1; k <= 2; ++k) {
    const auto [t, j] = outputs({.runs = 9, .seed = 4, .jobs = 3, .shard = {k, 2}});
    parts.push_back(read_campaign_part(t, "t" + std::to_string(k)));
    parts.push_back(read_campaign_part(j.dump(), "j" + std::to_string(k)));
  }
  const MergedCampaign m = merge_campaign(std::move(parts));
  ASSERT_TRUE(m.trace);
  std::string merged_trace;
  for (const std::string& l : *m.trace) merged_trace += l + "\n";
  EXPECT_EQ(untimed(merged_trace), untimed(whole_trace));
  // The model's slack needs the whole campaign's evidence, which the shards' files do not hold:
  // merge leaves it out.
  nlohmann::json whole_summary = whole_json;
  whole_summary.erase("model_slack");
  EXPECT_EQ(m.summary, whole_summary);
  EXPECT_EQ(m.verdict, Verdict::fail);
}

}  // namespace
}  // namespace playtest
