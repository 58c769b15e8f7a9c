// shrink on random planted bugs: a model with one active vertex offering k stimuli, each answered
// by one of two outputs at random, and a bug after a random sequence of three stimuli. A random
// tester finds it; whatever the run, the shrunk script is exactly the three stimuli (any other
// failing script contains them consecutively and is not 1-minimal).
#include <gtest/gtest.h>

#include "planted_bug_adapter.hpp"
#include "playtest/diagnose/shrink.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/strategy/random_walk_policy.hpp"

namespace playtest {
namespace {

TestGraph keypad(std::uint32_t keys) {
  GraphBuilder b;
  const VertexId idle = b.add_vertex("idle", VertexKind::active);
  std::vector<std::string> labels;
  for (std::uint32_t i = 0; i < keys; ++i) labels.push_back("k" + std::to_string(i));
  for (std::uint32_t i = 0; i < keys; ++i) {
    const VertexId p = b.add_vertex("pressed" + std::to_string(i), VertexKind::passive);
    b.add_edge({.from = idle, .to = p, .label = labels[i]});
    b.add_edge({.from = p, .to = idle, .label = "ok", .prob = 0.5});
    b.add_edge({.from = p, .to = idle, .label = "busy", .prob = 0.5});
  }
  b.set_initial(idle);
  return b.build();
}

TEST(ShrinkProperty, RandomPlantedSequencesShrinkToThemselves) {
  Rng rng(2024);
  int shrunk = 0, total_original = 0;
  for (int trial = 0; trial < 25; ++trial) {
    const std::uint32_t keys = 2 + static_cast<std::uint32_t>(rng.below(3));
    const TestGraph g = keypad(keys);
    std::vector<std::string> pattern;
    for (int i = 0; i < 3; ++i) pattern.push_back("k" + std::to_string(rng.below(keys)));
    testing::PlantedBugAdapter sut(g, pattern, 1.0, trial + 1);
    RunOptions ro;
    ro.max_steps = 20000;
    const Runner runner(g, ro);
    RandomWalkPolicy random;
    const RunResult r = runner.run(random, sut, nullptr, trial + 1);
    ASSERT_EQ(r.verdict, Verdict::fail) << "trial " << trial;
    const ReplayTarget target = replay_target(g, r);
    total_original += static_cast<int>(count_stimuli(target.script));
    const ShrinkResult s = shrink(g, target, sut, {.replay = {.attempts = 2}});
    ASSERT_TRUE(s.reproduced);
    ASSERT_FALSE(s.budget_spent);
    Script expected;
    for (const std::string& l : pattern) expected.push_back({ScriptStep::Kind::stimulus, l});
    EXPECT_EQ(describe(s.minimal), describe(expected)) << "trial " << trial << " from " << describe(s.original);
    EXPECT_EQ(s.minimal_rate.successes, 2u);
    shrunk += s.minimal == expected;
  }
  EXPECT_EQ(shrunk, 25);
  EXPECT_GT(total_original, 25 * 5);  // the runs were long: there was something to shrink
}

}  // namespace
}  // namespace playtest
