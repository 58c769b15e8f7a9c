#include "playtest/io/prism_import.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "playtest/error.hpp"
#include "playtest/graph/graph_builder.hpp"

namespace playtest {

namespace {

[[noreturn]] void fail_at(const std::string& file, std::uint32_t line, std::string message) {
  Diagnostic d;
  d.where.file = file;
  d.where.line = line;
  d.message = std::move(message);
  throw ParseError(std::move(d));
}

// Splits a text into lines and lines into whitespace-separated fields, keeping line numbers.
class Lines {
 public:
  Lines(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

  // The next non-empty line's fields; false at the end.
  bool next(std::vector<std::string_view>& fields) {
    while (pos_ < text_.size()) {
      std::size_t end = text_.find('\n', pos_);
      if (end == std::string_view::npos) end = text_.size();
      std::string_view line = text_.substr(pos_, end - pos_);
      pos_ = end + 1;
      ++line_;
      fields.clear();
      std::size_t i = 0;
      while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
        std::size_t j = i;
        while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != '\r') ++j;
        if (j > i) fields.push_back(line.substr(i, j - i));
        i = j;
      }
      if (!fields.empty()) return true;
    }
    return false;
  }

  [[noreturn]] void fail(std::string message) const {
    fail_at(file_, line_, std::move(message));
  }

  std::uint32_t u32(std::string_view f, const char* what) const {
    std::uint32_t x = 0;
    auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), x);
    if (ec != std::errc() || p != f.data() + f.size()) fail(fmt::format("expected {} (a non-negative integer), got '{}'", what, f));
    return x;
  }

  double real(std::string_view f, const char* what) const {
    double x = 0;
    auto [p, ec] = std::from_chars(f.data(), f.data() + f.size(), x);
    if (ec != std::errc() || p != f.data() + f.size() || !std::isfinite(x))
      fail(fmt::format("expected {} (a number), got '{}'", what, f));
    return x;
  }

  std::uint32_t line() const { return line_; }

 private:
  std::string_view text_;
  std::string file_;
  std::size_t pos_ = 0;
  std::uint32_t line_ = 0;
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail_at(path, 0, "cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return std::move(ss).str();
}

}  // namespace

TestGraph parse_prism(std::string_view tra_text, std::string_view lab_text, std::string_view trew_text,
                      const std::string& base, const PrismImportOptions& o) {
  std::vector<std::string_view> f;
  // .tra: "states choices transitions", then "s c t p [action]".
  Lines tra(tra_text, base + ".tra");
  if (!tra.next(f) || f.size() != 3) tra.fail("expected the header 'states choices transitions'");
  const std::uint32_t n = tra.u32(f[0], "the number of states");
  const std::uint32_t nchoices = tra.u32(f[1], "the number of choices");
  const std::uint32_t ntrans = tra.u32(f[2], "the number of transitions");
  if (n == 0) tra.fail("the model has no states");
  std::vector<std::uint32_t> choice_of_state(n + 1, 0);  // first global choice of each state
  std::vector<std::uint32_t> trans_off;                  // per global choice
  std::vector<std::string> action;                       // per global choice ("" when none)
  std::vector<std::uint32_t> target;
  std::vector<double> prob;
  std::vector<std::uint32_t> line_of_choice;
  trans_off.reserve(nchoices + 1);
  target.reserve(ntrans);
  prob.reserve(ntrans);
  std::uint32_t cur_s = 0, cur_c = 0;
  bool any = false;
  auto close_choice = [&](Lines&) {
    double sum = 0;
    for (std::uint32_t k = trans_off.back(); k < target.size(); ++k) sum += prob[k];
    if (std::abs(sum - 1.0) > 1e-6)
      fail_at(base + ".tra", line_of_choice.back(), fmt::format("the probabilities of choice {} of state {} sum to {:.12g}, not 1", cur_c, cur_s, sum));
  };
  while (tra.next(f)) {
    if (f.size() != 4 && f.size() != 5) tra.fail("expected 'state choice target probability [action]'");
    const std::uint32_t s = tra.u32(f[0], "a state"), c = tra.u32(f[1], "a choice"), t = tra.u32(f[2], "a state");
    const double p = tra.real(f[3], "a probability");
    if (s >= n || t >= n) tra.fail(fmt::format("state {} is out of range (the header says {} states)", s >= n ? s : t, n));
    if (!(p > 0 && p <= 1)) tra.fail(fmt::format("probability {} is not in (0, 1]", p));
    const bool same = any && s == cur_s && c == cur_c;
    if (!same) {
      const bool next_choice = any && s == cur_s && c == cur_c + 1;
      const bool first_of_state = (!any || s > cur_s) && c == 0;
      if (!next_choice && !first_of_state)
        tra.fail(fmt::format("row for state {} choice {} is out of order (rows must be sorted by state, then "
                             "choice, with choices numbered 0, 1, ...)", s, c));
      if (any) close_choice(tra);
      for (std::uint32_t x = (any ? cur_s + 1 : 0); x <= s; ++x) choice_of_state[x] = static_cast<std::uint32_t>(trans_off.size());
      trans_off.push_back(static_cast<std::uint32_t>(target.size()));
      action.emplace_back(f.size() == 5 ? f[4] : std::string_view{});
      line_of_choice.push_back(tra.line());
      cur_s = s;
      cur_c = c;
      any = true;
    } else if (f.size() == 5 && action.back() != f[4]) {
      tra.fail(fmt::format("choice {} of state {} has two action labels '{}' and '{}'", c, s, action.back(), f[4]));
    }
    target.push_back(t);
    prob.push_back(p);
  }
  if (any) close_choice(tra);
  for (std::uint32_t x = any ? cur_s + 1 : 0; x <= n; ++x) choice_of_state[x] = static_cast<std::uint32_t>(trans_off.size());
  trans_off.push_back(static_cast<std::uint32_t>(target.size()));
  const std::uint32_t total_choices = static_cast<std::uint32_t>(trans_off.size() - 1);
  if (total_choices != nchoices || target.size() != ntrans)
    tra.fail(fmt::format("the header announces {} choices and {} transitions, the file has {} and {}", nchoices, ntrans,
                         total_choices, target.size()));

  // .trew: "states choices rows", then "s c t r"; a choice costs its expected reward.
  std::vector<double> reward(total_choices, 0.0);
  if (!trew_text.empty()) {
    Lines trew(trew_text, base + ".trew");
    if (!trew.next(f) || f.size() != 3) trew.fail("expected the header 'states choices rewards'");
    while (trew.next(f)) {
      if (f.size() != 4) trew.fail("expected 'state choice target reward'");
      const std::uint32_t s = trew.u32(f[0], "a state"), c = trew.u32(f[1], "a choice"), t = trew.u32(f[2], "a state");
      const double r = trew.real(f[3], "a reward");
      if (s >= n || c >= choice_of_state[s + 1] - choice_of_state[s])
        trew.fail(fmt::format("state {} has no choice {} in the .tra file", s, c));
      if (r < 0) trew.fail(fmt::format("reward {} is negative; costs must be >= 0", r));
      const std::uint32_t gc = choice_of_state[s] + c;
      bool found = false;
      for (std::uint32_t k = trans_off[gc]; k < trans_off[gc + 1]; ++k)
        if (target[k] == t) {
          reward[gc] += prob[k] * r;
          found = true;
          break;
        }
      if (!found) trew.fail(fmt::format("choice {} of state {} has no transition to state {}", c, s, t));
    }
  }

  // .lab: '0="init" 1="deadlock" 2="goal"', then "s: i j ...".
  Lines lab(lab_text, base + ".lab");
  std::vector<std::uint8_t> goal(n, 0);
  std::int64_t initial = -1;
  if (lab.next(f)) {
    std::int64_t goal_index = -1, init_index = -1;
    for (std::string_view d : f) {
      const auto eq = d.find('=');
      if (eq == std::string_view::npos || d.size() < eq + 3 || d[eq + 1] != '"' || d.back() != '"')
        lab.fail(fmt::format("expected label declarations like 0=\"init\", got '{}'", d));
      const std::uint32_t idx = lab.u32(d.substr(0, eq), "a label index");
      const std::string_view name = d.substr(eq + 2, d.size() - eq - 3);
      if (name == o.goal_label) goal_index = idx;
      if (name == o.init_label) init_index = idx;
    }
    while (lab.next(f)) {
      if (f[0].empty() || f[0].back() != ':') lab.fail("expected 'state: label indices'");
      const std::uint32_t s = lab.u32(f[0].substr(0, f[0].size() - 1), "a state");
      if (s >= n) lab.fail(fmt::format("state {} is out of range", s));
      for (std::size_t i = 1; i < f.size(); ++i) {
        const std::uint32_t idx = lab.u32(f[i], "a label index");
        if (idx == goal_index) goal[s] = 1;
        if (idx == init_index && initial < 0) initial = s;
      }
    }
  }

  GraphBuilder b;
  b.reserve(static_cast<std::size_t>(n) + total_choices, static_cast<std::size_t>(total_choices) + target.size());
  for (std::uint32_t s = 0; s < n; ++s) b.add_vertex(fmt::format("{}", s), VertexKind::active, goal[s] != 0);
  std::vector<VertexId> cv(total_choices);
  for (std::uint32_t s = 0; s < n; ++s)
    for (std::uint32_t gc = choice_of_state[s]; gc < choice_of_state[s + 1]; ++gc)
      cv[gc] = b.add_vertex(fmt::format("{}.{}", s, gc - choice_of_state[s]), VertexKind::passive);
  b.set_initial(VertexId{static_cast<std::uint32_t>(initial < 0 ? 0 : initial)});
  std::string label;
  for (std::uint32_t s = 0; s < n; ++s) {
    for (std::uint32_t gc = choice_of_state[s]; gc < choice_of_state[s + 1]; ++gc) {
      label = action[gc].empty() ? fmt::format("c{}", gc - choice_of_state[s]) : action[gc];
      b.add_edge({.from = VertexId{s}, .to = cv[gc], .label = label, .cost = reward[gc]});
    }
  }
  for (std::uint32_t gc = 0; gc < total_choices; ++gc)
    for (std::uint32_t k = trans_off[gc]; k < trans_off[gc + 1]; ++k)
      b.add_edge({.from = cv[gc], .to = VertexId{target[k]}, .label = "?", .cost = 0, .weight = prob[k]});
  const std::string tra_name = base + ".tra";
  BuildOptions bo;
  bo.locate = [&](ElementRef r) {
    SourceLocation loc{tra_name, 0, 0, ""};
    if (r.kind == ElementRef::Kind::vertex && r.index >= n && r.index - n < total_choices)
      loc.line = line_of_choice[r.index - n];
    return loc;
  };
  return b.build(bo);
}

TestGraph load_prism(const std::string& base, const PrismImportOptions& options) {
  const std::string tra = read_file(base + ".tra");
  const std::string lab = read_file(base + ".lab");
  std::string trew;
  if (std::ifstream(base + ".trew").good()) trew = read_file(base + ".trew");
  return parse_prism(tra, lab, trew, base, options);
}

}  // namespace playtest
