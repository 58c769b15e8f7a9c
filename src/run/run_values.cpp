#include "playtest/run/run_values.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "playtest/base/error.hpp"

namespace playtest {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The end of the quoted string that starts at text[i] (one past its closing quote), or npos.
std::size_t quoted_end(std::string_view text, std::size_t i) {
  for (std::size_t k = i + 1; k < text.size(); ++k) {
    if (text[k] == '\\')
      ++k;
    else if (text[k] == '"')
      return k + 1;
  }
  return std::string_view::npos;
}

// A slot written NAME#K at text[i] (NAME an identifier, K digits): the name, K, and the end.
struct SlotRef {
  std::string_view name;
  std::uint32_t slot;
  std::size_t end;
};
std::optional<SlotRef> slot_at(std::string_view text, std::size_t i) {
  std::size_t k = i;
  while (k < text.size() && ident_char(text[k])) ++k;
  if (k >= text.size() || text[k] != '#') return std::nullopt;
  std::size_t d = k + 1;
  std::uint64_t n = 0;
  while (d < text.size() && text[d] >= '0' && text[d] <= '9' && n < 64)
    n = n * 10 + static_cast<std::uint64_t>(text[d++] - '0');
  if (d == k + 1) return std::nullopt;
  return SlotRef{text.substr(i, k - i), static_cast<std::uint32_t>(n), d};
}

std::string describe(const ConcreteValue& v) { return v.label(); }

}  // namespace

RunValues::RunValues(const ModelValues& values) : mv_(values) { clear(); }

void RunValues::clear() {
  bound_.clear();
  for (const SlotType& t : mv_.slot_types()) bound_.emplace_back(t.count);
}

const ConcreteValue* RunValues::value(std::uint32_t type, std::uint32_t slot) const {
  if (type >= bound_.size() || slot >= bound_[type].size() || !bound_[type][slot]) return nullptr;
  return &*bound_[type][slot];
}

std::optional<std::uint32_t> RunValues::slot_type(std::string_view name) const {
  const auto types = mv_.slot_types();
  for (std::uint32_t t = 0; t < types.size(); ++t)
    if (types[t].name == name) return t;
  return std::nullopt;
}

bool RunValues::match_argument(std::string_view sym, std::string_view conc, Attempt& out) const {
  std::size_t i = 0, j = 0;
  while (i < sym.size()) {
    const char c = sym[i];
    if (c == '"') {  // a string of the model: verbatim
      const std::size_t end = quoted_end(sym, i);
      if (end == std::string_view::npos) return false;
      if (conc.substr(j, end - i) != sym.substr(i, end - i)) return false;
      j += end - i;
      i = end;
      continue;
    }
    if (ident_start(c) && (i == 0 || !ident_char(sym[i - 1]))) {
      if (const auto ref = slot_at(sym, i)) {
        if (const auto t = slot_type(ref->name)) {
          const auto v = read_concrete(conc.substr(j));
          if (!v) return false;  // no integer or string where the slot stands
          out.slots.push_back(SlotUse{*t, ref->slot, v->first});
          i = ref->end;
          j += v->second;
          continue;
        }
      }
    }
    if (j >= conc.size() || conc[j] != c) return false;
    ++i;
    ++j;
  }
  return j == conc.size();
}

RunValues::Attempt RunValues::attempt(std::span<const std::byte> state, std::span<const std::uint64_t> live,
                                      std::string_view candidate, std::string_view observed) const {
  Attempt a;
  const std::string_view name = label_action(candidate);
  if (label_action(observed) != name || candidate.starts_with('?') != observed.starts_with('?')) return a;
  const auto sym = label_arguments(candidate);
  const auto conc = label_arguments(observed);
  if (!sym || !conc || sym->size() != conc->size()) return a;
  if ((candidate.find('(') == std::string_view::npos) != (observed.find('(') == std::string_view::npos)) return a;
  const ActionShape* shape = mv_.action(name);
  const auto types = mv_.slot_types();
  for (std::size_t i = 0; i < sym->size(); ++i) {
    const ParamKind kind = shape && i < shape->params.size() ? shape->params[i] : ParamKind::fixed;
    const std::string_view arg = (*conc)[i];
    if (kind == ParamKind::fixed) {
      if (!match_argument((*sym)[i], arg, a)) return a;
      continue;
    }
    const auto v = read_concrete(arg);
    const bool want_string = kind == ParamKind::free_string;
    if (!v || v->second != arg.size() || v->first.is_string != want_string) {
      a.broken = fmt::format("'{}' is not {} (parameter {} of {} is a free value of type {})", arg,
                             want_string ? "a string in double quotes" : "an integer", i + 1, name,
                             want_string ? "string" : "int");
      return a;
    }
    a.free.push_back(v->first);
  }
  // Slot values: of the slot type's kind (a type failure is named), then the run-time guards (with
  // the values this output gives: a broken guard is named), then the bindings: the same slot the
  // same value within the label, a slot in use its bound value, a new one a value no slot in use has.
  for (const SlotUse& s : a.slots) {
    const SlotType& st = types[s.type];
    if (s.slot >= st.count) return a;
    if (s.value.is_string != st.is_string) {
      a.broken = fmt::format("{} is not {}, as the values of {} are", describe(s.value),
                             st.is_string ? "a string" : "an integer", st.name);
      return a;
    }
    if (st.range && (s.value.number < st.range->first || s.value.number > st.range->second)) {
      a.broken = fmt::format("{} is out of the range {}..{} of the values of {}", describe(s.value), st.range->first,
                             st.range->second, st.name);
      return a;
    }
  }
  if (shape && shape->runtime_guards) {
    auto lookup = [&](std::uint32_t type, std::uint32_t slot) -> const ConcreteValue* {
      for (const SlotUse& s : a.slots)
        if (s.type == type && s.slot == slot) return &s.value;
      return value(type, slot);
    };
    if (const auto g = mv_.check_guards(state, candidate, a.free, lookup)) {
      a.broken = fmt::format("the guard '{}' ({}) of {} does not hold", g->guard, g->where, name);
      return a;
    }
  }
  for (std::size_t u = 0; u < a.slots.size(); ++u) {
    const SlotUse& s = a.slots[u];
    const SlotType& st = types[s.type];
    for (std::size_t w = 0; w < u; ++w) {
      const SlotUse& o = a.slots[w];
      if (o.type == s.type && (o.slot == s.slot) != (o.value == s.value)) return a;
    }
    const bool in_use = (live[s.type] >> s.slot) & 1;
    const auto& bound = bound_[s.type][s.slot];
    if (in_use) {
      if (bound && !(*bound == s.value)) {
        a.rebound = fmt::format("{} is not {}#{}, which the system gave the value {}", describe(s.value), st.name,
                                s.slot, describe(*bound));
        return a;
      }
    } else {
      for (std::uint32_t k = 0; k < st.count; ++k)
        if (k != s.slot && ((live[s.type] >> k) & 1) && bound_[s.type][k] && *bound_[s.type][k] == s.value) {
          a.rebound =
              fmt::format("{} is the value of {}#{}, still in use, not a new one", describe(s.value), st.name, k);
          return a;
        }
    }
  }
  a.matched = true;
  return a;
}

RunValues::OutputMatch RunValues::match_output(std::span<const std::byte> state,
                                               std::span<const std::string_view> candidates,
                                               std::string_view observed) {
  std::vector<std::uint64_t> live(bound_.size(), 0);
  mv_.live_slots(state, live);
  OutputMatch m;
  std::string rebound;  // the first candidate that differed only in a slot's value: why
  std::optional<Attempt> best;
  std::vector<std::uint32_t> best_new;
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    Attempt a = attempt(state, live, candidates[c], observed);
    if (!a.matched) {
      if (m.broken.empty() && !a.broken.empty()) m.broken = std::move(a.broken);
      if (rebound.empty() && !a.rebound.empty()) rebound = std::move(a.rebound);
      continue;
    }
    // The slots this output would bind anew; the lowest first ("the first id seen is slot 0").
    std::vector<std::uint32_t> fresh;
    for (const SlotUse& s : a.slots)
      if (!((live[s.type] >> s.slot) & 1) || !bound_[s.type][s.slot]) fresh.push_back(s.slot);
    std::sort(fresh.begin(), fresh.end());
    if (!best || fresh < best_new) {
      best = std::move(a);
      best_new = std::move(fresh);
      m.candidate = c;
    }
  }
  if (best) {
    m.broken.clear();
    for (const SlotUse& s : best->slots) bound_[s.type][s.slot] = s.value;
  } else if (m.broken.empty()) {
    m.broken = std::move(rebound);
  }
  return m;
}

std::string RunValues::concrete(std::string_view label) const {
  std::string out;
  out.reserve(label.size());
  std::size_t i = 0;
  while (i < label.size()) {
    const char c = label[i];
    if (c == '"') {
      const std::size_t end = quoted_end(label, i);
      const std::size_t stop = end == std::string_view::npos ? label.size() : end;
      out.append(label.substr(i, stop - i));
      i = stop;
      continue;
    }
    if (ident_start(c) && (i == 0 || !ident_char(label[i - 1]))) {
      if (const auto ref = slot_at(label, i)) {
        if (const auto t = slot_type(ref->name)) {
          const ConcreteValue* v = value(*t, ref->slot);
          if (!v)
            throw ModelError(
                fmt::format("the stimulus '{}' uses {}#{}, but no output of the system has given that slot a value yet",
                            label, ref->name, ref->slot));
          out += v->label();
          i = ref->end;
          continue;
        }
      }
    }
    out += c;
    ++i;
  }
  return out;
}

}  // namespace playtest
