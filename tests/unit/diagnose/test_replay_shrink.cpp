// Traces read back, scripts, replay and shrink on simulated systems with a planted bug
// (tests/support/planted_bug_adapter.hpp): deterministic for a seed, so rates are exact here.
#include <gtest/gtest.h>

#include <sstream>
#include <thread>

#include "planted_bug_adapter.hpp"
#include "playtest/base/error.hpp"
#include "playtest/campaign/trace_reader.hpp"
#include "playtest/campaign/trace_writer.hpp"
#include "playtest/diagnose/replay.hpp"
#include "playtest/diagnose/shrink.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/strategy/random_walk_policy.hpp"
#include "test_paths.hpp"

namespace playtest {
namespace {

using testing::PlantedBugAdapter;

const TestGraph& lock_model() {
  static const TestGraph g = load_graph(playtest::testing::source_dir() + "/examples/sut/lock.json");
  return g;
}

const std::vector<std::string> combo{"knock", "unlock", "ping"};

// A random walk until the planted bug shows (purpose none, so only a failure ends the run).
RunResult failing_random_run(const TestGraph& g, PlantedBugAdapter& sut, std::uint64_t seed) {
  RunOptions ro;
  ro.max_steps = 5000;
  Runner runner(g, ro);
  RandomWalkPolicy random;
  return runner.run(random, sut, nullptr, seed);
}

std::string trace_text(const TestGraph& g, const RunResult& r, const std::string& model = "") {
  std::ostringstream s;
  write_trace(s, g, r, {.seed = r.seed, .model = model});
  return s.str();
}

TEST(TraceFile, RoundTripOfAWrittenRun) {
  PlantedBugAdapter sut(lock_model(), combo, 1.0, 7);
  const RunResult r = failing_random_run(lock_model(), sut, 7);
  ASSERT_EQ(r.verdict, Verdict::fail);
  std::istringstream in(trace_text(lock_model(), r, "lock.json"));
  const RecordedTrace t = read_trace(in, "t.jsonl");
  ASSERT_EQ(t.runs.size(), 1u);
  const RunRecord& run = t.runs[0];
  EXPECT_EQ(run.model, "lock.json");
  EXPECT_TRUE(run.verdict.has_value());
  EXPECT_EQ(run.verdict, Verdict::fail);
  ASSERT_EQ(run.trace.size(), r.trace.size());
  for (std::size_t i = 0; i < r.trace.size(); ++i) {
    EXPECT_EQ(run.trace[i].kind, r.trace[i].kind);
    EXPECT_EQ(run.trace[i].vertex, lock_model().name(r.trace[i].from));
    EXPECT_EQ(run.trace[i].line, i + 2);
  }
  // The recorded run and the run itself make the same replay target.
  const ReplayTarget a = replay_target(lock_model(), run, t.source), b = replay_target(lock_model(), r);
  EXPECT_EQ(a.script, b.script);
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_EQ(a.failure.observed, "jammed");
  EXPECT_EQ(a.failure.allowed, (std::vector<std::string>{"busy", "ok"}));
}

TEST(TraceFile, ErrorsAreLocated) {
  auto error_of = [](const std::string& text) {
    std::istringstream in(text);
    try {
      read_trace(in, "t.jsonl");
    } catch (const ParseError& e) {
      return format_diagnostic(e.diagnostic());
    }
    return std::string("no error");
  };
  auto has = [&](const std::string& text, const std::string& part) {
    const std::string e = error_of(text);
    return e.find(part) != std::string::npos ? ::testing::AssertionSuccess() : ::testing::AssertionFailure() << e;
  };
  EXPECT_TRUE(has("", "t.jsonl: error: the trace has no run (expected JSON lines such as {\"event\":\"begin\",...})"));
  EXPECT_TRUE(has("{\"event\":\"begin\",\"run\":1}\n{oops\n", "t.jsonl:2:2: error: not a JSON trace event: "));
  EXPECT_TRUE(has("{\"event\":\"begin\"}\n\n{\"event\":\"step\",\"kind\":\"jump\",\"vertex\":\"a\"}\n",
                  "t.jsonl:3: error: unknown step kind \"jump\" (expected stimulus, observation, timeout, reset, "
                  "unexpected, silence or wait) (at /kind)"));
  EXPECT_TRUE(has("[1,2]\n", "t.jsonl:1:1: error: a trace event must be a JSON object"));
  // A number out of range is nlohmann's out_of_range, not a parse_error: still a located input error.
  EXPECT_TRUE(has("{\"event\":\"begin\",\"seed\":1e999}\n", "t.jsonl:1:1: error: not a JSON trace event: "));
  EXPECT_TRUE(has("999999999999E90001\n", "t.jsonl:1:1: error: not a JSON trace event: "));
  EXPECT_TRUE(has("{\"run\":1}\n", "t.jsonl:1: error: the event has no \"event\" (at /event)"));
  EXPECT_TRUE(has("{\"event\":\"end\",\"verdict\":\"MAYBE\"}\n",
                  "t.jsonl:1: error: unknown verdict \"MAYBE\" (expected PASS, FAIL, INCONCLUSIVE or ERROR)"));
  // A step that moves needs its target, a stimulus its label.
  EXPECT_TRUE(has("{\"event\":\"step\",\"step\":1,\"kind\":\"stimulus\",\"vertex\":\"a\",\"label\":\"x\"}\n",
                  "t.jsonl:1: error: the event has no \"to\" (at /to)"));
  EXPECT_TRUE(has("{\"event\":\"step\",\"step\":1,\"kind\":\"stimulus\",\"vertex\":\"a\",\"to\":\"b\"}\n",
                  "t.jsonl:1: error: the event has no \"label\" (at /label)"));
  // Events of later versions are skipped.
  EXPECT_EQ(error_of("{\"event\":\"begin\"}\n{\"event\":\"coverage\",\"x\":1}\n"), "no error");
}

TEST(TraceFile, ATraceOfAnotherModelIsRefusedAtItsLine) {
  std::istringstream in(
      "{\"event\":\"begin\",\"run\":1}\n"
      "{\"event\":\"step\",\"kind\":\"stimulus\",\"vertex\":\"locked\",\"label\":\"kick\",\"to\":\"x\"}\n"
      "{\"event\":\"end\",\"verdict\":\"PASS\"}\n");
  const RecordedTrace t = read_trace(in, "t.jsonl");
  try {
    replay_target(lock_model(), t.runs[0], t.source);
    FAIL() << "accepted a stimulus the model does not offer";
  } catch (const GraphError& e) {
    EXPECT_EQ(format_diagnostic(e.diagnostic()),
              "t.jsonl:2:1: error: the model does not offer the stimulus 'kick' at vertex 'locked'\n"
              "  note: is the model the one the trace was recorded with?");
  }
}

TEST(TraceFile, SelectRun) {
  std::istringstream in(
      "{\"event\":\"begin\",\"run\":1}\n{\"event\":\"end\",\"run\":1,\"verdict\":\"PASS\"}\n"
      "{\"event\":\"begin\",\"run\":2}\n{\"event\":\"end\",\"run\":2,\"verdict\":\"FAIL\"}\n");
  const RecordedTrace t = read_trace(in, "t.jsonl");
  EXPECT_EQ(select_run(t).run, 2u);
  EXPECT_EQ(select_run(t, 1).run, 1u);
  EXPECT_THROW(select_run(t, 3), UsageError);
}

TEST(Script, PlayableOnlyWhereTheModelOffersEachStimulus) {
  const TestGraph& g = lock_model();
  auto s = [](std::initializer_list<const char*> labels) {
    Script out;
    for (const char* l : labels)
      out.push_back(std::string(l) == "reset" ? ScriptStep{ScriptStep::Kind::reset, {}}
                                              : ScriptStep{ScriptStep::Kind::stimulus, l});
    return out;
  };
  EXPECT_TRUE(is_playable(g, s({})));
  EXPECT_TRUE(is_playable(g, s({"knock", "unlock", "ping"})));
  EXPECT_EQ(first_unplayable(g, s({"knock", "ping"})), 1u);  // ping needs the door open
  EXPECT_EQ(first_unplayable(g, s({"unlock", "unlock"})), 1u);
  EXPECT_TRUE(is_playable(g, s({"unlock", "status", "reset", "unlock", "lock"})));
  EXPECT_EQ(first_unplayable(g, s({"unlock", "reset", "ping"})), 2u);
  EXPECT_EQ(describe(s({"knock", "reset", "unlock"})), "knock [reset] unlock");
}

TEST(Replay, ReproducesADeterministicBugAndReportsDivergences) {
  PlantedBugAdapter sut(lock_model(), combo, 1.0, 3);
  const RunResult r = failing_random_run(lock_model(), sut, 3);
  ASSERT_EQ(r.verdict, Verdict::fail);
  const ReplayTarget target = replay_target(lock_model(), r);
  ReplayResult rr = replay(lock_model(), target, sut, {.attempts = 8});
  EXPECT_EQ(rr.verdict_rate.successes, 8u);
  EXPECT_EQ(rr.failure_rate.successes, 8u);
  EXPECT_EQ(rr.outcome(), Verdict::fail);
  // The system answers ok/busy at random, so replays follow other outputs than the recording.
  EXPECT_GT(rr.diverged, 0u);
  for (const ReplayAttempt& a : rr.attempts) {
    EXPECT_EQ(a.played, target.script.size());
    if (a.divergence) {
      EXPECT_LE(a.divergence->step, a.result.steps);
      EXPECT_NE(a.divergence->recorded, a.divergence->replayed);
    }
  }
}

TEST(Replay, ARateBelowOneAndNoReproduction) {
  // The bug fires half the time the three stimuli come; a script holding them once fails at rate 1/2.
  PlantedBugAdapter flaky(lock_model(), combo, 0.5, 11);
  ReplayTarget target;
  for (const std::string& s : combo) target.script.push_back({ScriptStep::Kind::stimulus, s});
  target.verdict = Verdict::fail;
  target.failure = {.failed = true, .vertex = "pinged", .observed = "jammed", .allowed = {"busy", "ok"}};
  ReplayResult rr = replay(lock_model(), target, flaky, {.attempts = 40});
  EXPECT_GT(rr.failure_rate.successes, 5u);
  EXPECT_LT(rr.failure_rate.successes, 35u);
  EXPECT_LE(rr.failure_rate.low, 0.5);
  EXPECT_GE(rr.failure_rate.high, 0.5);
  EXPECT_EQ(rr.outcome(), Verdict::fail);
  // Against a correct system the failure never comes back: not a PASS, an INCONCLUSIVE.
  PlantedBugAdapter correct(lock_model(), combo, 0.0, 11);
  ReplayResult none = replay(lock_model(), target, correct, {.attempts = 5});
  EXPECT_EQ(none.verdict_rate.successes, 0u);
  EXPECT_EQ(none.outcome(), Verdict::inconclusive);
  EXPECT_THROW(replay(lock_model(), target, correct, {.attempts = 0}), UsageError);
}

TEST(Replay, StopsWhereTheModelNoLongerOffersTheNextStimulus) {
  // Two branches chosen by the system: after "go" the system says "left" or "right"; "l" is only
  // offered on the left. A recording that went left cannot be followed when the system goes right.
  const TestGraph g = parse_graph(R"({"playtest": "graph/1", "initial": "s",
    "vertices": [{"id": "s", "kind": "active"}, {"id": "p", "kind": "passive"},
                 {"id": "L", "kind": "active"}, {"id": "R", "kind": "active"}, {"id": "q", "kind": "passive"}],
    "edges": [{"from": "s", "to": "p", "label": "go"},
              {"from": "p", "to": "L", "label": "left", "prob": 0.5},
              {"from": "p", "to": "R", "label": "right", "prob": 0.5},
              {"from": "L", "to": "q", "label": "l"}, {"from": "R", "to": "q", "label": "r"},
              {"from": "q", "to": "s", "label": "done", "prob": 1}]})");
  ReplayTarget target;
  target.script = {{ScriptStep::Kind::stimulus, "go"}, {ScriptStep::Kind::stimulus, "l"}};
  target.verdict = Verdict::pass;
  target.steps = {{StepKind::stimulus, "s", "go"},
                  {StepKind::observation, "p", "left"},
                  {StepKind::stimulus, "L", "l"},
                  {StepKind::observation, "q", "done"}};
  SimulatedSut sut(g, 5);
  ReplayResult rr = replay(g, target, sut, {.attempts = 30});
  std::uint32_t right = 0;
  for (const ReplayAttempt& a : rr.attempts) {
    if (a.result.trace.size() > 1 && a.result.trace[1].label == "right") {
      ++right;
      EXPECT_EQ(a.stopped, "the model does not offer the stimulus 'l' at vertex 'R' (step 2 of the script)");
      ASSERT_TRUE(a.divergence);
      EXPECT_EQ(a.divergence->step, 2u);
      EXPECT_EQ(a.divergence->recorded, "output 'left' at 'p'");
      EXPECT_EQ(a.divergence->replayed, "output 'right' at 'p'");
    } else {
      EXPECT_TRUE(a.stopped.empty());
      EXPECT_FALSE(a.divergence);
    }
  }
  EXPECT_GT(right, 0u);
  EXPECT_LT(right, 30u);
  EXPECT_EQ(rr.diverged, right);
  EXPECT_EQ(rr.verdict_rate.successes, 30u);  // PASS either way (purpose none)
}

// An output at an active vertex is found only by the runner's poll there; after the script the
// replay waits for it instead of stopping at once.
class LateOutputAdapter final : public Adapter {
 public:
  void start() override { sent_ = false; }
  AdapterEvent stimulate(std::string_view) override {
    sent_ = true;
    return AdapterEvent::nothing();
  }
  AdapterEvent next_event(Clock::time_point deadline) override {
    if (!sent_) return AdapterEvent::nothing();
    if (!answered_pong_) {
      answered_pong_ = true;
      return AdapterEvent::output("pong");
    }
    if (deadline > Clock::now()) {  // only a wait sees the late output, never a poll
      sent_ = false;
      answered_pong_ = false;
      return AdapterEvent::output("late");
    }
    return AdapterEvent::nothing();
  }
  void reset() override {}
  void finish() noexcept override { answered_pong_ = false; }

 private:
  bool sent_ = false, answered_pong_ = false;
};

TEST(Replay, WaitsForAFailureAtAnActiveVertex) {
  const TestGraph g = parse_graph(R"({"playtest": "graph/1", "initial": "a",
    "vertices": [{"id": "a", "kind": "active"}, {"id": "p", "kind": "passive"}],
    "edges": [{"from": "a", "to": "p", "label": "ping"}, {"from": "p", "to": "a", "label": "pong", "prob": 1}]})");
  ReplayTarget target;
  target.script = {{ScriptStep::Kind::stimulus, "ping"}};
  target.verdict = Verdict::fail;
  target.failure = {.failed = true, .vertex = "a", .observed = "late"};
  target.steps = {
      {StepKind::stimulus, "a", "ping"}, {StepKind::observation, "p", "pong"}, {StepKind::unexpected, "a", "late"}};
  LateOutputAdapter sut;
  ReplayOptions o{.attempts = 3};
  o.run.timeout = std::chrono::milliseconds(50);
  ReplayResult rr = replay(g, target, sut, o);
  EXPECT_EQ(rr.failure_rate.successes, 3u);
  EXPECT_EQ(rr.diverged, 0u);
  o.linger = std::chrono::milliseconds(0);  // without the wait the poll misses it
  EXPECT_EQ(replay(g, target, sut, o).failure_rate.successes, 0u);
}

TEST(Shrink, FindsTheThreeStimuliOfThePlantedBug) {
  for (std::uint64_t seed : {1, 2, 3, 4, 5}) {
    PlantedBugAdapter sut(lock_model(), combo, 1.0, seed);
    const RunResult r = failing_random_run(lock_model(), sut, seed);
    ASSERT_EQ(r.verdict, Verdict::fail);
    const ReplayTarget target = replay_target(lock_model(), r);
    ShrinkResult s = shrink(lock_model(), target, sut, {.replay = {.attempts = 5}});
    ASSERT_TRUE(s.reproduced);
    EXPECT_EQ(s.original_rate.successes, 5u);
    EXPECT_EQ(describe(s.minimal), "knock unlock ping") << "seed " << seed << ", from " << describe(s.original);
    EXPECT_EQ(s.minimal_rate.successes, 5u);
    EXPECT_FALSE(s.budget_spent);
    EXPECT_GT(s.unplayable, 0u);  // dropping "unlock" before "ping" is refused without a run
    ASSERT_TRUE(s.witness);
    EXPECT_TRUE(s.witness->same_failure);
    EXPECT_EQ(s.witness->result.trace.back().label, "jammed");
  }
}

TEST(Shrink, AFlakyBugKeepsItsRateAboveTheThreshold) {
  PlantedBugAdapter sut(lock_model(), combo, 0.7, 21);
  RunResult r;
  for (std::uint64_t seed = 1; r.verdict != Verdict::fail; ++seed) r = failing_random_run(lock_model(), sut, seed);
  const ReplayTarget target = replay_target(lock_model(), r);
  ShrinkResult s = shrink(lock_model(), target, sut, {.replay = {.attempts = 20}});
  ASSERT_TRUE(s.reproduced);
  EXPECT_GT(s.threshold, 0.0);
  EXPECT_NEAR(s.threshold, 0.5 * s.original_rate.rate, 1e-12);
  EXPECT_LE(count_stimuli(s.minimal), 5u) << describe(s.minimal);
  EXPECT_NE(describe(s.minimal).find("knock unlock ping"), std::string::npos) << describe(s.minimal);
  EXPECT_GE(s.minimal_rate.rate, 0.3);
}

// A system that takes 20 ms to start. The budget of 150 ms covers measuring the original too (its
// three attempts take 60 ms), then a candidate or two: far from the search's end, so it is cut.
class SlowStart final : public Adapter {
 public:
  explicit SlowStart(Adapter& inner) : inner_(inner) {}
  void start() override {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    inner_.start();
  }
  AdapterEvent stimulate(std::string_view l) override { return inner_.stimulate(l); }
  AdapterEvent next_event(Clock::time_point d) override { return inner_.next_event(d); }
  void reset() override { inner_.reset(); }
  void finish() noexcept override { inner_.finish(); }

 private:
  Adapter& inner_;
};

TEST(Shrink, TheBudgetKeepsTheBestSoFar) {
  PlantedBugAdapter sut(lock_model(), combo, 1.0, 9);
  const RunResult r = failing_random_run(lock_model(), sut, 9);
  const ReplayTarget target = replay_target(lock_model(), r);
  SlowStart slow(sut);
  ShrinkResult s =
      shrink(lock_model(), target, slow, {.replay = {.attempts = 3}, .budget = std::chrono::milliseconds(150)});
  ASSERT_TRUE(s.reproduced);
  EXPECT_TRUE(s.budget_spent);
  EXPECT_GE(s.minimal_rate.successes, 1u);                     // the best so far still fails,
  EXPECT_EQ(s.minimal_rate.successes, s.minimal_rate.trials);  // in every attempt the budget let finish
  EXPECT_LE(s.original_rate.trials, 3u);
  EXPECT_LE(s.minimal.size(), s.original.size());
  ASSERT_TRUE(s.witness);
  // The budget holds for the whole shrink, to the length of one attempt (not minutes; the search
  // unbounded takes dozens of candidates of three attempts each).
  EXPECT_LT(s.elapsed_ms, 1000.0);
}

TEST(Shrink, RefusesWhatCannotBeShrunk) {
  PlantedBugAdapter correct(lock_model(), combo, 0.0, 1);
  ReplayTarget pass;
  pass.verdict = Verdict::pass;
  EXPECT_THROW(shrink(lock_model(), pass, correct, {}), UsageError);
  PlantedBugAdapter sut(lock_model(), combo, 1.0, 4);
  const ReplayTarget target = replay_target(lock_model(), failing_random_run(lock_model(), sut, 4));
  EXPECT_THROW(shrink(lock_model(), target, correct, {.threshold = 1.5}), UsageError);
  // A failure that does not come back is not shrunk.
  ShrinkResult s = shrink(lock_model(), target, correct, {.replay = {.attempts = 3}});
  EXPECT_FALSE(s.reproduced);
  EXPECT_EQ(s.minimal, s.original);
  EXPECT_FALSE(s.witness);
}

}  // namespace
}  // namespace playtest

namespace playtest {
namespace {

TEST(Interrupted, ReplayAndShrinkStopAtAStopRequest) {
  PlantedBugAdapter sut(lock_model(), combo, 1.0, 6);
  const ReplayTarget target = replay_target(lock_model(), failing_random_run(lock_model(), sut, 6));
  StopSignal stop;
  stop.request(15);
  ReplayOptions o{.attempts = 4};
  o.run.stop = &stop;
  const ReplayResult r = replay(lock_model(), target, sut, o);
  EXPECT_TRUE(r.interrupted);
  EXPECT_TRUE(r.attempts.empty());
  EXPECT_EQ(r.verdict_rate.trials, 0u);
  const ShrinkResult s = shrink(lock_model(), target, sut, {.replay = o});
  EXPECT_TRUE(s.interrupted);
  EXPECT_FALSE(s.reproduced);
  EXPECT_FALSE(s.witness);
}

}  // namespace
}  // namespace playtest
