// `solve --property` and `solve --exact` as a library result and its two renderings (issue 23):
// the values of a PropertyQuery at every vertex (with their exact fractions when known), what the
// query asks of the initial states (or a filter's states), and, for a comparison (P>=1 [...]),
// whether it holds (issue 32, item 1): decided by the graph where the probability is exactly 0 or 1
// (or the threshold is 0 or 1), else by the exact value or the proved interval; "unknown" when the
// interval straddles the threshold. Text: a table and a summary; JSON: "value" beside
// "value_exact": "num/den".
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "playtest/solve/exact/property.hpp"

namespace playtest {

// What the summary reports: the value at the states (one state: its value; several: the filter).
enum class PropertyFilter : std::uint8_t { none, max, min, avg, sum, forall, exists, first };
enum class PropertyComparison : std::uint8_t { query, ge, gt, le, lt };

struct PropertyRequest {
  std::string text;                    // the property as written, or what --objective --exact stands for
  std::string objective = "property";  // JSON "objective": "property", or "expected" / "reach" for --exact
  PropertyQuery query;
  PropertyOptions options;
  std::vector<VertexId> states;  // the states the summary reports on (at least one)
  PropertyFilter filter = PropertyFilter::none;
  PropertyComparison comparison = PropertyComparison::query;
  exact::Rational threshold;  // for a comparison
  std::string threshold_text;
  // A PRISM MDP import: one step is two moves (the report says steps where bounds are concerned).
  std::string note;
};

// Whether a comparison holds: yes, no, or unknown (a proved interval on both sides of the threshold,
// or no proved bound), never a guess.
enum class PropertyTruth : std::uint8_t { no, yes, unknown };

struct PropertyVerdict {
  PropertyTruth truth = PropertyTruth::unknown;
  std::string_view how;   // "graph analysis", "exact values" or "proved error bound" when decided
  double lo = 1, hi = 0;  // unknown: the proved interval of the value (lo > hi: none)
};

// Whether the value of `x` at v compares with t as c asks (c != query). The graph decides where a
// probability is exactly 0 or 1, or strictly between against a threshold <= 0 or >= 1, and where a
// reward is infinite; otherwise the exact value, otherwise the certified interval [value - bound,
// value + bound] (rounded outwards and compared exactly), otherwise unknown.
PropertyVerdict property_verdict(const PropertyResult& x, PropertyKind kind, VertexId v, PropertyComparison c,
                                 const exact::Rational& t);

struct PropertyReport {
  PropertyRequest request;
  PropertyResult result;
  double seconds = 0;
  // The summary's answer: the value at the single state or the filter's result over the states.
  double value = 0;
  std::optional<exact::Rational> value_exact;  // when the result is exact and the value finite
  // A comparison, or forall / exists: whether it holds, or unknown when a value's proved interval
  // lies on both sides of the threshold (never a guessed true or false).
  std::optional<PropertyTruth> holds;
  // How it was decided: "graph analysis" (the probability is exactly 0 or 1, or strictly between
  // against a threshold of 0 or 1; an infinite reward), "exact values", "proved error bound"; joined
  // with " and " when states were decided differently.
  std::string decided_by;
  // Unknown: the first state that left it open and its proved interval (lo > hi: no proved bound).
  std::optional<VertexId> open_state;
  double open_lo = 1, open_hi = 0;
  // The answer is certified: a decided comparison, or a value that is exact or has a proved bound.
  bool certified = false;
  std::string not_certified;
  // The value is known exactly by graph analysis (a probability 0 or 1 at every state asked of).
  bool value_by_graph = false;
};

// Solves and summarizes. Throws what solve_property throws; UsageError("states") when no state is
// given.
PropertyReport solve_property_report(const TestGraph& g, const PropertyRequest& request);

void write_property_text(std::ostream& out, const TestGraph& g, const PropertyReport& r, std::uint32_t limit);
void write_property_json(std::ostream& out, const TestGraph& g, const PropertyReport& r, std::string_view file);

}  // namespace playtest
