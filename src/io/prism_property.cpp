#include "playtest/io/prism_property.hpp"

#include <fmt/format.h>

#include <cctype>
#include <charconv>

#include "playtest/error.hpp"

namespace playtest {

namespace {

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  PrismProperty property() {
    PrismProperty p;
    p.text = std::string(s_);
    skip();
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
  [[noreturn]] void fail(const std::string& message) const {
    throw ParseError(make_diagnostic("property", 1, static_cast<std::uint32_t>(pos_ + 1), "", message));
  }
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
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
    if (e < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[e])) || s_[e] == '_')) return false;
    pos_ = e;
    return true;
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
  std::uint64_t integer(const char* what) {
    skip();
    std::uint64_t x = 0;
    const auto [p, ec] = std::from_chars(s_.data() + pos_, s_.data() + s_.size(), x);
    if (ec != std::errc() || p == s_.data() + pos_) fail(fmt::format("expected {} (a non-negative integer)", what));
    pos_ = static_cast<std::size_t>(p - s_.data());
    if (pos_ < s_.size() && (s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E'))
      fail(fmt::format("expected {} (a non-negative integer)", what));
    return x;
  }
  std::string number() {
    skip();
    const std::size_t b = pos_;
    while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.' ||
                                s_[pos_] == 'e' || s_[pos_] == 'E' || s_[pos_] == '-' || s_[pos_] == '+'))
      ++pos_;
    if (b == pos_) fail("expected a number");
    return std::string(s_.substr(b, pos_ - b));
  }
  // <=k, <k: a step bound; {"r"}<=B or ^{rew{"r"}<=B}: a reward bound.
  void bound(PrismProperty& p) {
    skip();
    if (accept("<=")) {
      p.step_bound = integer("a step bound");
    } else if (accept("<")) {
      const std::uint64_t k = integer("a step bound");
      if (k == 0) fail("F<0 is empty; use F<=0");
      p.step_bound = k - 1;
    } else if (accept("^{")) {
      if (!keyword("rew")) fail("expected rew{\"name\"}<=B in a reward bound");
      expect("{");
      p.bound_reward = quoted();
      expect("}");
      expect("<=");
      p.reward_bound = integer("a reward bound");
      expect("}");
    } else if (s_.substr(pos_, 1) == "{") {
      expect("{");
      p.bound_reward = quoted();
      expect("}");
      expect("<=");
      p.reward_bound = integer("a reward bound");
    } else if (accept(">") || accept("[") || accept("=")) {
      --pos_;
      fail("only upper bounds (<=, <) are supported");
    }
  }
  void query(PrismProperty& p) {
    skip();
    const std::size_t start = pos_;
    if (accept("Pmax") || accept("Pmin")) {
      p.optimum = s_.substr(pos_ - 3, 3) == "max" ? PrismProperty::Optimum::max : PrismProperty::Optimum::min;
    } else if (accept("P")) {
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
      fail("expected a P or R query (Pmax=? [ F \"goal\" ], R{\"r\"}min=? [ F \"goal\" ], ...)");
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
    if (p.comparison != PrismProperty::Comparison::query) p.threshold = number();
    expect("[");
    if (keyword("F")) {
      bound(p);
      p.target = formula();
    } else if (keyword("G") || keyword("X") || keyword("C") || keyword("I") || keyword("W") || keyword("R") ||
               keyword("S")) {
      --pos_;
      fail("only reachability paths (F, U) are supported");
    } else {
      p.left = formula();
      if (!keyword("U")) fail("expected 'U' (until) or 'F' (eventually) in the path formula");
      bound(p);
      p.target = formula();
    }
    expect("]");
    if (p.quantity == PrismProperty::Quantity::reward && (p.left || p.step_bound || p.reward_bound))
      fail("a reward query takes R [ F target ] only (no bound, no until)");
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

  static constexpr int max_depth = 200;
  std::string_view s_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

PrismProperty parse_prism_property(std::string_view text) { return Parser(text).property(); }

}  // namespace playtest
