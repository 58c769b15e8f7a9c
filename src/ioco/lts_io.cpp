#include "playtest/ioco/lts_io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>
#include <unordered_map>

#include "playtest/base/error.hpp"
#include "playtest/base/source_text.hpp"

namespace playtest::ioco {

namespace {

const std::vector<std::string> convention_notes = {
    "inputs and outputs are told apart by a '?' (input) or '!' (output) prefix on the label, or by "
    "lists of the input and output labels given with the model; 'tau' and 'i' are internal steps (docs/ioco.md)"};

struct Classified {
  std::string name;
  ActionKind kind;
};

bool contains(const std::vector<std::string>& v, std::string_view s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// Returns the kind and name of a label, or an error message (empty kind) through `error`.
bool classify(std::string_view label, const LtsReadOptions& o, Classified& out, std::string& error) {
  if (label == "tau" || label == "i") {
    out = {"tau", ActionKind::internal};
    return true;
  }
  std::optional<ActionKind> by_prefix;
  std::string_view name = label;
  if (!name.empty() && (name.front() == '?' || name.front() == '!')) {
    by_prefix = name.front() == '?' ? ActionKind::input : ActionKind::output;
    name.remove_prefix(1);
  }
  if (name.empty()) {
    error = "empty label";
    return false;
  }
  if (name == "delta") {
    if (by_prefix == ActionKind::input) {
      error = "quiescence 'delta' is an observation, it cannot be an input";
      return false;
    }
    out = {"delta", ActionKind::quiescence};  // explicit quiescence (docs/ioco.md)
    return true;
  }
  if (name == "tau") {
    error = fmt::format("label '{}': 'tau' is the internal step and takes no prefix", label);
    return false;
  }
  const bool in_i = contains(o.inputs, name), in_o = contains(o.outputs, name);
  if (in_i && in_o) {
    error = fmt::format("label '{}' is listed both in --inputs and in --outputs", name);
    return false;
  }
  std::optional<ActionKind> by_list;
  if (in_i) by_list = ActionKind::input;
  if (in_o) by_list = ActionKind::output;
  if (by_prefix && by_list && *by_prefix != *by_list) {
    error = fmt::format("label '{}' has the prefix of an {} but is listed as an {}", label, to_string(*by_prefix),
                        to_string(*by_list));
    return false;
  }
  std::optional<ActionKind> k = by_prefix ? by_prefix : by_list;
  if (!k) {
    if (!o.inputs.empty() && o.outputs.empty())
      k = ActionKind::output;
    else if (o.inputs.empty() && !o.outputs.empty())
      k = ActionKind::input;
  }
  if (!k) {
    error = fmt::format("cannot tell whether label '{}' is an input or an output", label);
    return false;
  }
  out = {std::string(name), *k};
  return true;
}

// Interns a classified label into `lts`; a name seen before with another kind is an error.
bool intern(Lts& lts, const Classified& c, ActionId& id, std::string& error) {
  if (auto a = lts.find_action(c.name); a && lts.kind(*a) != c.kind) {
    error = fmt::format("label '{}' is used as an {} here but as an {} before", c.name, to_string(c.kind),
                        to_string(lts.kind(*a)));
    return false;
  }
  id = lts.add_action(c.name, c.kind);
  return true;
}

// ---------------------------------------------------------------------------------------------
// .aut

class AutParser {
 public:
  AutParser(std::string_view text, const std::string& file, const LtsReadOptions& o)
      : text_(text), file_(file), opts_(o) {}

  Lts parse() {
    std::uint32_t initial = 0, n_trans = 0, n_states = 0;
    std::uint32_t header_line = 0;
    std::vector<Transition> transitions;
    // Column (1-based) of each state number, per transition, for range errors reported later.
    std::size_t pos = 0;
    std::uint32_t line_no = 0;
    while (pos <= text_.size()) {
      auto nl = text_.find('\n', pos);
      std::string_view line = text_.substr(pos, nl == std::string_view::npos ? text_.size() - pos : nl - pos);
      ++line_no;
      pos = nl == std::string_view::npos ? text_.size() + 1 : nl + 1;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      line_ = line;
      line_no_ = line_no;
      i_ = 0;
      skip_ws();
      if (i_ == line_.size()) continue;  // blank line
      if (header_line == 0) {
        header_line = line_no;
        if (line_.substr(i_, 3) != "des") fail_parse("expected the header 'des (initial_state, transitions, states)'");
        i_ += 3;
        expect('(', "'(' after 'des'");
        initial = number("the initial state");
        expect(',', "',' after the initial state");
        n_trans = number("the number of transitions");
        expect(',', "',' after the number of transitions");
        n_states = number("the number of states");
        expect(')', "')' closing the header");
        end_of_line();
        if (n_states == 0) fail_at<ParseError>(header_line, 1, "the header declares no states");
        if (initial >= n_states)
          fail_at<ParseError>(header_line, 1,
                              fmt::format("the initial state {} is out of range: the header declares {} states (0..{})",
                                          initial, n_states, n_states - 1));
        // Reserve only what the text can hold (a transition line takes at least 8 bytes): a
        // hostile header's counts cost nothing until transitions appear.
        transitions.reserve(std::min<std::size_t>({n_trans, std::size_t{1} << 24, text_.size() / 8 + 1}));
        continue;
      }
      expect('(', "'(' starting a transition '(from, \"label\", to)'");
      const std::uint32_t from_col = col();
      const std::uint32_t from = number("the source state");
      check_state(from, n_states, from_col);
      expect(',', "',' after the source state");
      const std::uint32_t label_col = col();
      std::string label = parse_label();
      const std::uint32_t to_col = col();
      const std::uint32_t to = number("the target state");
      check_state(to, n_states, to_col);
      expect(')', "')' closing the transition");
      end_of_line();
      Classified c;
      std::string error;
      ActionId a = 0;
      if (!classify(label, opts_, c, error) || !intern(lts_, c, a, error))
        fail_at<ModelError>(line_no, label_col, error, convention_notes);
      transitions.push_back({from, a, to});
    }
    if (header_line == 0)
      fail_at<ParseError>(1, 1, "empty file: expected the header 'des (initial_state, transitions, states)'");
    if (transitions.size() != n_trans)
      fail_at<ParseError>(
          header_line, 1,
          fmt::format("the header declares {} transitions but the file has {}", n_trans, transitions.size()));
    // A header may declare far more states than its transitions touch (2e8 in a 30-byte file). Only
    // the initial state and the states a transition names can matter (the others are unreachable
    // and have no moves), so when the declared count is large and most of it cannot appear, the
    // states that do appear are numbered densely and keep their numbers as names: nothing is
    // allocated for states that never appear.
    if (n_states > compact_above && n_states / 2 > transitions.size()) {
      std::unordered_map<std::uint32_t, std::uint32_t> dense;
      std::vector<std::string> names;
      auto id = [&](std::uint32_t s) {
        auto [it, fresh] = dense.try_emplace(s, static_cast<std::uint32_t>(names.size()));
        if (fresh) names.push_back(std::to_string(s));
        return it->second;
      };
      initial = id(initial);
      for (Transition& t : transitions) {
        t.from = id(t.from);
        t.to = id(t.to);
      }
      lts_.set_structure(static_cast<std::uint32_t>(names.size()), initial, std::move(transitions));
      lts_.set_state_names(std::move(names));
      return std::move(lts_);
    }
    lts_.set_structure(n_states, initial, std::move(transitions));
    return std::move(lts_);
  }

 private:
  static constexpr std::uint32_t compact_above = 1u << 16;
  std::uint32_t col() const { return static_cast<std::uint32_t>(i_ + 1); }
  void skip_ws() {
    while (i_ < line_.size() && (line_[i_] == ' ' || line_[i_] == '\t')) ++i_;
  }
  template <class E>
  [[noreturn]] void fail_at(std::uint32_t line, std::uint32_t column, std::string msg,
                            std::vector<std::string> notes = {}) const {
    throw E(Diagnostic{{file_, line, column, ""}, std::move(msg), std::move(notes)});
  }
  [[noreturn]] void fail_parse(std::string msg) const { fail_at<ParseError>(line_no_, col(), std::move(msg)); }

  void expect(char c, const char* what) {
    skip_ws();
    if (i_ >= line_.size() || line_[i_] != c) fail_parse(fmt::format("expected {}", what));
    ++i_;
    skip_ws();
  }
  void end_of_line() {
    skip_ws();
    if (i_ != line_.size()) fail_parse("unexpected text after ')'");
  }
  std::uint32_t number(const char* what) {
    skip_ws();
    std::size_t j = i_;
    while (j < line_.size() && line_[j] >= '0' && line_[j] <= '9') ++j;
    if (j == i_) fail_parse(fmt::format("expected {} (a number)", what));
    std::uint32_t v = 0;
    auto [p, ec] = std::from_chars(line_.data() + i_, line_.data() + j, v);
    if (ec != std::errc{}) fail_parse(fmt::format("{} is too large", what));
    (void)p;
    i_ = j;
    skip_ws();
    return v;
  }
  void check_state(std::uint32_t s, std::uint32_t n, std::uint32_t column) const {
    if (s >= n)
      fail_at<ParseError>(line_no_, column,
                          fmt::format("state {} is out of range: the header declares {} states (0..{})", s, n, n - 1));
  }
  // A quoted label "..." (no escapes, as in CADP) or an unquoted one running to the last comma.
  std::string parse_label() {
    skip_ws();
    if (i_ < line_.size() && line_[i_] == '"') {
      auto close = line_.find('"', i_ + 1);
      if (close == std::string_view::npos) fail_parse("unterminated quoted label");
      std::string s(line_.substr(i_ + 1, close - i_ - 1));
      i_ = close + 1;
      expect(',', "',' after the label");
      return s;
    }
    auto last = line_.rfind(',');
    if (last == std::string_view::npos || last < i_) fail_parse("expected a label and ',' before the target state");
    std::string_view s = line_.substr(i_, last - i_);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    if (s.empty()) fail_parse("empty label");
    i_ = last + 1;
    skip_ws();
    return std::string(s);
  }

  std::string_view text_;
  const std::string& file_;
  const LtsReadOptions& opts_;
  Lts lts_;
  std::string_view line_;
  std::uint32_t line_no_ = 0;
  std::size_t i_ = 0;
};

}  // namespace

Lts parse_aut(std::string_view text, const std::string& source_name, const LtsReadOptions& options) {
  require_utf8(text, source_name);  // labels become graph/1 strings, which must be UTF-8
  return AutParser(text, source_name, options).parse();
}

// ---------------------------------------------------------------------------------------------
// lts/1 JSON

bool looks_like_lts_json(std::string_view head) {
  auto k = head.find("\"playtest\"");
  if (k == std::string_view::npos) return false;
  std::size_t i = k + 10;
  auto skip = [&] {
    while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r')) ++i;
  };
  skip();
  if (i >= head.size() || head[i] != ':') return false;
  ++i;
  skip();
  return head.substr(i, 5) == "\"lts/";
}

Lts parse_lts_json(std::string_view text, const std::string& source_name, const LtsReadOptions& options) {
  using nlohmann::json;
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    auto [line, col] = line_column_of(text, e.byte == 0 ? 0 : e.byte - 1);
    throw ParseError(Diagnostic{{source_name, line, col, ""}, "JSON syntax error", {e.what()}});
  } catch (const json::exception& e) {
    // Numbers out of range (error 406) carry no byte offset; point at the offending literal.
    const std::string what = e.what();
    std::uint32_t line = 0, col = 0;
    if (const auto q = what.find('\''); q != std::string::npos) {
      const auto q2 = what.find('\'', q + 1);
      if (q2 != std::string::npos && q2 > q + 1)
        if (const auto at = text.find(std::string_view(what).substr(q + 1, q2 - q - 1)); at != std::string_view::npos)
          std::tie(line, col) = line_column_of(text, at);
    }
    throw ParseError(Diagnostic{{source_name, line, col, ""}, "JSON value out of range", {what}});
  }
  auto fail = [&](const std::string& pointer, std::string msg, std::vector<std::string> notes = {}) {
    throw ParseError(Diagnostic{{source_name, 0, 0, pointer}, std::move(msg), std::move(notes)});
  };
  if (!doc.is_object()) fail("", "an lts/1 file is a JSON object");
  if (!doc.contains("playtest") || doc["playtest"] != "lts/1") fail("/playtest", "expected \"playtest\": \"lts/1\"");
  for (auto it = doc.begin(); it != doc.end(); ++it)
    if (it.key() != "playtest" && it.key() != "initial" && it.key() != "transitions" && it.key() != "inputs" &&
        it.key() != "outputs" && it.key() != "states" && it.key() != "description")
      fail("/" + it.key(), fmt::format("unknown key '{}'", it.key()),
           {"keys: playtest, description, initial, states, inputs, outputs, transitions"});
  LtsReadOptions o = options;
  for (const char* key : {"inputs", "outputs"}) {
    if (!doc.contains(key)) continue;
    const json& l = doc[key];
    if (!l.is_array()) fail(std::string("/") + key, "expected an array of labels");
    for (std::size_t i = 0; i < l.size(); ++i) {
      if (!l[i].is_string()) fail(fmt::format("/{}/{}", key, i), "expected a label (string)");
      (std::string_view(key) == "inputs" ? o.inputs : o.outputs).push_back(l[i].get<std::string>());
    }
  }
  // States are names (strings) or numbers; numbered in order of first appearance, the initial first.
  std::vector<std::string> names;
  auto state_of = [&](const json& v, const std::string& pointer) -> StateId {
    std::string n;
    if (v.is_string())
      n = v.get<std::string>();
    else if (v.is_number_unsigned())
      n = std::to_string(v.get<std::uint64_t>());
    else
      fail(pointer, "expected a state (a name or a number)");
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == n) return static_cast<StateId>(i);
    names.push_back(n);
    return static_cast<StateId>(names.size() - 1);
  };
  if (!doc.contains("initial")) fail("", "missing key 'initial'");
  const StateId initial = state_of(doc["initial"], "/initial");
  if (doc.contains("states")) {
    if (!doc["states"].is_array()) fail("/states", "expected an array of states");
    for (std::size_t i = 0; i < doc["states"].size(); ++i) state_of(doc["states"][i], fmt::format("/states/{}", i));
  }
  if (!doc.contains("transitions") || !doc["transitions"].is_array())
    fail("/transitions", "expected \"transitions\": [[from, label, to], ...]");
  Lts lts;
  std::vector<Transition> ts;
  const json& tr = doc["transitions"];
  for (std::size_t i = 0; i < tr.size(); ++i) {
    const std::string p = fmt::format("/transitions/{}", i);
    const json& t = tr[i];
    if (!t.is_array() || t.size() != 3 || !t[1].is_string()) fail(p, "expected [from, \"label\", to]");
    const StateId from = state_of(t[0], p + "/0");
    const StateId to = state_of(t[2], p + "/2");
    Classified c;
    std::string error;
    ActionId a = 0;
    if (!classify(t[1].get<std::string>(), o, c, error) || !intern(lts, c, a, error))
      throw ModelError(make_diagnostic(source_name, 0, 0, p + "/1", error, convention_notes));
    ts.push_back({from, a, to});
  }
  lts.set_structure(static_cast<StateId>(names.size()), initial, std::move(ts));
  lts.set_state_names(std::move(names));
  return lts;
}

Lts load_lts(const std::string& path, const LtsReadOptions& options) {
  const std::string text = read_source_text(path);
  const bool aut = path.size() >= 4 && path.compare(path.size() - 4, 4, ".aut") == 0;
  if (aut || (path == "-" && !looks_like_lts_json(std::string_view(text).substr(0, 4096))))
    return parse_aut(text, path, options);
  return parse_lts_json(text, path, options);
}

std::string write_aut(const Lts& lts) {
  std::string out = fmt::format("des ({}, {}, {})\n", lts.initial(), lts.num_transitions(), lts.num_states());
  for (StateId s = 0; s < lts.num_states(); ++s) {
    auto acts = lts.out_actions(s);
    auto tgts = lts.out_targets(s);
    for (std::size_t k = 0; k < acts.size(); ++k) {
      const ActionId a = acts[k];
      const char* prefix = lts.is_input(a) ? "?" : lts.is_output(a) ? "!" : "";  // tau, delta: none
      out += fmt::format("({}, \"{}{}\", {})\n", s, prefix, lts.action_name(a), tgts[k]);
    }
  }
  return out;
}

}  // namespace playtest::ioco
