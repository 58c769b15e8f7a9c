// The closed error vocabulary (include/playtest/base/error.hpp): Error is abstract, each concrete kind
// says which row of the tool's exit-code table it is (kind()), the kinds are distinct and named;
// an EnvironmentError carries its path and errno. And the one number parser (base/numbers.hpp):
// typed, located problems for junk, overflow, empty and trailing text.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/base/numbers.hpp"

namespace playtest {
namespace {

static_assert(std::is_abstract_v<Error>, "throw Error(...) must not compile: throw a kind");
static_assert(!std::is_base_of_v<AdapterError, StopRequested>, "a stop is not the adapter's fault");
static_assert(!std::is_base_of_v<AdapterError, BudgetSpent>, "a spent budget is not the adapter's fault");
static_assert(!std::is_base_of_v<Error, InternalError>, "a bug must not be caught as a user's error");

// One instance of every concrete class, with the kind it must report.
std::vector<std::pair<std::unique_ptr<Error>, ErrorKind>> every_concrete_error() {
  std::vector<std::pair<std::unique_ptr<Error>, ErrorKind>> v;
  v.emplace_back(std::make_unique<InputError>("m"), ErrorKind::input);
  v.emplace_back(std::make_unique<ParseError>("m"), ErrorKind::input);
  v.emplace_back(std::make_unique<GraphError>("m"), ErrorKind::input);
  v.emplace_back(std::make_unique<ModelError>("m"), ErrorKind::input);
  v.emplace_back(std::make_unique<UsageError>("epsilon", "m"), ErrorKind::usage);
  v.emplace_back(std::make_unique<AdapterError>("m"), ErrorKind::adapter);
  v.emplace_back(std::make_unique<EnvironmentError>("p", ENOSPC, "m"), ErrorKind::environment);
  v.emplace_back(std::make_unique<StopRequested>("m", 15), ErrorKind::stop_requested);
  v.emplace_back(std::make_unique<BudgetSpent>("m"), ErrorKind::budget_spent);
  return v;
}

TEST(ErrorVocabulary, EveryConcreteKindIsOneOfTheTableRows) {
  std::set<ErrorKind> reached;
  for (const auto& [e, kind] : every_concrete_error()) {
    EXPECT_EQ(e->kind(), kind) << e->what();
    reached.insert(e->kind());
  }
  // Every ErrorKind is some class's kind, and all_error_kinds lists each once.
  const std::set<ErrorKind> listed(std::begin(all_error_kinds), std::end(all_error_kinds));
  EXPECT_EQ(listed.size(), std::size(all_error_kinds));
  EXPECT_EQ(reached, listed);
  std::set<std::string> names;
  for (ErrorKind k : all_error_kinds) names.insert(error_kind_name(k));
  EXPECT_EQ(names.size(), std::size(all_error_kinds));
  EXPECT_EQ(names.count("?"), 0u);
}

TEST(ErrorVocabulary, EnvironmentErrorCarriesPathAndErrno) {
  const EnvironmentError e("out/report.html", ENOSPC, "write error", {"free some space"});
  EXPECT_EQ(e.path(), "out/report.html");
  EXPECT_EQ(e.error_number(), ENOSPC);
  EXPECT_EQ(e.diagnostic().message, "write error: No space left on device");
  EXPECT_STREQ(e.what(), "out/report.html: error: write error: No space left on device\n  note: free some space");
  const EnvironmentError none("", 0, "cannot write");
  EXPECT_EQ(none.error_number(), 0);
  EXPECT_STREQ(none.what(), "error: cannot write");
}

TEST(ErrorVocabulary, StopRequestedCarriesItsSignal) {
  EXPECT_EQ(StopRequested("stopped", 2).signal(), 2);
  EXPECT_EQ(StopRequested("stopped").signal(), 0);
}

TEST(NumberParser, Integers) {
  auto r = read_integer<std::uint64_t>("42");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value, 42u);
  EXPECT_EQ(read_integer<std::int64_t>("-7").value, -7);
  EXPECT_EQ(read_integer<std::uint64_t>("18446744073709551615").value, std::numeric_limits<std::uint64_t>::max());

  EXPECT_EQ(read_integer<std::uint64_t>("").problem, NumberProblem::empty);
  EXPECT_EQ(read_integer<std::uint64_t>("abc").problem, NumberProblem::not_a_number);
  EXPECT_EQ(read_integer<std::uint64_t>("-1").problem, NumberProblem::not_a_number);
  EXPECT_EQ(read_integer<std::uint64_t>("+1").problem, NumberProblem::not_a_number);
  EXPECT_EQ(read_integer<std::uint64_t>(" 1").problem, NumberProblem::not_a_number);
  EXPECT_EQ(read_integer<std::uint64_t>("18446744073709551616").problem, NumberProblem::out_of_range);
  EXPECT_EQ(read_integer<std::uint8_t>("256").problem, NumberProblem::out_of_range);
  EXPECT_EQ(read_integer<std::uint32_t>("4294967296").problem, NumberProblem::out_of_range);
  r = read_integer<std::uint64_t>("12ms");
  EXPECT_EQ(r.problem, NumberProblem::trailing_text);
  EXPECT_EQ(r.at, 2u);
  EXPECT_EQ(r.value, 0u);  // never a partial value
  EXPECT_EQ(describe(r, "12ms"), "text after the number: 'ms' at character 3");
  EXPECT_EQ(read_integer<std::uint64_t>("1e3").problem, NumberProblem::trailing_text);
}

TEST(NumberParser, Doubles) {
  auto r = read_finite("0.5");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value, 0.5);
  EXPECT_EQ(read_finite("-2").value, -2.0);
  EXPECT_EQ(read_finite("1e-9").value, 1e-9);
  EXPECT_EQ(read_finite("").problem, NumberProblem::empty);
  EXPECT_EQ(read_finite("x").problem, NumberProblem::not_a_number);
  EXPECT_EQ(read_finite("+1").problem, NumberProblem::not_a_number);
  EXPECT_EQ(read_finite("nan").problem, NumberProblem::not_finite);
  EXPECT_EQ(read_finite("inf").problem, NumberProblem::not_finite);
  EXPECT_EQ(read_finite("1e999").problem, NumberProblem::out_of_range);
  r = read_finite("0.5x");
  EXPECT_EQ(r.problem, NumberProblem::trailing_text);
  EXPECT_EQ(r.at, 3u);
  EXPECT_EQ(describe(read_finite("1e999"), "1e999"), "out of range");
  EXPECT_EQ(why_not(read_finite("x"), "x"), "");  // the caller already says "not a number"
  EXPECT_EQ(why_not(read_finite("nan"), "nan"), " (not finite)");
  // The short forms agree.
  EXPECT_EQ(parse_finite("0.25"), 0.25);
  EXPECT_FALSE(parse_finite("0.25 "));
  EXPECT_EQ(parse_unsigned("7"), 7u);
  EXPECT_FALSE(parse_unsigned("-7"));
}

}  // namespace
}  // namespace playtest
