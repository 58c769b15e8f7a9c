// What a test aims at (seed 000 §3: reach a goal; seed 000 §5 and seed 002 §3.3: cover edges, the
// traps) and how a strategy's request turns into one: StrategySpec names the strategy and the
// purpose as users write them (vertex ids, edge ids, labels, trap specs); resolve() checks every
// name against the graph and fills in the strategy's default purpose.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

struct TestPurpose {
  enum class Kind : std::uint8_t {
    none,   // no purpose: the run passes when its budget ends without failure
    reach,  // reach one of `goals` (empty: the graph's goal vertices)
    cover,  // take every edge of `edges` (empty: every edge of the graph) at least once
  };
  Kind kind = Kind::none;
  std::vector<VertexId> goals;
  std::vector<EdgeId> edges;
  // Cover purposes that fit a big model: count labels, not edges (every label of the purpose edges
  // taken once, by any edge with it), and be met at a fraction of them (cover:80%).
  bool by_label = false;
  double threshold = 1.0;  // in (0, 1]
};
std::string_view to_string(TestPurpose::Kind k);  // "none", "reach", "cover"

// How many of `total` edges or labels a cover purpose with `threshold` needs (at least 1 when
// total > 0): ceil(threshold * total).
std::uint32_t purpose_needed(double threshold, std::uint32_t total);

// The purpose a user asked for; `automatic` lets the strategy decide (StrategySpec::purpose_kind).
// `labels`: cover every label once (a cover purpose by label).
enum class PurposeChoice : std::uint8_t { automatic, reach, cover, labels, none };
// "auto", "reach", "cover", "labels", "none"; throws UsageError("purpose", ...) otherwise.
PurposeChoice parse_purpose_choice(std::string_view name);

// A purpose as written on the command line: a choice, and for cover and labels an optional
// threshold, "cover:80%" (a percentage above 0 and at most 100). Throws UsageError("purpose") with
// "did you mean" for a near miss.
struct PurposeRequest {
  PurposeChoice choice = PurposeChoice::automatic;
  double threshold = 1.0;
};
PurposeRequest parse_purpose_request(std::string_view text);

// A purpose from the names users write: vertex ids for `goals`, edge ids for `edges` (an edge id or,
// when no edge has that id, every edge with that label). Throws GraphError naming an unknown one.
TestPurpose purpose_from_names(const TestGraph& g, TestPurpose::Kind kind, std::span<const std::string> goals,
                               std::span<const std::string> edges);

struct StrategyRow;

struct StrategySpec {
  const StrategyRow* strategy = nullptr;  // catalog/strategy_table.hpp; nullptr: no strategy's defaults
  PurposeChoice purpose = PurposeChoice::automatic;
  std::vector<std::string> goals;  // vertex ids (empty: the graph's goal vertices)
  std::vector<std::string> edges;  // edge ids or labels to cover (empty: every edge)
  std::vector<std::string> traps;  // trap specs (strategy/traps.hpp); non-empty: cover exactly these
  double threshold = 1.0;          // cover and labels: the fraction of edges (labels) that meets the purpose

  // The purpose's kind: the one asked for, else reach when goals are named, else the strategy's
  // default (StrategyRow::default_purpose: reach for reach, win and expected, none for torx, which
  // tests until it stops, seed 004 §3, cover for the others). Traps always mean cover.
  TestPurpose::Kind purpose_kind() const;

  // The purpose with every name resolved in `g`; `declared_traps` are the model's meta.traps (for
  // the trap spec "model"). Throws GraphError for an unknown name, UsageError("goals") when the
  // strategy needs goals and neither the spec nor the graph has any.
  TestPurpose resolve(const TestGraph& g, std::span<const std::string> declared_traps = {}) const;
};

// Throws InputError "nothing to test: ..." when a run with `purpose` on `g` could not test anything:
// the graph has no edges, the initial vertex is active without out-edges, or the purpose is to reach
// a goal and the initial vertex already is one, or the strategy `goal_strategy` (named when it
// steers to goals: reach, win, expected) would start at a goal, whatever the purpose. (A PASS there
// would claim a test that never ran.)
void require_something_to_test(const TestGraph& g, const TestPurpose& purpose, std::string_view goal_strategy = {});

}  // namespace playtest
