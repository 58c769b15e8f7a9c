// The PRISM property syntax beyond reachability (issue 32, item 5): G, X, W, R, lower and interval
// step bounds, C<=k, I=k, S, named constants, .props files, and the refusal of multi(...).
#include <gtest/gtest.h>

#include <string>

#include "playtest/base/error.hpp"
#include "playtest/io/prism_property.hpp"

using namespace playtest;

namespace {

SourceLocation where(const std::string& text, const PrismConstants& c = {}) {
  try {
    parse_prism_property(text, c);
  } catch (const ParseError& e) {
    return e.diagnostic().where;
  }
  ADD_FAILURE() << "no error for " << text;
  return {};
}

std::string message(const std::string& text, const PrismConstants& c = {}) {
  try {
    parse_prism_property(text, c);
  } catch (const ParseError& e) {
    return e.diagnostic().message;
  }
  return "";
}

TEST(PrismPropertyPaths, TemporalOperators) {
  auto p = parse_prism_property("Pmax=? [ G<=5 !\"err\" ]");
  EXPECT_EQ(p.path, PrismProperty::Path::globally);
  EXPECT_EQ(p.step_bound, 5u);
  EXPECT_FALSE(p.step_lower);
  EXPECT_EQ(p.target.kind, LabelFormula::Kind::negation);
  p = parse_prism_property("P=? [ X \"a\" ]");
  EXPECT_EQ(p.path, PrismProperty::Path::next);
  EXPECT_EQ(p.step_lower, 1u);
  EXPECT_EQ(p.step_bound, 1u);
  p = parse_prism_property("Pmin=? [ \"a\" W \"b\" ]");
  EXPECT_EQ(p.path, PrismProperty::Path::weak_until);
  ASSERT_TRUE(p.left);
  EXPECT_EQ(p.left->label, "a");
  EXPECT_EQ(p.target.label, "b");
  p = parse_prism_property("Pmin=? [ \"a\" R<=3 \"b\" ]");
  EXPECT_EQ(p.path, PrismProperty::Path::release);
  EXPECT_EQ(p.step_bound, 3u);
  p = parse_prism_property("P=? [ \"a\" U[2,7] \"b\" ]");
  EXPECT_EQ(p.path, PrismProperty::Path::until);
  EXPECT_EQ(p.step_lower, 2u);
  EXPECT_EQ(p.step_bound, 7u);
}

TEST(PrismPropertyPaths, LowerAndIntervalBounds) {
  EXPECT_EQ(parse_prism_property("P=? [ F>=4 \"a\" ]").step_lower, 4u);
  EXPECT_EQ(parse_prism_property("P=? [ F>4 \"a\" ]").step_lower, 5u);
  const auto p = parse_prism_property("P=? [ F[3,3] \"a\" ]");
  EXPECT_EQ(p.step_lower, 3u);
  EXPECT_EQ(p.step_bound, 3u);
  EXPECT_EQ(where("P=? [ F[4,3] \"a\" ]").column, 8u);
  EXPECT_NE(message("P=? [ F[4,3] \"a\" ]").find("is empty"), std::string::npos);
  // A reward bound is an upper bound only; G takes no reward bound.
  EXPECT_NE(message("P=? [ F{\"r\"}>=3 \"a\" ]").find("only upper reward bounds"), std::string::npos);
  EXPECT_NE(message("P=? [ G{\"r\"}<=3 \"a\" ]").find("F and U only"), std::string::npos);
}

TEST(PrismPropertyPaths, RewardPaths) {
  auto p = parse_prism_property("R{\"time\"}max=? [ C<=10 ]");
  EXPECT_EQ(p.path, PrismProperty::Path::cumulative);
  EXPECT_EQ(p.step_bound, 10u);
  EXPECT_EQ(p.reward, "time");
  p = parse_prism_property("R=? [ I=4 ]");
  EXPECT_EQ(p.path, PrismProperty::Path::instantaneous);
  EXPECT_EQ(p.step_bound, 4u);
  p = parse_prism_property("R=? [ S ]");
  EXPECT_EQ(p.path, PrismProperty::Path::long_run);
  EXPECT_NE(message("R=? [ G \"a\" ]").find("reward path"), std::string::npos);
  EXPECT_NE(message("P=? [ C<=3 ]").find("belong to R"), std::string::npos);
}

TEST(PrismPropertyPaths, SteadyState) {
  auto p = parse_prism_property("S=? [ \"up\" & !\"busy\" ]");
  EXPECT_EQ(p.quantity, PrismProperty::Quantity::steady_state);
  EXPECT_EQ(p.target.kind, LabelFormula::Kind::conjunction);
  p = parse_prism_property("S>=0.25 [ \"up\" ]");
  EXPECT_EQ(p.comparison, PrismProperty::Comparison::ge);
  EXPECT_EQ(p.threshold, "0.25");
  EXPECT_NE(message("Smax=? [ \"up\" ]").find("DTMCs only"), std::string::npos);
}

TEST(PrismPropertyPaths, NamedConstants) {
  const PrismConstants c{{"B", "1300"}, {"T", "4"}, {"p", "0.5"}};
  EXPECT_EQ(parse_prism_property("Pmax=? [ F<=B \"success\" ]", c).step_bound, 1300u);
  EXPECT_EQ(parse_prism_property("Pmax=? [ F<=2*(T+1)-3 \"s\" ]", c).step_bound, 7u);
  EXPECT_EQ(parse_prism_property("Pmax=? [ F<T \"s\" ]", c).step_bound, 3u);
  EXPECT_EQ(parse_prism_property("Pmax>=p [ F \"s\" ]", c).threshold, "0.5");
  EXPECT_EQ(parse_prism_property("R=? [ C<=T ]", c).step_bound, 4u);
  // A constant without a value is named at its place.
  EXPECT_EQ(where("Pmax=? [ F<=K \"s\" ]", c).column, 13u);
  EXPECT_NE(message("Pmax=? [ F<=K \"s\" ]", c).find("--const K="), std::string::npos);
  // A step bound must be an integer and not negative.
  EXPECT_NE(message("Pmax=? [ F<=p \"s\" ]", c).find("integer"), std::string::npos);
  EXPECT_NE(message("Pmax=? [ F<=T-5 \"s\" ]", c).find(">= 0"), std::string::npos);
  EXPECT_NE(message("Pmax=? [ F<=9223372036854775807*2 \"s\" ]", c).find("overflows"), std::string::npos);
}

TEST(PrismPropertyPaths, MultiObjectiveIsRefusedByName) {
  const std::string text = "multi(Pmax=? [ F \"a\" ], Pmax=? [ F \"b\" ])";
  EXPECT_EQ(where(text).column, 1u);
  EXPECT_NE(message(text).find("multi(...)"), std::string::npos);
  EXPECT_NE(message(text).find("Storm"), std::string::npos);
  EXPECT_NE(message(text).find("PRISM"), std::string::npos);
}

TEST(PrismProps, ConstantsNamesCommentsAndLines) {
  const std::string text =
      "// a comment\n"
      "const int K;\n"
      "const int K2 = 2*K + 1;\n"
      "const double p = 0.7;\n"
      "const N = 3;\n"
      "\n"
      "\"first\": Pmax=? [ F<=K2 \"b\" ];\n"
      "Pmax>=p [ F[K,K] \"b\" ]\n"
      "/* two\n lines */ \"cum\" : R{\"r\"}max=? [ C<=N ];\n"
      "Pmin=? [ G\n   !\"a\" ]\n"
      "label \"x\" = s=5;\n";
  const PrismPropsFile f = parse_prism_props(text, "m.props");
  ASSERT_EQ(f.constants.size(), 4u);
  EXPECT_EQ(f.constants[0].name, "K");
  EXPECT_EQ(f.constants[0].value, "");
  EXPECT_EQ(f.constants[1].value, "2*K + 1");
  EXPECT_EQ(f.constants[2].type, "double");
  EXPECT_EQ(f.constants[3].type, "int");
  ASSERT_EQ(f.properties.size(), 4u);
  EXPECT_EQ(f.properties[0].name, "first");
  EXPECT_EQ(f.properties[0].line, 7u);
  EXPECT_EQ(f.properties[0].column, 10u);
  EXPECT_EQ(f.properties[1].name, "");
  EXPECT_EQ(f.properties[1].text, "Pmax>=p [ F[K,K] \"b\" ]");
  EXPECT_EQ(f.properties[2].name, "cum");
  EXPECT_EQ(f.properties[2].line, 10u);
  EXPECT_EQ(f.properties[3].line, 11u);
  ASSERT_EQ(f.definitions.size(), 1u);
  EXPECT_EQ(f.definitions[0].kind, "label");
  EXPECT_EQ(f.definitions[0].name, "x");

  // Values: --const first, then the definitions in order; one that needs an undefined constant
  // stays undefined.
  PrismConstants c = prism_constants(&f, {});
  EXPECT_EQ(c.count("K"), 0u);
  EXPECT_EQ(c.count("K2"), 0u);
  EXPECT_EQ(c.at("p"), "0.7");
  EXPECT_EQ(c.at("N"), "3");
  c = prism_constants(&f, parse_constant_list("K=4"));
  EXPECT_EQ(c.at("K2"), "9");
  const auto& p = select_property(f, "first");
  EXPECT_EQ(parse_prism_property(p.text, c).step_bound, 9u);
  EXPECT_EQ(&select_property(f, "2"), &f.properties[1]);
  EXPECT_EQ(&select_property(f, "cum"), &f.properties[2]);
  EXPECT_THROW(select_property(f, ""), UsageError);
  EXPECT_THROW(select_property(f, "5"), UsageError);
  EXPECT_THROW(select_property(f, "nope"), UsageError);
  // A given constant the file does not declare is a usage error naming the file's constants.
  try {
    prism_constants(&f, parse_constant_list("Q=1"));
    ADD_FAILURE();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("K, K2, p, N"), std::string::npos) << e.what();
  }
}

TEST(PrismProps, ErrorsAreLocatedInTheFile) {
  // A property's error: the file's line and column.
  const PrismPropsFile f = parse_prism_props("const int K = 2;\n\n  \"x\": Pmax=? [ F<=K \"b\" ] junk\n", "m.props");
  ASSERT_EQ(f.properties.size(), 1u);
  const auto& p = f.properties[0];
  try {
    parse_prism_property(p.text, prism_constants(&f, {}), {"m.props", p.line, p.column});
    ADD_FAILURE();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.diagnostic().where.file, "m.props");
    EXPECT_EQ(e.diagnostic().where.line, 3u);
    EXPECT_EQ(e.diagnostic().where.column, 28u);
  }
  auto located = [](const std::string& text) {
    try {
      parse_prism_props(text, "f.props");
    } catch (const ParseError& e) {
      return std::to_string(e.diagnostic().where.line) + ":" + std::to_string(e.diagnostic().where.column);
    }
    return std::string("none");
  };
  EXPECT_EQ(located("P=? [ F \"a\" ]\n/* open"), "2:1");
  EXPECT_EQ(located("P=? [ F \"a\"\n"), "1:5");
  EXPECT_EQ(located("P=? [ F \"a\" ])"), "1:14");
  EXPECT_EQ(located("const int = 3;"), "1:11");
  EXPECT_EQ(located("const int K = 1;\nconst K = 2;"), "2:7");
  EXPECT_EQ(located("const int K"), "1:1");
  EXPECT_EQ(located("P=? [ F \"a ]"), "1:9");
  // A definition that cannot be evaluated is located at its value.
  const PrismPropsFile g = parse_prism_props("const int K = 2.5*3;\n", "g.props");
  try {
    prism_constants(&g, {});
    ADD_FAILURE();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.diagnostic().where.line, 1u);
    EXPECT_EQ(e.diagnostic().where.column, 16u);
  }
}

TEST(PrismProps, ConstantLists) {
  const PrismConstants c = parse_constant_list("B=1300,p=0.25,flag=true");
  EXPECT_EQ(c.at("B"), "1300");
  EXPECT_EQ(c.at("p"), "0.25");
  EXPECT_THROW(parse_constant_list("B"), UsageError);
  EXPECT_THROW(parse_constant_list("=3"), UsageError);
  EXPECT_THROW(parse_constant_list("B=x"), UsageError);
  EXPECT_THROW(parse_constant_list("B=1,B=2"), UsageError);
  EXPECT_THROW(parse_constant_list("1B=2"), UsageError);
  EXPECT_THROW(parse_constant_list(""), UsageError);
}

}  // namespace
