// PRISM / Storm property formulas on labels, as `solve --property` answers them (issues 23 and 32;
// docs/formats.md, "PRISM properties"):
//
//   P{min|max}=? [ PATH ]   P=? [ PATH ] (DTMC)   P>=p [ PATH ] (and >, <=, <: a verdict)
//   R{"name"}{min|max}=? [ RPATH ]                 S=? [ s ] (DTMC: long-run probability)
//   filter(max|min|avg|sum|forall|exists|first, Q, s)
//   PATH:  F B s | G B s | X s | s U B s | s W B s | s R B s | F{"name"}<=K s | F^{rew{"name"}<=K} s
//   B:     (nothing) | <=k | <k | >=k | >k | [a,b]
//   RPATH: F s | C<=k | I=k | S (DTMC: long-run average reward)
//   s:     "label" | true | false | !s | s & s | s | s | (s)
//   k, p:  a number or a named constant (--const NAME=VALUE, a .props file's const lines), with
//          + - * and parentheses over integers in step bounds
//
// Labels are the names of the .lab file (or, for other inputs, "goal", "init", "deadlock" and
// vertex ids). Variables (`s=5`) are not labels: export them as labels (label "x" = s=5;).
// Multi-objective queries (multi(...)) are refused with a message naming the tools that answer
// them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
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

// Named constants and their values: a decimal literal ("1300", "0.5").
using PrismConstants = std::map<std::string, std::string, std::less<>>;

struct PrismProperty {
  // P, R, or S (the long-run probability of a state formula, DTMCs only).
  enum class Quantity : std::uint8_t { probability, reward, steady_state } quantity = Quantity::probability;
  enum class Optimum : std::uint8_t { none, min, max } optimum = Optimum::none;
  // R{"name"} / R{2}: the reward structure ("" when not given).
  std::string reward;
  // "=?" asks for the value; a comparison (P>=1) asks whether every (or, with min/max, the
  // optimal) value satisfies it.
  enum class Comparison : std::uint8_t { query, ge, gt, le, lt } comparison = Comparison::query;
  std::string threshold;  // the bound's text, e.g. "1" (exact decimal; a constant's value)
  // The path formula. P: eventually (F), until (U), globally (G), next (X), weak until (W),
  // release (R). R: eventually (R [ F s ]: the reward until s), cumulative (C<=k: within k
  // steps), instantaneous (I=k: the state reward at step k), long_run (R [ S ]). S: the formula
  // itself is `target`.
  enum class Path : std::uint8_t {
    eventually,
    until,
    globally,
    next,
    weak_until,
    release,
    cumulative,
    instantaneous,
    long_run
  } path = Path::eventually;
  std::optional<LabelFormula> left;  // until, weak until, release: the left operand
  LabelFormula target;               // the right (or only) operand
  // Step bounds of the path (steps of the model: a PRISM MDP step is two moves of the imported
  // graph). F<=k: upper k; F<k: upper k-1; F>=k: lower k; F>k: lower k+1; F[a,b]: lower a, upper
  // b; X: lower and upper 1. C<=k and I=k: upper k.
  std::optional<std::uint64_t> step_lower;
  std::optional<std::uint64_t> step_bound;
  std::string bound_reward;  // F{"name"}<=B: the reward structure of the bound
  std::optional<std::uint64_t> reward_bound;
  // filter(op, ..., states); Op::none without a filter.
  enum class Filter : std::uint8_t { none, max, min, avg, sum, forall, exists, first } filter = Filter::none;
  std::optional<LabelFormula> filter_states;  // default "init"... when a filter names none: true
  std::string text;
};

// Where a property's text starts, for messages: `solve --property` is ("property", 1, 1); a
// .props file's property its file, line and column (a property may span lines).
struct PrismPropertyOrigin {
  std::string file = "property";
  std::uint32_t line = 1, column = 1;
};

// Throws ParseError at the origin's file, line and column for anything outside the syntax above,
// and for a named constant without a value.
PrismProperty parse_prism_property(std::string_view text, const PrismConstants& constants = {},
                                   const PrismPropertyOrigin& origin = {});

// A PRISM properties file (.props, .pctl): `const int|double|bool NAME [= EXPR];` lines, properties
// (optionally named: `"name": P=? [...]`), each ending at ';' or at the end of its line outside
// brackets, and // and /* */ comments. `label` and `formula` definitions (over model variables)
// are kept with their location and refused where a property uses them.
struct PrismPropsFile {
  struct Constant {
    std::string name, type, value;  // value: the expression's text, "" when undefined
    std::uint32_t line = 0, column = 0;
  };
  struct Property {
    std::string name;  // "" when unnamed
    std::string text;
    std::uint32_t line = 0, column = 0;
  };
  struct Definition {  // label "x" = ...; formula f = ...;
    std::string kind, name;
    std::uint32_t line = 0, column = 0;
  };
  std::string file;
  std::vector<Constant> constants;
  std::vector<Property> properties;
  std::vector<Definition> definitions;
};

// Throws ParseError (file:line:column) for a malformed constant, an unterminated comment, string
// or bracket.
PrismPropsFile parse_prism_props(std::string_view text, const std::string& file);

// The constants' values: `given` (--const NAME=VALUE) first, then the file's definitions evaluated
// in order (integer + - * and parentheses over literals and earlier constants, or one decimal
// literal). Throws InputError for a definition that cannot be evaluated, UsageError("const")
// for a given constant the file does not declare (when `file` is not null) or a value that is not
// a number.
PrismConstants prism_constants(const PrismPropsFile* file, const PrismConstants& given);

// NAME=VALUE[,NAME=VALUE...] (PRISM's -const syntax); throws UsageError("const").
PrismConstants parse_constant_list(std::string_view text);

// The property a .props file names by `which`: a property's name, or its 1-based index; "" when
// the file holds exactly one. Throws UsageError("prop") naming the file's properties otherwise.
const PrismPropsFile::Property& select_property(const PrismPropsFile& file, std::string_view which);

}  // namespace playtest
