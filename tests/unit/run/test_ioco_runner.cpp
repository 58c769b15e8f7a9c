// The runner on ioco test graphs (docs/ioco.md): the tester's "observe" edge is never sent, an
// output racing a stimulus is judged first through the observe edge, a refused input ends the run
// without a verdict on it, TorX's length bound holds at passive vertices, and `simulate` with a
// simulated ioco implementation gives TorX's exact FAIL probability (seed 004 §3).
#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <string>

#include "../ioco/ioco_test_support.hpp"
#include "playtest/base/error.hpp"
#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/campaign/simulation.hpp"
#include "playtest/ioco/ioco_graph.hpp"
#include "playtest/ioco/lts_io.hpp"
#include "playtest/ioco/torx_analysis.hpp"
#include "playtest/ioco/torx_policy.hpp"
#include "playtest/run/runner.hpp"
#include "test_paths.hpp"

namespace playtest {
namespace {

using ioco::TorxOptions;
using ioco::TorxPolicy;

class ScriptedAdapter final : public Adapter {
 public:
  std::deque<AdapterEvent> polled;  // answers to polls (deadline already past)
  std::deque<AdapterEvent> waited;  // answers to waits
  std::deque<AdapterEvent> early;   // answers to stimulate
  std::vector<std::string> stimuli;

  void start() override {}
  AdapterEvent stimulate(std::string_view label) override {
    stimuli.emplace_back(label);
    return pop(early);
  }
  AdapterEvent next_event(Clock::time_point deadline) override {
    return pop(deadline <= Clock::now() ? polled : waited);
  }
  void reset() override {}
  void finish() noexcept override {}

 private:
  static AdapterEvent pop(std::deque<AdapterEvent>& q) {
    if (q.empty()) return AdapterEvent::nothing();
    AdapterEvent e = q.front();
    q.pop_front();
    return e;
  }
};

// Always gives the input named `input` when the vertex has it, else observes.
class InputThenObserve final : public Policy {
 public:
  explicit InputThenObserve(std::string input) : input_(std::move(input)) {}
  std::string_view name() const override { return "input-then-observe"; }
  Decision choose(const RunView& view, Rng&) override {
    if (auto e = ioco::find_out_edge(*view.graph.explored(), view.current, input_)) return Decision::take(*e);
    if (auto e = ioco::find_observe_edge(*view.graph.explored(), view.current)) return Decision::take(*e);
    return Decision::stop();
  }

 private:
  std::string input_;
};

ioco::Lts candy(const std::string& name) {
  return ioco::load_lts(playtest::testing::source_dir() + "/examples/ioco/" + name);
}

RunOptions steps(std::uint64_t n) {
  RunOptions o;
  o.max_steps = n;
  o.timeout = std::chrono::milliseconds(1);
  return o;
}

TEST(IocoRunner, ObserveEdgeIsNeverSentToTheSystem) {
  const ioco::IocoGraph ig = ioco::build_ioco_graph(candy("candy_spec.aut"));
  ScriptedAdapter a;
  a.waited = {AdapterEvent::quiescence(), AdapterEvent::quiescence()};
  TorxPolicy p({.p_stop = 0.0, .p_input = 0.0, .p_observe = 1.0, .max_length = 2});
  const RunResult r = Runner(ig.graph, steps(100)).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  EXPECT_TRUE(a.stimuli.empty());
  ASSERT_EQ(r.trace.size(), 4u);  // observe, delta, observe, delta; then the length bound
  EXPECT_EQ(r.trace[0].kind, StepKind::wait);
  EXPECT_EQ(r.trace[1].kind, StepKind::timeout);
  EXPECT_EQ(r.trace[1].label, "delta");
  EXPECT_EQ(r.trace[2].kind, StepKind::wait);
}

TEST(IocoRunner, OutputPendingAtAnActiveVertexIsJudgedThroughObserve) {
  const ioco::IocoGraph ig = ioco::build_ioco_graph(candy("candy_spec.aut"));
  {  // after "but" the machine may give liquorice: an allowed output racing the next input
    ScriptedAdapter a;
    a.polled = {AdapterEvent::nothing(), AdapterEvent::output("liq")};
    InputThenObserve p("but");
    const RunResult r = Runner(ig.graph, steps(3)).run(p, a);
    EXPECT_NE(r.verdict, Verdict::fail) << r.message;
    ASSERT_GE(r.trace.size(), 3u);
    EXPECT_EQ(r.trace[0].label, "but");
    EXPECT_EQ(r.trace[1].kind, StepKind::wait);
    EXPECT_EQ(r.trace[2].kind, StepKind::observation);
    EXPECT_EQ(r.trace[2].label, "liq");
    EXPECT_EQ(ig.graph.name(r.trace[2].to), "{3}");
  }
  {  // chocolate is not allowed after "but" alone: FAIL at the passive vertex of {1,2}
    ScriptedAdapter a;
    a.polled = {AdapterEvent::nothing(), AdapterEvent::output("choc")};
    InputThenObserve p("but");
    const RunResult r = Runner(ig.graph, steps(10)).run(p, a);
    EXPECT_EQ(r.verdict, Verdict::fail);
    EXPECT_EQ(r.observed, "choc");
    EXPECT_EQ(ig.graph.name(r.fail_vertex), "{1,2}!");
    EXPECT_EQ(a.stimuli.size(), 1u);
  }
}

TEST(IocoRunner, OutputBeforeTheAcknowledgementComesFirst) {
  const ioco::IocoGraph ig = ioco::build_ioco_graph(candy("candy_spec.aut"));
  {  // "but", then a second "but" raced by "liq": the trace is but liq but
    ScriptedAdapter a;
    a.early = {AdapterEvent::nothing(), AdapterEvent::output("liq")};
    InputThenObserve p("but");
    const RunResult r = Runner(ig.graph, steps(4)).run(p, a);
    EXPECT_NE(r.verdict, Verdict::fail) << r.message;
    ASSERT_GE(r.trace.size(), 4u);
    EXPECT_EQ(r.trace[2].label, "liq");
    EXPECT_EQ(r.trace[3].kind, StepKind::stimulus);
    EXPECT_EQ(r.trace[3].label, "but");
    EXPECT_EQ(ig.graph.name(r.trace[3].to), "{3}");  // {3} --but--> {3}
  }
  {  // the input is not offered where the output leads: INCONCLUSIVE, never FAIL
    ioco::Lts l = ioco::parse_aut("des (0, 3, 3)\n(0, \"?a\", 1)\n(1, \"?a\", 1)\n(1, \"!x\", 2)\n");
    const ioco::IocoGraph g2 = ioco::build_ioco_graph(l);
    ScriptedAdapter a;
    a.early = {AdapterEvent::nothing(), AdapterEvent::output("x")};
    InputThenObserve p("a");
    const RunResult r = Runner(g2.graph, steps(10)).run(p, a);
    EXPECT_EQ(r.verdict, Verdict::inconclusive) << r.message;
    EXPECT_NE(r.message.find("does not offer 'a'"), std::string::npos) << r.message;
  }
  {  // an output that came first and is not allowed there: FAIL, before the input is applied
    ioco::Lts l = ioco::parse_aut("des (0, 2, 2)\n(0, \"?a\", 1)\n(1, \"?a\", 0)\n");
    const ioco::IocoGraph g3 = ioco::build_ioco_graph(l, {});
    ScriptedAdapter a;
    a.early = {AdapterEvent::output("x")};
    InputThenObserve p("a");
    const RunResult r = Runner(g3.graph, steps(10)).run(p, a);
    // {0} allows only quiescence when observed; x is not allowed there.
    EXPECT_EQ(r.verdict, Verdict::fail);
    EXPECT_EQ(r.observed, "x");
    EXPECT_EQ(g3.graph.name(r.fail_vertex), "{0}!");
  }
}

TEST(IocoRunner, RefusedInputEndsTheRunWithoutAVerdictOnIt) {
  const ioco::IocoGraph ig = ioco::build_ioco_graph(candy("candy_spec.aut"));
  ScriptedAdapter a;
  a.early = {AdapterEvent::refusal()};
  a.waited = {AdapterEvent::output("choc")};  // never asked for
  InputThenObserve p("but");
  RunOptions o = steps(10);
  RunResult r = Runner(ig.graph, o).run(p, a);
  // Without a purpose the run would pass, but it took no step: nothing was tested, so INCONCLUSIVE.
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
  EXPECT_EQ(r.steps, 0u);
  EXPECT_NE(r.message.find("refused the stimulus 'but'"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("nothing was tested"), std::string::npos) << r.message;
  EXPECT_EQ(a.waited.size(), 1u);
  o.purpose.kind = TestPurpose::Kind::cover;  // with a purpose, the purpose is not met
  a.early = {AdapterEvent::refusal()};
  r = Runner(ig.graph, o).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::inconclusive);
}

TEST(IocoRunner, TorxLengthBoundHoldsAtPassiveVertices) {
  // {1} offers no input: after "a" the runner is at a passive vertex. With max_length 1 it must not
  // wait for "y" (which the model forbids): the run ends after one event.
  const ioco::IocoGraph ig = ioco::build_ioco_graph(ioco::parse_aut("des (0, 2, 2)\n(0, \"?a\", 1)\n(1, \"!x\", 0)\n",
                                                                    "t.aut", {.inputs = {"a"}, .outputs = {"x", "y"}}));
  ASSERT_TRUE(ig.graph.is_passive(ig.graph.target(*ioco::find_out_edge(ig.graph, ig.graph.initial(), "a"))));
  ScriptedAdapter a;
  a.waited = {AdapterEvent::output("y")};
  TorxPolicy p({.p_stop = 0.0, .p_input = 1.0, .p_observe = 0.0, .max_length = 1});
  RunResult r = Runner(ig.graph, steps(10)).run(p, a);
  EXPECT_EQ(r.verdict, Verdict::pass) << r.message;
  EXPECT_EQ(r.steps, 1u);
  EXPECT_EQ(a.waited.size(), 1u);
  TorxPolicy p2({.p_stop = 0.0, .p_input = 1.0, .p_observe = 0.0, .max_length = 2});
  r = Runner(ig.graph, steps(10)).run(p2, a);
  EXPECT_EQ(r.verdict, Verdict::fail);  // with room for one more event the forbidden "y" is seen
  EXPECT_EQ(r.observed, "y");
}

// `simulate` against a simulated ioco implementation: the FAIL rate is TorX's exact probability.
void expect_rate(std::uint32_t fails, std::uint32_t runs, double p, const std::string& what) {
  const double sd = std::sqrt(std::max(p * (1 - p), 1e-12) / runs);
  EXPECT_NEAR(double(fails) / runs, p, 5 * sd + 1e-9) << what;
}

TEST(IocoRunner, SimulatedImplementationsFailWithTorxExactProbability) {
  const ioco::Lts spec = candy("candy_spec.aut");
  const ioco::IocoGraph ig = ioco::build_ioco_graph(spec);
  const std::uint32_t runs = 20000;
  for (const char* impl_name :
       {"candy_chaos.aut", "candy_faulty_choc.aut", "candy_faulty_silent.aut", "candy_correct.aut"}) {
    const ioco::Lts impl = candy(impl_name);
    const ioco::IocoGraph ii = ioco::build_ioco_graph(impl);
    for (const TorxOptions& t : {TorxOptions{.p_stop = 0, .p_input = 0.5, .p_observe = 0.5, .max_length = 3},
                                 TorxOptions{.p_stop = 0, .p_input = 0.33, .p_observe = 0.67, .max_length = 3}}) {
      TorxPolicy p(t);
      SimulationOptions so{.run = steps(1000),
                           .runs = runs,
                           .seed = 5,
                           .implementation = &ii.graph,
                           .sut = {.ioco_implementation = true}};
      const SimulationStats s = simulate(ig.graph, p, so);
      const double exact = ioco::torx_exact(spec, impl, t).fail;
      expect_rate(s.failed, runs, exact, impl_name);
      EXPECT_EQ(s.errors, 0u);
    }
  }
}

TEST(IocoRunner, SimulatedRandomImplementationsMatchTorxExact) {
  Rng rng(2024);
  const std::uint32_t runs = 4000;
  int checked = 0;
  for (int k = 0; k < 40; ++k) {
    const ioco::Lts spec = ioco_test::random_lts(rng, 4, 8, false);
    const ioco::Lts impl = ioco_test::random_lts(rng, 4, 8, k % 2 == 0);
    const TorxOptions t{.p_stop = 0.1, .p_input = 0.45, .p_observe = 0.45, .max_length = 4};
    ioco::IocoGraph ig, ii;
    try {
      ig = ioco::build_ioco_graph(spec);
      ii = ioco::build_ioco_graph(impl);
    } catch (const Error&) {
      continue;
    }
    TorxPolicy p(t);
    SimulationOptions so{.run = steps(1000),
                         .runs = runs,
                         .seed = std::uint64_t(k),
                         .implementation = &ii.graph,
                         .sut = {.ioco_implementation = true}};
    const SimulationStats s = simulate(ig.graph, p, so);
    const ioco::TorxOutcome ex = ioco::torx_exact(spec, impl, t);
    expect_rate(s.failed, runs, ex.fail, "random pair " + std::to_string(k));
    ++checked;
  }
  EXPECT_GE(checked, 30);
}

// A simulated ioco implementation gives an output to a wait, and nothing to the runner's poll, by
// the poll_only value and never by the clock: a wait whose deadline already passed (a descheduled
// thread on a loaded machine) still gets the output. It used to get nothing, which the runner took
// for silence: a false FAIL in about 1 of 10^4 simulated runs under load.
TEST(IocoRunner, SimulatedImplementationTellsPollFromWaitWithoutTheClock) {
  const ioco::IocoGraph ig =
      ioco::build_ioco_graph(ioco::parse_aut("des (0, 2, 2)\n(0, \"?a\", 1)\n(1, \"!x\", 0)\n", "t.aut"));
  SimulatedSut sut(ig.graph, 1, {.ioco_implementation = true});
  sut.start();
  EXPECT_EQ(sut.stimulate("a").kind, AdapterEvent::Kind::none);
  EXPECT_EQ(sut.next_event(poll_only).kind, AdapterEvent::Kind::none);
  const AdapterEvent late = sut.next_event(Clock::now() - std::chrono::seconds(5));
  EXPECT_EQ(late.kind, AdapterEvent::Kind::output);
  EXPECT_EQ(late.label, "x");
}

}  // namespace
}  // namespace playtest
