#include "playtest/io/prism_import.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/graph/graph_builder.hpp"

namespace playtest {

namespace {

constexpr std::size_t block_size = std::size_t{1} << 20;  // streaming block; also the longest line

struct Field {
  std::string_view text;
  std::uint32_t column = 0;  // 1-based
};

// The lines of one file, split into blank-separated fields, from a text in memory or streamed
// from a file in blocks of 1 MiB (a line may not be longer). Lines whose first field starts with
// '#' are comments; the ones before the first data line are kept (PRISM's reward headers).
class LineReader {
 public:
  LineReader(std::string_view text, std::string file) : file_(std::move(file)), data_(text), size_(text.size()) {}

  explicit LineReader(const std::string& path) : file_(path) {
    fp_ = std::fopen(path.c_str(), "rb");
    if (fp_ == nullptr) throw ParseError(Diagnostic{{path, 0, 0, ""}, "cannot open file", {}});
    struct stat st {};
    if (::fstat(::fileno(fp_), &st) == 0 && S_ISREG(st.st_mode)) size_ = static_cast<std::uint64_t>(st.st_size);
    streaming_ = true;
    buf_ = std::make_unique<char[]>(block_size);
  }
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;
  ~LineReader() {
    if (fp_ != nullptr) std::fclose(fp_);
  }

  // The next line with fields that is not a comment; false at the end.
  bool next() {
    std::string_view line;
    while (raw_line(line)) {
      ++line_;
      split(line);
      if (count_ == 0) continue;
      if (fields_[0].text[0] == '#') {
        if (data_lines_ == 0 && comments_.size() < 8) comments_.emplace_back(line);
        continue;
      }
      ++data_lines_;
      return true;
    }
    return false;
  }

  // The next line as it is (no splitting, comments included); false at the end.
  bool next_raw(std::string_view& line) {
    if (!raw_line(line)) return false;
    ++line_;
    return true;
  }

  std::size_t count() const { return count_; }
  const Field& operator[](std::size_t i) const { return fields_[i]; }
  const std::vector<std::string>& comments() const { return comments_; }
  const std::string& file() const { return file_; }
  std::uint32_t line() const { return line_; }
  std::uint64_t size() const { return size_; }  // bytes; 0 when unknown (not a regular file)

  [[noreturn]] void fail_at(std::uint32_t line, std::uint32_t column, std::string message) const {
    throw ParseError(Diagnostic{{file_, line, column, ""}, std::move(message), {}});
  }
  [[noreturn]] void fail(std::uint32_t column, std::string message) const {
    fail_at(line_, column, std::move(message));
  }
  [[noreturn]] void fail(const Field& f, std::string message) const { fail(f.column, std::move(message)); }

  std::uint32_t u32(std::size_t i, const char* what) const {
    const Field& f = fields_[i];
    std::uint32_t x = 0;
    auto [p, ec] = std::from_chars(f.text.data(), f.text.data() + f.text.size(), x);
    if (ec == std::errc::result_out_of_range)
      fail(f, fmt::format("{} '{}' is too large (at most {})", what, f.text, 0xfffffffeu));
    if (ec != std::errc() || p != f.text.data() + f.text.size())
      fail(f, fmt::format("expected {} (a non-negative integer), got '{}'", what, f.text));
    if (x == 0xffffffffu) fail(f, fmt::format("{} '{}' is too large (at most {})", what, f.text, 0xfffffffeu));
    return x;
  }

  double real(std::size_t i, const char* what) const {
    const Field& f = fields_[i];
    double x = 0;
    auto [p, ec] = std::from_chars(f.text.data(), f.text.data() + f.text.size(), x);
    if (ec != std::errc() || p != f.text.data() + f.text.size() || !std::isfinite(x))
      fail(f, fmt::format("expected {} (a finite number), got '{}'", what, f.text));
    return x;
  }

 private:
  bool raw_line(std::string_view& line) {
    for (;;) {
      if (pos_ < data_.size()) {
        const void* nl = std::memchr(data_.data() + pos_, '\n', data_.size() - pos_);
        if (nl != nullptr) {
          const std::size_t end = static_cast<std::size_t>(static_cast<const char*>(nl) - data_.data());
          line = data_.substr(pos_, end - pos_);
          pos_ = end + 1;
          return true;
        }
      }
      if (!streaming_ || eof_) {
        if (pos_ >= data_.size()) return false;
        line = data_.substr(pos_);  // the last line has no newline
        pos_ = data_.size();
        return true;
      }
      // Keep the unfinished line, read the next block behind it.
      const std::size_t rest = data_.size() - pos_;
      if (rest == block_size) fail_at(line_ + 1, 0, fmt::format("line is longer than {} bytes", block_size));
      if (rest > 0 && pos_ > 0) std::memmove(buf_.get(), buf_.get() + pos_, rest);
      const std::size_t got = std::fread(buf_.get() + rest, 1, block_size - rest, fp_);
      if (got < block_size - rest) {
        if (std::ferror(fp_)) fail_at(line_ + 1, 0, "read error");
        eof_ = true;
      }
      data_ = std::string_view(buf_.get(), rest + got);
      pos_ = 0;
    }
  }

  void split(std::string_view line) {
    fields_.clear();
    const char* s = line.data();
    const std::size_t n = line.size();
    std::size_t i = 0;
    for (;;) {
      while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i;
      if (i == n) break;
      const std::size_t j = i;
      while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r') ++i;
      fields_.push_back(Field{line.substr(j, i - j), static_cast<std::uint32_t>(j + 1)});
    }
    count_ = fields_.size();
  }

  std::string file_;
  std::string_view data_;
  std::size_t pos_ = 0;
  std::uint64_t size_ = 0;
  std::FILE* fp_ = nullptr;
  bool streaming_ = false, eof_ = false;
  std::unique_ptr<char[]> buf_;
  std::uint32_t line_ = 0;
  std::uint64_t data_lines_ = 0;
  std::vector<Field> fields_;
  std::size_t count_ = 0;
  std::vector<std::string> comments_;
};

// Interned action names; id 0 is "no action".
class Actions {
 public:
  std::uint32_t id(std::string_view s) {
    if (s.empty()) return 0;
    if (s == names_[last_]) return last_;
    auto it = index_.find(s);
    if (it == index_.end()) {
      names_.emplace_back(s);
      it = index_.emplace(names_.back(), static_cast<std::uint32_t>(names_.size() - 1)).first;
    }
    return last_ = it->second;
  }
  std::string_view name(std::uint32_t id) const { return names_[id]; }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::vector<std::string> names_{std::string()};
  std::unordered_map<std::string, std::uint32_t, Hash, std::equal_to<>> index_;
  std::uint32_t last_ = 0;
};

// The .tra file, read.
struct Transitions {
  bool dtmc = false;
  std::uint32_t n = 0;                   // states
  std::vector<std::uint32_t> first;      // per state + 1: first choice (MDP) or transition (DTMC)
  std::vector<std::uint32_t> trans_off;  // MDP: per choice + 1, first transition
  std::vector<std::uint32_t> action;     // MDP: per choice; DTMC: per transition (0 = none)
  std::vector<std::uint32_t> target;
  std::vector<double> prob;
  Actions actions;

  std::uint32_t choices() const { return dtmc ? 0 : static_cast<std::uint32_t>(trans_off.size() - 1); }
  std::uint32_t transitions() const { return static_cast<std::uint32_t>(target.size()); }
  // The transitions of state s (DTMC) or choice gc (MDP): [begin, end).
  std::pair<std::uint32_t, std::uint32_t> range_of_state(std::uint32_t s) const { return {first[s], first[s + 1]}; }
  std::pair<std::uint32_t, std::uint32_t> range_of_choice(std::uint32_t gc) const {
    return {trans_off[gc], trans_off[gc + 1]};
  }
};

constexpr double probability_tolerance = 1e-6;

Transitions read_tra(LineReader& r) {
  Transitions m;
  if (!r.next())
    r.fail_at(
        r.line() == 0 ? 1 : r.line(), 0,
        "the file is empty; expected the header 'states choices transitions' (MDP) or 'states transitions' (DTMC)");
  const std::uint32_t header_line = r.line();
  const std::size_t hn = r.count();
  if (hn == 4)
    r.fail(r[0],
           "a header of four numbers is a POMDP export; playtest reads MDPs ('states choices transitions') "
           "and DTMCs ('states transitions')");
  if (hn != 2 && hn != 3)
    r.fail(r[0], "expected the header 'states choices transitions' (MDP) or 'states transitions' (DTMC)");
  m.dtmc = hn == 2;
  m.n = r.u32(0, "the number of states");
  const std::uint32_t nchoices = m.dtmc ? 0 : r.u32(1, "the number of choices");
  const std::uint32_t ntrans = r.u32(hn - 1, "the number of transitions");
  if (m.n == 0) r.fail(r[0], "the model has no states");
  // Compare the declared counts with what the file can hold before allocating for them: a row
  // takes at least 6 (DTMC) or 8 (MDP) bytes, a choice has a transition, and every state but one
  // is the source or the target of some transition.
  const std::uint64_t min_row = m.dtmc ? 6 : 8;
  if (r.size() > 0 && ntrans > r.size() / min_row)
    r.fail(r[hn - 1], fmt::format("the header declares {} transitions, but a file of {} bytes holds at most {}", ntrans,
                                  r.size(), r.size() / min_row));
  if (!m.dtmc && nchoices > ntrans)
    r.fail(r[1], fmt::format("the header declares {} choices but only {} transitions (every choice has one)", nchoices,
                             ntrans));
  if (m.n > 2 * std::uint64_t{ntrans} + 1)
    r.fail(r[0], fmt::format("the header declares {} states, but {} transitions can involve at most {} of them", m.n,
                             ntrans, 2 * std::uint64_t{ntrans} + 1));
  if (std::uint64_t{m.n} + nchoices >= 0xffffffffu || std::uint64_t{nchoices} + ntrans >= 0xffffffffu)
    r.fail(r[0], "the model is too large (more than 2^32 - 2 vertices or edges)");
  const std::size_t reserve_trans = r.size() > 0 ? ntrans : std::min<std::size_t>(ntrans, 1 << 16);
  m.first.assign(std::size_t{m.n} + 1, 0);
  m.target.reserve(reserve_trans);
  m.prob.reserve(reserve_trans);
  if (m.dtmc) {
    m.action.reserve(reserve_trans);
  } else {
    m.trans_off.reserve(std::min<std::size_t>(nchoices, reserve_trans) + 1);
    m.action.reserve(std::min<std::size_t>(nchoices, reserve_trans));
  }

  std::uint32_t cur_s = 0, cur_c = 0, group_line = 0;
  bool any = false;
  double sum = 0;
  auto close_group = [&] {
    if (std::abs(sum - 1.0) > probability_tolerance) {
      if (m.dtmc)
        r.fail_at(group_line, 0, fmt::format("the probabilities of state {} sum to {:.12g}, not 1", cur_s, sum));
      r.fail_at(group_line, 0,
                fmt::format("the probabilities of choice {} of state {} sum to {:.12g}, not 1", cur_c, cur_s, sum));
    }
  };
  const std::size_t fields = m.dtmc ? 3 : 4;
  const char* row_form =
      m.dtmc ? "expected 'state target probability [action]'" : "expected 'state choice target probability [action]'";
  while (r.next()) {
    if (r.count() != fields && r.count() != fields + 1) r.fail(r.count() > fields + 1 ? r[fields + 1] : r[0], row_form);
    const std::uint32_t s = r.u32(0, "a state");
    const std::uint32_t c = m.dtmc ? 0 : r.u32(1, "a choice");
    const std::size_t ti = fields - 2, pi = fields - 1;
    const std::uint32_t t = r.u32(ti, "a state");
    const double p = r.real(pi, "a probability");
    if (s >= m.n) r.fail(r[0], fmt::format("state {} is out of range (the header declares {} states)", s, m.n));
    if (t >= m.n) r.fail(r[ti], fmt::format("state {} is out of range (the header declares {} states)", t, m.n));
    if (!(p > 0 && p <= 1)) r.fail(r[pi], fmt::format("probability {} is not in (0, 1]", r[pi].text));
    const bool has_action = r.count() == fields + 1;
    if (m.dtmc) {
      if (!any || s != cur_s) {
        if (any && s < cur_s)
          r.fail(r[0], fmt::format("row for state {} is out of order (rows must be sorted by state)", s));
        if (any) close_group();
        for (std::uint32_t x = any ? cur_s + 1 : 0; x <= s; ++x) m.first[x] = m.transitions();
        cur_s = s;
        sum = 0;
        group_line = r.line();
        any = true;
      }
      m.action.push_back(has_action ? m.actions.id(r[fields].text) : 0);
    } else {
      if (!any || s != cur_s || c != cur_c) {
        const bool next_choice = any && s == cur_s && c == cur_c + 1;
        const bool first_of_state = (!any || s > cur_s) && c == 0;
        if (!next_choice && !first_of_state)
          r.fail(r[any && s == cur_s ? 1 : 0],
                 fmt::format("row for state {} choice {} is out of order (rows must be sorted by state, then choice, "
                             "with choices numbered 0, 1, ...)",
                             s, c));
        if (any) close_group();
        if (m.trans_off.size() == nchoices)
          r.fail(r[1], fmt::format("more choices than the header declares ({})", nchoices));
        for (std::uint32_t x = any ? cur_s + 1 : 0; x <= s; ++x)
          m.first[x] = static_cast<std::uint32_t>(m.trans_off.size());
        m.trans_off.push_back(m.transitions());
        m.action.push_back(has_action ? m.actions.id(r[fields].text) : 0);
        cur_s = s;
        cur_c = c;
        sum = 0;
        group_line = r.line();
        any = true;
      } else if (has_action && m.actions.name(m.action.back()) != r[fields].text) {
        r.fail(r[fields], fmt::format("choice {} of state {} has two action labels '{}' and '{}'", c, s,
                                      m.actions.name(m.action.back()), r[fields].text));
      }
    }
    if (m.target.size() == ntrans) r.fail(r[0], fmt::format("more transitions than the header declares ({})", ntrans));
    m.target.push_back(t);
    m.prob.push_back(p);
    sum += p;
  }
  if (any) close_group();
  const std::uint32_t end_mark = m.dtmc ? m.transitions() : static_cast<std::uint32_t>(m.trans_off.size());
  for (std::uint32_t x = any ? cur_s + 1 : 0; x <= m.n; ++x) m.first[x] = end_mark;
  if (!m.dtmc) m.trans_off.push_back(m.transitions());
  if (m.choices() != nchoices || m.transitions() != ntrans) {
    if (m.dtmc)
      r.fail_at(header_line, 0,
                fmt::format("the header declares {} transitions, the file has {}", ntrans, m.transitions()));
    r.fail_at(header_line, 0,
              fmt::format("the header declares {} choices and {} transitions, the file has {} and {}", nchoices, ntrans,
                          m.choices(), m.transitions()));
  }
  return m;
}

// The name in a PRISM 4.x reward header comment '# Reward structure "NAME"', or "".
std::string reward_name(const std::vector<std::string>& comments) {
  constexpr std::string_view tag = "Reward structure";
  for (const std::string& c : comments) {
    const auto at = c.find(tag);
    if (at == std::string::npos) continue;
    const auto q1 = c.find('"', at + tag.size());
    const auto q2 = q1 == std::string::npos ? q1 : c.find('"', q1 + 1);
    if (q2 != std::string::npos) return c.substr(q1 + 1, q2 - q1 - 1);
  }
  return {};
}

// Costs derived from the reward files: per state (.srew) and per choice (MDP) or transition (DTMC).
struct Costs {
  std::vector<double> state;   // empty: none
  std::vector<double> choice;  // MDP
  std::vector<double> trans;   // DTMC
};

// MDP: PRISM writes a choice's reward on each of its transitions. A group of rows for one choice
// that covers all its transitions with one value costs exactly that value; otherwise the choice
// costs the probability-weighted sum (the expected reward of the step). Rows come grouped by choice.
class ChoiceRewards {
 public:
  ChoiceRewards(const Transitions& m, Costs& costs) : m_(m), costs_(costs) {}

  // The reward x on transition k of choice gc.
  void add(std::uint32_t gc, std::uint32_t k, double x) {
    if (gc != choice_) {
      close();
      choice_ = gc;
      rows_ = 0;
      value_ = x;
      sum_ = 0;
      uniform_ = true;
    }
    ++rows_;
    uniform_ = uniform_ && x == value_;
    sum_ += m_.prob[k] * x;
  }

  // Settles the current group (call once after the last row).
  void close() {
    if (choice_ == none) return;
    const auto [b, e] = m_.range_of_choice(choice_);
    if (uniform_ && rows_ == e - b)
      costs_.choice[choice_] = value_;
    else
      costs_.choice[choice_] += sum_;
    choice_ = none;
  }

 private:
  static constexpr std::uint32_t none = 0xffffffffu;
  const Transitions& m_;
  Costs& costs_;
  std::uint32_t choice_ = none, rows_ = 0;
  double value_ = 0, sum_ = 0;
  bool uniform_ = true;
};

void check_reward(const LineReader& r, std::size_t i, double x) {
  if (x < 0) r.fail(r[i], fmt::format("reward {} is negative; costs must be >= 0", r[i].text));
}

void read_srew(LineReader& r, const Transitions& m, Costs& costs) {
  if (!r.next()) return;  // an empty file: no state rewards
  if (r.count() != 2) r.fail(r[0], "expected the header 'states rewards' of a state reward file");
  const std::uint32_t n = r.u32(0, "the number of states");
  const std::uint32_t rows = r.u32(1, "the number of rewards");
  const std::uint32_t header_line = r.line();
  if (n != m.n) r.fail(r[0], fmt::format("the header declares {} states, the .tra file {}", n, m.n));
  if (rows > m.n) r.fail(r[1], fmt::format("the header declares {} rewards for {} states", rows, m.n));
  costs.state.assign(m.n, 0.0);
  std::vector<bool> seen(m.n, false);
  std::uint32_t count = 0;
  while (r.next()) {
    if (r.count() != 2) r.fail(r.count() > 2 ? r[2] : r[0], "expected 'state reward'");
    const std::uint32_t s = r.u32(0, "a state");
    const double x = r.real(1, "a reward");
    if (s >= m.n) r.fail(r[0], fmt::format("state {} is out of range (the header declares {} states)", s, m.n));
    check_reward(r, 1, x);
    if (seen[s]) r.fail(r[0], fmt::format("a second reward for state {}", s));
    seen[s] = true;
    costs.state[s] = x;
    ++count;
  }
  if (count != rows)
    r.fail_at(header_line, 0, fmt::format("the header declares {} rewards, the file has {}", rows, count));
}

void read_trew(LineReader& r, const Transitions& m, Costs& costs) {
  if (!r.next()) return;
  const std::uint32_t header_line = r.line();
  if (r.count() != (m.dtmc ? 2u : 3u))
    r.fail(r[0], m.dtmc ? "expected the header 'states rewards' of a DTMC's transition reward file"
                        : "expected the header 'states choices rewards' of an MDP's transition reward file");
  const std::uint32_t n = r.u32(0, "the number of states");
  if (n != m.n) r.fail(r[0], fmt::format("the header declares {} states, the .tra file {}", n, m.n));
  if (!m.dtmc) {
    const std::uint32_t c = r.u32(1, "the number of choices");
    if (c != m.choices()) r.fail(r[1], fmt::format("the header declares {} choices, the .tra file {}", c, m.choices()));
  }
  const std::size_t ri = r.count() - 1;
  const std::uint32_t rows = r.u32(ri, "the number of rewards");
  if (rows > m.transitions())
    r.fail(r[ri], fmt::format("the header declares {} rewards for {} transitions", rows, m.transitions()));
  std::vector<bool> seen(m.transitions(), false);
  if (m.dtmc)
    costs.trans.assign(m.transitions(), 0.0);
  else
    costs.choice.assign(m.choices(), 0.0);
  const std::size_t fields = m.dtmc ? 3 : 4;
  std::uint32_t count = 0;
  ChoiceRewards group(m, costs);
  while (r.next()) {
    if (r.count() != fields)
      r.fail(r.count() > fields ? r[fields] : r[0],
             m.dtmc ? "expected 'state target reward'" : "expected 'state choice target reward'");
    const std::uint32_t s = r.u32(0, "a state");
    const std::uint32_t c = m.dtmc ? 0 : r.u32(1, "a choice");
    const std::size_t ti = fields - 2;
    const std::uint32_t t = r.u32(ti, "a state");
    const double x = r.real(fields - 1, "a reward");
    if (s >= m.n) r.fail(r[0], fmt::format("state {} is out of range (the header declares {} states)", s, m.n));
    check_reward(r, fields - 1, x);
    std::uint32_t b = 0, e = 0;
    std::uint32_t gc = 0;
    if (m.dtmc) {
      std::tie(b, e) = m.range_of_state(s);
    } else {
      const auto [cb, ce] = m.range_of_state(s);
      if (c >= ce - cb) r.fail(r[1], fmt::format("state {} has no choice {} in the .tra file", s, c));
      gc = cb + c;
      std::tie(b, e) = m.range_of_choice(gc);
    }
    std::uint32_t k = b;
    while (k < e && m.target[k] != t) ++k;
    if (k == e)
      r.fail(r[ti], m.dtmc
                        ? fmt::format("state {} has no transition to state {} in the .tra file", s, t)
                        : fmt::format("choice {} of state {} has no transition to state {} in the .tra file", c, s, t));
    if (seen[k]) r.fail(r[0], fmt::format("a second reward for the transition from state {} to {}", s, t));
    seen[k] = true;
    ++count;
    if (m.dtmc) {
      costs.trans[k] = x;
      continue;
    }
    group.add(gc, k, x);
  }
  group.close();
  if (count != rows)
    r.fail_at(header_line, 0, fmt::format("the header declares {} rewards, the file has {}", rows, count));
}

struct Labels {
  std::vector<std::uint8_t> goal;
  std::uint32_t initial = 0;
  // Every label (filled when asked for: PrismLabels).
  std::vector<std::string> names;
  std::vector<std::int64_t> index;  // the index each name was declared with
  std::vector<std::vector<VertexId>> states;
  std::vector<VertexId> initial_states;
};

Labels read_lab(LineReader& r, std::uint32_t n, const PrismImportOptions& o, bool all = false) {
  if (!r.next())
    r.fail_at(r.line() == 0 ? 1 : r.line(), 0, "the file is empty; expected label declarations like 0=\"init\"");
  std::int64_t goal_index = -1, init_index = -1;
  std::string names;
  Labels l;
  for (std::size_t i = 0; i < r.count(); ++i) {
    const std::string_view d = r[i].text;
    const auto eq = d.find('=');
    if (eq == std::string_view::npos || d.size() < eq + 3 || d[eq + 1] != '"' || d.back() != '"')
      r.fail(r[i], fmt::format("expected label declarations like 0=\"init\", got '{}'", d));
    std::uint32_t idx = 0;
    auto [p, ec] = std::from_chars(d.data(), d.data() + eq, idx);
    if (ec != std::errc() || p != d.data() + eq)
      r.fail(r[i], fmt::format("expected a label index before '=', got '{}'", d));
    const std::string_view name = d.substr(eq + 2, d.size() - eq - 3);
    if (!o.goal_label.empty() && name == o.goal_label) goal_index = idx;
    if (name == o.init_label) init_index = idx;
    names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", name);
    if (all) {
      l.names.emplace_back(name);
      l.index.push_back(idx);
    }
  }
  if (goal_index < 0 && !o.goal_label.empty())
    throw UsageError("goal_label",
                     fmt::format("{} declares no label \"{}\" (its labels: {})", r.file(), o.goal_label, names));
  l.goal.assign(n, 0);
  l.states.resize(l.names.size());
  std::int64_t initial = -1;
  while (r.next()) {
    std::string_view head = r[0].text;
    const auto colon = head.find(':');
    if (colon == std::string_view::npos || colon == 0) r.fail(r[0], "expected 'state: label indices'");
    std::uint32_t s = 0;
    auto [p, ec] = std::from_chars(head.data(), head.data() + colon, s);
    if (ec != std::errc() || p != head.data() + colon)
      r.fail(r[0], fmt::format("expected a state number before ':', got '{}'", head));
    if (s >= n) r.fail(r[0], fmt::format("state {} is out of range (the .tra file declares {} states)", s, n));
    auto label = [&](std::string_view text, std::uint32_t column) {
      std::uint32_t idx = 0;
      auto [q, e2] = std::from_chars(text.data(), text.data() + text.size(), idx);
      if (e2 != std::errc() || q != text.data() + text.size())
        r.fail(column, fmt::format("expected a label index (a non-negative integer), got '{}'", text));
      if (idx == goal_index) l.goal[s] = 1;
      for (std::size_t k = 0; k < l.index.size(); ++k)
        if (l.index[k] == idx && (l.states[k].empty() || l.states[k].back() != VertexId{s}))
          l.states[k].push_back(VertexId{s});
      if (idx == init_index) {
        if (o.several_initial) {
          if (initial < 0) initial = s;
          if (l.initial_states.empty() || l.initial_states.back() != VertexId{s})
            l.initial_states.push_back(VertexId{s});
          return;
        }
        if (initial >= 0 && initial != s)
          r.fail(column, fmt::format("states {} and {} are both labelled \"{}\"; playtest needs one initial state",
                                     initial, s, o.init_label));
        initial = s;
      }
    };
    if (colon + 1 < head.size()) label(head.substr(colon + 1), r[0].column + static_cast<std::uint32_t>(colon) + 1);
    for (std::size_t i = 1; i < r.count(); ++i) label(r[i].text, r[i].column);
  }
  l.initial = initial < 0 ? 0 : static_cast<std::uint32_t>(initial);
  if (l.initial_states.empty()) l.initial_states.push_back(VertexId{l.initial});
  return l;
}

// Appends the decimal digits of x to the end of buf (which has room for 10), returns the start.
char* digits(char* end, std::uint32_t x) {
  do *--end = static_cast<char>('0' + x % 10);
  while ((x /= 10) != 0);
  return end;
}

TestGraph build_graph(Transitions& m, Costs& costs, const Labels& labels, const std::string& tra_name) {
  const std::uint32_t n = m.n;
  const std::uint32_t nc = m.choices();
  const std::uint32_t nt = m.transitions();
  auto state_cost = [&](std::uint32_t s) { return costs.state.empty() ? 0.0 : costs.state[s]; };
  GraphBuilder b;
  // Names are the state numbers and "state.choice": distinct by construction.
  b.names_are_distinct();
  char buf[32];
  char* const end = buf + sizeof buf;
  auto name_of = [&](char* p) { return std::string_view(p, static_cast<std::size_t>(end - p)); };
  if (m.dtmc) {
    b.reserve(n, nt);
    for (std::uint32_t s = 0; s < n; ++s) {
      const auto [tb, te] = m.range_of_state(s);
      b.add_unique_vertex(name_of(digits(end, s)), tb < te ? VertexKind::passive : VertexKind::active,
                          labels.goal[s] != 0);
    }
    b.set_initial(VertexId{labels.initial});
    for (std::uint32_t s = 0; s < n; ++s) {
      const auto [tb, te] = m.range_of_state(s);
      for (std::uint32_t k = tb; k < te; ++k)
        b.add_edge({.from = VertexId{s},
                    .to = VertexId{m.target[k]},
                    .label = m.action[k] != 0 ? m.actions.name(m.action[k]) : std::string_view("?"),
                    .cost = (costs.trans.empty() ? 0.0 : costs.trans[k]) + state_cost(s),
                    .weight = m.prob[k]});
    }
  } else {
    b.reserve(std::size_t{n} + nc, std::size_t{nc} + nt);
    for (std::uint32_t s = 0; s < n; ++s)
      b.add_unique_vertex(name_of(digits(end, s)), VertexKind::active, labels.goal[s] != 0);
    for (std::uint32_t s = 0; s < n; ++s) {
      const auto [cb, ce] = m.range_of_state(s);
      for (std::uint32_t gc = cb; gc < ce; ++gc) {
        char* p = digits(end, gc - cb);
        *--p = '.';
        b.add_unique_vertex(name_of(digits(p, s)), VertexKind::passive);
      }
    }
    b.set_initial(VertexId{labels.initial});
    for (std::uint32_t s = 0; s < n; ++s) {
      const auto [cb, ce] = m.range_of_state(s);
      for (std::uint32_t gc = cb; gc < ce; ++gc) {
        std::string_view label;
        if (m.action[gc] != 0) {
          label = m.actions.name(m.action[gc]);
        } else {
          char* p = digits(end, gc - cb);
          *--p = 'c';
          label = name_of(p);
        }
        b.add_edge({.from = VertexId{s},
                    .to = VertexId{n + gc},
                    .label = label,
                    .cost = (costs.choice.empty() ? 0.0 : costs.choice[gc]) + state_cost(s)});
      }
    }
    for (std::uint32_t gc = 0; gc < nc; ++gc) {
      const auto [tb, te] = m.range_of_choice(gc);
      for (std::uint32_t k = tb; k < te; ++k)
        b.add_edge(
            {.from = VertexId{n + gc}, .to = VertexId{m.target[k]}, .label = "?", .cost = 0, .weight = m.prob[k]});
    }
  }
  // The builder has everything: free the model before build() allocates the graph.
  m = Transitions{};
  costs = Costs{};
  BuildOptions bo;
  bo.locate = [&](ElementRef) { return SourceLocation{tra_name, 0, 0, ""}; };
  bo.probability_tolerance = probability_tolerance;
  return b.build(bo);
}

// Reads the fields of a plain row in place: unsigned numbers of at most 9 digits, then (for the
// last numeric field) a double, then at most one more token. Blanks are ' ', '\t' and '\r'.
class RowScan {
 public:
  explicit RowScan(std::string_view line) : p_(line.data()), end_(line.data() + line.size()) {}
  bool at_end() {
    skip();
    return p_ == end_;
  }
  bool comment() {
    skip();
    return p_ != end_ && *p_ == '#';
  }
  bool uint(std::uint32_t& out) {
    skip();
    std::uint32_t v = 0;
    const char* start = p_;
    while (p_ != end_ && static_cast<unsigned char>(*p_ - '0') < 10)
      v = v * 10 + static_cast<std::uint32_t>(*p_++ - '0');
    out = v;
    return p_ != start && p_ - start <= 9 && (p_ == end_ || blank(*p_));
  }
  bool real(double& out) {
    skip();
    const char* start = p_;
    while (p_ != end_ && !blank(*p_)) ++p_;
    auto [q, ec] = std::from_chars(start, p_, out);
    return start != p_ && ec == std::errc() && q == p_;
  }
  bool token(std::string_view& out) {
    skip();
    const char* start = p_;
    while (p_ != end_ && !blank(*p_)) ++p_;
    out = std::string_view(start, static_cast<std::size_t>(p_ - start));
    return start != p_;
  }

 private:
  static bool blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
  void skip() {
    while (p_ != end_ && blank(*p_)) ++p_;
  }
  const char* p_;
  const char* end_;
};

// A fast path for a large MDP's .tra file: two threads tokenize the two halves of the file (rows
// "state choice target probability [action]", no locations), then one pass makes the Transitions
// as read_tra does, action ids in the same order. It gives up on anything read_tra would refuse or
// that it does not expect (a DTMC, comments between rows, numbers of 10 digits), and read_tra then
// reads the file and reports the error with its location.
struct TraChunk {
  bool ok = true;
  bool header = false;
  std::uint32_t hdr[3] = {0, 0, 0};
  std::vector<std::uint32_t> s, c, t, a;  // a: 1 + the chunk's action id, 0 for none
  std::vector<double> p;
  std::vector<std::string> names;  // the chunk's action names
};

// Calls f(line) for the lines starting in [begin, end) of the file (begin at a line start).
template <class F>
bool for_lines(const std::string& path, std::uint64_t begin, std::uint64_t end, F f) {
  std::FILE* fp = std::fopen(path.c_str(), "rb");
  if (fp == nullptr) return false;
  struct Close {
    std::FILE* fp;
    ~Close() { std::fclose(fp); }
  } close{fp};
  if (::fseeko(fp, static_cast<off_t>(begin), SEEK_SET) != 0) return false;
  std::vector<char> buf(block_size);
  std::size_t have = 0;
  std::uint64_t pos = begin;  // file offset of buf[0]
  bool eof = false;
  while (pos < end) {
    if (!eof) {
      const std::size_t got = std::fread(buf.data() + have, 1, buf.size() - have, fp);
      if (got < buf.size() - have) eof = true;
      have += got;
    }
    std::size_t i = 0;
    for (;;) {
      if (pos + i >= end) return true;
      const void* nl = std::memchr(buf.data() + i, '\n', have - i);
      if (nl == nullptr) break;
      const std::size_t j = static_cast<std::size_t>(static_cast<const char*>(nl) - buf.data());
      if (!f(std::string_view(buf.data() + i, j - i))) return false;
      i = j + 1;
    }
    if (eof) {
      if (i < have && pos + i < end && !f(std::string_view(buf.data() + i, have - i))) return false;
      return true;
    }
    if (i == 0) return false;  // a line longer than the buffer: read_tra reports it
    std::memmove(buf.data(), buf.data() + i, have - i);
    have -= i;
    pos += i;
  }
  return true;
}

void tokenize_tra(const std::string& path, std::uint64_t begin, std::uint64_t end, bool first, TraChunk& out) {
  out.ok = for_lines(path, begin, end, [&](std::string_view line) {
    RowScan r(line);
    if (r.at_end()) return true;
    if (r.comment()) return !out.header && first;  // comments only before the header
    if (first && !out.header) {
      out.header = true;
      return r.uint(out.hdr[0]) && r.uint(out.hdr[1]) && r.uint(out.hdr[2]) && r.at_end();
    }
    std::uint32_t s = 0, c = 0, t = 0, a = 0;
    double p = 0;
    if (!r.uint(s) || !r.uint(c) || !r.uint(t) || !r.real(p)) return false;
    std::string_view label;
    if (r.token(label)) {
      if (!r.at_end()) return false;
      for (std::size_t k = out.names.size(); k-- > 0 && a == 0;)
        if (out.names[k] == label) a = static_cast<std::uint32_t>(k) + 1;
      if (a == 0) {
        out.names.emplace_back(label);
        a = static_cast<std::uint32_t>(out.names.size());
      }
    }
    out.s.push_back(s);
    out.c.push_back(c);
    out.t.push_back(t);
    out.p.push_back(p);
    out.a.push_back(a);
    return true;
  });
  if (first && !out.header) out.ok = false;
}

// The offset of the first line that starts at or after `at`.
std::uint64_t line_start_after(const std::string& path, std::uint64_t at) {
  std::uint64_t found = 0;
  bool done = false;
  for_lines(path, at - 1, ~std::uint64_t{0}, [&](std::string_view line) {
    found = at - 1 + line.size() + 1;  // the line through the byte before `at` ends here
    done = true;
    return false;
  });
  return done ? found : at;
}

bool fast_read_tra(const std::string& path, std::uint64_t size, Transitions& m) {
  const std::uint64_t mid = line_start_after(path, size / 2);
  TraChunk a, b;
  {
    std::thread second([&] { tokenize_tra(path, mid, size, false, b); });
    tokenize_tra(path, 0, mid, true, a);
    second.join();
  }
  if (!a.ok || !b.ok) return false;
  const std::uint32_t n = a.hdr[0], nchoices = a.hdr[1], ntrans = a.hdr[2];
  if (n == 0 || ntrans > size / 8 || nchoices > ntrans || n > 2 * std::uint64_t{ntrans} + 1 ||
      std::uint64_t{n} + nchoices >= 0xffffffffu || std::uint64_t{nchoices} + ntrans >= 0xffffffffu)
    return false;
  if (a.s.size() + b.s.size() != ntrans) return false;
  m = Transitions{};
  m.n = n;
  m.first.assign(std::size_t{n} + 1, 0);
  m.target.reserve(ntrans);
  m.prob.reserve(ntrans);
  m.trans_off.reserve(std::size_t{nchoices} + 1);
  m.action.reserve(nchoices);
  std::uint32_t cur_s = 0, cur_c = 0;
  bool any = false;
  double sum = 0;
  for (TraChunk* ch : {&a, &b}) {
    std::vector<std::uint32_t> global(ch->names.size(), 0xffffffffu);
    const std::size_t rows = ch->s.size();
    for (std::size_t i = 0; i < rows; ++i) {
      const std::uint32_t s = ch->s[i], c = ch->c[i], t = ch->t[i], la = ch->a[i];
      const double p = ch->p[i];
      if (s >= n || t >= n || !(p > 0 && p <= 1)) return false;
      if (!any || s != cur_s || c != cur_c) {
        const bool next_choice = any && s == cur_s && c == cur_c + 1;
        const bool first_of_state = (!any || s > cur_s) && c == 0;
        if (!next_choice && !first_of_state) return false;
        if (any && std::abs(sum - 1.0) > probability_tolerance) return false;
        if (m.trans_off.size() == nchoices) return false;
        for (std::uint32_t x = any ? cur_s + 1 : 0; x <= s; ++x)
          m.first[x] = static_cast<std::uint32_t>(m.trans_off.size());
        m.trans_off.push_back(m.transitions());
        std::uint32_t id = 0;
        if (la != 0) {
          if (global[la - 1] == 0xffffffffu) global[la - 1] = m.actions.id(ch->names[la - 1]);
          id = global[la - 1];
        }
        m.action.push_back(id);
        cur_s = s;
        cur_c = c;
        sum = 0;
        any = true;
      } else if (la != 0 && m.actions.name(m.action.back()) != ch->names[la - 1]) {
        return false;
      }
      m.target.push_back(t);
      m.prob.push_back(p);
      sum += p;
    }
    *ch = TraChunk{};
  }
  if (any && std::abs(sum - 1.0) > probability_tolerance) return false;
  for (std::uint32_t x = any ? cur_s + 1 : 0; x <= n; ++x) m.first[x] = static_cast<std::uint32_t>(m.trans_off.size());
  m.trans_off.push_back(m.transitions());
  return m.choices() == nchoices && m.transitions() == ntrans;
}

// A fast path for an MDP's .trew file, read on a second thread while the .tra file is read: rows
// "state choice target reward" tokenized without locations, then checked against the model and
// turned into costs as read_trew does. Anything it does not expect (a malformed or out-of-range
// row, a count that does not match) makes it give up; read_trew then reads the file again and
// reports the error with its location, so the fast path never decides an error on its own.
struct TrewRows {
  bool ok = false;
  std::uint32_t states = 0, choices = 0, declared = 0;
  std::vector<std::uint32_t> s, c, t;
  std::vector<double> x;
};

TrewRows tokenize_trew(const std::string& path) {
  TrewRows rows;
  try {
    LineReader r(path);
    std::string_view line;
    bool header = false;
    while (r.next_raw(line)) {
      RowScan q(line);
      if (q.at_end() || q.comment()) continue;
      if (!header) {
        if (!q.uint(rows.states) || !q.uint(rows.choices) || !q.uint(rows.declared) || !q.at_end()) return rows;
        header = true;
        rows.s.reserve(rows.declared);
        rows.c.reserve(rows.declared);
        rows.t.reserve(rows.declared);
        rows.x.reserve(rows.declared);
        continue;
      }
      std::uint32_t a = 0, b = 0, c = 0;
      double x = 0;
      if (!q.uint(a) || !q.uint(b) || !q.uint(c) || !q.real(x) || !q.at_end() || !std::isfinite(x) || x < 0)
        return rows;
      if (rows.s.size() == rows.declared) return rows;
      rows.s.push_back(a);
      rows.c.push_back(b);
      rows.t.push_back(c);
      rows.x.push_back(x);
    }
    rows.ok = header && rows.s.size() == rows.declared;
  } catch (const std::exception&) {
    rows.ok = false;
  }
  return rows;
}

// read_trew's checks and costs for the tokenized rows of an MDP; false where read_trew would fail.
bool apply_trew(const TrewRows& rows, const Transitions& m, Costs& costs) {
  if (!rows.ok || m.dtmc || rows.states != m.n || rows.choices != m.choices() || rows.declared > m.transitions())
    return false;
  std::vector<bool> seen(m.transitions(), false);
  costs.choice.assign(m.choices(), 0.0);
  ChoiceRewards group(m, costs);
  for (std::size_t i = 0; i < rows.s.size(); ++i) {
    const std::uint32_t s = rows.s[i], c = rows.c[i], t = rows.t[i];
    const double x = rows.x[i];
    if (s >= m.n) return false;
    const auto [cb, ce] = m.range_of_state(s);
    if (c >= ce - cb) return false;
    const std::uint32_t gc = cb + c;
    const auto [b, e] = m.range_of_choice(gc);
    std::uint32_t k = b;
    while (k < e && m.target[k] != t) ++k;
    if (k == e || seen[k]) return false;
    seen[k] = true;
    group.add(gc, k, x);
  }
  group.close();
  return true;
}

}  // namespace

TestGraph parse_prism(const PrismText& text, const std::string& base, const PrismImportOptions& o) {
  LineReader tra(text.tra, base + ".tra");
  Transitions m = read_tra(tra);
  Costs costs;
  if (!text.srew.empty()) {
    LineReader r(text.srew, base + ".srew");
    read_srew(r, m, costs);
  }
  if (!text.trew.empty()) {
    LineReader r(text.trew, base + ".trew");
    read_trew(r, m, costs);
  }
  LineReader lab(text.lab, base + ".lab");
  const Labels labels = read_lab(lab, m.n, o);
  return build_graph(m, costs, labels, base + ".tra");
}

TestGraph parse_prism(std::string_view tra, std::string_view lab, std::string_view trew, const std::string& base,
                      const PrismImportOptions& options) {
  return parse_prism(PrismText{.tra = tra, .lab = lab, .srew = {}, .trew = trew}, base, options);
}

namespace {

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISDIR(st.st_mode);
}

// One reward structure of an export: its files ("" when absent), number and name.
struct RewardFiles {
  std::string srew, trew;
  std::uint32_t number = 0;  // 1-based; 0 for the files without a number (BASE.srew, BASE.trew)
  std::string name;
};

std::string header_name(const std::string& path) {
  if (path.empty()) return {};
  LineReader r(path);
  r.next();
  return reward_name(r.comments());
}

std::vector<RewardFiles> find_reward_files(const std::string& base) {
  std::vector<RewardFiles> found;
  auto probe = [&](const std::string& stem, std::uint32_t number) {
    // BASE1.trew next to BASE1.tra belongs to the model BASE1, not to BASE.
    if (number > 0 && file_exists(stem + ".tra")) return false;
    RewardFiles f;
    f.number = number;
    if (file_exists(stem + ".srew")) f.srew = stem + ".srew";
    if (file_exists(stem + ".trew")) f.trew = stem + ".trew";
    if (f.srew.empty() && f.trew.empty()) return false;
    f.name = header_name(f.srew.empty() ? f.trew : f.srew);
    if (!f.srew.empty() && !f.trew.empty()) {
      const std::string other = header_name(f.trew);
      if (f.name.empty()) f.name = other;
      if (!other.empty() && other != f.name)
        throw ParseError(
            Diagnostic{{f.trew, 0, 0, ""},
                       fmt::format("names reward structure \"{}\", but {} names \"{}\"", other, f.srew, f.name),
                       {}});
    }
    found.push_back(std::move(f));
    return true;
  };
  const bool plain = probe(base, 0);
  for (std::uint32_t i = 1; probe(base + std::to_string(i), i); ++i) {
  }
  if (plain && found.size() > 1)
    throw ParseError(Diagnostic{{base + (found[0].srew.empty() ? ".trew" : ".srew"), 0, 0, ""},
                                fmt::format("both {} and numbered reward files ({}1.*) exist; remove the stale ones",
                                            found[0].srew.empty() ? found[0].trew : found[0].srew, base),
                                {}});
  return found;
}

std::string describe(const std::vector<RewardFiles>& all) {
  std::string s;
  for (const auto& f : all)
    s += fmt::format("{}{}{}", s.empty() ? "" : ", ", f.number, f.name.empty() ? "" : fmt::format(" \"{}\"", f.name));
  return s;
}

const RewardFiles* choose_reward(const std::vector<RewardFiles>& all, const std::string& base,
                                 const std::string& want) {
  if (want.empty()) {
    if (all.size() <= 1) return all.empty() ? nullptr : &all[0];
    throw UsageError("reward", fmt::format("{} has {} reward structures ({}); choose one by number or name", base,
                                           all.size(), describe(all)));
  }
  if (all.empty())
    throw UsageError("reward",
                     fmt::format("{} has no reward files ({}.srew, {}.trew, {}1.srew, ...)", base, base, base, base));
  std::uint32_t number = 0;
  auto [p, ec] = std::from_chars(want.data(), want.data() + want.size(), number);
  const bool numeric = ec == std::errc() && p == want.data() + want.size();
  for (const auto& f : all) {
    if (f.name == want) return &f;
    if (numeric && (f.number == number || (f.number == 0 && number == 1))) return &f;
  }
  throw UsageError("reward", fmt::format("{} has no reward structure '{}' (it has: {})", base, want, describe(all)));
}

}  // namespace

namespace {
TestGraph load_prism_with(const std::string& base, const PrismImportOptions& o, PrismLabels& out, bool all_labels);
}

TestGraph load_prism(const std::string& base, const PrismImportOptions& o) {
  PrismLabels ignored;
  return load_prism_with(base, o, ignored, false);
}

TestGraph load_prism(const std::string& base, const PrismImportOptions& o, PrismLabels& out) {
  return load_prism_with(base, o, out, true);
}

namespace {

TestGraph load_prism_with(const std::string& base, const PrismImportOptions& o, PrismLabels& out, bool all_labels) {
  const std::vector<RewardFiles> rewards = o.no_rewards ? std::vector<RewardFiles>{} : find_reward_files(base);
  const RewardFiles* chosen = o.no_rewards ? nullptr : choose_reward(rewards, base, o.reward);
  // The transition rewards are tokenized on a second thread while the .tra file is read (only
  // worth it for large files; an error is always found and reported by read_trew below).
  const std::string trew = chosen != nullptr ? chosen->trew : std::string();
  TrewRows rows;
  std::thread tokenizer;
  struct stat st {};
  if (!trew.empty() && ::stat(trew.c_str(), &st) == 0 && st.st_size >= (std::int64_t{1} << 20))
    tokenizer = std::thread([&] { rows = tokenize_trew(trew); });
  struct Join {
    std::thread& t;
    ~Join() {
      if (t.joinable()) t.join();
    }
  } join{tokenizer};
  Transitions m;
  struct stat tra_st {};
  const std::string tra_path = base + ".tra";
  const bool large =
      ::stat(tra_path.c_str(), &tra_st) == 0 && S_ISREG(tra_st.st_mode) && tra_st.st_size >= (std::int64_t{8} << 20);
  if (!large || !fast_read_tra(tra_path, static_cast<std::uint64_t>(tra_st.st_size), m)) {
    LineReader tra(tra_path);
    m = read_tra(tra);
  }
  Costs costs;
  if (chosen != nullptr && !chosen->srew.empty()) {
    LineReader r(chosen->srew);
    read_srew(r, m, costs);
  }
  if (!trew.empty()) {
    if (tokenizer.joinable()) tokenizer.join();
    Costs fast = costs;
    if (apply_trew(rows, m, fast)) {
      costs = std::move(fast);
    } else {
      LineReader r(trew);
      read_trew(r, m, costs);
    }
    rows = TrewRows{};
  }
  LineReader lab(base + ".lab");
  Labels labels = read_lab(lab, m.n, o, all_labels);
  out.dtmc = m.dtmc;
  out.names = std::move(labels.names);
  out.vertices = std::move(labels.states);
  out.initial = labels.initial_states;
  out.state_reward = costs.state;
  return build_graph(m, costs, labels, base + ".tra");
}

}  // namespace

}  // namespace playtest
