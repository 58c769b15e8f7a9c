// `solve --property` with the paths beyond reachability, named constants and PRISM .props files
// (issue 32, item 5), end to end on PRISM exports whose answers are worked out by hand in the
// comments.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.hpp"

using playtest::testing::run_playtest;
using playtest::testing::ScratchDir;

namespace {

// DTMC: 0 -> 1 or 2 (1/2 each), 1 -> 0, 2 <-> 3 (a periodic bottom component). "a" at 2, "b" at
// 1; state rewards 1 at 2 and 3 at 3.
void write_dtmc(const ScratchDir& dir) {
  dir.write("d.tra", "4 5\n0 1 0.5\n0 2 0.5\n1 0 1\n2 3 1\n3 2 1\n");
  dir.write("d.lab", "0=\"init\" 1=\"a\" 2=\"b\"\n0: 0\n2: 1\n1: 2\n");
  dir.write("d.srew", "4 2\n2 1\n3 3\n");
}

// MDP: state 0 chooses "go" (to 1 surely) or "try" (to 2 or back to 0, 1/2 each); 1 and 2 loop.
// "a" at 1, "b" at 2; state reward 2 at 0.
void write_mdp(const ScratchDir& dir) {
  dir.write("m.tra", "3 4 5\n0 0 1 1 go\n0 1 2 0.5 try\n0 1 0 0.5 try\n1 0 1 1 stay\n2 0 2 1 stay\n");
  dir.write("m.lab", "0=\"init\" 1=\"a\" 2=\"b\"\n0: 0\n1: 1\n2: 2\n");
  dir.write("m.srew", "3 1\n0 2\n");
}

struct Answer {
  int code = -1;
  double value = -1;
  std::string exact, err;
  nlohmann::json j;
};

Answer ask(const std::string& file, const std::string& args) {
  const auto r = run_playtest("solve " + file + " " + args + " --json");
  Answer a;
  a.code = r.code;
  a.err = r.err;
  if (r.code == 0 || r.code == 5) {
    a.j = nlohmann::json::parse(r.out);
    a.value = a.j.at("summary").at("value").get<double>();
    const auto& e = a.j.at("summary").at("value_exact");
    if (e.is_string()) a.exact = e.get<std::string>();
  }
  return a;
}

TEST(CliPropertyPaths, DtmcPathsRewardsAndSteadyState) {
  ScratchDir dir("cli_prop_paths_dtmc");
  write_dtmc(dir);
  const std::string d = dir.file("d.tra");
  auto near = [&](const std::string& prop, double want) {
    const Answer a = ask(d, "--property '" + prop + "'");
    ASSERT_EQ(a.code, 0) << prop << ": " << a.err;
    EXPECT_NEAR(a.value, want, 1e-12) << prop;
  };
  near("P=? [ X \"a\" ]", 0.5);
  // Step 2 or 3 at state 2: the path 0 2 3 2 does; 0 1 0 x does when x = 2.
  near("P=? [ F[2,3] \"a\" ]", 0.75);
  // b (state 1) at step 3 or later: 0 1 0 1 (1/4), or later from 0 at step 2 (1/2 of it).
  near("P=? [ F>=3 \"b\" ]", 0.25);
  near("P=? [ G !\"b\" ]", 0.5);
  near("P=? [ !\"b\" W \"a\" ]", 0.5);
  near("P=? [ \"a\" R !\"b\" ]", 0.5);
  // Rewards of steps 0, 1, 2: 0, 1/2 x 1, 1/2 x 3.
  near("R=? [ C<=3 ]", 2);
  near("R=? [ I=2 ]", 1.5);
  // The bottom component {2, 3} alternates: half the time at each.
  Answer s = ask(d, "--property 'S=? [ \"a\" ]'");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(s.exact, "1/2");
  s = ask(d, "--property 'R=? [ S ]'");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(s.exact, "2/1");
  // A threshold on the long-run probability: decided exactly.
  s = ask(d, "--property 'S>=0.6 [ \"a\" ]'");
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(s.j.at("summary").at("holds"), false);
}

TEST(CliPropertyPaths, MdpStepsAreTwoMoves) {
  ScratchDir dir("cli_prop_paths_mdp");
  write_mdp(dir);
  const std::string m = dir.file("m.tra");
  auto near = [&](const std::string& prop, double want) {
    const Answer a = ask(m, "--property '" + prop + "'");
    ASSERT_EQ(a.code, 0) << prop << ": " << a.err;
    EXPECT_NEAR(a.value, want, 1e-12) << prop;
  };
  near("Pmax=? [ X \"a\" ]", 1);
  near("Pmin=? [ X \"a\" ]", 0);
  // b exactly at step 2: try twice, 1/2 + 1/4.
  near("Pmax=? [ F[2,2] \"b\" ]", 0.75);
  near("Pmin=? [ G !\"a\" ]", 0);
  near("Pmax=? [ G !\"a\" ]", 1);
  // Staying at 0 (reward 2 per step) as long as possible: 2 + 1 + 1/2.
  near("Rmax=? [ C<=3 ]", 3.5);
  near("Rmin=? [ C<=3 ]", 2);
  near("Rmax=? [ I=1 ]", 1);
  // S is for DTMCs: refused with the reason.
  const Answer s = ask(m, "--property 'S=? [ \"a\" ]'");
  EXPECT_EQ(s.code, 2);
  EXPECT_NE(s.err.find("DTMCs"), std::string::npos) << s.err;
}

TEST(CliPropertyPaths, ConstantsAndPropsFiles) {
  ScratchDir dir("cli_prop_paths_props");
  write_mdp(dir);
  const std::string m = dir.file("m.tra");
  dir.write("m.props",
            "// properties of m\n"
            "const int K;\n"
            "const int K2 = 2*K;\n"
            "const double p = 0.7;\n"
            "\n"
            "\"reach_b\": Pmax=? [ F<=K2 \"b\" ];\n"
            "\"thresh\": Pmax>=p [ F[K,K] \"b\" ]\n"
            "/* a long\n   comment */ \"cum\": Rmax=? [ C<=K+1 ];\n"
            "Pmin=? [ G\n   !\"a\" ];\n"
            "\"bad\": Pmax=? [ F<=K \"b\" ] junk\n"
            "\"multi\": multi(Pmax=? [ F \"a\" ], Pmax=? [ F \"b\" ])\n");
  const std::string props = dir.file("m.props");
  Answer a = ask(m, "--props " + props + " --prop reach_b --const K=2");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_NEAR(a.value, 15.0 / 16, 1e-12);  // four tries
  a = ask(m, "--props " + props + " --prop thresh --const K=2");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.j.at("summary").at("holds"), true);
  a = ask(m, "--props " + props + " --prop 3 --const K=2");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_NEAR(a.value, 3.5, 1e-12);
  a = ask(m, "--props " + props + " --prop 4");  // needs no constant
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.value, 0);
  // The same property with --property and --const.
  a = ask(m, "--property 'Pmax=? [ F<=2*B \"b\" ]' --const B=2");
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_NEAR(a.value, 15.0 / 16, 1e-12);

  // Errors: located in the file, naming what to do.
  auto fails = [&](const std::string& args, int code, const std::string& text) {
    const auto r = run_playtest("solve " + m + " " + args);
    EXPECT_EQ(r.code, code) << args << ": " << r.out << r.err;
    EXPECT_NE(r.err.find(text), std::string::npos) << args << ": " << r.err;
  };
  fails("--props " + props + " --prop bad --const K=2", 2, "m.props:12:28: error: unexpected 'j'");
  fails("--props " + props + " --prop reach_b", 2, "--const K2=");
  fails("--props " + props + " --const K=2", 2, "holds 6 properties");
  fails("--props " + props + " --prop nope", 2, "no property 'nope'");
  fails("--props " + props + " --prop 1 --const Q=1", 2, "declares no constant Q");
  fails("--props " + props + " --prop 1 --const K=x", 2, "is not a number");
  fails("--props " + props + " --prop multi", 2, "multi(...)");
  fails("--props " + props + " --prop 1 --property 'P=? [ F \"a\" ]' --const K=1", 2, "give one");
  fails("--props " + dir.file("missing.props"), 2, "missing.props");
  fails("--property 'Pmax=? [ F<=B \"b\" ]'", 2, "property:1:13: error: constant 'B' has no value");
}

}  // namespace
