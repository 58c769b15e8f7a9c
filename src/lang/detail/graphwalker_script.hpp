// The JavaScript subset of GraphWalker guards and actions, parsed (graphwalker_script.cpp) and
// compiled into a model program (graphwalker_model.cpp). Offsets are byte offsets in the script's
// text; GwScript::column_of turns them into columns of the model file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lang/detail/ast.hpp"
#include "playtest/io/graphwalker.hpp"

namespace playtest::lang::js {

struct Name {
  std::string name;
  bool global = false;  // written global.NAME
  std::size_t offset = 0;
};

struct Expr;
using ExprP = std::shared_ptr<const Expr>;  // shared: substitution reuses subtrees

struct Expr {
  enum class Kind : std::uint8_t { number, boolean, string, variable, unary, binary, conditional } kind = Kind::number;
  std::size_t offset = 0;
  Op op = Op::add;         // unary: not_, neg; binary: and_, or_, eq, ne, lt, le, gt, ge, add, sub, mul
  std::int64_t value = 0;  // number, boolean
  std::string text;        // string
  Name var;                // variable
  std::string key;         // variable, once resolved: "Model.x" or "global.x"
  Loc loc;                 // once resolved: where it stands in the model file
  std::vector<ExprP> kids;
};

struct Stmt {
  enum class Kind : std::uint8_t { assign, add, subtract, increment, decrement } kind = Kind::assign;
  std::size_t offset = 0;
  Name target;
  ExprP value;  // assign, add, subtract
};

struct Script {
  std::vector<Stmt> statements;
};

// GraphWalker runs a script that mentions "global." anywhere in the global scope, with every
// "global." removed; other scripts run in their model's scope.
bool is_global_script(std::string_view text);

// Throw ParseError (not JavaScript) or ModelError (outside the subset), located in `file`.
Script parse_script(const GwScript& s, const std::string& file);
ExprP parse_guard(const GwScript& s, const std::string& file);

}  // namespace playtest::lang::js
