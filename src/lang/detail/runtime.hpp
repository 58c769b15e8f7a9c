// Values at run time: every value of a type is a fixed number of 64-bit words (Type::width).
// Scalars are one word (bool 0/1, the integer itself, enum member index, global string id); a
// tuple is its components; a set is a bit mask over its element type's ordinals; a sequence is its
// length followed by `cap` element slots; a map is a key bit mask followed by one value slot per key.
// Unused slots always hold the type's default value, so equal values have equal words.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lang/detail/ast.hpp"

namespace playtest::lang {

using Word = std::int64_t;

void fill_default(const Type& t, Word* out);
// The ordinal of a value of a finite type, or nullopt when the value is outside the type.
std::optional<std::uint64_t> ordinal(const Type& t, const Word* v);
void from_ordinal(const Type& t, std::uint64_t ord, Word* out);
// An error message when `v` is not a value of `t` (out of range, unknown string), else "".
std::string misfit(const Type& t, const Word* v, const Program& p);
std::string format_value(const Type& t, const Word* v, const Program& p);

// Runs checked expressions and statements over a frame of words.
class Interp {
 public:
  Interp(const Program& p, Word* frame) : p_(p), f_(frame) {}
  // Describes where evaluation happens ("in action X in state Y"), for run-time errors.
  std::function<std::string()> context;
  // The concrete value (its word: the integer, or a string id) of slot k of a slot type, for
  // value() in run-time guards (docs/language.md "Values the system chooses"); may call fail().
  std::function<Word(const Type& slot_type, Word k, const Expr& at)> slot_value;

  Word scalar(const Expr& e);
  void eval(const Expr& e, Word* out);
  void exec(const std::vector<StmtP>& body);
  [[noreturn]] void fail(const Expr& e, const std::string& msg) const { fail(e.loc, msg); }
  [[noreturn]] void fail(Loc loc, const std::string& msg) const;

 private:
  void exec(const Stmt& s);
  Word binary_scalar(const Expr& e);
  bool quant(const Expr& e);
  bool equal(const Expr& a, const Expr& b);

  const Program& p_;
  Word* f_;
};

}  // namespace playtest::lang
