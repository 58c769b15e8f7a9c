// Inputs as an adversarial user gives them (issue "No silent wrong answer", items 1, 7, 8, 9, 10, 11):
// empty files, directories, standard input in every format, deeply nested models, element names in
// messages, the same options everywhere. Each case names what used to go wrong.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.hpp"

using playtest::testing::example;
using playtest::testing::read_file;
using playtest::testing::run_playtest;
using playtest::testing::ScratchDir;

namespace {

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// --- item 1: nothing tested is not a PASS; validate refuses what is not a model ------------------

TEST(CliInputs, EmptyModelProgramIsAnErrorEverywhere) {
  ScratchDir dir("cli_inputs_empty");
  const auto empty = dir.write("empty.ptm", "");
  const auto blank = dir.write("blank.ptm", "\n  \n");
  for (const std::string& f : {empty, blank}) {
    for (const std::string& cmd :
         {"validate " + f, "run " + f + " --sut true", "simulate " + f + " --runs 2", "solve " + f, "explore " + f}) {
      auto r = run_playtest(cmd);
      EXPECT_EQ(r.code, 2) << cmd << "\n" << r.out << r.err;
      EXPECT_EQ(r.out.find("ok ("), std::string::npos) << cmd << "\n" << r.out;
      EXPECT_EQ(r.out.find("PASS"), std::string::npos) << cmd << "\n" << r.out;
      EXPECT_NE(r.err.find(f), std::string::npos) << cmd << "\n" << r.err;
    }
  }
  // A model with declarations but no action is no model either (explore names it).
  const auto decls = dir.write("decls.ptm", "model M;\nvar x: bool = false;\n");
  auto r = run_playtest("validate " + decls);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_EQ(r.err, "playtest: " + decls +
                       ":1:1: error: the model declares no action: there is nothing to explore or test\n"
                       "  note: declare what the tester can do with 'controllable NAME { ... }' and what the system "
                       "does with 'observable NAME { ... }' (docs/language.md)\n  model M;\n  ^\n");
}

TEST(CliInputs, DirectoryIsAnErrorEverywhere) {
  ScratchDir dir("cli_inputs_dir");
  const std::string d = dir.file("");
  for (const std::string& cmd : {"validate " + d, "validate " + d + "x.ptm", "run " + d + " --sut true",
                                 "simulate " + d, "info " + d, "explore " + d}) {
    if (cmd.find("x.ptm") != std::string::npos) std::filesystem::create_directories(dir.file("x.ptm"));
    auto r = run_playtest(cmd);
    EXPECT_EQ(r.code, 2) << cmd << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find("is a directory"), std::string::npos) << cmd << "\n" << r.err;
    EXPECT_EQ(r.out.find("PASS"), std::string::npos) << cmd;
  }
}

TEST(CliInputs, SimulateRefusalPrintsNoTableHeader) {
  ScratchDir dir("cli_inputs_sim_header");
  const auto f = dir.write("one.json", R"({"playtest": "graph/1", "initial": "a", "vertices": [{"id": "a"}]})");
  auto r = run_playtest("simulate " + f + " --runs 2");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out, "") << "a refused simulation prints nothing on standard output";
}

// --- item 7: hostile files fail fast and small ---------------------------------------------------

TEST(CliInputs, DeeplyNestedModelsGiveALocatedError) {
  ScratchDir dir("cli_inputs_nesting");
  struct Case {
    std::string name, text, message, line;
  };
  const int n = 20000;  // used to overflow the stack (SIGSEGV)
  const Case cases[] = {
      {"statements.ptm",
       "var x: bool = false;\ncontrollable A {" + repeat(" if x {", n) + " x := true;" + repeat(" }", n) + " }\n",
       "statements nested too deeply (more than 200 levels)", ":2:"},
      {"elseif.ptm",
       "var x: 0..3 = 0;\ncontrollable A {" + repeat(" if x == 1 { x := 2; } else", n) + " { x := 1; } }\n",
       "statements nested too deeply (more than 200 levels)", ":2:"},
      {"types.ptm", "var x: " + repeat("set<", n) + "bool" + repeat(">", n) + ";\ncontrollable A { }\n",
       "types nested too deeply (more than 200 levels)", ":1:"},
      {"exprs.ptm", "var x: bool = " + repeat("(", n) + "true" + repeat(")", n) + ";\ncontrollable A { }\n",
       "expression nested too deeply", ":1:"},
  };
  for (const Case& c : cases) {
    const auto f = dir.write(c.name, c.text);
    auto r = run_playtest("validate " + f);
    EXPECT_EQ(r.code, 2) << c.name << "\n" << r.err.substr(0, 500);
    EXPECT_NE(r.err.find(f + c.line), std::string::npos) << c.name << "\n" << r.err.substr(0, 500);
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.name << "\n" << r.err.substr(0, 500);
  }
}

TEST(CliInputs, HeadersDeclaringHugeCountsAreRefusedBeforeAllocating) {
  ScratchDir dir("cli_inputs_headers");
  const auto aut = dir.write("big.aut", "des (0, 1000000000, 1000000000)\n");
  auto r = run_playtest("validate " + aut);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("big.aut:1:1: error: the header declares 1000000000 transitions but the file has 0"),
            std::string::npos)
      << r.err;
}

// --- item 8: '-' works for every input format ------------------------------------------------------

TEST(CliInputs, StandardInputInEveryFormat) {
  struct Case {
    std::string what, file, extra;
  };
  const Case cases[] = {
      {"graph/1", "examples/graphs/seed000-figure1.json", ""},
      {"model program", "examples/models/chat.ptm", ""},
      {"aut", "examples/ioco/candy_spec.aut", ""},
  };
  for (const Case& c : cases) {
    const std::string text = read_file(example(c.file));
    auto from_file = run_playtest("info " + example(c.file) + " --json " + c.extra);
    auto from_stdin = run_playtest("info - --json " + c.extra, text);
    ASSERT_EQ(from_file.code, 0) << c.what << from_file.err;
    ASSERT_EQ(from_stdin.code, 0) << c.what << from_stdin.err;
    auto a = nlohmann::json::parse(from_file.out), b = nlohmann::json::parse(from_stdin.out);
    a.erase("file");
    b.erase("file");
    EXPECT_EQ(a, b) << c.what;
  }
  // --format overrides the guess from the content; a wrong one gives that format's located error.
  auto r = run_playtest("validate - --format graph", read_file(example("examples/models/chat.ptm")));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("-:1:"), std::string::npos) << r.err;
  r = run_playtest("validate - --format model", read_file(example("examples/models/chat.ptm")));
  EXPECT_EQ(r.code, 0) << r.err;
  // An empty standard input is an error, not an empty model.
  r = run_playtest("validate -", "");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.err, "playtest: -: error: the input is empty: there is nothing to read\n");
  // PRISM explicit models are several files: refused on standard input with what to do instead.
  r = run_playtest("validate -", "3 5 6\n0 0 1 1\n");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("a PRISM explicit model is read from its files"), std::string::npos) << r.err;
}

TEST(CliInputs, UnknownExtensionIsReadByContent) {
  ScratchDir dir("cli_inputs_ext");
  const auto f = dir.write("model.txt", read_file(example("examples/models/chat.ptm")));
  auto r = run_playtest("validate " + f);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("ok ("), std::string::npos) << r.out;
}

// --- item 9: messages about an element name it --------------------------------------------------

TEST(CliInputs, FieldErrorsNameTheElement) {
  ScratchDir dir("cli_inputs_names");
  const auto f = dir.write("g.json", R"({"playtest": "graph/1", "initial": "a",
  "vertices": [{"id": "a"}, {"id": "b", "goal": true}],
  "edges": [{"id": "e3", "from": "a", "to": "b", "cost": -1}]})");
  auto r = run_playtest("validate " + f);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("error: edge 'e3': \"cost\" must be finite and >= 0, got -1 (at /edges/0/cost)"),
            std::string::npos)
      << r.err;
  const auto v = dir.write("v.json", R"({"playtest": "graph/1", "initial": "a",
  "vertices": [{"id": "a", "kind": "sometimes"}], "edges": []})");
  r = run_playtest("validate " + v);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("error: vertex 'a': \"kind\" must be \"active\" or \"passive\", got \"sometimes\""),
            std::string::npos)
      << r.err;
  // Before its id is read, the element is named by its place.
  const auto early = dir.write("early.json", R"({"playtest": "graph/1", "initial": "a",
  "vertices": [{"id": "a"}], "edges": [{"cost": "x", "id": "late", "from": "a", "to": "a"}]})");
  r = run_playtest("validate " + early);
  EXPECT_NE(r.err.find("error: edge #0: \"cost\" must be a number, got a string"), std::string::npos) << r.err;
}

// --- item 10: the same option means the same thing everywhere -----------------------------------

TEST(CliInputs, SeedDefaultsToZeroEverywhere) {
  for (const std::string cmd : {"run", "simulate", "cover"}) {
    auto r = run_playtest(cmd + " --help");
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("--seed UINT=0"), std::string::npos) << cmd << "\n" << r.out;
  }
}

TEST(CliInputs, MaxStatesForModelProgramsInEveryCommand) {
  const std::string chat = example("examples/models/chat.ptm");
  for (const std::string& cmd :
       {"validate " + chat, "simulate " + chat + " --runs 2", "solve " + chat, "run " + chat + " --sut true"}) {
    auto r = run_playtest(cmd + " --max-states 3");
    EXPECT_EQ(r.code, 2) << cmd << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find("--max-states"), std::string::npos) << cmd << "\n" << r.err;
  }
}

// --- item 11: the modelling language's if with string branches -----------------------------------

TEST(CliInputs, IfWithStringBranches) {
  ScratchDir dir("cli_inputs_if");
  const auto f = dir.write("s.ptm", R"(model M;
var s: {"x", "a", "b"} = "x";
var b: bool = true;
controllable Go require b { s := if b then "a" else "b"; b := false; }
final s == "a";
)");
  auto r = run_playtest("validate " + f);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, f + ": ok (2 vertices, 1 edges)\n");
}

}  // namespace

namespace {

// --- item 7: strings that are not UTF-8 are refused at the source, so what playtest writes it reads --

TEST(CliInputs, InvalidUtf8IsRefusedWhereItEnters) {
  ScratchDir dir("cli_inputs_utf8");
  const auto aut = dir.write("bad.aut", "des (0, 2, 2)\n(0, \"?a\xff\", 1)\n(1, \"!b\", 0)\n");
  auto r = run_playtest("convert " + aut + " --to graph -o " + dir.file("out.json"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find(aut + ":2:8: error: invalid UTF-8 byte 0xFF: text inputs must be UTF-8"), std::string::npos)
      << r.err;
  const auto ptm = dir.write("bad.ptm", "model M;\nvar s: {\"x\xfe\", \"a\"} = \"a\";\ncontrollable Go { }\n");
  r = run_playtest("explore " + ptm + " -o " + dir.file("out2.json"));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find(ptm + ":2:11: error: invalid UTF-8 byte 0xFE"), std::string::npos) << r.err;
  // Valid UTF-8 goes through and reads back.
  const auto good = dir.write("good.aut", "des (0, 2, 2)\n(0, \"?caf\xc3\xa9\", 1)\n(1, \"!b\", 0)\n");
  r = run_playtest("convert " + good + " --to graph -o " + dir.file("good.json"));
  ASSERT_EQ(r.code, 0) << r.err;
  r = run_playtest("validate " + dir.file("good.json"));
  EXPECT_EQ(r.code, 0) << r.err;
}

TEST(CliInputs, LtsJsonOnStandardInput) {
  const std::string lts = R"({"playtest": "lts/1", "initial": "s0", "states": ["s0", "s1"],
    "transitions": [["s0", "?coin", "s1"], ["s1", "!tea", "s0"]]})";
  auto r = run_playtest("info - --json", lts);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_GE(nlohmann::json::parse(r.out).at("edges").get<int>(), 2);
}

}  // namespace
