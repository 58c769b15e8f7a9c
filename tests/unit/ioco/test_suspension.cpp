// Suspension automata (seed 004 Definition 2.4) on small LTSs, checked by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "playtest/base/error.hpp"
#include "playtest/ioco/lts_io.hpp"
#include "playtest/ioco/suspension.hpp"

using namespace playtest;
using namespace playtest::ioco;

namespace {
std::vector<StateId> members(const SuspensionAutomaton& sa, SetId q) {
  auto s = sa.states(q);
  return {s.begin(), s.end()};
}
std::vector<std::string> names(const Lts& l, const std::vector<ActionId>& as) {
  std::vector<std::string> r;
  for (ActionId a : as) r.emplace_back(l.action_name(a));
  std::sort(r.begin(), r.end());
  return r;
}
using V = std::vector<StateId>;
using S = std::vector<std::string>;
}  // namespace

// 0 -tau-> 2, 0 -?a-> 1, 1 -!x-> 3, 2 -!y-> 3, 2 -?a-> 3; 3 is the only quiescent state.
TEST(Suspension, TauClosureAndNoDeltaWhereAnOutputIsSure) {
  const Lts l =
      parse_aut("des (0, 5, 4)\n(0, \"?a\", 1)\n(0, tau, 2)\n(1, \"!x\", 3)\n(2, \"!y\", 3)\n(2, \"?a\", 3)\n");
  SuspensionAutomaton sa(l);
  const SetId q0 = sa.initial();
  EXPECT_EQ(members(sa, q0), (V{0, 2}));
  EXPECT_EQ(names(l, sa.outputs(q0)), (S{"y"}));  // 0 has tau, 2 an output: not quiescent
  EXPECT_EQ(names(l, sa.inputs(q0)), (S{"a"}));
  const SetId qa = sa.after(q0, *l.find_action("a"));
  EXPECT_EQ(members(sa, qa), (V{1, 3}));
  EXPECT_EQ(names(l, sa.outputs(qa)), (S{"delta", "x"}));
  const SetId qad = sa.after(qa, Lts::delta);
  EXPECT_EQ(members(sa, qad), (V{3}));
  EXPECT_EQ(sa.after(qad, Lts::delta), qad);  // quiescence repeats
  EXPECT_EQ(sa.after(qa, *l.find_action("x")), qad);
  EXPECT_EQ(sa.after(q0, *l.find_action("y")), qad);
  EXPECT_EQ(sa.after(q0, Lts::delta), no_set);
  EXPECT_EQ(sa.after(q0, *l.find_action("x")), no_set);
  sa.expand_all();
  EXPECT_EQ(sa.num_sets(), 3u);
}

// 0 -?a-> 1, 0 -?a-> 2, 1 -!x-> 0: after a, x or quiescence (state 2); after delta only 2.
TEST(Suspension, NondeterministicInputAndQuiescentMembers) {
  const Lts l = parse_aut("des (0, 3, 3)\n(0, \"?a\", 1)\n(0, \"?a\", 2)\n(1, \"!x\", 0)\n");
  SuspensionAutomaton sa(l);
  EXPECT_EQ(names(l, sa.outputs(0)), (S{"delta"}));
  EXPECT_EQ(sa.after(0, Lts::delta), 0u);
  const SetId q = sa.after(0, *l.find_action("a"));
  EXPECT_EQ(members(sa, q), (V{1, 2}));
  EXPECT_EQ(names(l, sa.outputs(q)), (S{"delta", "x"}));
  EXPECT_EQ(members(sa, sa.after(q, Lts::delta)), (V{2}));
  EXPECT_EQ(sa.after(q, *l.find_action("x")), 0u);
  EXPECT_FALSE(sa.has_input(sa.after(q, Lts::delta)));
}

TEST(Suspension, DivergenceIsObservedAsQuiescence) {
  const Lts l = parse_aut("des (0, 2, 2)\n(0, tau, 0)\n(0, \"?a\", 1)\n");
  SuspensionAutomaton sa(l);
  EXPECT_EQ(names(l, sa.outputs(0)), (S{"delta"}));
  EXPECT_EQ(sa.after(0, Lts::delta), 0u);
}

TEST(Suspension, ExplicitDeltaIsTakenAsGiven) {
  // State 1 has no output but also no delta: in explicit mode it is not quiescent... unless nothing
  // at all can be observed, where silence is allowed (as for divergence).
  const Lts l = parse_aut("des (0, 3, 3)\n(0, \"delta\", 1)\n(0, \"!x\", 2)\n(1, \"?a\", 2)\n");
  SuspensionAutomaton sa(l);
  EXPECT_EQ(names(l, sa.outputs(0)), (S{"delta", "x"}));
  const SetId q1 = sa.after(0, Lts::delta);
  EXPECT_EQ(members(sa, q1), (V{1}));
  EXPECT_EQ(names(l, sa.outputs(q1)), (S{"delta"}));
  EXPECT_EQ(sa.after(q1, Lts::delta), q1);
}

TEST(Suspension, BoundOnTheNumberOfSets) {
  // (a|b)* a (a|b)^n: the classic NFA whose subset construction has 2^(n+1) sets.
  const int n = 10;
  std::string text = "des (0, " + std::to_string(3 + 2 * n) + ", " + std::to_string(n + 2) + ")\n";
  text += "(0, \"?a\", 0)\n(0, \"?b\", 0)\n(0, \"?a\", 1)\n";
  for (int i = 1; i <= n; ++i)
    text += "(" + std::to_string(i) + ", \"?a\", " + std::to_string(i + 1) + ")\n(" + std::to_string(i) + ", \"?b\", " +
            std::to_string(i + 1) + ")\n";
  const Lts l = parse_aut(text);
  SuspensionAutomaton big(l);
  big.expand_all();
  EXPECT_EQ(big.num_sets(), 1u << (n + 1));
  SuspensionAutomaton small(l, {.max_sets = 100});
  try {
    small.expand_all();
    FAIL() << "no error past the bound";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("more than 100 state sets"), std::string::npos) << e.what();
    EXPECT_EQ(small.num_sets(), 100u);
  }
}
