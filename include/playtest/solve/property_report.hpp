// `solve --property` and `solve --exact` as a library result and its two renderings (issue 23):
// the values of a PropertyQuery at every vertex (with their exact fractions when known), what the
// query asks of the initial states (or a filter's states), and, for a comparison (P>=1 [...]),
// whether it holds. Text: a table and a summary; JSON: "value" beside "value_exact": "num/den".
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "playtest/solve/property.hpp"

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

struct PropertyReport {
  PropertyRequest request;
  PropertyResult result;
  double seconds = 0;
  // The summary's answer: the value at the single state or the filter's result over the states.
  double value = 0;
  std::optional<exact::Rational> value_exact;  // when the result is exact and the value finite
  std::optional<bool> holds;                   // a comparison, or forall / exists
  bool certified = false;
  std::string not_certified;
};

// Solves and summarizes. Throws what solve_property throws; UsageError("states") when no state is
// given.
PropertyReport solve_property_report(const TestGraph& g, const PropertyRequest& request);

void write_property_text(std::ostream& out, const TestGraph& g, const PropertyReport& r, std::uint32_t limit);
void write_property_json(std::ostream& out, const TestGraph& g, const PropertyReport& r, std::string_view file);

}  // namespace playtest
