// simulate --mutants classifies every mutant (issue 23, item 4): on the examples every mutant that
// lost an output is proved equivalent, the score leaves them out, and a missed mutant carries a
// witness whose stimuli kill it when played.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.hpp"

using playtest::testing::example;
using playtest::testing::run_playtest;

namespace {

TEST(CliMutants, LostOutputsAreEquivalentOnTheExamples) {
  for (const char* model :
       {"examples/sut/workers.json", "examples/sut/lock.json", "examples/graphs/seed000-figure1.json",
        "examples/graphs/seed002-example.json", "examples/models/candy.ptm", "examples/models/efsm.ptm"}) {
    SCOPED_TRACE(model);
    const auto r =
        run_playtest("simulate " + example(model) +
                     " --strategy random --runs 5 --mutant-runs 5 --mutants --mutant-count 24 --seed 3 --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    std::size_t killed = 0, equivalent = 0, drops = 0;
    for (const auto& m : j.at("mutants")) {
      const std::string cls = m.at("class");
      if (m.at("kind") == "drop_output") {
        ++drops;
        EXPECT_EQ(cls, "equivalent") << m.at("description");
        EXPECT_TRUE(m.at("witness").is_null());
      }
      killed += cls == "killed";
      equivalent += cls == "equivalent";
      if (cls == "killed") {
        EXPECT_FALSE(m.at("killed_by").empty());
      }
      if (cls == "missed") {
        EXPECT_FALSE(m.at("witness").is_null());
        EXPECT_GT(m.at("witness").at("kill_probability").get<double>(), 0.0);
      }
    }
    EXPECT_GT(drops, 0u);
    const auto& score = j.at("mutation_score");
    EXPECT_EQ(score.at("equivalent"), equivalent);
    EXPECT_EQ(score.at("killed"), killed);
    EXPECT_DOUBLE_EQ(score.at("score").get<double>(),
                     static_cast<double>(killed) / static_cast<double>(j.at("mutants").size() - equivalent));
  }
}

TEST(CliMutants, TextShowsClassWitnessAndScore) {
  const auto r = run_playtest("simulate " + example("examples/models/candy.ptm") +
                              " --strategy random --runs 5 --mutant-runs 5 --mutants --mutant-count 40 --seed 3");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("equivalent: every behaviour of the mutant is allowed by the model"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("missed; witness: send 'Button'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mutation score: "), std::string::npos) << r.out;
}

}  // namespace
