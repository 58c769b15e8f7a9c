#include "playtest/io/prism_property.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

#include "playtest/base/error.hpp"

namespace playtest {

namespace {

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A decimal literal: digits with an optional '.', an optional exponent, an optional sign.
bool is_decimal(std::string_view t) {
  std::size_t i = 0;
  if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
  bool digits = false;
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i, digits = true;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i, digits = true;
  }
  if (!digits) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
    bool exp = false;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i, exp = true;
    if (!exp) return false;
  }
  return i == t.size();
}

// The text's position `pos` as a line and column, counted from the origin.
std::pair<std::uint32_t, std::uint32_t> locate(std::string_view s, std::size_t pos, const PrismPropertyOrigin& o) {
  std::uint32_t line = o.line, column = o.column;
  for (std::size_t i = 0; i < pos && i < s.size(); ++i) {
    if (s[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return {line, column};
}

// A recursive-descent reader of one expression language at a time over a text with a position:
// the property grammar and the integer constant expressions share it.
class Reader {
 public:
  Reader(std::string_view s, const PrismConstants& constants, PrismPropertyOrigin origin)
      : s_(s), constants_(constants), origin_(std::move(origin)) {}

  [[noreturn]] void fail(const std::string& message) const { fail_at(pos_, message); }
  [[noreturn]] void fail_at(std::size_t pos, const std::string& message) const {
    const auto [line, column] = locate(s_, pos, origin_);
    throw ParseError(make_diagnostic(origin_.file, line, column, "", message));
  }
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool at_end() {
    skip();
    return pos_ == s_.size();
  }
  char peek() {
    skip();
    return pos_ < s_.size() ? s_[pos_] : '\0';
  }
  bool accept(std::string_view t) {
    skip();
    if (s_.substr(pos_, t.size()) != t) return false;
    pos_ += t.size();
    return true;
  }
  void expect(std::string_view t) {
    if (!accept(t)) fail(fmt::format("expected '{}'", t));
  }
  // A word (not followed by an identifier character).
  bool keyword(std::string_view w) {
    skip();
    if (s_.substr(pos_, w.size()) != w) return false;
    const std::size_t e = pos_ + w.size();
    if (e < s_.size() && is_ident_char(s_[e])) return false;
    pos_ = e;
    return true;
  }
  std::string identifier() {
    skip();
    if (pos_ >= s_.size() || !is_ident_start(s_[pos_])) fail("expected a name");
    const std::size_t b = pos_;
    while (pos_ < s_.size() && is_ident_char(s_[pos_])) ++pos_;
    return std::string(s_.substr(b, pos_ - b));
  }
  std::string quoted() {
    skip();
    if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected a quoted name");
    const auto end = s_.find('"', pos_ + 1);
    if (end == std::string_view::npos) fail("unterminated quoted name");
    std::string name(s_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return name;
  }
  // A named constant's value, at the name just read (which started at `at`).
  const std::string& constant(const std::string& name, std::size_t at) const {
    const auto it = constants_.find(name);
    if (it == constants_.end() && lenient_) throw MissingConstant{};
    if (it == constants_.end())
      fail_at(at, fmt::format("constant '{}' has no value: give it with --const {}=VALUE", name, name));
    return it->second;
  }
  // A decimal literal, or a named constant's value.
  std::string number(const char* what) {
    skip();
    const std::size_t b = pos_;
    if (pos_ < s_.size() && is_ident_start(s_[pos_])) return constant(identifier(), b);
    while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.' ||
                                s_[pos_] == 'e' || s_[pos_] == 'E' || s_[pos_] == '-' || s_[pos_] == '+'))
      ++pos_;
    if (b == pos_) fail(fmt::format("expected {} (a number or a constant's name)", what));
    return std::string(s_.substr(b, pos_ - b));
  }
  // An integer expression: + - * and parentheses over non-negative integer literals and
  // constants with integer values; the result must be >= 0.
  std::uint64_t integer(const char* what) {
    skip();
    const std::size_t b = pos_;
    const std::int64_t x = sum(what);
    if (x < 0) fail_at(b, fmt::format("{} is {}; it must be >= 0", what, x));
    return static_cast<std::uint64_t>(x);
  }

  // A constant without a value throws MissingConstant (a .props definition that uses one is left
  // undefined: only a property that needs it fails).
  struct MissingConstant {};
  bool lenient_ = false;
  std::string_view s_;
  const PrismConstants& constants_;
  PrismPropertyOrigin origin_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  static constexpr int max_depth = 200;

 private:
  std::int64_t sum(const char* what) {
    std::int64_t x = product(what);
    for (;;) {
      skip();
      const std::size_t at = pos_;
      if (accept("+")) {
        if (__builtin_add_overflow(x, product(what), &x)) fail_at(at, fmt::format("{} overflows", what));
      } else if (pos_ < s_.size() && s_[pos_] == '-' && s_.substr(pos_, 2) != "->") {
        ++pos_;
        if (__builtin_sub_overflow(x, product(what), &x)) fail_at(at, fmt::format("{} overflows", what));
      } else {
        return x;
      }
    }
  }
  std::int64_t product(const char* what) {
    std::int64_t x = atom(what);
    for (;;) {
      skip();
      const std::size_t at = pos_;
      if (!accept("*")) return x;
      if (__builtin_mul_overflow(x, atom(what), &x)) fail_at(at, fmt::format("{} overflows", what));
    }
  }
  std::int64_t atom(const char* what) {
    skip();
    if (++depth_ > max_depth) fail(fmt::format("the expression nests deeper than {} levels", max_depth));
    struct Leave {
      int& d;
      ~Leave() { --d; }
    } leave{depth_};
    const std::size_t b = pos_;
    if (accept("(")) {
      const std::int64_t x = sum(what);
      expect(")");
      return x;
    }
    std::string text;
    if (pos_ < s_.size() && is_ident_start(s_[pos_])) {
      text = constant(identifier(), b);
    } else {
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      text = std::string(s_.substr(b, pos_ - b));
      if (text.empty()) fail(fmt::format("expected {} (a non-negative integer or a constant's name)", what));
      if (pos_ < s_.size() && (s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E'))
        fail(fmt::format("expected {} (an integer)", what));
    }
    std::int64_t x = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), x);
    if (ec != std::errc() || p != text.data() + text.size())
      fail_at(b, fmt::format("expected {} (an integer); '{}' is not one", what, text));
    return x;
  }
};

class Parser : Reader {
 public:
  using Reader::Reader;

  PrismProperty property() {
    PrismProperty p;
    p.text = std::string(s_);
    skip();
    if (keyword("multi")) {
      pos_ -= 5;
      fail(
          "multi-objective queries (multi(...)) are not supported; Storm (--prop 'multi(...)') and PRISM's "
          "multi-objective engine answer them");
    }
    if (keyword("filter")) {
      expect("(");
      static constexpr std::pair<const char*, PrismProperty::Filter> ops[] = {
          {"forall", PrismProperty::Filter::forall}, {"exists", PrismProperty::Filter::exists},
          {"first", PrismProperty::Filter::first},   {"max", PrismProperty::Filter::max},
          {"min", PrismProperty::Filter::min},       {"avg", PrismProperty::Filter::avg},
          {"sum", PrismProperty::Filter::sum}};
      bool found = false;
      for (const auto& [name, op] : ops)
        if (keyword(name)) {
          p.filter = op;
          found = true;
          break;
        }
      if (!found) fail("expected a filter operator: max, min, avg, sum, forall, exists or first");
      expect(",");
      query(p);
      if (accept(",")) p.filter_states = formula();
      expect(")");
    } else {
      query(p);
    }
    if (accept(";")) {
    }
    skip();
    if (pos_ != s_.size()) fail(fmt::format("unexpected '{}' after the property", s_.substr(pos_, 1)));
    return p;
  }

 private:
  // <=k, <k, >=k, >k, [a,b]: step bounds; {"r"}<=B or ^{rew{"r"}<=B}: a reward bound.
  void bound(PrismProperty& p, bool reward_bound_allowed) {
    skip();
    const std::size_t at = pos_;
    if (accept("<=")) {
      p.step_bound = integer("a step bound");
    } else if (accept("<")) {
      const std::uint64_t k = integer("a step bound");
      if (k == 0) fail_at(at, "a bound <0 is empty; use <=0");
      p.step_bound = k - 1;
    } else if (accept(">=")) {
      p.step_lower = integer("a step bound");
    } else if (accept(">")) {
      const std::uint64_t k = integer("a step bound");
      if (k == std::numeric_limits<std::int64_t>::max()) fail_at(at, "the step bound overflows");
      p.step_lower = k + 1;
    } else if (accept("[")) {
      p.step_lower = integer("an interval's lower step bound");
      expect(",");
      p.step_bound = integer("an interval's upper step bound");
      expect("]");
      if (*p.step_bound < *p.step_lower)
        fail_at(at, fmt::format("the interval [{},{}] is empty", *p.step_lower, *p.step_bound));
    } else if (s_.substr(pos_, 2) == "^{" || s_.substr(pos_, 1) == "{") {
      if (!reward_bound_allowed) fail("a reward bound applies to F and U only");
      if (accept("^{")) {
        if (!keyword("rew")) fail("expected rew{\"name\"}<=B in a reward bound");
        expect("{");
        p.bound_reward = quoted();
        expect("}");
        reward_upper(p);
        expect("}");
      } else {
        expect("{");
        p.bound_reward = quoted();
        expect("}");
        reward_upper(p);
      }
    }
  }
  void reward_upper(PrismProperty& p) {
    skip();
    if (s_.substr(pos_, 2) == ">=" || s_.substr(pos_, 1) == ">" || s_.substr(pos_, 1) == "[")
      fail("only upper reward bounds (<=) are supported");
    expect("<=");
    p.reward_bound = integer("a reward bound");
  }
  void operator_head(PrismProperty& p) {
    skip();
    const std::size_t start = pos_;
    if (accept("Pmax") || accept("Pmin")) {
      p.optimum = s_.substr(pos_ - 3, 3) == "max" ? PrismProperty::Optimum::max : PrismProperty::Optimum::min;
    } else if (accept("P")) {
    } else if (accept("Smax") || accept("Smin")) {
      pos_ = start;
      fail("S (long-run) is answered on DTMCs only, without min or max: S=? [ s ]");
    } else if (accept("S")) {
      p.quantity = PrismProperty::Quantity::steady_state;
    } else if (accept("R")) {
      p.quantity = PrismProperty::Quantity::reward;
      skip();
      if (accept("{")) {
        skip();
        if (pos_ < s_.size() && s_[pos_] == '"')
          p.reward = quoted();
        else
          p.reward = std::to_string(integer("a reward structure number"));
        expect("}");
      }
      if (accept("max"))
        p.optimum = PrismProperty::Optimum::max;
      else if (accept("min"))
        p.optimum = PrismProperty::Optimum::min;
    } else {
      pos_ = start;
      fail("expected a P, R or S query (Pmax=? [ F \"goal\" ], R{\"r\"}min=? [ F \"goal\" ], S=? [ \"up\" ], ...)");
    }
    if (accept("=?")) {
    } else if (accept(">=")) {
      p.comparison = PrismProperty::Comparison::ge;
    } else if (accept("<=")) {
      p.comparison = PrismProperty::Comparison::le;
    } else if (accept(">")) {
      p.comparison = PrismProperty::Comparison::gt;
    } else if (accept("<")) {
      p.comparison = PrismProperty::Comparison::lt;
    } else {
      fail("expected '=?' or a comparison (>=, >, <=, <) after the operator");
    }
    if (p.comparison != PrismProperty::Comparison::query) p.threshold = number("a threshold");
  }
  void query(PrismProperty& p) {
    operator_head(p);
    expect("[");
    if (p.quantity == PrismProperty::Quantity::steady_state) {
      p.target = formula();
    } else if (p.quantity == PrismProperty::Quantity::reward) {
      reward_path(p);
    } else {
      probability_path(p);
    }
    expect("]");
  }
  void reward_path(PrismProperty& p) {
    skip();
    const std::size_t at = pos_;
    if (keyword("F")) {
      p.path = PrismProperty::Path::eventually;
      p.target = formula();
    } else if (keyword("C")) {
      p.path = PrismProperty::Path::cumulative;
      skip();
      if (!accept("<=")) {
        if (accept("<")) {
          const std::uint64_t k = integer("a step bound");
          if (k == 0) fail_at(at, "C<0 is empty; use C<=0");
          p.step_bound = k - 1;
          return;
        }
        fail("expected C<=k (the reward accumulated within k steps)");
      }
      p.step_bound = integer("a step bound");
    } else if (keyword("I")) {
      p.path = PrismProperty::Path::instantaneous;
      expect("=");
      p.step_bound = integer("a step");
    } else if (keyword("S")) {
      p.path = PrismProperty::Path::long_run;
    } else {
      fail("expected a reward path: F s (the reward until s), C<=k, I=k or S");
    }
  }
  void probability_path(PrismProperty& p) {
    skip();
    if (keyword("F")) {
      p.path = PrismProperty::Path::eventually;
      bound(p, true);
      p.target = formula();
    } else if (keyword("G")) {
      p.path = PrismProperty::Path::globally;
      bound(p, false);
      p.target = formula();
    } else if (keyword("X")) {
      p.path = PrismProperty::Path::next;
      p.step_lower = 1;
      p.step_bound = 1;
      p.target = formula();
    } else if (keyword("C") || keyword("I") || keyword("S")) {
      --pos_;
      fail("C, I and S paths belong to R (rewards), not to P");
    } else {
      p.left = formula();
      skip();
      if (keyword("U")) {
        p.path = PrismProperty::Path::until;
        bound(p, true);
      } else if (keyword("W")) {
        p.path = PrismProperty::Path::weak_until;
        bound(p, false);
      } else if (keyword("R")) {
        p.path = PrismProperty::Path::release;
        bound(p, false);
      } else {
        fail("expected a path formula: F, G, X, or U, W, R (until, weak until, release) after a state formula");
      }
      p.target = formula();
    }
  }
  // s: or-expression.
  LabelFormula formula() {
    skip();
    const std::size_t b = pos_;
    LabelFormula f = conjunction();
    if (accept("|")) {
      LabelFormula d;
      d.kind = LabelFormula::Kind::disjunction;
      d.operands.push_back(std::move(f));
      do d.operands.push_back(conjunction());
      while (accept("|"));
      f = std::move(d);
    }
    f.text = trim(s_.substr(b, pos_ - b));
    return f;
  }
  LabelFormula conjunction() {
    skip();
    const std::size_t b = pos_;
    LabelFormula f = unary();
    if (accept("&")) {
      LabelFormula c;
      c.kind = LabelFormula::Kind::conjunction;
      c.operands.push_back(std::move(f));
      do c.operands.push_back(unary());
      while (accept("&"));
      f = std::move(c);
    }
    f.text = trim(s_.substr(b, pos_ - b));
    return f;
  }
  LabelFormula unary() {
    skip();
    const std::size_t b = pos_;
    // Nesting is bounded so that "!!!!..." or "((((..." cannot exhaust the stack.
    if (++depth_ > max_depth) fail(fmt::format("the formula nests deeper than {} levels", max_depth));
    struct Leave {
      int& d;
      ~Leave() { --d; }
    } leave{depth_};
    LabelFormula f;
    if (accept("!")) {
      f.kind = LabelFormula::Kind::negation;
      f.operands.push_back(unary());
    } else if (accept("(")) {
      f = formula();
      expect(")");
    } else if (keyword("true")) {
      f.value = true;
    } else if (keyword("false")) {
      f.value = false;
    } else if (pos_ < s_.size() && s_[pos_] == '"') {
      f.kind = LabelFormula::Kind::label;
      f.label = quoted();
    } else {
      fail(
          "expected a label in quotes (\"goal\"), true, false, ! or ( (variables are not labels: export them "
          "as labels)");
    }
    f.text = trim(s_.substr(b, pos_ - b));
    return f;
  }
  static std::string trim(std::string_view t) {
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
    return std::string(t);
  }
};

// The text with its comments blanked (newlines kept, so positions stay).
const PrismConstants no_constants;

std::string without_comments(std::string_view text, const std::string& file) {
  std::string out(text);
  bool in_string = false;
  std::size_t quote = 0;
  auto unterminated = [&] {
    const auto [line, column] = locate(text, quote, {file, 1, 1});
    throw ParseError(make_diagnostic(file, line, column, "", "unterminated quoted name"));
  };
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (in_string) {
      if (out[i] == '"') in_string = false;
      if (out[i] == '\n') unterminated();
      continue;
    }
    if (out[i] == '"') {
      in_string = true;
      quote = i;
    } else if (out.compare(i, 2, "//") == 0) {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    } else if (out.compare(i, 2, "/*") == 0) {
      const std::size_t end = out.find("*/", i + 2);
      if (end == std::string::npos) {
        const auto [line, column] = locate(text, i, {file, 1, 1});
        throw ParseError(make_diagnostic(file, line, column, "", "unterminated comment /* ..."));
      }
      for (std::size_t k = i; k < end + 2; ++k)
        if (out[k] != '\n') out[k] = ' ';
      i = end + 1;
    }
  }
  if (in_string) unterminated();
  return out;
}

}  // namespace

PrismProperty parse_prism_property(std::string_view text, const PrismConstants& constants,
                                   const PrismPropertyOrigin& origin) {
  return Parser(text, constants, origin).property();
}

PrismPropsFile parse_prism_props(std::string_view text, const std::string& file) {
  const std::string clean = without_comments(text, file);
  const std::string_view s = clean;
  PrismPropsFile out;
  out.file = file;
  std::size_t i = 0;
  auto fail_at = [&](std::size_t pos, const std::string& message) {
    const auto [line, column] = locate(s, pos, {file, 1, 1});
    throw ParseError(make_diagnostic(file, line, column, "", message));
  };
  // The end of the item that starts at b: ';' or, when `at_newline`, a newline outside brackets.
  auto item_end = [&](std::size_t b, bool at_newline) {
    std::vector<std::pair<char, std::size_t>> open;
    bool in_string = false;
    std::size_t k = b;
    for (; k < s.size(); ++k) {
      const char c = s[k];
      if (in_string) {
        in_string = c != '"';
        continue;
      }
      if (c == '"') {
        in_string = true;
      } else if (c == '(' || c == '[' || c == '{') {
        open.emplace_back(c, k);
      } else if (c == ')' || c == ']' || c == '}') {
        const char want = c == ')' ? '(' : c == ']' ? '[' : '{';
        if (open.empty() || open.back().first != want) fail_at(k, fmt::format("unmatched '{}'", c));
        open.pop_back();
      } else if (open.empty() && (c == ';' || (at_newline && c == '\n'))) {
        break;
      }
    }
    if (!open.empty()) fail_at(open.back().second, fmt::format("unclosed '{}'", open.back().first));
    return k;
  };
  auto position = [&](std::size_t pos) { return locate(s, pos, {file, 1, 1}); };
  while (i < s.size()) {
    while (i < s.size() && (std::isspace(static_cast<unsigned char>(s[i])) || s[i] == ';')) ++i;
    if (i >= s.size()) break;
    const std::size_t b = i;
    auto word_is = [&](std::string_view w) {
      return s.compare(b, w.size(), w) == 0 && (b + w.size() >= s.size() || !is_ident_char(s[b + w.size()]));
    };
    if (word_is("const")) {
      const std::size_t e = item_end(b, false);
      if (e >= s.size()) fail_at(b, "a constant's declaration ends with ';'");
      Reader r(s.substr(0, e), no_constants, {file, 1, 1});
      r.pos_ = b + 5;
      PrismPropsFile::Constant c;
      std::tie(c.line, c.column) = position(b);
      c.type = "int";
      for (const char* t : {"int", "double", "bool"})
        if (r.keyword(t)) c.type = t;
      const std::size_t name_at = (r.skip(), r.pos_);
      c.name = r.identifier();
      for (const auto& other : out.constants)
        if (other.name == c.name)
          fail_at(name_at, fmt::format("constant '{}' is declared twice (first at line {})", c.name, other.line));
      if (r.accept("=")) {
        r.skip();
        c.value = std::string(s.substr(r.pos_, e - r.pos_));
        while (!c.value.empty() && std::isspace(static_cast<unsigned char>(c.value.back()))) c.value.pop_back();
        if (c.value.empty()) r.fail("expected the constant's value after '='");
        std::tie(c.line, c.column) = position(r.pos_);
      } else if (!r.at_end()) {
        r.fail("expected '=' or ';' after the constant's name");
      }
      out.constants.push_back(std::move(c));
      i = e + 1;
    } else if (word_is("label") || word_is("formula")) {
      const std::size_t e = item_end(b, false);
      if (e >= s.size()) fail_at(b, "a definition ends with ';'");
      PrismPropsFile::Definition d;
      d.kind = word_is("label") ? "label" : "formula";
      std::tie(d.line, d.column) = position(b);
      Reader r(s.substr(0, e), no_constants, {file, 1, 1});
      r.pos_ = b + d.kind.size();
      r.skip();
      d.name = d.kind == "label" ? r.quoted() : r.identifier();
      out.definitions.push_back(std::move(d));
      i = e + 1;
    } else {
      PrismPropsFile::Property p;
      std::size_t start = b;
      if (s[b] == '"') {
        // A name, when a ':' follows the quoted text ("name": ...); else a label of the formula.
        const std::size_t q = s.find('"', b + 1);
        std::size_t k = q == std::string_view::npos ? q : q + 1;
        while (k < s.size() && (s[k] == ' ' || s[k] == '\t')) ++k;
        if (k < s.size() && s[k] == ':') {
          p.name = std::string(s.substr(b + 1, q - b - 1));
          for (const auto& other : out.properties)
            if (!p.name.empty() && other.name == p.name)
              fail_at(b, fmt::format("property \"{}\" is named twice (first at line {})", p.name, other.line));
          start = k + 1;
          while (start < s.size() && std::isspace(static_cast<unsigned char>(s[start]))) ++start;
        }
      }
      const std::size_t e = item_end(start, true);
      std::string_view t = s.substr(start, e - start);
      while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
      if (t.empty()) fail_at(b, "a property's name without a property");
      p.text = std::string(t);
      std::tie(p.line, p.column) = position(start);
      out.properties.push_back(std::move(p));
      i = e + 1;
    }
  }
  return out;
}

PrismConstants parse_constant_list(std::string_view text) {
  PrismConstants out;
  std::size_t i = 0;
  while (i <= text.size()) {
    std::size_t e = text.find(',', i);
    if (e == std::string_view::npos) e = text.size();
    const std::string_view item = text.substr(i, e - i);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0) throw UsageError("const", fmt::format("'{}' is not NAME=VALUE", item));
    const std::string name(item.substr(0, eq));
    const std::string value(item.substr(eq + 1));
    if (!is_ident_start(name[0]) || !std::all_of(name.begin(), name.end(), is_ident_char))
      throw UsageError("const", fmt::format("'{}' is not a constant's name", name));
    if (!is_decimal(value) && value != "true" && value != "false")
      throw UsageError("const", fmt::format("the value of {} ('{}') is not a number", name, value));
    if (out.count(name) != 0) throw UsageError("const", fmt::format("{} is given twice", name));
    out.emplace(name, value);
    i = e + 1;
  }
  return out;
}

PrismConstants prism_constants(const PrismPropsFile* file, const PrismConstants& given) {
  PrismConstants out;
  for (const auto& [name, value] : given) {
    if (!is_decimal(value) && value != "true" && value != "false")
      throw UsageError("const", fmt::format("the value of {} ('{}') is not a number", name, value));
    if (file != nullptr) {
      const bool declared =
          std::any_of(file->constants.begin(), file->constants.end(), [&given_name = name](const auto& c) {
            return c.name == given_name;  // clang 15 cannot capture a structured binding itself
          });
      if (!declared) {
        std::string names;
        for (const auto& c : file->constants) names += fmt::format("{}{}", names.empty() ? "" : ", ", c.name);
        throw UsageError("const", fmt::format("{} declares no constant {} (its constants: {})", file->file, name,
                                              names.empty() ? "none" : names));
      }
    }
    out.emplace(name, value);
  }
  if (file == nullptr) return out;
  for (const auto& c : file->constants) {
    if (out.count(c.name) != 0 || c.value.empty()) continue;
    std::string v = c.value;
    if (is_decimal(v) || v == "true" || v == "false") {
      out.emplace(c.name, v);
      continue;
    }
    Reader r(c.value, out, {file->file, c.line, c.column});
    r.lenient_ = true;
    try {
      const std::uint64_t x = r.integer("the constant's value");
      if (!r.at_end()) r.fail("expected an integer expression (+ - * and parentheses over integers and constants)");
      out.emplace(c.name, std::to_string(x));
    } catch (const Reader::MissingConstant&) {
      // Uses a constant without a value: stays undefined.
    }
  }
  return out;
}

const PrismPropsFile::Property& select_property(const PrismPropsFile& file, std::string_view which) {
  auto listing = [&] {
    std::string names;
    for (std::size_t k = 0; k < file.properties.size(); ++k) {
      const auto& p = file.properties[k];
      std::string text;
      for (char c : p.text) {
        const bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
        if (!space || (!text.empty() && text.back() != ' ')) text += space ? ' ' : c;
      }
      names += fmt::format("\n  {}{}: {}", k + 1, p.name.empty() ? "" : fmt::format(" \"{}\"", p.name), text);
    }
    return names;
  };
  if (file.properties.empty()) throw UsageError("prop", fmt::format("{} holds no property", file.file));
  if (which.empty()) {
    if (file.properties.size() == 1) return file.properties[0];
    throw UsageError("prop", fmt::format("{} holds {} properties; say which with a name or a number:{}", file.file,
                                         file.properties.size(), listing()));
  }
  for (const auto& p : file.properties)
    if (p.name == which) return p;
  std::size_t k = 0;
  const auto [ptr, ec] = std::from_chars(which.data(), which.data() + which.size(), k);
  if (ec == std::errc() && ptr == which.data() + which.size() && k >= 1 && k <= file.properties.size())
    return file.properties[k - 1];
  throw UsageError("prop", fmt::format("{} has no property '{}'; its properties:{}", file.file, which, listing()));
}

}  // namespace playtest
