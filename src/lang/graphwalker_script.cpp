// The JavaScript subset of GraphWalker guards and actions (docs/graphwalker.md "Guards and
// actions"): a lexer and a recursive-descent parser into a small tree, refusing everything else
// with its location and the construct named.
#include "lang/detail/graphwalker_script.hpp"

#include <fmt/format.h>

#include <cctype>
#include <limits>

#include "playtest/base/error.hpp"

namespace playtest::lang::js {
namespace {

enum class T : std::uint8_t { end, ident, number, string, op };

struct Tok {
  T kind = T::end;
  std::size_t begin = 0, end = 0;
  std::string text;  // identifier, operator, string value
  std::int64_t value = 0;
};

// Operators of the subset, longest first, and operators that JavaScript has but the subset refuses
// (named in the message).
constexpr std::string_view known_ops[] = {"===", "!==", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "=",
                                          "<",   ">",   "!",  "?",  ":",  "(",  ")",  ";",  "+",  "-",  "*",  "."};
struct Refused {
  std::string_view op, what;
};
constexpr Refused refused_ops[] = {
    {">>>=", "a shift assignment"},
    {"**=", "an exponent assignment"},
    {"<<=", "a shift assignment"},
    {">>=", "a shift assignment"},
    {">>>", "a shift"},
    {"&&=", "a logical assignment"},
    {"||=", "a logical assignment"},
    {"?\?=", "a logical assignment"},
    {"=>", "an arrow function"},
    {"**", "exponentiation"},
    {"*=", "a multiply assignment"},
    {"/=", "a divide assignment"},
    {"%=", "a remainder assignment"},
    {"&=", "a bitwise assignment"},
    {"|=", "a bitwise assignment"},
    {"^=", "a bitwise assignment"},
    {"<<", "a shift"},
    {">>", "a shift"},
    {"??", "nullish coalescing"},
    {"?.", "optional chaining"},
    {"/", "division"},
    {"%", "the remainder operator"},
    {"&", "a bitwise and"},
    {"|", "a bitwise or"},
    {"^", "a bitwise xor"},
    {"~", "a bitwise not"},
    {"[", "an array or an index"},
    {"]", "an array or an index"},
    {"{", "a block or an object"},
    {"}", "a block or an object"},
    {",", "the comma operator"},
    {"`", "a template string"},
};

// Keywords that are JavaScript but not the subset.
constexpr std::string_view refused_words[] = {
    "if",     "else", "for",   "while",  "do",         "function", "return",   "new",   "null", "undefined",
    "typeof", "this", "class", "switch", "case",       "break",    "continue", "throw", "try",  "catch",
    "delete", "void", "in",    "of",     "instanceof", "yield",    "await",    "async", "NaN",  "Infinity"};

class Parser {
 public:
  Parser(const GwScript& s, const std::string& file) : s_(s), file_(file), text_(s.text) { lex(); }

  Script script() {
    Script out;
    while (!at(T::end)) {
      if (is_op(";")) {
        take();
        continue;
      }
      out.statements.push_back(statement());
      if (at(T::end)) break;
      if (!is_op(";")) fail(cur().begin, fmt::format("expected ';' between statements, got {}", describe(cur())));
    }
    return out;
  }

  ExprP guard() {
    if (at(T::end)) fail(0, "the guard is empty");
    ExprP e = expr();
    while (is_op(";")) take();
    if (!at(T::end)) fail(cur().begin, fmt::format("unexpected {} after the guard's expression", describe(cur())));
    return e;
  }

 private:
  // ------------------------------------------------------------------ lexer
  void lex() {
    std::size_t i = 0;
    const std::string_view t = text_;
    while (true) {
      while (i < t.size() && std::isspace(static_cast<unsigned char>(t[i]))) ++i;
      if (i + 1 < t.size() && t[i] == '/' && (t[i + 1] == '/' || t[i + 1] == '*')) {
        if (t[i + 1] == '/') {
          while (i < t.size() && t[i] != '\n') ++i;
        } else {
          const std::size_t close = t.find("*/", i + 2);
          if (close == std::string_view::npos) fail(i, "the comment is not closed ('*/')");
          i = close + 2;
        }
        continue;
      }
      if (i >= t.size()) break;
      Tok k;
      k.begin = i;
      const char c = t[i];
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$') {
        while (i < t.size() && (std::isalnum(static_cast<unsigned char>(t[i])) || t[i] == '_' || t[i] == '$')) ++i;
        k.kind = T::ident;
        k.text = std::string(t.substr(k.begin, i - k.begin));
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && i + 1 < t.size() && std::isdigit(static_cast<unsigned char>(t[i + 1])))) {
        if (c == '0' && i + 1 < t.size() && std::isalpha(static_cast<unsigned char>(t[i + 1])))
          refuse(i, "a hexadecimal, octal or binary number is outside the JavaScript subset playtest reads",
                 {"write the number in decimal"});
        std::int64_t v = 0;
        bool big = false;
        while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) {
          const int d = t[i] - '0';
          if (v > (std::numeric_limits<std::int64_t>::max() - d) / 10) big = true;
          if (!big) v = v * 10 + d;
          ++i;
        }
        if (i < t.size() && (t[i] == '.' || t[i] == 'e' || t[i] == 'E'))
          refuse(k.begin, "a fractional number is outside the JavaScript subset playtest reads",
                 {"numbers are integers (playtest keeps them exact in the state)"});
        if (big || v > (std::int64_t{1} << 53))
          fail(k.begin, "the number is too large (more than 2^53, beyond JavaScript's exact integers)");
        k.kind = T::number;
        k.value = v;
      } else if (c == '"' || c == '\'') {
        ++i;
        while (i < t.size() && t[i] != c) {
          if (t[i] == '\\') {
            if (i + 1 >= t.size()) break;
            const char e = t[i + 1];
            switch (e) {
              case 'n':
                k.text += '\n';
                break;
              case 't':
                k.text += '\t';
                break;
              case '\\':
                k.text += '\\';
                break;
              case '\'':
                k.text += '\'';
                break;
              case '"':
                k.text += '"';
                break;
              default:
                refuse(i, fmt::format("the escape '\\{}' is outside the JavaScript subset playtest reads", e),
                       {"strings may use \\n, \\t, \\\\, \\' and \\\""});
            }
            i += 2;
            continue;
          }
          if (t[i] == '\n') break;
          k.text += t[i++];
        }
        if (i >= t.size() || t[i] != c) fail(k.begin, "the string is not closed");
        ++i;
        k.kind = T::string;
      } else {
        // The longest operator that matches, known or refused ("&&" is known, "&" refused).
        std::string_view known;
        for (std::string_view op : known_ops)
          if (op.size() > known.size() && t.substr(i, op.size()) == op) known = op;
        for (const Refused& r : refused_ops)
          if (r.op.size() > known.size() && t.substr(i, r.op.size()) == r.op)
            refuse(i, fmt::format("'{}' ({}) is outside the JavaScript subset playtest reads", r.op, r.what),
                   subset_note());
        const bool found = !known.empty();
        if (found) {
          k.kind = T::op;
          k.text = std::string(known);
          i += known.size();
        }
        if (!found) fail(i, fmt::format("unexpected character '{}' in JavaScript", c), subset_note());
      }
      k.end = i;
      toks_.push_back(std::move(k));
    }
    Tok end;
    end.begin = end.end = t.size();
    toks_.push_back(end);
  }

  static std::vector<std::string> subset_note() {
    return {
        "guards and actions may use numbers, booleans, strings, variables (global.x too), = += -= ++ --, "
        "== != === !== < <= > >= && || !, ?:, + - *, parentheses and ';' between statements"};
  }

  // ------------------------------------------------------------------ parser
  const Tok& cur() const { return toks_[pos_]; }
  bool at(T k) const { return cur().kind == k; }
  bool is_op(std::string_view op) const { return cur().kind == T::op && cur().text == op; }
  const Tok& take() { return toks_[pos_ < toks_.size() - 1 ? pos_++ : pos_]; }

  static std::string describe(const Tok& t) {
    switch (t.kind) {
      case T::end:
        return "the end of the script";
      case T::ident:
        return fmt::format("'{}'", t.text);
      case T::number:
        return fmt::format("the number {}", t.value);
      case T::string:
        return "a string";
      case T::op:
        return fmt::format("'{}'", t.text);
    }
    return "?";
  }

  [[noreturn]] void fail(std::size_t offset, std::string message, std::vector<std::string> notes = {}) const {
    throw ParseError(make_diagnostic(file_, s_.line_of(offset), s_.column_of(offset), s_.where.pointer,
                                     std::move(message), std::move(notes)));
  }
  [[noreturn]] void refuse(std::size_t offset, std::string message, std::vector<std::string> notes = {}) const {
    throw ModelError(make_diagnostic(file_, s_.line_of(offset), s_.column_of(offset), s_.where.pointer,
                                     std::move(message), std::move(notes)));
  }

  void check_word(const Tok& t) const {
    for (std::string_view w : refused_words)
      if (t.text == w)
        refuse(t.begin, fmt::format("'{}' is outside the JavaScript subset playtest reads", t.text), subset_note());
  }

  // A variable: NAME or global.NAME.
  Name name() {
    const Tok& t = take();
    if (t.kind != T::ident) fail(t.begin, fmt::format("expected a variable name, got {}", describe(t)));
    check_word(t);
    Name n{t.text, false, t.begin};
    if (t.text == "global" && is_op(".")) {
      take();
      const Tok& m = take();
      if (m.kind != T::ident) fail(m.begin, fmt::format("expected a name after 'global.', got {}", describe(m)));
      check_word(m);
      n.name = m.text;
      n.global = true;
    }
    if (is_op("."))
      refuse(cur().begin,
             fmt::format("a property access ('{}.') is outside the JavaScript subset playtest reads",
                         n.global ? "global." + n.name : n.name),
             subset_note());
    if (is_op("("))
      refuse(cur().begin,
             fmt::format("a function call ('{}(...)') is outside the JavaScript subset playtest reads", n.name),
             subset_note());
    return n;
  }

  Stmt statement() {
    Stmt s;
    s.offset = cur().begin;
    if (at(T::ident) && (cur().text == "var" || cur().text == "let" || cur().text == "const")) take();
    if (is_op("++") || is_op("--")) {
      s.kind = take().text == "++" ? Stmt::Kind::increment : Stmt::Kind::decrement;
      s.target = name();
      return s;
    }
    if (!at(T::ident))
      fail(cur().begin, fmt::format("expected an assignment (x = e, x += e, x++), got {}", describe(cur())));
    s.target = name();
    const Tok& op = take();
    if (op.kind == T::op && (op.text == "++" || op.text == "--")) {
      s.kind = op.text == "++" ? Stmt::Kind::increment : Stmt::Kind::decrement;
      return s;
    }
    if (op.kind == T::op && (op.text == "=" || op.text == "+=" || op.text == "-=")) {
      s.kind = op.text == "=" ? Stmt::Kind::assign : op.text == "+=" ? Stmt::Kind::add : Stmt::Kind::subtract;
      s.value = expr();
      return s;
    }
    if (op.kind == T::op &&
        (op.text == "==" || op.text == "===" || op.text == "<" || op.text == ">" || op.text == "!=" ||
         op.text == "!==" || op.text == "<=" || op.text == ">=" || op.text == "&&" || op.text == "||"))
      refuse(s.offset, "an expression statement (a comparison or a condition that assigns nothing) does nothing",
             {"did you mean '=' (assignment)?"});
    fail(op.begin,
         fmt::format("expected '=', '+=', '-=', '++' or '--' after '{}', got {}", s.target.name, describe(op)));
  }

  std::shared_ptr<Expr> node(Expr::Kind k, std::size_t offset) {
    auto e = std::make_shared<Expr>();
    e->kind = k;
    e->offset = offset;
    return e;
  }

  ExprP expr() {
    if (++depth_ > 200) fail(cur().begin, "the expression is nested too deeply");
    ExprP c = disjunction();
    if (is_op("?")) {
      const std::size_t at = take().begin;
      auto e = node(Expr::Kind::conditional, at);
      e->kids.push_back(c);
      e->kids.push_back(expr());
      if (!is_op(":")) fail(cur().begin, fmt::format("expected ':' in 'c ? a : b', got {}", describe(cur())));
      take();
      e->kids.push_back(expr());
      c = e;
    }
    if (is_op("=") || is_op("+=") || is_op("-=") || is_op("++") || is_op("--"))
      refuse(cur().begin, fmt::format("an assignment ('{}') inside an expression is outside the subset", cur().text),
             {"assign in a statement of its own, in an action"});
    --depth_;
    return c;
  }

  ExprP binary_level(ExprP (Parser::*next)(), std::initializer_list<std::pair<std::string_view, Op>> ops) {
    ExprP l = (this->*next)();
    for (;;) {
      bool matched = false;
      for (auto& [text, op] : ops)
        if (is_op(text)) {
          const std::size_t at = take().begin;
          auto e = node(Expr::Kind::binary, at);
          e->op = op;
          e->kids.push_back(l);
          e->kids.push_back((this->*next)());
          l = e;
          matched = true;
          break;
        }
      if (!matched) return l;
    }
  }
  ExprP disjunction() { return binary_level(&Parser::conjunction, {{"||", Op::or_}}); }
  ExprP conjunction() { return binary_level(&Parser::equality, {{"&&", Op::and_}}); }
  ExprP equality() {
    return binary_level(&Parser::relation, {{"===", Op::eq}, {"!==", Op::ne}, {"==", Op::eq}, {"!=", Op::ne}});
  }
  ExprP relation() {
    return binary_level(&Parser::additive, {{"<=", Op::le}, {">=", Op::ge}, {"<", Op::lt}, {">", Op::gt}});
  }
  ExprP additive() { return binary_level(&Parser::multiplicative, {{"+", Op::add}, {"-", Op::sub}}); }
  ExprP multiplicative() { return binary_level(&Parser::unary, {{"*", Op::mul}}); }

  ExprP unary() {
    if (is_op("!") || is_op("-") || is_op("+")) {
      const Tok& t = take();
      if (++depth_ > 200) fail(t.begin, "the expression is nested too deeply");
      ExprP operand = unary();
      --depth_;
      if (t.text == "+") return operand;
      auto e = node(Expr::Kind::unary, t.begin);
      e->op = t.text == "!" ? Op::not_ : Op::neg;
      e->kids.push_back(operand);
      return e;
    }
    if (is_op("++") || is_op("--"))
      refuse(cur().begin, fmt::format("'{}' inside an expression is outside the subset", cur().text),
             {"increment in a statement of its own: x++;"});
    return primary();
  }

  ExprP primary() {
    const Tok& t = cur();
    switch (t.kind) {
      case T::number: {
        take();
        auto e = node(Expr::Kind::number, t.begin);
        e->value = t.value;
        return e;
      }
      case T::string: {
        take();
        auto e = node(Expr::Kind::string, t.begin);
        e->text = t.text;
        return e;
      }
      case T::ident:
        if (t.text == "true" || t.text == "false") {
          take();
          auto e = node(Expr::Kind::boolean, t.begin);
          e->value = t.text == "true";
          return e;
        } else {
          auto e = node(Expr::Kind::variable, t.begin);
          e->var = name();
          return e;
        }
      case T::op:
        if (t.text == "(") {
          take();
          ExprP e = expr();
          if (!is_op(")")) fail(cur().begin, fmt::format("expected ')', got {}", describe(cur())));
          take();
          return e;
        }
        break;
      case T::end:
        break;
    }
    fail(t.begin,
         fmt::format("expected a value (a number, a string, true, false, a variable or '('), got {}", describe(t)));
  }

  const GwScript& s_;
  const std::string& file_;
  std::string_view text_;
  std::vector<Tok> toks_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

bool is_global_script(std::string_view text) { return text.find("global.") != std::string_view::npos; }

Script parse_script(const GwScript& s, const std::string& file) { return Parser(s, file).script(); }

ExprP parse_guard(const GwScript& s, const std::string& file) { return Parser(s, file).guard(); }

}  // namespace playtest::lang::js
