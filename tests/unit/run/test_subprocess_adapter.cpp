// The subprocess adapter against small shell adapters: the normal protocol, and every failure mode
// (crash, hang at start / on a stimulus, garbage, partial line, early close, exit, error line) must
// end as a verdict with a message, never a hang. Short timeouts only where a hang is the point;
// assertions are on verdicts and messages, never on durations.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "playtest/base/error.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/run/subprocess_adapter.hpp"
#include "playtest/strategy/random_walk_policy.hpp"

namespace playtest {
namespace {

using std::chrono::milliseconds;

// ping -> pong, with a timeout edge "quiet" back to idle.
const char* ping_graph = R"({"playtest": "graph/1", "initial": "idle",
  "vertices": [{"id": "idle", "kind": "active"}, {"id": "wait", "kind": "passive"},
               {"id": "done", "kind": "active", "goal": true}],
  "edges": [{"id": "ping", "from": "idle", "to": "wait", "label": "ping"},
            {"id": "pong", "from": "wait", "to": "done", "label": "pong", "prob": 0.9},
            {"id": "tick", "from": "wait", "to": "idle", "label": "tick", "prob": 0.1, "timeout": true}]})";

SubprocessOptions options(std::string cmd) {
  SubprocessOptions o{.command = std::move(cmd)};
  o.stderr_mode = SubprocessOptions::Stderr::discard;
  // Generous where the adapter behaves (a loaded machine must not turn a PASS into an ERROR), short
  // where the test is about a hang.
  o.ready_timeout = milliseconds(10000);
  o.ack_timeout = milliseconds(10000);
  o.line_timeout = milliseconds(10000);
  o.exit_timeout = milliseconds(200);
  return o;
}

RunResult run_against(const SubprocessOptions& so, milliseconds timeout = milliseconds(10000)) {
  TestGraph g = parse_graph(ping_graph);
  RunOptions ro;
  ro.purpose.kind = TestPurpose::Kind::reach;
  ro.max_steps = 20;
  ro.timeout = timeout;
  SubprocessAdapter adapter(so);
  RandomWalkPolicy p;
  return Runner(g, ro).run(p, adapter);
}

// A well-behaved adapter body: answers every stimulus with ack, then `$REPLY`.
std::string good(const std::string& reply) {
  return "echo '# hello'; echo ready; while read cmd arg; do case \"$cmd\" in "
         "stimulus) echo ack; " + reply + ";; reset) echo ready;; end) exit 0;; esac; done";
}

TEST(SubprocessAdapter, PassesAgainstAConformingAdapter) {
  RunResult r = run_against(options(good("echo 'output pong'")));
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  EXPECT_EQ(r.steps, 2u);
}

TEST(SubprocessAdapter, CarriageReturnsAndCommentsAreTolerated) {
  RunResult r = run_against(options(good("printf '# working\\r\\n\\noutput pong\\r\\n'")));
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
}

TEST(SubprocessAdapter, WrongOutputFails) {
  RunResult r = run_against(options(good("echo 'output pang'")));
  EXPECT_EQ(r.verdict, Verdict::fail) << r.message;
  EXPECT_EQ(r.observed, "pang");
}

TEST(SubprocessAdapter, DeclaredQuiescenceFollowsTheTimeoutEdge) {
  // First stimulus: quiet (timeout edge back to idle); second: pong.
  RunResult r = run_against(options(
      "echo ready; n=0; while read cmd arg; do case \"$cmd\" in stimulus) echo ack; n=$((n+1)); "
      "if [ $n = 1 ]; then echo quiet; else echo 'output pong'; fi;; end) exit 0;; esac; done"));
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  ASSERT_EQ(r.trace.size(), 4u);
  EXPECT_EQ(r.trace[1].kind, StepKind::timeout);
}

TEST(SubprocessAdapter, DoneEndsTheWaitAndALateOutputNamesItsStimulus) {
  // First stimulus: `done` (its outputs are complete: the timeout edge at once, although the
  // runner would wait 10 s), then pong late; the FAIL names the stimulus the late pong answers.
  const auto t0 = Clock::now();
  RunResult r = run_against(options(
      "echo ready; n=0; while read cmd arg; do case \"$cmd\" in stimulus) echo ack; n=$((n+1)); "
      "if [ $n = 1 ]; then echo done; sleep 0.2; echo 'output pong'; else echo 'output pong'; fi;; "
      "end) exit 0;; esac; done"));
  EXPECT_LT(Clock::now() - t0, std::chrono::seconds(8));
  EXPECT_EQ(r.verdict, Verdict::fail) << r.message;
  ASSERT_GE(r.trace.size(), 2u);
  EXPECT_EQ(r.trace[1].kind, StepKind::timeout);
  EXPECT_NE(r.message.find("a late answer to 'ping'?"), std::string::npos) << r.message;
}

TEST(SubprocessAdapter, SilenceUntilTheTimeoutFollowsTheTimeoutEdge) {
  // Silent on the first stimulus, pong on the second; the runner's own 50 ms timeout decides.
  RunResult r = run_against(
      options("echo ready; n=0; while read cmd arg; do case \"$cmd\" in stimulus) echo ack; n=$((n+1)); "
              "if [ $n -ge 2 ]; then echo 'output pong'; fi;; end) exit 0;; esac; done"),
      milliseconds(50));
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  ASSERT_GE(r.trace.size(), 2u);
  EXPECT_EQ(r.trace[1].kind, StepKind::timeout);
}

TEST(SubprocessAdapter, OutputBeforeAckFailsAtTheActiveVertex) {
  RunResult r = run_against(options(
      "echo ready; while read cmd arg; do case \"$cmd\" in stimulus) echo 'output pong'; echo ack;; "
      "end) exit 0;; esac; done"));
  EXPECT_EQ(r.verdict, Verdict::fail) << r.message;
  EXPECT_EQ(r.fail_vertex.value, 0u);  // idle
}

TEST(SubprocessAdapter, UnsolicitedOutputAtActiveVertexFails) {
  RunResult r = run_against(options("echo ready; echo 'output pong'; sleep 0.2; "
                                    "while read cmd arg; do [ \"$cmd\" = stimulus ] && echo ack; done"));
  // The output may come before or during the first stimulus: either way it is judged at 'idle'.
  EXPECT_EQ(r.verdict, Verdict::fail) << r.message;
  EXPECT_EQ(r.fail_vertex.value, 0u);
}

TEST(SubprocessAdapter, CrashIsAnError) {
  RunResult r = run_against(options("echo ready; read x; kill -SEGV $$"));
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_NE(r.message.find("closed its output"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("signal 11"), std::string::npos) << r.message;
}

TEST(SubprocessAdapter, ExitIsAnErrorWithItsStatus) {
  RunResult r = run_against(options("echo ready; read x; exit 3"));
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_NE(r.message.find("status 3"), std::string::npos) << r.message;
}

TEST(SubprocessAdapter, CommandNotFoundIsAnError) {
  RunResult r = run_against(options("/nonexistent/adapter"));
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_NE(r.message.find("status 127"), std::string::npos) << r.message;
}

TEST(SubprocessAdapter, HangAtStartIsAnError) {
  auto o = options("sleep 30");
  o.ready_timeout = milliseconds(50);
  RunResult r = run_against(o);
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_NE(r.message.find("did not answer 'ready'"), std::string::npos) << r.message;
}

TEST(SubprocessAdapter, HangOnAStimulusIsAnError) {
  auto o = options("echo ready; read x; sleep 30");
  o.ack_timeout = milliseconds(50);
  RunResult r = run_against(o);
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_NE(r.message.find("did not acknowledge the stimulus 'ping'"), std::string::npos) << r.message;
}

TEST(SubprocessAdapter, GarbageIsAnError) {
  RunResult r = run_against(options(good("printf 'hello\\001world\\n'")));
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_NE(r.message.find("garbage: 'hello\\x01world'"), std::string::npos) << r.message;
}

TEST(SubprocessAdapter, GarbageInsteadOfAckIsAnError) {
  RunResult r = run_against(options("echo ready; read x; echo okay; sleep 30"));
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_NE(r.message.find("answered 'okay'"), std::string::npos) << r.message;
}

TEST(SubprocessAdapter, PartialLineThenHangIsAnError) {
  auto o = options(good("printf 'output po'; sleep 30"));
  o.line_timeout = milliseconds(50);
  RunResult r = run_against(o, milliseconds(10000));
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_NE(r.message.find("partial line"), std::string::npos) << r.message;
}

TEST(SubprocessAdapter, PartialLineThenCloseIsAnError) {
  RunResult r = run_against(options(good("printf 'output po'; exit 0")));
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_NE(r.message.find("in the middle of a line: 'output po'"), std::string::npos) << r.message;
}

TEST(SubprocessAdapter, EarlyCloseOfOutputIsAnError) {
  RunResult r = run_against(options("echo ready; exec 1>&-; sleep 30"));
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_NE(r.message.find("closed its output"), std::string::npos) << r.message;
}

TEST(SubprocessAdapter, ClosedInputIsAnError) {
  // The adapter closes its stdin and keeps writing nothing: the stimulus cannot be delivered or is
  // never acknowledged; either way an ERROR, not a hang.
  auto o = options("exec 0<&-; echo ready; sleep 30");
  o.ack_timeout = milliseconds(100);
  RunResult r = run_against(o);
  EXPECT_EQ(r.verdict, Verdict::error) << r.message;
}

TEST(SubprocessAdapter, ErrorLineIsAnError) {
  RunResult r = run_against(options(good("echo 'error the device is on fire'")));
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_NE(r.message.find("reported an error: the device is on fire"), std::string::npos) << r.message;
}

TEST(SubprocessAdapter, OverlongLineIsAnError) {
  auto o = options(good("head -c 100000 /dev/zero | tr '\\0' x; echo"));
  o.max_line = 1000;
  RunResult r = run_against(o);
  EXPECT_EQ(r.verdict, Verdict::error);
  EXPECT_NE(r.message.find("longer than 1000 bytes"), std::string::npos) << r.message;
}

TEST(SubprocessAdapter, ResetWaitsForReady) {
  SubprocessAdapter a(options(good("echo 'output pong'")));
  a.start();
  EXPECT_EQ(a.stimulate("ping").kind, AdapterEvent::Kind::none);
  AdapterEvent e = a.next_event(Clock::now() + milliseconds(10000));
  EXPECT_EQ(e.kind, AdapterEvent::Kind::output);
  EXPECT_EQ(e.label, "pong");
  a.reset();
  EXPECT_EQ(a.next_event(Clock::now()).kind, AdapterEvent::Kind::none);
  a.finish();
  EXPECT_EQ(a.pid(), -1);
}

TEST(SubprocessAdapter, StderrGoesToAFile) {
  std::string path = ::testing::TempDir() + "/playtest_stderr_test.txt";
  std::remove(path.c_str());
  auto o = options("echo 'adapter diagnostics' >&2; " + good("echo 'output pong'"));
  o.stderr_mode = SubprocessOptions::Stderr::file;
  o.stderr_path = path;
  RunResult r = run_against(o);
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  EXPECT_NE(s.str().find("adapter diagnostics"), std::string::npos);
}

TEST(SubprocessAdapter, ManyRunsReuseTheAdapter) {
  TestGraph g = parse_graph(ping_graph);
  RunOptions ro;
  ro.purpose.kind = TestPurpose::Kind::reach;
  SubprocessAdapter adapter(options(good("echo 'output pong'")));
  RandomWalkPolicy p;
  Runner runner(g, ro);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(runner.run(p, adapter, nullptr, i).verdict, Verdict::pass);
}

TEST(SubprocessAdapter, EveryOutputBeforeTheAckIsKeptInOrder) {
  SubprocessAdapter a(options("echo ready; read x; echo 'output one'; echo 'output two'; echo 'output three'; "
                              "echo ack; read x"));
  a.start();
  const AdapterEvent first = a.stimulate("go");
  EXPECT_EQ(first.kind, AdapterEvent::Kind::output);
  EXPECT_EQ(first.label, "one");
  EXPECT_EQ(a.next_event(Clock::now()).label, "two");  // queued, not dropped
  EXPECT_EQ(a.next_event(Clock::now()).label, "three");
  EXPECT_EQ(a.next_event(Clock::now()).kind, AdapterEvent::Kind::none);
  a.finish();
}

TEST(SubprocessAdapter, RefusedStimulus) {
  SubprocessAdapter a(options("echo ready; read x; echo 'output early'; echo refused; read x"));
  a.start();
  EXPECT_EQ(a.stimulate("go").kind, AdapterEvent::Kind::refused);
  EXPECT_EQ(a.next_event(Clock::now()).label, "early");  // what came before the refusal is kept
  a.finish();
  // In a run, a refusal ends the run without a verdict on the stimulus (reach purpose: INCONCLUSIVE).
  RunResult r = run_against(options("echo ready; while read cmd arg; do [ \"$cmd\" = stimulus ] && echo refused; "
                                    "[ \"$cmd\" = end ] && exit 0; done"));
  EXPECT_EQ(r.verdict, Verdict::inconclusive) << r.message;
  EXPECT_NE(r.message.find("refused the stimulus 'ping'"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace playtest
