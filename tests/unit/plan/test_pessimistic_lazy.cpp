// The pessimistic tester (seed 003) on a state space generated lazily, as a modelling-language
// front end would feed it: an implicit space of 10^9 states of which only the marked ones may be
// expanded. Checks that expand() is called once per marked state and never for a state the run
// only discovered, and that every stimulus chosen forces a new mark within the promised rank.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "playtest/graph/random.hpp"
#include "playtest/plan/pessimistic.hpp"

namespace playtest {
namespace {

// State s < 10^9: stimulus 0 ("step") leads to s + 1; stimulus 1 ("hop") leads to s + 2 or s + 3,
// as the system likes; stimulus 2 ("back") leads to s - 1. Every state but the initial one is a
// goal (state coverage). Going back can strand the tester among marked states for a while; the
// minimal-rank choice must still bring a new mark within rank(s) - 1 moves, whatever the system does.
class CounterSpace final : public CoverageSpace {
 public:
  std::uint32_t initial_state() override { return 0; }
  bool is_goal(std::uint32_t s) override { return s != 0; }
  void expand(std::uint32_t s, Expansion& out) override {
    EXPECT_TRUE(expanded.insert(s).second) << "state " << s << " expanded twice";
    const std::uint32_t a[] = {s + 1}, b[] = {s + 2, s + 3};
    if (s + 3 < 1000000000u) {
      out.add(0, a);
      out.add(1, b);
    }
    if (s > 0) {
      const std::uint32_t c[] = {s - 1};
      out.add(2, c);
    }
  }
  std::set<std::uint32_t> expanded;
};

TEST(PessimisticLazy, ExpandsOnlyMarkedStatesAndForcesCoverage) {
  CounterSpace space;
  PessimisticTester t(space);
  Rng rng(3);
  std::uint32_t cur = 0;
  std::set<std::uint32_t> visited = {0};
  std::uint32_t budget = 0, detours = 0;  // moves left before a new mark must come
  for (int step = 0; step < 200; ++step) {
    ASSERT_NE(t.rank(cur), RankGame::unreachable);
    auto tags = t.choose(cur);
    ASSERT_TRUE(tags.has_value());
    auto successors = [&](std::uint64_t tag) -> std::vector<std::uint32_t> {
      if (tag == 0) return {cur + 1};
      if (tag == 1) return {cur + 2, cur + 3};
      return {cur - 1};
    };
    if (budget == 0) budget = t.rank(cur);
    const std::uint64_t tag = (*tags)[rng.below(tags->size())];
    const auto succ = successors(tag);
    const std::uint32_t next = succ[rng.below(succ.size())];
    ASSERT_TRUE(t.is_discovered(next));
    if (t.is_marked(next)) {
      ASSERT_GE(budget, 2u) << "the forced mark is late (step " << step << ")";
      --budget;
      ++detours;
    } else {
      budget = 0;
    }
    t.visit(next);
    visited.insert(next);
    cur = next;
  }
  EXPECT_EQ(space.expanded, visited) << "exactly the marked (visited) states were expanded";
  EXPECT_EQ(t.goals_marked(), visited.size() - 1);
  EXPECT_LT(cur, 700u);
  EXPECT_GT(detours, 0u) << "the run must meet marked states for the bound to be tested";
}

}  // namespace
}  // namespace playtest
