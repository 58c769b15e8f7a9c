// Whole-output golden tests of every command (issue 27 item 7, as Spot's): for each subcommand the
// whole human text and the whole --json output on a bundled example (examples/graphs, examples/models,
// examples/ioco; run, replay and shrink against the deterministic shell adapters in cases/), compared
// with tests/cli/golden/expected/NAME.txt and NAME.json. golden.hpp holds the mechanism and the one
// filter of volatile fields (times, paths). PLAYTEST_UPDATE_GOLDEN=1 ctest -R Golden rewrites the
// files (docs/testing.md, "Golden tests"). Everything random has a --seed.
#include "golden.hpp"

using playtest::testing::CliResult;
using playtest::testing::run_playtest;
using playtest::testing::ScratchDir;
using playtest::testing::golden::cases;
using playtest::testing::golden::expected_dir;
using playtest::testing::golden::source_dir;

namespace {

const std::string graphs = source_dir + "examples/graphs/";
const std::string models = source_dir + "examples/models/";
const std::string ioco = source_dir + "examples/ioco/";
const std::string figure1 = graphs + "seed000-figure1.json";
const std::string seed002 = graphs + "seed002-example.json";
const std::string candy = models + "candy.ptm";
const std::string pingpong = cases + "pingpong.json";
const std::string pong = " --sut 'sh " + cases + "pong.sh'";
const std::string pang = " --sut 'sh " + cases + "pang.sh'";

void text(const std::string& name, const std::string& args, int code = 0, const std::string& scratch = "") {
  SCOPED_TRACE(name);
  playtest::testing::golden::check_text(expected_dir + name + ".txt", args, code, scratch);
}
void json(const std::string& name, const std::string& args, int code = 0, const std::string& scratch = "") {
  SCOPED_TRACE(name);
  playtest::testing::golden::check_json(expected_dir + name + ".json", args, code, scratch);
}

TEST(GoldenCommands, Help) { text("help", "--help"); }

TEST(GoldenCommands, Validate) {
  text("validate_graph", "validate " + figure1);
  json("validate_graph", "validate " + figure1 + " --json");
  text("validate_model", "validate " + models + "efsm.ptm");
  json("validate_model", "validate " + models + "efsm.ptm --json");
  json("validate_aut", "validate " + ioco + "candy_spec.aut --json");
}

TEST(GoldenCommands, Explore) {
  text("explore", "explore " + models + "chat.ptm");
  json("explore", "explore " + models + "chat.ptm --json");
  json("explore_graph", "explore " + models + "counter.ptm --param N=3 -o -");
  text("explore_dot", "explore " + models + "chat.ptm --dot -");
}

TEST(GoldenCommands, Info) {
  text("info", "info " + seed002);
  json("info", "info " + seed002 + " --json");
  text("info_model", "info " + models + "chat_start.ptm --param N=2");
}

TEST(GoldenCommands, DotAndConvert) {
  text("dot", "dot " + figure1);
  json("convert_graph", "convert " + candy + " --to graph");
  text("convert_dot", "convert " + candy + " --to dot");
  text("convert_aut", "convert " + ioco + "candy_spec.aut --to dot");
}

TEST(GoldenCommands, Solve) {
  text("solve", "solve " + figure1 + " --goal s6");
  json("solve", "solve " + figure1 + " --goal s6 --json");
  text("solve_reach", "solve " + models + "efsm.ptm --objective reach --bound 6");
  json("solve_reach", "solve " + models + "efsm.ptm --objective reach --bound 6 --json");
  text("solve_win", "solve " + models + "efsm.ptm --objective win");
  json("solve_win", "solve " + models + "efsm.ptm --objective win --json");
}

TEST(GoldenCommands, Transform) {
  ScratchDir d("golden_transform");
  json("transform_graph", "transform " + seed002 + " --merge --compress");
  json("transform", "transform " + seed002 + " --reachable --merge --compress --json -o " + d.file("t.json"), 0,
       d.file(""));
}

TEST(GoldenCommands, Analyze) {
  text("analyze", "analyze " + figure1);
  json("analyze", "analyze " + figure1 + " --json");
  text("analyze_model", "analyze " + candy + " --bound 4");
  json("analyze_model", "analyze " + candy + " --bound 4 --json");
}

TEST(GoldenCommands, Cover) {
  text("cover", "cover " + seed002 + " --sim-runs 50 --seed 1");
  json("cover", "cover " + seed002 + " --sim-runs 50 --seed 1 --json");
}

TEST(GoldenCommands, Plan) {
  text("plan", "plan " + seed002);
  json("plan", "plan " + seed002 + " --json");
}

TEST(GoldenCommands, Simulate) {
  text("simulate", "simulate " + candy + " --strategy random,cover,reach --runs 20 --seed 1");
  json("simulate", "simulate " + candy + " --strategy random,cover,reach --runs 20 --seed 1 --json");
}

TEST(GoldenCommands, Run) {
  text("run_pass", "run " + pingpong + pong + " --purpose none --steps 20 --runs 3 --seed 1");
  json("run_pass", "run " + pingpong + pong + " --purpose none --steps 20 --runs 3 --seed 1 --json");
  text("run_fail", "run " + pingpong + pang + " --strategy random --runs 2 --seed 1", 1);
  json("run_fail", "run " + pingpong + pang + " --strategy random --runs 2 --seed 1 --json", 1);
}

// replay, shrink, learn, report and merge read what run wrote: one failing and one passing campaign.
class GoldenDiagnosis : public ::testing::Test {
 protected:
  void SetUp() override {
    CliResult r = run_playtest("run " + pingpong + pang + " --strategy random --runs 2 --seed 1 --trace " + fail_trace);
    ASSERT_EQ(r.code, 1) << r.out << r.err;
    r = run_playtest("run " + pingpong + pong + " --purpose none --steps 30 --runs 4 --seed 2 --trace " + pass_trace);
    ASSERT_EQ(r.code, 0) << r.out << r.err;
  }
  ScratchDir d{"golden_diagnosis"};
  const std::string scratch = d.file("");
  const std::string fail_trace = d.file("fail.jsonl");
  const std::string pass_trace = d.file("pass.jsonl");
};

TEST_F(GoldenDiagnosis, Replay) {
  text("replay", "replay " + fail_trace + pang + " --attempts 3", 1, scratch);
  json("replay", "replay " + fail_trace + pang + " --attempts 3 --json", 1, scratch);
}

TEST_F(GoldenDiagnosis, Shrink) {
  text("shrink", "shrink " + fail_trace + pang + " --attempts 2 -o " + d.file("min.jsonl"), 1, scratch);
  json("shrink", "shrink " + fail_trace + pang + " --attempts 2 --json -o " + d.file("min2.jsonl"), 1, scratch);
}

TEST_F(GoldenDiagnosis, Learn) {
  text("learn", "learn " + pass_trace, 0, scratch);
  json("learn", "learn " + pass_trace + " --json", 0, scratch);
}

TEST_F(GoldenDiagnosis, Report) {
  // The HTML itself is checked by tests/cli/report; here what report says it wrote.
  text("report", "report " + fail_trace + " -o " + d.file("r.html"), 0, scratch);
  json("report", "report " + fail_trace + " " + pass_trace + " --json -o " + d.file("r2.html"), 0, scratch);
}

TEST_F(GoldenDiagnosis, Merge) {
  const std::string run = "run " + pingpong + pang + " --strategy random --runs 4 --seed 1 --json";
  const CliResult a = run_playtest(run + " --shard 1/2"), b = run_playtest(run + " --shard 2/2");
  ASSERT_EQ(a.code, 1) << a.out << a.err;
  const std::string s1 = d.write("s1.json", a.out), s2 = d.write("s2.json", b.out);
  text("merge", "merge " + s1 + " " + s2, 1, scratch);
  json("merge", "merge " + s1 + " " + s2 + " --json", 1, scratch);
}

TEST(GoldenCommands, Ioco) {
  text("ioco_check", "ioco check " + ioco + "candy_spec.aut " + ioco + "candy_faulty_silent.aut", 1);
  json("ioco_check", "ioco check " + ioco + "candy_spec.aut " + ioco + "candy_faulty_silent.aut --json", 1);
  json("ioco_check_ok", "ioco check " + ioco + "candy_spec.aut " + ioco + "candy_correct.aut --json");
  const std::string torx = "ioco torx-prob " + ioco + "candy_spec.aut --impl " + ioco +
                           "candy_chaos.aut --max-length 3 --torx-p 0:0.5:0.5 --sequence 'but null liq' "
                           "--fail-traces --simulate 2000 --seed 1";
  text("ioco_torx", torx);
  json("ioco_torx", torx + " --json");
}

TEST(GoldenCommands, Gen) {
  json("gen_random", "gen random --vertices 8 --seed 3");
  json("gen_random_sc", "gen random --vertices 6 --passive-fraction 0.5 --strongly-connected --seed 7");
}

}  // namespace
