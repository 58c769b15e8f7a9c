// PRISM / Storm property formulas on labels, the subset that `solve --property` answers (issue 23,
// item 3; docs/formats.md, "PRISM properties"):
//
//   P{min|max}=? [ PATH ]         P=? [ PATH ] (DTMC)     P>=1 [ PATH ] (and >, <=, <: a verdict)
//   R{"name"}{min|max}=? [ F s ]  R=? [ F s ]             filter(max|min|avg|sum|forall|exists|first, Q, s)
//   PATH:  F s | F<=k s | F<k s | s U s | s U<=k s | F{"name"}<=B s | F^{rew{"name"}<=B} s
//   s:     "label" | true | false | !s | s & s | s | s | (s)
//
// Labels are the names of the .lab file (or, for other inputs, "goal", "init", "deadlock" and
// vertex ids). Variables (`s=5`) are not labels: export them as labels (label "x" = s=5;).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace playtest {

// A state formula over labels.
struct LabelFormula {
  enum class Kind : std::uint8_t { label, constant, negation, conjunction, disjunction } kind = Kind::constant;
  std::string label;                   // Kind::label
  bool value = true;                   // Kind::constant
  std::vector<LabelFormula> operands;  // negation: 1; conjunction, disjunction: 2 or more
  std::string text;                    // the formula as written (for messages and the report)
};

struct PrismProperty {
  enum class Quantity : std::uint8_t { probability, reward } quantity = Quantity::probability;
  enum class Optimum : std::uint8_t { none, min, max } optimum = Optimum::none;
  // R{"name"} / R{2}: the reward structure ("" when not given).
  std::string reward;
  // "=?" asks for the value; a comparison (P>=1) asks whether every (or, with min/max, the
  // optimal) value satisfies it.
  enum class Comparison : std::uint8_t { query, ge, gt, le, lt } comparison = Comparison::query;
  std::string threshold;             // the bound's text, e.g. "1" (exact decimal)
  std::optional<LabelFormula> left;  // until: s U ...; nullopt: F
  LabelFormula target;
  std::optional<std::uint64_t> step_bound;  // F<=k (F<k is F<=k-1)
  std::string bound_reward;                 // F{"name"}<=B: the reward structure of the bound
  std::optional<std::uint64_t> reward_bound;
  // filter(op, ..., states); Op::none without a filter.
  enum class Filter : std::uint8_t { none, max, min, avg, sum, forall, exists, first } filter = Filter::none;
  std::optional<LabelFormula> filter_states;  // default "init"... when a filter names none: true
  std::string text;
};

// Throws ParseError at (file = "property", line 1, column) for anything outside the subset.
PrismProperty parse_prism_property(std::string_view text);

}  // namespace playtest
