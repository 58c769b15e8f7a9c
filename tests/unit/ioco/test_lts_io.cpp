// .aut and lts/1 JSON import: the conventions and one test per error class (message and location).
#include <gtest/gtest.h>

#include <string>

#include "playtest/base/error.hpp"
#include "playtest/ioco/lts_io.hpp"

using namespace playtest;
using namespace playtest::ioco;

namespace {

template <class E>
Diagnostic error_of(const std::string& text, const LtsReadOptions& o = {}) {
  try {
    (void)parse_aut(text, "bad.aut", o);
  } catch (const E& e) {
    return e.diagnostic();
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return {};
}

void expect_at(const Diagnostic& d, std::uint32_t line, std::uint32_t col, const std::string& fragment) {
  EXPECT_EQ(d.where.file, "bad.aut");
  EXPECT_EQ(d.where.line, line) << d.message;
  EXPECT_EQ(d.where.column, col) << d.message;
  EXPECT_NE(d.message.find(fragment), std::string::npos) << d.message;
}

}  // namespace

TEST(AutImport, PrefixesListsAndInternalSteps) {
  const Lts l = parse_aut(
      "des (1, 5, 3)\n"
      "(1, \"?coin\", 0)\n"
      "(0, !tea, 2)\n"
      "(0, \"i\", 2)\n"
      "(2, tau, 1)\n"
      "  \n"
      "(2, \"!tea\", 2)\r\n");
  EXPECT_EQ(l.num_states(), 3u);
  EXPECT_EQ(l.initial(), 1u);
  EXPECT_EQ(l.num_transitions(), 5u);
  EXPECT_EQ(l.input_names(), std::vector<std::string>{"coin"});
  EXPECT_EQ(l.output_names(), std::vector<std::string>{"tea"});
  ASSERT_EQ(l.out_actions(0).size(), 2u);
  EXPECT_EQ(l.out_actions(0)[0], *l.find_action("tea"));
  EXPECT_EQ(l.out_actions(0)[1], Lts::tau);
  EXPECT_FALSE(l.is_quiescent(0));
  EXPECT_TRUE(l.is_quiescent(1));  // only an input
  EXPECT_FALSE(l.has_explicit_delta());
}

TEST(AutImport, LabelListsWithoutPrefixes) {
  const std::string text = "des (0, 2, 2)\n(0, \"coin\", 1)\n(1, \"tea\", 0)\n";
  Lts a = parse_aut(text, "x.aut", {.inputs = {"coin"}});  // the other labels are outputs
  EXPECT_TRUE(a.is_input(*a.find_action("coin")));
  EXPECT_TRUE(a.is_output(*a.find_action("tea")));
  Lts b = parse_aut(text, "x.aut", {.outputs = {"coin"}});  // the other labels are inputs
  EXPECT_TRUE(b.is_output(*b.find_action("coin")));
  EXPECT_TRUE(b.is_input(*b.find_action("tea")));
}

TEST(AutImport, ExplicitDeltaAndRoundTrip) {
  const Lts l = parse_aut("des (0, 3, 1)\n(0, \"delta\", 0)\n(0, \"?a\", 0)\n(0, \"!x\", 0)\n");
  EXPECT_TRUE(l.has_explicit_delta());
  const Lts again = parse_aut(write_aut(l));
  EXPECT_EQ(write_aut(again), write_aut(l));
  EXPECT_TRUE(again.has_explicit_delta());
}

TEST(AutErrors, EmptyFile) { expect_at(error_of<ParseError>("\n  \n"), 1, 1, "empty file"); }

TEST(AutErrors, BadHeader) { expect_at(error_of<ParseError>("digraph {}\n"), 1, 1, "expected the header"); }

TEST(AutErrors, HeaderNotANumber) {
  expect_at(error_of<ParseError>("des (0, x, 3)\n"), 1, 9, "expected the number of transitions (a number)");
}

TEST(AutErrors, NumberTooLarge) {
  expect_at(error_of<ParseError>("des (0, 99999999999, 3)\n"), 1, 9, "the number of transitions is too large");
}

TEST(AutErrors, InitialStateOutOfRange) {
  expect_at(error_of<ParseError>("des (5, 0, 3)\n"), 1, 1, "the initial state 5 is out of range");
}

TEST(AutErrors, StateOutOfRange) {
  expect_at(error_of<ParseError>("des (0, 2, 3)\n(0, \"?a\", 1)\n(1, \"!b\", 9)\n"), 3, 11,
            "state 9 is out of range: the header declares 3 states (0..2)");
}

TEST(AutErrors, TransitionCountMismatch) {
  expect_at(error_of<ParseError>("des (0, 3, 2)\n(0, \"?a\", 1)\n(1, \"!b\", 0)\n"), 1, 1,
            "the header declares 3 transitions but the file has 2");
}

TEST(AutErrors, UnterminatedQuotedLabel) {
  expect_at(error_of<ParseError>("des (0, 1, 2)\n(0, \"?a, 1)\n"), 2, 5, "unterminated quoted label");
}

TEST(AutErrors, MissingParenthesis) {
  expect_at(error_of<ParseError>("des (0, 1, 2)\n0, \"?a\", 1\n"), 2, 1, "expected '(' starting a transition");
}

TEST(AutErrors, TextAfterTransition) {
  expect_at(error_of<ParseError>("des (0, 1, 2)\n(0, \"?a\", 1) junk\n"), 2, 14, "unexpected text after ')'");
}

TEST(AutErrors, LabelNeitherInputNorOutput) {
  const Diagnostic d = error_of<ModelError>("des (0, 1, 2)\n(0, \"coin\", 1)\n");
  expect_at(d, 2, 5, "cannot tell whether label 'coin' is an input or an output");
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_NE(d.notes[0].find("lists of the input and output labels"), std::string::npos);
}

TEST(AutErrors, LabelWithTwoKinds) {
  expect_at(error_of<ModelError>("des (0, 2, 2)\n(0, \"?a\", 1)\n(1, \"!a\", 0)\n"), 3, 5,
            "label 'a' is used as an output here but as an input before");
}

TEST(AutErrors, PrefixContradictsList) {
  expect_at(error_of<ModelError>("des (0, 1, 2)\n(0, \"!a\", 1)\n", {.inputs = {"a"}}), 2, 5,
            "has the prefix of an output but is listed as an input");
}

TEST(AutErrors, DeltaAsInput) {
  expect_at(error_of<ModelError>("des (0, 1, 2)\n(0, \"?delta\", 1)\n"), 2, 5, "cannot be an input");
}

TEST(AutErrors, FormattedMessageIsGnuStyle) {
  const Diagnostic d = error_of<ParseError>("des (0, 2, 3)\n(0, \"?a\", 1)\n(1, \"!b\", 9)\n");
  EXPECT_EQ(format_diagnostic(d).substr(0, 26), "bad.aut:3:11: error: state");
}

TEST(LtsJson, ParsesNamedStates) {
  const Lts l = parse_lts_json(R"({"playtest": "lts/1", "inputs": ["coin"], "outputs": ["tea"], "initial": "idle",
    "transitions": [["idle", "coin", "paid"], ["paid", "tea", "idle"], ["paid", "tau", "idle"]]})");
  EXPECT_EQ(l.num_states(), 2u);
  EXPECT_EQ(l.state_name(l.initial()), "idle");
  EXPECT_EQ(l.state_name(1), "paid");
  EXPECT_TRUE(l.is_input(*l.find_action("coin")));
  EXPECT_TRUE(l.is_output(*l.find_action("tea")));
  EXPECT_EQ(l.num_transitions(), 3u);
}

TEST(LtsJson, Errors) {
  auto err = [](const std::string& text) -> Diagnostic {
    try {
      (void)parse_lts_json(text, "m.json");
    } catch (const Error& e) {
      return e.diagnostic();
    }
    ADD_FAILURE() << text;
    return {};
  };
  Diagnostic d = err("{\"playtest\": \"lts/1\",\n \"initial\": 0,, }");
  EXPECT_EQ(d.where.line, 2u);
  EXPECT_NE(d.message.find("JSON syntax error"), std::string::npos);
  d = err(R"({"playtest": "lts/1", "initial": 0, "transitions": [], "colour": 1})");
  EXPECT_EQ(d.where.pointer, "/colour");
  d = err(R"({"playtest": "lts/1", "initial": 0, "transitions": [[0, "?a"]]})");
  EXPECT_EQ(d.where.pointer, "/transitions/0");
  d = err(R"({"playtest": "lts/1", "initial": 0, "transitions": [[0, "a", 1]]})");
  EXPECT_EQ(d.where.pointer, "/transitions/0/1");
  EXPECT_NE(d.message.find("cannot tell"), std::string::npos);
  d = err(R"({"playtest": "graph/1"})");
  EXPECT_EQ(d.where.pointer, "/playtest");
}

TEST(LtsJson, NumberOverflowIsAParseErrorWithLocation) {
  // A literal beyond double's range is not a syntax error to nlohmann-json but an out_of_range
  // exception without a byte offset (found by fuzz_aut); it must still become a located ParseError.
  try {
    (void)parse_lts_json("{\"playtest\": \"lts/1\",\n \"initial\": 1e99999}", "m.json");
    FAIL() << "accepted an out-of-range number";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.diagnostic().where.line, 2u);
    EXPECT_EQ(e.diagnostic().where.column, 13u);
    EXPECT_NE(e.diagnostic().message.find("out of range"), std::string::npos);
  }
}

TEST(LtsJson, Sniffing) {
  EXPECT_TRUE(looks_like_lts_json(R"({ "playtest" : "lts/1", ...)"));
  EXPECT_FALSE(looks_like_lts_json(R"({"playtest": "graph/1", "x": "lts/1"})"));
}
