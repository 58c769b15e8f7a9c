// Internal representation of a model program: tokens, types, the abstract syntax tree (annotated
// with types and storage slots by the checker) and the compiled program run by the interpreter.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/base/error.hpp"

namespace playtest::lang {

struct Loc {
  std::uint32_t line = 0, column = 0;
};

// ---------------------------------------------------------------- tokens
enum class Tok : std::uint8_t {
  end, ident, integer, string,
  lparen, rparen, lbrace, rbrace, lbracket, rbracket, comma, semicolon, colon, dot, dotdot,
  assign,  // :=
  eq, ne, lt, le, gt, ge, plus, minus, star, slash, percent, implies, arrow, equals /* = */,
};

struct Token {
  Tok kind = Tok::end;
  Loc loc;
  std::uint32_t begin = 0, end = 0;  // byte offsets in the source
  std::string text;  // identifier / keyword text, string value (unescaped), integer digits
  std::int64_t value = 0;
};

std::string describe(const Token& t);

// Throws ParseError on a lexical error.
std::vector<Token> lex(std::string_view text, const std::string& file);

[[noreturn]] void fail_at(const std::string& file, Loc loc, std::string message, std::vector<std::string> notes = {},
                          bool parse_error = false);

// ---------------------------------------------------------------- types
enum class TK : std::uint8_t { boolean, integer /* unbounded: literals, arithmetic, params */, range, enumeration, str,
                               str_literal, tuple, set, seq, map,
                               slot /* a symbolic name of a value the system invents: Job#0, Job#1, ... */ };

struct Type;
using TypeP = std::shared_ptr<const Type>;

struct Type {
  TK k = TK::integer;
  std::int64_t lo = 0, hi = 0;       // range
  std::uint32_t enum_id = 0;         // enumeration; slot: the slot type's index in Program::slot_types
  std::vector<std::uint32_t> strs;   // str: the string ids of the finite set, in declaration order
  std::vector<TypeP> elems;          // tuple: components; set, seq: [element]; map: [key, value];
                                     // slot: [the concrete values' type: int, a range or string]
  std::uint32_t cap = 0;             // seq: maximum length; slot: the number of slots
  std::string alias;                 // name given in a `type` declaration, for messages
  // Derived by finish():
  std::uint32_t width = 1;           // words of a value
  std::uint64_t card = 0;            // number of values when finite and small (<= 2^40), else 0
};

// Completes width and card.
TypeP finish(Type t);
std::string type_name(const Type& t, const std::vector<std::vector<std::string>>& enums,
                      const std::vector<std::string>& strings);

// ---------------------------------------------------------------- expressions
enum class EK : std::uint8_t {
  int_lit, bool_lit, str_lit, name, unary, binary, call, field, index, tuple_lit, set_lit, seq_lit, quant, if_expr,
  // resolved forms (set by the checker)
  constant, var, local, type_ref,
};

enum class Op : std::uint8_t {
  neg, not_, and_, or_, implies, eq, ne, lt, le, gt, ge, in, add, sub, mul, div, mod, forall, exists,
};

struct Expr;
using ExprP = std::unique_ptr<Expr>;

struct Expr {
  EK k = EK::int_lit;
  Loc loc;
  Op op = Op::add;
  std::string name;             // name, call, quant variable
  std::int64_t ival = 0;        // int_lit, bool_lit, str_lit (string id), field index
  std::vector<ExprP> kids;
  // Checker results:
  TypeP type;
  std::uint32_t slot = 0;       // var / local: word offset in the frame
  std::vector<std::int64_t> value;  // constant: its words
  std::uint8_t builtin = 0;     // call: which builtin
  TypeP dom_type;               // quant over a type: the type
};

// ---------------------------------------------------------------- statements
enum class SK : std::uint8_t { assign, if_, let };

struct Stmt;
using StmtP = std::unique_ptr<Stmt>;

struct LStep {
  bool is_index = false;
  std::uint32_t field = 0;
  ExprP index;
  Loc loc;
};

struct Stmt {
  SK k = SK::assign;
  Loc loc;
  std::string name;             // assign: variable; let: local name
  std::vector<LStep> path;      // assign: .N and [e] steps
  ExprP e;                      // assign: value; if: condition; let: value
  std::vector<StmtP> then_, else_;
  // Checker results:
  std::uint32_t slot = 0;       // assign: the variable's word offset; let: the local's
  TypeP target_type;            // assign: type of the variable; let: type of the local
  std::vector<TypeP> step_types;  // assign: type before each step
};

// ---------------------------------------------------------------- declarations
struct TypeExpr;
using TypeExprP = std::unique_ptr<TypeExpr>;
struct TypeExpr {
  enum class Kind : std::uint8_t { boolean, integer, string, named, range, strings, tuple, set, seq, map, slot } kind;
  Loc loc;
  std::string name;
  ExprP lo, hi, cap;
  std::vector<std::uint32_t> strs;
  std::vector<TypeExprP> elems;
};

struct Param {
  std::string name;
  Loc loc;
  TypeExprP type;
  TypeP resolved;
  std::uint32_t slot = 0;
  // Observable actions: a free value (type int or string), chosen by the system, not enumerated
  // and not kept in the state; `_` in labels; only run-time guards read it.
  bool free = false;
};

struct Trap {
  std::string name;
  Loc loc;
  ExprP when;
  std::uint32_t id = 0;
};

struct Action {
  std::string name;
  Loc loc;
  bool observable = false;
  std::vector<Param> params;
  std::vector<ExprP> requires_;
  std::vector<std::string> require_texts;  // the source text of each require clause, for messages
  std::vector<Loc> require_locs;           // where each require clause starts
  std::vector<std::uint8_t> require_runtime;  // per require: it reads a free value or value(): checked at run time
  ExprP cost, weight;
  ExprP delay;           // controllable: a delay in ms (the tester waits, sends nothing)
  bool anytime = false;  // observable: may come at any time, also in active states
  ExprP anytime_when;    // ... only where this holds (before the action; may use the parameters)
  std::vector<Trap> traps;
  std::vector<StmtP> body;
  // Checker results:
  std::uint64_t combos = 1;     // number of parameter value combinations
  std::uint32_t label_base = 0;
};

struct VarDecl {
  std::string name;
  Loc loc;
  TypeExprP type;
  ExprP init;
  TypeP resolved;
  std::uint32_t slot = 0;
};

struct NamedDecl {  // param, const, type, enum
  enum class Kind : std::uint8_t { param, constant, type, enumeration } kind;
  std::string name;
  Loc loc;
  TypeExprP type;    // param (declared type), type
  ExprP value;       // param default, const value
  std::vector<std::pair<std::string, Loc>> members;  // enum
};

struct Program {
  std::string file;
  std::string model_name = "model";
  std::vector<NamedDecl> named;   // in source order
  std::vector<VarDecl> vars;
  std::vector<Action> actions;
  ExprP final_;
  Loc final_loc;
  bool has_timeout = false;
  ExprP timeout_cost, timeout_weight, timeout_when, timeout_after;
  bool has_reset = false;
  ExprP reset_cost;
  std::vector<ExprP> abstract_;
  // Goal conditions given from outside the file (--goal 'EXPR'): they replace `final`; errors in them
  // are located in `goal_origin`, column by column of the condition's text.
  std::vector<ExprP> goal_conditions;
  std::string goal_origin;
  // Interned strings and enums (filled by the lexer/parser/checker).
  std::vector<std::string> strings;
  std::vector<std::vector<std::string>> enums;
  std::vector<std::string> enum_names;
  std::uint32_t intern(const std::string& s) {
    for (std::uint32_t i = 0; i < strings.size(); ++i)
      if (strings[i] == s) return i;
    strings.push_back(s);
    return static_cast<std::uint32_t>(strings.size() - 1);
  }
  // Checker results:
  std::uint32_t state_words = 0;
  std::uint32_t frame_words = 0;  // state words + the largest local area of any expression context
  std::vector<std::string> trap_names;
  std::optional<double> reset_value;
  std::vector<TypeP> slot_types;  // the declared slot types (TK::slot), by enum_id
  std::vector<std::pair<std::string, std::string>> param_values;  // each param's value (given or default), as text
};

// Parses tokens into a program; throws ParseError.
Program parse(std::string_view text, const std::string& file);

// Parses `text` as one expression of `p` (its strings are interned in p), located in `origin`;
// throws ParseError. Not checked: check_program checks p.goal_conditions.
ExprP parse_condition(Program& p, std::string_view text, const std::string& origin);

// Whether `text` parses as an expression at all (names are not checked).
bool parses_as_expression(std::string_view text);

}  // namespace playtest::lang
