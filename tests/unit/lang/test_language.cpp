// Every construct of the modelling language, and every class of error with its exact message.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "playtest/base/error.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/lang/model_program.hpp"

using namespace playtest;

namespace {

ExploreResult run(const std::string& text, std::vector<ModelParam> params = {}) {
  auto m = compile_model(text, "t.ptm", params);
  return explore(*m);
}

std::set<std::string> vertex_names(const TestGraph& g) {
  std::set<std::string> out;
  for (VertexId v : g.vertices()) out.emplace(g.name(v));
  return out;
}

std::set<std::string> labels(const TestGraph& g) {
  std::set<std::string> out;
  for (EdgeId e : g.edges()) out.emplace(g.label(e));
  return out;
}

// The full diagnostic (with source line and caret) of compiling, or exploring, `text`.
std::string error_of(const std::string& text, std::vector<ModelParam> params = {}) {
  try {
    auto m = compile_model(text, "t.ptm", params);
    explore(*m);
  } catch (const Error& e) {
    return format_diagnostic(e.diagnostic(), text);
  }
  return "no error";
}

}  // namespace

TEST(Language, CounterWithParamsAndRanges) {
  const std::string text = R"(
    model C;
    param N: 1..10 = 3;   // overridable
    const M = N * 2 - 1;
    var x: 0..M = 0;
    controllable Inc require x < M { x := x + 1; }
    controllable Dec require x > 0 cost 2 { x := x - 1; }
    final x == 0;
  )";
  ExploreResult r = run(text);
  EXPECT_EQ(r.graph.num_vertices(), 6u);
  EXPECT_EQ(r.graph.num_edges(), 10u);
  EXPECT_EQ(r.graph.num_goals(), 1u);
  EXPECT_EQ(r.graph.name(r.graph.initial()), "(x=0)");
  for (EdgeId e : r.graph.edges()) EXPECT_EQ(r.graph.cost(e), r.graph.label(e) == "Dec" ? 2.0 : 1.0);
  ExploreResult r5 = run(text, {{"N", "5"}});
  EXPECT_EQ(r5.graph.num_vertices(), 10u);
  auto m = compile_model(text, "t.ptm");
  EXPECT_EQ(m->name(), "C");
  EXPECT_EQ(m->state_size(), 1u);
}

TEST(Language, BoolsEnumsStringsTuples) {
  ExploreResult r = run(R"(
    enum Color { red, green, blue }
    type Word = {"a", "b"};
    var c: Color = red;
    var w: Word = "a";
    var t: (bool, 0..2) = (false, 0);
    controllable Next require c != blue { if c == red { c := green; } else { c := blue; } }
    controllable Flip { t.0 := not t.0; }
    controllable Say(x: Word) require x != w { w := x; }
    controllable Bump require t.1 < 2 and t.0 { t := (t.0, t.1 + 1); }
  )");
  EXPECT_EQ(r.graph.num_vertices(), 3u * 2 * 2 * 3);
  EXPECT_TRUE(vertex_names(r.graph).count("(c=blue, w=\"b\", t=(true, 2))"));
  EXPECT_EQ(labels(r.graph), (std::set<std::string>{"Next", "Flip", "Say(\"a\")", "Say(\"b\")", "Bump"}));
}

TEST(Language, SetsSequencesMapsAndBuiltins) {
  ExploreResult r = run(R"(
    type K = 0..2;
    var s: set<K> = {};
    var q: seq<K, 2> = [];
    var m: map<K, 0..3> = {};
    controllable Add(k: K) require not (k in s) { s := s + {k}; }
    controllable Push(k: K) require len(q) < 2 and k in s { q := q + [k]; }
    controllable Pop require len(q) > 0 { m[head(q)] := min(len(q) + last(q), 3); q := tail(q); }
    controllable Drop(k: K) require k in m { m := remove(m, k); s := s - {k}; }
    final size(s) == 0 and size(keys(m)) == 0 and len(q) == 0;
  )");
  EXPECT_EQ(r.status, ExploreStatus::complete);
  EXPECT_GT(r.graph.num_vertices(), 20u);
  EXPECT_TRUE(vertex_names(r.graph).count("(s={0, 2}, q=[2, 0], m={})"));
  EXPECT_TRUE(vertex_names(r.graph).count("(s={0, 1, 2}, q=[1], m={0 -> 3})"));
  EXPECT_EQ(r.graph.num_goals(), 1u);
}

TEST(Language, MaxAndAbs) {
  ExploreResult r = run(R"(
    var x: -2..2 = -2;
    controllable Inc require x < 2 { x := x + 1; }
    final abs(x) + max(x, 0) == 2;
  )");
  // x = -2: 2 + 0; x = 1: 1 + 1. (x = 2 gives 4, x = -1 gives 1.)
  EXPECT_EQ(r.graph.num_vertices(), 5u);
  std::set<std::string> goals;
  for (VertexId v : r.graph.vertices())
    if (r.graph.is_goal(v)) goals.emplace(r.graph.name(v));
  EXPECT_EQ(goals, (std::set<std::string>{"(x=-2)", "(x=1)"}));
  EXPECT_EQ(
      error_of("var q: seq<bool, 1> = [];\nfinal len(tail(q)) == 0;\ncontrollable Idle require false { }"),
      "t.ptm:2:11: error: tail() of an empty sequence (in state (q=[]))\n  final len(tail(q)) == 0;\n            ^");
}

TEST(Language, QuantifiersLetAndIfExpressions) {
  ExploreResult r = run(R"(
    type K = 0..3;
    var s: set<K> = {};
    controllable Add(k: K)
      require forall j in s : j < k          // only increasing
      require not (exists j in K : j in s and j == k)
      cost if k > 1 then 5 else 1
    {
      let t = s + {k};
      s := t;
    }
    final forall k in K : k in s;
  )");
  // Every subset is reachable (add in increasing order): 16 states; one final.
  EXPECT_EQ(r.graph.num_vertices(), 16u);
  EXPECT_EQ(r.graph.num_goals(), 1u);
  for (EdgeId e : r.graph.edges()) {
    const std::string l(r.graph.label(e));
    EXPECT_EQ(r.graph.cost(e), (l == "Add(2)" || l == "Add(3)") ? 5.0 : 1.0) << l;
  }
}

TEST(Language, ObservableWeightsTimeoutTrapsResetAbstract) {
  const std::string text = R"(
    var n: 0..3 = 0;
    var busy: bool = false;
    controllable Send require not busy and n < 3 trap sent { busy := true; }
    observable Ack weight 3 require busy trap acked when n == 0 { busy := false; n := n + 1; }
    observable Nak weight 1 require busy { busy := false; }
    controllable Cancel require busy { busy := false; }
    timeout cost 4 weight 2 when n < 2;
    reset cost 7;
    final not busy;
  )";
  ExploreResult r = run(text);
  const TestGraph& g = r.graph;
  EXPECT_EQ(g.reset_cost(), 7.0);
  std::uint32_t timeouts = 0;
  for (EdgeId e : g.edges()) {
    if (g.label(e) == "?Ack") {
      EXPECT_DOUBLE_EQ(g.probability(e), g.out_degree(g.source(e)) == 3 ? 0.5 : 0.75);
    }
    if (g.is_timeout(e)) {
      ++timeouts;
      EXPECT_EQ(g.cost(e), 4.0);
      EXPECT_DOUBLE_EQ(g.probability(e), 2.0 / 6.0);
    }
  }
  EXPECT_EQ(timeouts, 2u);  // busy with n = 0, 1
  ASSERT_EQ(r.trap_names, (std::vector<std::string>{"sent", "acked"}));
  EXPECT_EQ(r.trap_edges[0].size(), 3u);
  EXPECT_EQ(r.trap_edges[1].size(), 1u);
  // Abstraction: follow only `busy` (seed 001: "follow only the values of these functions").
  auto m = compile_model(text + "abstract busy;", "t.ptm");
  ExploreResult a = explore(*m);
  EXPECT_EQ(a.states, 2u);
  EXPECT_LT(a.graph.num_vertices(), g.num_vertices());
}

TEST(Language, ParamOverridesAndErrors) {
  // (An action that is never enabled: a model without any action is refused.)
  const std::string text =
      "param N: 1..4 = 2; param B: bool = false; var x: 0..N = 0; controllable A require false { }";
  EXPECT_EQ(run(text, {{"N", "4"}, {"B", "true"}}).graph.num_vertices(), 1u);
  EXPECT_EQ(error_of(text, {{"N", "9"}}), "t.ptm: error: model parameter 'N': value 9 is out of range 1..4");
  EXPECT_EQ(error_of(text, {{"N", "x"}}), "t.ptm: error: model parameter 'N' expects an integer, got 'x'");
  EXPECT_EQ(error_of(text, {{"B", "1"}}), "t.ptm: error: model parameter 'B' expects true or false, got '1'");
  EXPECT_EQ(error_of(text, {{"Q", "1"}}),
            "t.ptm: error: unknown model parameter 'Q'\n  note: the model's parameters are: N, B");
  EXPECT_EQ(parse_model_param("A=3").name, "A");
  EXPECT_EQ(parse_model_param("A=3").value, "3");
  EXPECT_THROW(parse_model_param("A3"), Error);
}

TEST(LanguageErrors, Lexing) {
  EXPECT_EQ(error_of("var x: 0..3 = 0 @;"),
            "t.ptm:1:17: error: unexpected character '@'\n  var x: 0..3 = 0 @;\n                  ^");
  EXPECT_EQ(error_of("var s: {\"a} = 1;"),
            "t.ptm:1:9: error: unterminated string literal\n  note: close it with '\"' on the same line\n"
            "  var s: {\"a} = 1;\n          ^");
  EXPECT_EQ(error_of("/* open\nvar x: bool;"),
            "t.ptm:1:1: error: unterminated comment: '/*' has no matching '*/'\n  /* open\n  ^");
  EXPECT_EQ(error_of("var x: 0..99999999999999999999 = 0;"),
            "t.ptm:1:11: error: integer literal too large\n  note: integers are 64-bit signed\n"
            "  var x: 0..99999999999999999999 = 0;\n            ^");
  EXPECT_EQ(error_of("controllable A require x != 1 & y;").substr(0, 42), "t.ptm:1:31: error: unexpected character '&");
}

TEST(LanguageErrors, Parsing) {
  EXPECT_EQ(error_of("var x: 0..3 = 0\nvar y: bool;"),
            "t.ptm:1:16: error: expected ';' after the variable declaration, found 'var'\n"
            "  note: add ';' at the end of this line\n  var x: 0..3 = 0\n                 ^");
  EXPECT_EQ(error_of("var x: 0..3 = 0;\ncontrollable A { x = 1; }"),
            "t.ptm:2:20: error: expected ':=' in the assignment, found '='\n"
            "  note: assignments use ':=', comparisons '=='\n  controllable A { x = 1; }\n                     ^");
  EXPECT_EQ(error_of("action A;"),
            "t.ptm:1:1: error: expected a declaration (var, controllable, observable, ...), found 'action'\n"
            "  note: declare actions with 'controllable NAME(...)' or 'observable NAME(...)'\n  action A;\n  ^");
  EXPECT_EQ(error_of("var if: bool;"),
            "t.ptm:1:5: error: 'if' is a keyword and cannot be used as a name after 'var'\n  var if: bool;\n      ^");
  EXPECT_EQ(error_of("controllable A weight 2;"),
            "t.ptm:1:16: error: only observable actions have a weight\n"
            "  note: a weight is the relative likelihood of an output of the system\n"
            "  controllable A weight 2;\n                 ^");
  EXPECT_EQ(error_of("var x: bool; final x == ;"),
            "t.ptm:1:25: error: expected an expression here, found ';'\n  var x: bool; final x == ;\n                  "
            "        ^");
  EXPECT_EQ(error_of("var x: 0..3; final 0 < x < 3;"),
            "t.ptm:1:26: error: comparisons do not chain\n  note: write 'a < b and b < c'\n"
            "  var x: 0..3; final 0 < x < 3;\n                           ^");
  EXPECT_EQ(error_of("final true; final false;"),
            "t.ptm:1:13: error: 'final' is declared twice\n  note: combine the conditions with 'and'\n"
            "  final true; final false;\n              ^");
}

TEST(LanguageErrors, NamesAndTypes) {
  EXPECT_EQ(error_of("var count: 0..3 = 0;\ncontrollable A require cuont < 3 { count := count + 1; }"),
            "t.ptm:2:24: error: undefined name 'cuont'\n  note: did you mean 'count'?\n"
            "  controllable A require cuont < 3 { count := count + 1; }\n                         ^");
  EXPECT_EQ(error_of("var x: 0..3 = 0;\ncontrollable A require x { }"),
            "t.ptm:2:24: error: type mismatch: a 'require' condition must be a bool, not 0..3\n"
            "  controllable A require x { }\n                         ^");
  EXPECT_EQ(error_of("var b: bool = false;\ncontrollable A { b := b + 1; }"),
            "t.ptm:2:25: error: type mismatch: '+' needs two integers, two sets or two sequences, got bool and int\n"
            "  controllable A { b := b + 1; }\n                          ^");
  EXPECT_EQ(error_of("var b: bool = false;\ncontrollable A { b := 3; }"),
            "t.ptm:2:23: error: type mismatch: cannot assign a value of type int to 'b' of type bool\n"
            "  controllable A { b := 3; }\n                        ^");
  EXPECT_EQ(error_of("const K = 2;\ncontrollable A { K := 3; }"),
            "t.ptm:2:18: error: cannot assign to 'K': it is a constant, not a state variable\n"
            "  controllable A { K := 3; }\n                   ^");
  EXPECT_EQ(error_of("var x: 0..3; var x: bool;"),
            "t.ptm:1:18: error: 'x' is already defined\n  note: first defined at line 1\n"
            "  var x: 0..3; var x: bool;\n                   ^");
  EXPECT_EQ(error_of("var x: Colour;"), "t.ptm:1:8: error: undefined type 'Colour'\n  var x: Colour;\n         ^");
  EXPECT_EQ(error_of("var s: set<0..3> = {}; final s == {true};"),
            "t.ptm:1:36: error: type mismatch: set element of type bool in a set of 0..3\n"
            "  var s: set<0..3> = {}; final s == {true};\n                                     ^");
  EXPECT_EQ(error_of("var x: 0..3 = 0; final foo(x);"),
            "t.ptm:1:24: error: unknown function 'foo'\n"
            "  note: built-in functions: len, size, head, tail, last, keys, min, max, abs, remove, value\n"
            "  var x: 0..3 = 0; final foo(x);\n                         ^");
  EXPECT_EQ(error_of("var t: (bool, bool); final t.2;"),
            "t.ptm:1:29: error: tuple (bool, bool) has no field .2\n  note: its fields are .0 to .1\n"
            "  var t: (bool, bool); final t.2;\n                              ^");
  EXPECT_EQ(error_of("var x: 0..3 = 5;"),
            "t.ptm:1:15: error: bad initial value of 'x': value 5 is out of range 0..3\n  var x: 0..3 = 5;\n           "
            "     ^");
  EXPECT_EQ(error_of("var x: 0..3 = 0; controllable A(p: 0..1) { p := 1; }"),
            "t.ptm:1:44: error: cannot assign to parameter 'p'; only state variables can be assigned\n"
            "  var x: 0..3 = 0; controllable A(p: 0..1) { p := 1; }\n                                             ^");
  EXPECT_EQ(
      error_of("var x: 0..3 = 0; param N: int = 2; var y: 0..N = x;"),
      "t.ptm:1:50: error: the initial value of 'y' must be a constant, but 'x' is a state variable\n"
      "  var x: 0..3 = 0; param N: int = 2; var y: 0..N = x;\n                                                   ^");
}

TEST(LanguageErrors, UnboundedDomains) {
  EXPECT_EQ(error_of("var x: int = 0;"),
            "t.ptm:1:8: error: unbounded domain: variable 'x' has type int\n  note: give it a range such as 0..10\n"
            "  var x: int = 0;\n         ^");
  EXPECT_EQ(error_of("var q: seq<bool> = [];"),
            "t.ptm:1:8: error: unbounded domain: the sequence type of variable 'q' needs a maximum length\n"
            "  note: write seq<T, N> with N the longest the sequence can grow\n  var q: seq<bool> = [];\n         ^");
  EXPECT_EQ(
      error_of("var s: set<0..99>;"),
      "t.ptm:1:12: error: unbounded domain: the elements of variable 's' must have a finite type with at most 64 "
      "values, not 0..99\n  note: use a small range, an enum or a string set\n  var s: set<0..99>;\n             ^");
  EXPECT_EQ(error_of("var s: string;"),
            "t.ptm:1:8: error: unbounded domain: variable 's' has type string\n"
            "  note: declare the strings it can take, e.g. {\"hi\", \"bye\"}\n  var s: string;\n         ^");
  EXPECT_EQ(error_of("var x: 0..3 = 0; controllable A(n: int) { x := n; }"),
            "t.ptm:1:36: error: unbounded domain: parameter 'n' of action 'A' has type int\n"
            "  note: give it a range such as 0..10\n  var x: 0..3 = 0; controllable A(n: int) { x := n; }\n"
            "                                     ^");
}

TEST(LanguageErrors, RunTime) {
  EXPECT_EQ(error_of("var x: 0..3 = 0;\ncontrollable Inc { x := x + 1; }"),
            "t.ptm:2:20: error: value 4 is out of range 0..3 of 'x' (in action Inc in state (x=3))\n"
            "  controllable Inc { x := x + 1; }\n                     ^");
  EXPECT_EQ(error_of("var x: 0..3 = 0;\ncontrollable Div(d: 0..1) require x == 0 { x := 3 / d; }"),
            "t.ptm:2:51: error: division by zero in 3 / 0 (in action Div(0) in state (x=0))\n"
            "  controllable Div(d: 0..1) require x == 0 { x := 3 / d; }\n                                              "
            "      ^");
  EXPECT_EQ(
      error_of("var q: seq<bool, 1> = [];\ncontrollable P { q := q + [true]; }"),
      "t.ptm:2:25: error: sequence too long: 2 elements do not fit seq<bool, 1> (in action P in state (q=[true]))\n"
      "  controllable P { q := q + [true]; }\n                          ^");
  EXPECT_EQ(error_of("var q: seq<bool, 1> = [];\nfinal head(q);\ncontrollable Idle require false { }"),
            "t.ptm:2:7: error: head() of an empty sequence (in state (q=[]))\n  final head(q);\n        ^");
  EXPECT_EQ(error_of("var m: map<0..1, bool> = {};\nfinal m[1];\ncontrollable Idle require false { }"),
            "t.ptm:2:8: error: key 1 is not in the map (in state (m={}))\n  final m[1];\n         ^");
  EXPECT_EQ(error_of("var x: 0..3 = 0;\ncontrollable A cost x - 1 { x := 1; }"),
            "t.ptm:2:23: error: cost -1 is negative; costs must be >= 0 (in action A in state (x=0))\n"
            "  controllable A cost x - 1 { x := 1; }\n                        ^");
}

TEST(Language, ExploresIdenticallyTwice) {
  // Compiled models are deterministic: two explorations give the same graph.
  const std::string text =
      "var a: 0..4 = 0; var b: 0..4 = 0;\n"
      "controllable A require a < 4 { a := a + 1; }\n"
      "observable B weight a + 1 require b < a { b := b + 1; }\n";
  ExploreResult x = run(text), y = run(text);
  ASSERT_EQ(x.graph.num_edges(), y.graph.num_edges());
  for (EdgeId e : x.graph.edges()) {
    EXPECT_EQ(x.graph.label(e), y.graph.label(e));
    EXPECT_EQ(x.graph.name(x.graph.target(e)), y.graph.name(y.graph.target(e)));
  }
  EXPECT_GT(x.graph.num_passive(), 0u);
}

namespace {

// An if expression whose branches have type T, assigned to a variable of type T: it explores, and
// Go takes the then branch (the variable holds `then_value` afterwards).
void expect_if_of_type(const std::string& decls, const std::string& type, const std::string& then_value,
                       const std::string& else_value, const std::string& shown) {
  const std::string text = decls + "\nvar v: " + type + " = " + else_value +
                           ";\nvar done: bool = false;\ncontrollable Go require not done { v := if not done then " +
                           then_value + " else " + else_value + "; done := true; }\n";
  SCOPED_TRACE(text);
  ExploreResult r;
  ASSERT_NO_THROW(r = run(text));
  EXPECT_EQ(r.graph.num_vertices(), 2u);
  bool found = false;
  for (const std::string& n : vertex_names(r.graph)) found = found || n.find("v=" + shown) != std::string::npos;
  EXPECT_TRUE(found) << ::testing::PrintToString(vertex_names(r.graph));
}

}  // namespace

TEST(Language, IfBranchesOfEveryType) {
  expect_if_of_type("", "bool", "true", "false", "true");
  expect_if_of_type("", "0..9", "7", "1", "7");
  expect_if_of_type("enum Color { red, green }", "Color", "green", "red", "green");
  // Two string literals (this used to be refused: "the branches of 'if' have types string and string").
  expect_if_of_type("", "{\"a\", \"b\"}", "\"a\"", "\"b\"", "\"a\"");
  expect_if_of_type("type W = {\"a\", \"b\"};", "W", "\"b\"", "\"a\"", "\"b\"");
  expect_if_of_type("", "(bool, 0..2)", "(true, 2)", "(false, 0)", "(true, 2)");
  expect_if_of_type("", "set<0..2>", "{1, 2}", "{}", "{1, 2}");
  expect_if_of_type("", "seq<0..2, 2>", "[2, 1]", "[]", "[2, 1]");
  expect_if_of_type("var w: map<0..1, 0..3> = {};", "map<0..1, 0..3>", "w", "{}", "{}");
}

TEST(LanguageErrors, IfBranchesOfDifferentTypes) {
  EXPECT_NE(error_of("var v: bool = false;\ncontrollable Go { v := if v then true else 3; }")
                .find("type mismatch: the branches of 'if' have types bool and int"),
            std::string::npos);
  EXPECT_NE(error_of("var v: bool = false;\ncontrollable Go { v := if v then \"a\" else 3; }").find("type mismatch"),
            std::string::npos);
}

TEST(LanguageErrors, NestingIsBounded) {
  std::string deep = "var x: bool = false;\ncontrollable A {";
  for (int i = 0; i < 300; ++i) deep += " if x {";
  for (int i = 0; i < 300; ++i) deep += " }";
  deep += " }";
  EXPECT_NE(error_of(deep).find("t.ptm:2:"), std::string::npos);
  EXPECT_NE(error_of(deep).find("statements nested too deeply (more than 200 levels)"), std::string::npos);
  // 150 levels are fine.
  std::string ok = "var x: bool = false;\ncontrollable A {";
  for (int i = 0; i < 150; ++i) ok += " if x {";
  ok += " x := true;";
  for (int i = 0; i < 150; ++i) ok += " }";
  ok += " x := true; }";
  EXPECT_EQ(error_of(ok), "no error");
}

TEST(LanguageErrors, AModelWithoutActions) {
  EXPECT_EQ(error_of(""),
            "t.ptm:1:1: error: the model declares no action: there is nothing to explore or test\n"
            "  note: declare what the tester can do with 'controllable NAME { ... }' and what the system does with "
            "'observable NAME { ... }' (docs/language.md)\n  \n  ^");
}
