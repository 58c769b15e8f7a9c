// A PRISM property asked of a loaded input (input/property_request.hpp), in process: what is loaded for it,
// its label formulas resolved to vertices on a PRISM MDP export (an MDP's choice vertices take the
// labels of their state) and on a graph/1 file (goal, init, deadlock, vertex ids), the rewriting of
// G, W and R into complements of untils, steps counted as two moves on an MDP, the direction a bare
// comparison takes, and the refusals.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "playtest/base/error.hpp"
#include "playtest/input/load.hpp"
#include "playtest/input/property_request.hpp"
#include "playtest/io/graph_json.hpp"
#include "scratch_test.hpp"

namespace playtest {
namespace {

namespace fs = std::filesystem;

class PropertyRequestTest : public playtest::testing::ScratchTest {
 protected:
  void SetUp() override {
    ScratchTest::SetUp();
    // MDP: state 0 chooses "go" (to 1) or "try" (to 2 or back to 0); 1 and 2 loop. "a" at 1, "b" at 2.
    write("m.tra", "3 4 5\n0 0 1 1 go\n0 1 2 0.5 try\n0 1 0 0.5 try\n1 0 1 1 stay\n2 0 2 1 stay\n");
    write("m.lab", "0=\"init\" 1=\"a\" 2=\"b\"\n0: 0\n1: 1\n2: 2\n");
  }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return (dir_ / name).string();
  }
  // The export loaded for `p` as `solve --property` loads it.
  LoadedInput load_for(const PrismProperty& p) const {
    return load_input(property_load_options(p, {.path = (dir_ / "m.tra").string()}));
  }
};

std::vector<std::string> names(const TestGraph& g, const std::vector<VertexId>& vs) {
  std::vector<std::string> out;
  for (VertexId v : vs) out.emplace_back(g.name(v));
  return out;
}

TEST_F(PropertyRequestTest, AProbabilityQueryReadsEveryLabelAndNoRewards) {
  const LoadOptions o = property_load_options(parse_prism_property("Pmax=? [ F \"a\" ]"), {.path = "m.tra"});
  EXPECT_TRUE(o.prism_property);
  EXPECT_TRUE(o.all_labels);
  EXPECT_TRUE(o.prism_no_rewards);
  EXPECT_TRUE(o.reward.empty());
  const LoadOptions r = property_load_options(parse_prism_property("R{\"time\"}min=? [ F \"a\" ]"), {.path = "m.tra"});
  EXPECT_FALSE(r.prism_no_rewards);
  EXPECT_EQ(r.reward, "time");
  // --reward naming another structure than the property's is a usage error naming the option.
  try {
    property_load_options(parse_prism_property("R{\"time\"}min=? [ F \"a\" ]"), {.path = "m.tra", .reward = "cost"});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_EQ(e.parameter(), "reward");
  }
}

TEST_F(PropertyRequestTest, LabelsResolveToStatesAndChoiceVerticesTakeTheirStatesLabels) {
  const PrismProperty p = parse_prism_property("Pmax=? [ !\"b\" U \"a\" ]");
  const LoadedInput in = load_for(p);
  ASSERT_TRUE(in.graph.has_value());
  const TestGraph& g = *in.graph;
  const PropertyRequest req = property_request(p, in, {});
  EXPECT_EQ(req.query.kind, PropertyKind::probability);
  EXPECT_EQ(req.query.direction, PropertyDirection::max);
  EXPECT_FALSE(req.query.complement);
  // Targets are states only; the left side holds at the states 0 and 1 and at their choice vertices.
  ASSERT_EQ(req.query.targets.size(), 1u);
  EXPECT_EQ(req.query.targets[0], in.labels.vertices[1].front());  // "a"
  ASSERT_TRUE(req.query.allowed.has_value());
  std::size_t allowed_states = 0, allowed_choices = 0;
  for (VertexId v : *req.query.allowed) (g.is_active(v) ? allowed_states : allowed_choices) += 1;
  EXPECT_EQ(allowed_states, 2u);
  // State 0's two choices and state 1's one; none of state 2 ("b").
  EXPECT_EQ(allowed_choices, 3u);
  ASSERT_EQ(req.states.size(), 1u);  // from the initial state
  EXPECT_EQ(req.states, in.labels.initial);
}

TEST_F(PropertyRequestTest, GloballyWeakUntilAndReleaseBecomeComplementsOfUntils) {
  {
    const PrismProperty p = parse_prism_property("Pmin=? [ G !\"b\" ]");  // = 1 - Pmax [ F "b" ]
    const LoadedInput in = load_for(p);
    const PropertyRequest req = property_request(p, in, {});
    EXPECT_TRUE(req.query.complement);
    EXPECT_EQ(req.query.direction, PropertyDirection::min);  // the solver flips it for the until
    ASSERT_EQ(req.query.targets.size(), 1u);
    EXPECT_EQ(req.query.targets[0], in.labels.vertices[2].front());  // "b"
    EXPECT_FALSE(req.query.allowed.has_value());                     // everywhere
  }
  {
    const PrismProperty p = parse_prism_property("Pmax=? [ \"init\" W \"a\" ]");  // !((!a) U (!init & !a))
    const LoadedInput in = load_for(p);
    const PropertyRequest req = property_request(p, in, {});
    EXPECT_TRUE(req.query.complement);
    ASSERT_EQ(req.query.targets.size(), 1u);  // state 2: neither init nor a
    EXPECT_EQ(req.query.targets[0], in.labels.vertices[2].front());
  }
}

TEST_F(PropertyRequestTest, AnMdpStepIsTwoMovesOfTheImportedGraph) {
  const PrismProperty p = parse_prism_property("Pmax=? [ F<=3 \"a\" ]");
  const PropertyRequest req = property_request(p, load_for(p), {});
  ASSERT_TRUE(req.query.step_bound.has_value());
  EXPECT_EQ(*req.query.step_bound, 6u);
  EXPECT_NE(req.note.find("two moves"), std::string::npos) << req.note;
}

TEST_F(PropertyRequestTest, ABareComparisonTakesTheWorstSchedulerAndABareQueryOnAnMdpIsRefused) {
  const PrismProperty ge = parse_prism_property("P>=0.5 [ F \"a\" ]");
  const PropertyRequest r1 = property_request(ge, load_for(ge), {});
  EXPECT_EQ(r1.comparison, PropertyComparison::ge);
  EXPECT_EQ(r1.query.direction, PropertyDirection::min);
  EXPECT_EQ(r1.threshold_text, "0.5");
  const PrismProperty lt = parse_prism_property("P<0.5 [ F \"a\" ]");
  EXPECT_EQ(property_request(lt, load_for(lt), {}).query.direction, PropertyDirection::max);
  const PrismProperty bare = parse_prism_property("P=? [ F \"a\" ]");
  try {
    property_request(bare, load_for(bare), {});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_EQ(e.parameter(), "property");
    EXPECT_NE(e.diagnostic().message.find("say Pmin or Pmax"), std::string::npos) << e.diagnostic().message;
  }
}

TEST_F(PropertyRequestTest, AnUnknownLabelAndAnEmptyFilterAreInputErrorsNamingWhatIsThere) {
  const PrismProperty p = parse_prism_property("Pmax=? [ F \"c\" ]");
  try {
    property_request(p, load_for(p), {});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(e.diagnostic().message.find("no label \"c\" (its labels: \"init\", \"a\", \"b\")"), std::string::npos)
        << e.diagnostic().message;
  }
  const PrismProperty f = parse_prism_property("filter(max, Pmax=? [ F \"a\" ], \"a\" & \"b\")");
  EXPECT_THROW(property_request(f, load_for(f), {}), InputError);
  const PrismProperty ok = parse_prism_property("filter(max, Pmax=? [ F \"a\" ], \"a\" | \"b\")");
  EXPECT_EQ(property_request(ok, load_for(ok), {}).states.size(), 2u);
}

TEST_F(PropertyRequestTest, AGraphFileAnswersGoalInitDeadlockAndVertexIds) {
  const std::string path = write("g.json", R"({"playtest": "graph/1", "initial": "s",
 "vertices": [{"id": "s", "kind": "active"}, {"id": "p", "kind": "passive"},
              {"id": "g", "kind": "active", "goal": true}, {"id": "d", "kind": "active"}],
 "edges": [{"from": "s", "to": "p", "label": "go"},
           {"from": "p", "to": "g", "label": "ok", "prob": 0.5},
           {"from": "p", "to": "d", "label": "bad", "prob": 0.5}]})");
  const LoadedInput in = load_input({.path = path});
  const TestGraph& g = *in.graph;
  auto targets = [&](const std::string& prop) {
    return names(g, property_request(parse_prism_property(prop), in, {}).query.targets);
  };
  EXPECT_EQ(targets("P=? [ F \"goal\" ]"), std::vector<std::string>{"g"});
  EXPECT_EQ(targets("P=? [ F \"deadlock\" ]"), std::vector<std::string>{"d"});
  EXPECT_EQ(targets("P=? [ F \"init\" ]"), std::vector<std::string>{"s"});
  EXPECT_EQ(targets("P=? [ F \"p\" ]"), std::vector<std::string>{"p"});
  EXPECT_THROW(targets("P=? [ F \"nowhere\" ]"), InputError);
  // State rewards exist only in PRISM exports.
  try {
    property_request(parse_prism_property("R=? [ I=2 ]"), in, {});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_EQ(e.parameter(), "property");
  }
}

TEST(ExactObjectiveRequest, ExpectedIsRminToTheGoalsAndReachIsABoundedPmax) {
  SolveRequest q;
  q.objective = SolveObjective::expected;
  q.goals = {VertexId{3}};
  q.from = VertexId{1};
  const PropertyRequest e = exact_objective_request(q, 7);
  EXPECT_EQ(e.query.kind, PropertyKind::reward);
  EXPECT_EQ(e.query.direction, PropertyDirection::min);
  EXPECT_TRUE(e.options.exact);
  EXPECT_EQ(e.options.exact_seconds, 7);
  EXPECT_EQ(e.states, std::vector<VertexId>{VertexId{1}});
  EXPECT_EQ(e.objective, "expected");
  q.objective = SolveObjective::reach;
  q.bound = 12;
  const PropertyRequest r = exact_objective_request(q, 7);
  EXPECT_EQ(r.query.kind, PropertyKind::probability);
  EXPECT_EQ(r.query.direction, PropertyDirection::max);
  EXPECT_EQ(r.query.step_bound, std::optional<std::uint64_t>{12});
  EXPECT_EQ(r.objective, "reach");
}

}  // namespace
}  // namespace playtest
