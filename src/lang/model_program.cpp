// A checked model program as a playtest::Model: state encoding, successor generation by
// interpretation, labels and state texts.
#include "playtest/lang/model_program.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <mutex>
#include <sstream>
#include <unordered_map>

#include "lang/detail/checker.hpp"
#include "lang/detail/program_model.hpp"
#include "lang/detail/runtime.hpp"
#include "playtest/base/error.hpp"
#include "playtest/base/source_text.hpp"
#include "playtest/explore/model_values.hpp"

namespace playtest {

namespace lang {
namespace {

// One scalar word of the state and how it is stored: (value - lo) in `bytes` little-endian bytes,
// or, for strings, the string's ordinal in its type.
struct Leaf {
  std::uint32_t word;
  std::int64_t lo;
  std::uint8_t bytes;
  const Type* str = nullptr;
};

std::uint8_t bytes_for(std::uint64_t max_value) {
  if (max_value == 0) return 0;
  if (max_value < (1u << 8)) return 1;
  if (max_value < (1u << 16)) return 2;
  if (max_value <= 0xffffffffu) return 4;
  return 8;
}

void leaves(const Type& t, std::uint32_t word, std::vector<Leaf>& out) {
  switch (t.k) {
    case TK::boolean:
      out.push_back({word, 0, 1});
      return;
    case TK::range:
      out.push_back({word, t.lo, bytes_for(static_cast<std::uint64_t>(t.hi) - static_cast<std::uint64_t>(t.lo))});
      return;
    case TK::enumeration:
    case TK::slot:
      out.push_back({word, 0, bytes_for(t.card - 1)});
      return;
    case TK::str:
      out.push_back({word, 0, bytes_for(t.card - 1), &t});
      return;
    case TK::tuple:
      for (auto& e : t.elems) leaves(*e, word, out), word += e->width;
      return;
    case TK::set: {
      const std::uint64_t n = t.elems[0]->card;
      out.push_back({word, 0, static_cast<std::uint8_t>(n == 0 ? 0 : n <= 8 ? 1 : n <= 16 ? 2 : n <= 32 ? 4 : 8)});
      return;
    }
    case TK::seq:
      out.push_back({word, 0, bytes_for(t.cap)});
      for (std::uint32_t i = 0; i < t.cap; ++i) leaves(*t.elems[0], word + 1 + i * t.elems[0]->width, out);
      return;
    case TK::map: {
      const std::uint64_t n = t.elems[0]->card;
      out.push_back({word, 0, static_cast<std::uint8_t>(n <= 8 ? 1 : n <= 16 ? 2 : n <= 32 ? 4 : 8)});
      for (std::uint64_t i = 0; i < n; ++i)
        leaves(*t.elems[1], word + 1 + static_cast<std::uint32_t>(i) * t.elems[1]->width, out);
      return;
    }
    default:
      out.push_back({word, 0, 8});
      return;
  }
}

bool holds_slots(const Type& t) {
  if (t.k == TK::slot) return true;
  for (auto& e : t.elems)
    if (e && holds_slots(*e)) return true;
  return false;
}

// Adds to live[t] the slots of slot type t that the value v (of type t) holds.
void collect_slots(const Type& t, const Word* v, std::span<std::uint64_t> live) {
  switch (t.k) {
    case TK::slot:
      if (v[0] >= 0 && v[0] < 64) live[t.enum_id] |= std::uint64_t{1} << v[0];
      return;
    case TK::tuple:
      for (auto& e : t.elems) collect_slots(*e, v, live), v += e->width;
      return;
    case TK::set: {
      const Type& el = *t.elems[0];
      if (!holds_slots(el)) return;
      if (el.k == TK::slot) {
        live[el.enum_id] |= static_cast<std::uint64_t>(v[0]);
        return;
      }
      std::vector<Word> tmp(el.width);
      for (std::uint64_t i = 0; i < el.card && i < 64; ++i)
        if ((static_cast<std::uint64_t>(v[0]) >> i) & 1) {
          from_ordinal(el, i, tmp.data());
          collect_slots(el, tmp.data(), live);
        }
      return;
    }
    case TK::seq:
      if (!holds_slots(*t.elems[0])) return;
      for (Word i = 0; i < v[0]; ++i) collect_slots(*t.elems[0], v + 1 + i * t.elems[0]->width, live);
      return;
    case TK::map: {
      const Type& key = *t.elems[0];
      const Type& val = *t.elems[1];
      if (!holds_slots(key) && !holds_slots(val)) return;
      std::vector<Word> tmp(key.width);
      for (std::uint64_t i = 0; i < key.card && i < 64; ++i)
        if ((static_cast<std::uint64_t>(v[0]) >> i) & 1) {
          from_ordinal(key, i, tmp.data());
          collect_slots(key, tmp.data(), live);
          collect_slots(val, v + 1 + i * val.width, live);
        }
      return;
    }
    default:
      return;
  }
}

class ProgramModel final : public Model, public ModelValues {
 public:
  ProgramModel(Program p, std::vector<Word> initial) : p_(std::move(p)), initial_(std::move(initial)) {
    for (auto& v : p_.vars) leaves(*v.resolved, v.slot, leaves_);
    for (auto& l : leaves_) size_ += l.bytes;
    for (std::uint32_t i = 0; i < p_.trap_names.size(); ++i) trap_ids_.push_back(i);
    for (auto& e : p_.abstract_) key_words_ += e->type->width;
    for (const TypeP& t : p_.slot_types) {
      const Type& c = *t->elems[0];
      SlotType st{.name = t->alias, .count = t->cap, .is_string = c.k == TK::str_literal};
      if (c.k == TK::range) st.range = std::pair{c.lo, c.hi};
      slot_types_.push_back(std::move(st));
    }
    has_values_ = !slot_types_.empty();
    for (const Action& a : p_.actions) {
      ActionShape shape{.name = a.name, .observable = a.observable};
      for (const Param& prm : a.params) {
        shape.params.push_back(!prm.free                        ? ParamKind::fixed
                               : prm.resolved->k == TK::integer ? ParamKind::free_int
                                                                : ParamKind::free_string);
        has_values_ = has_values_ || prm.free;
      }
      for (std::uint8_t r : a.require_runtime) shape.runtime_guards = shape.runtime_guards || r;
      shapes_.push_back(std::move(shape));
    }
    labels_of_.resize(p_.actions.size());
  }

  std::string name() const override { return p_.model_name; }
  std::size_t state_size() const override { return size_; }

  void initial_state(std::span<std::byte> out) const override { encode(initial_.data(), out); }

  void successors(std::span<const std::byte> state, SuccessorSink& sink) const override {
    const Lease scratch(*this);
    const Word* cur = scratch->cur.data();
    decode(state, scratch->cur.data());
    Word* f = scratch->frame.data();
    std::memcpy(f, cur, p_.state_words * sizeof(Word));
    Interp in(p_, f);
    const Action* act = nullptr;
    std::uint64_t combo = 0;
    in.context = [&] {
      return fmt::format(" (in action {} in state {})", act ? label_of(*act, combo) : std::string("?"),
                         state_text_words(cur));
    };
    std::byte* next = scratch->next.data();
    std::uint32_t traps[64];
    for (const Action& a : p_.actions) {
      act = &a;
      for (combo = 0; combo < a.combos; ++combo) {
        bind(a, combo, f);
        bool enabled = true;
        for (std::size_t k = 0; k < a.requires_.size(); ++k)
          if (!a.require_runtime[k] && !in.scalar(*a.requires_[k])) {  // run-time guards: checked by runs
            enabled = false;
            break;
          }
        if (!enabled) continue;
        Transition t;
        t.label = a.label_base + static_cast<std::uint32_t>(combo);
        t.kind = a.observable ? ActionKind::observable : ActionKind::controllable;
        if (a.cost) {
          const Word c = in.scalar(*a.cost);
          if (c < 0) in.fail(*a.cost, fmt::format("cost {} is negative; costs must be >= 0", c));
          t.cost = static_cast<double>(c);
        }
        if (a.weight) {
          const Word w = in.scalar(*a.weight);
          if (w <= 0) in.fail(*a.weight, fmt::format("weight {} is not positive; weights must be > 0", w));
          t.weight = static_cast<double>(w);
        }
        if (a.delay) t.delay_ms = duration_ms(in, *a.delay, "delay");
        t.anytime = a.anytime && (!a.anytime_when || in.scalar(*a.anytime_when));
        std::size_t nt = 0;
        for (auto& tr : a.traps) {
          if (tr.when && !in.scalar(*tr.when)) continue;
          if (nt < 64) traps[nt++] = tr.id;
        }
        t.traps = std::span<const std::uint32_t>(traps, nt);
        in.exec(a.body);
        encode(f, std::span<std::byte>(next, size_));
        sink.add(t, std::span<const std::byte>(next, size_));
        std::memcpy(f, cur, p_.state_words * sizeof(Word));
      }
    }
  }

  bool may_have_final_states() const override { return p_.final_ != nullptr || !p_.goal_conditions.empty(); }

  bool is_final(std::span<const std::byte> state) const override {
    const Lease scratch(*this);
    Interp in = state_interp(state, scratch->frame);
    if (p_.goal_conditions.empty()) return p_.final_ && in.scalar(*p_.final_) != 0;
    // Goal conditions (--goal 'EXPR') take the place of `final`; an error in one is located in it.
    try {
      for (auto& c : p_.goal_conditions)
        if (in.scalar(*c) != 0) return true;
      return false;
    } catch (const ModelError& e) {
      Diagnostic d = e.diagnostic();
      d.where.file = p_.goal_origin;
      throw ModelError(std::move(d));
    }
  }

  std::optional<TimeoutSpec> timeout(std::span<const std::byte> state) const override {
    if (!p_.has_timeout) return TimeoutSpec{};
    const Lease scratch(*this);
    Interp in = state_interp(state, scratch->frame);
    if (p_.timeout_when && !in.scalar(*p_.timeout_when)) return std::nullopt;
    TimeoutSpec t;
    if (p_.timeout_cost) {
      const Word c = in.scalar(*p_.timeout_cost);
      if (c < 0) in.fail(*p_.timeout_cost, fmt::format("timeout cost {} is negative", c));
      t.cost = static_cast<double>(c);
    }
    if (p_.timeout_weight) {
      const Word w = in.scalar(*p_.timeout_weight);
      if (w < 0) in.fail(*p_.timeout_weight, fmt::format("timeout weight {} is negative", w));
      if (w == 0) return std::nullopt;
      t.weight = static_cast<double>(w);
    }
    return t;
  }

  std::uint32_t timeout_ms(std::span<const std::byte> state) const override {
    if (!p_.timeout_after) return 0;
    const Lease scratch(*this);
    Interp in = state_interp(state, scratch->frame);
    return duration_ms(in, *p_.timeout_after, "timeout duration");
  }

  std::string label_text(std::uint32_t label) const override {
    for (const Action& a : p_.actions)
      if (label >= a.label_base && label - a.label_base < a.combos) return label_of(a, label - a.label_base);
    return "?";
  }

  std::string state_text(std::span<const std::byte> state) const override {
    std::vector<Word> w(p_.state_words + 1);
    decode(state, w.data());
    return state_text_words(w.data());
  }

  std::uint32_t num_traps() const override { return static_cast<std::uint32_t>(p_.trap_names.size()); }
  std::string trap_name(std::uint32_t t) const override { return p_.trap_names.at(t); }
  std::optional<double> reset_cost() const override { return p_.reset_value; }

  const ModelValues* values() const override { return this; }
  std::vector<std::pair<std::string, std::string>> parameters() const override { return p_.param_values; }

  // ModelValues
  bool has_values() const override { return has_values_; }
  std::span<const SlotType> slot_types() const override { return slot_types_; }
  std::span<const ActionShape> actions() const override { return shapes_; }
  const ActionShape* action(std::string_view name) const override {
    for (const ActionShape& a : shapes_)
      if (a.name == name) return &a;
    return nullptr;
  }
  bool is_label(std::string_view label) const override {
    const bool output = label.starts_with('?');
    if (output) label.remove_prefix(1);
    const std::string_view name = label_action(label);
    for (std::size_t ai = 0; ai < p_.actions.size(); ++ai)
      if (p_.actions[ai].name == name) {
        if (p_.actions[ai].observable != output) return false;
        if (p_.actions[ai].combos > 1'000'000) return true;  // not worth a table of every label
        return combo_of(ai, label).has_value();
      }
    return false;
  }
  void live_slots(std::span<const std::byte> state, std::span<std::uint64_t> live) const override {
    std::fill(live.begin(), live.end(), 0);
    if (p_.slot_types.empty()) return;
    std::vector<Word> w(p_.state_words + 1);
    decode(state, w.data());
    for (const VarDecl& v : p_.vars) collect_slots(*v.resolved, w.data() + v.slot, live);
  }
  std::optional<GuardFailure> check_guards(
      std::span<const std::byte> state, std::string_view label, std::span<const ConcreteValue> free,
      const std::function<const ConcreteValue*(std::uint32_t type, std::uint32_t slot)>& slot_value) const override {
    if (label.starts_with('?')) label.remove_prefix(1);
    const std::string_view name = label_action(label);
    std::size_t ai = 0;
    while (ai < p_.actions.size() && p_.actions[ai].name != name) ++ai;
    if (ai == p_.actions.size()) return std::nullopt;
    const Action& a = p_.actions[ai];
    const std::optional<std::uint64_t> combo = combo_of(ai, label);
    if (!combo) return std::nullopt;
    const Lease scratch(*this);
    Word* f = scratch->frame.data();
    decode(state, f);
    bind(a, *combo, f);
    // Concrete strings: the program's own ids where the string is one of its literals (so that ==
    // compares them), fresh ids past those for the others.
    std::vector<std::string> extra;
    auto string_id = [&](const std::string& text) -> Word {
      for (std::size_t i = 0; i < p_.strings.size(); ++i)
        if (p_.strings[i] == text) return static_cast<Word>(i);
      for (std::size_t i = 0; i < extra.size(); ++i)
        if (extra[i] == text) return static_cast<Word>(p_.strings.size() + i);
      extra.push_back(text);
      return static_cast<Word>(p_.strings.size() + extra.size() - 1);
    };
    auto word_of = [&](const ConcreteValue& v) { return v.is_string ? string_id(v.text) : v.number; };
    std::size_t k = 0;
    for (const Param& prm : a.params)
      if (prm.free && k < free.size()) f[prm.slot] = word_of(free[k++]);
    Interp in(p_, f);
    in.context = [&] { return fmt::format(" (in output ?{} in state {})", label, state_text(state)); };
    in.slot_value = [&](const Type& t, Word slot, const Expr& at) -> Word {
      const ConcreteValue* v =
          slot >= 0 && slot < 64 ? slot_value(t.enum_id, static_cast<std::uint32_t>(slot)) : nullptr;
      if (!v) in.fail(at, fmt::format("value({}#{}): no output has given that slot a value yet", t.alias, slot));
      return word_of(*v);
    };
    for (std::size_t r = 0; r < a.requires_.size(); ++r)
      if (a.require_runtime[r] && !in.scalar(*a.requires_[r])) {
        const Loc loc = a.require_locs[r];
        return GuardFailure{a.require_texts[r], fmt::format("{}:{}:{}", p_.file, loc.line, loc.column)};
      }
    return std::nullopt;
  }

  std::optional<Projection> projection() const override {
    if (p_.abstract_.empty()) return std::nullopt;
    return Projection{key_words_ * sizeof(Word), [this](std::span<const std::byte> state, std::span<std::byte> key) {
                        std::vector<Word> frame(p_.frame_words + 1, 0);
                        decode(state, frame.data());
                        Interp in(p_, frame.data());
                        in.context = [&] { return " (in state " + state_text_words(frame.data()) + ")"; };
                        std::vector<Word> out(key_words_ + 1);
                        Word* o = out.data();
                        for (auto& e : p_.abstract_) {
                          in.eval(*e, o);
                          o += e->type->width;
                        }
                        std::memcpy(key.data(), out.data(), key_words_ * sizeof(Word));
                      }};
  }

 private:
  // Working memory for one evaluation. Several threads may evaluate one model at the same time
  // (simulate's threads, each exploring its own ModelGraph): each leases its own scratch from a
  // pool, so nothing mutable is shared.
  struct Scratch {
    std::vector<Word> frame, cur;
    std::vector<std::byte> next;
  };
  class Lease {
   public:
    explicit Lease(const ProgramModel& m) : m_(m) {
      {
        const std::lock_guard<std::mutex> lock(m_.pool_mutex_);
        if (!m_.pool_.empty()) {
          s_ = std::move(m_.pool_.back());
          m_.pool_.pop_back();
        }
      }
      if (!s_) {
        s_ = std::make_unique<Scratch>();
        s_->frame.assign(m_.p_.frame_words + 1, 0);
        s_->cur.assign(m_.p_.state_words + 1, 0);
        s_->next.assign(m_.size_ + 1, std::byte{0});
      }
    }
    ~Lease() {
      const std::lock_guard<std::mutex> lock(m_.pool_mutex_);
      m_.pool_.push_back(std::move(s_));
    }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Scratch* operator->() const { return s_.get(); }

   private:
    const ProgramModel& m_;
    std::unique_ptr<Scratch> s_;
  };

  // A duration in ms: a positive integer below 2^31 (graph/1's limit).
  static std::uint32_t duration_ms(Interp& in, const Expr& e, const char* what) {
    const Word ms = in.scalar(e);
    if (ms < 1 || ms > 2147483647)
      in.fail(e, fmt::format("{} {} ms is not a positive number of milliseconds below 2^31", what, ms));
    return static_cast<std::uint32_t>(ms);
  }

  Interp state_interp(std::span<const std::byte> state, std::vector<Word>& frame) const {
    decode(state, frame.data());
    Interp in(p_, frame.data());
    in.context = [this, w = frame.data()] { return " (in state " + state_text_words(w) + ")"; };
    return in;
  }

  void bind(const Action& a, std::uint64_t combo, Word* f) const {
    for (std::size_t i = a.params.size(); i-- > 0;) {
      if (a.params[i].free) continue;  // not enumerated
      const Type& t = *a.params[i].resolved;
      from_ordinal(t, combo % t.card, f + a.params[i].slot);
      combo /= t.card;
    }
  }

  std::string label_of(const Action& a, std::uint64_t combo) const {
    if (a.params.empty()) return a.name;
    std::vector<Word> f(p_.frame_words + 1, 0);
    bind(a, combo, f.data());
    std::string s = a.name + "(";
    for (std::size_t i = 0; i < a.params.size(); ++i)
      s += (i ? ", " : "") +
           (a.params[i].free ? std::string("_") : format_value(*a.params[i].resolved, f.data() + a.params[i].slot, p_));
    return s + ")";
  }

  // The parameter combination of action `ai` whose label (without '?') is `label`; the map of an
  // action is built the first time one of its outputs is checked.
  std::optional<std::uint64_t> combo_of(std::size_t ai, std::string_view label) const {
    const std::lock_guard<std::mutex> lock(labels_mutex_);
    auto& m = labels_of_[ai];
    if (m.empty()) {
      const Action& a = p_.actions[ai];
      for (std::uint64_t c = 0; c < a.combos; ++c) m.emplace(label_of(a, c), c);
    }
    auto it = m.find(std::string(label));
    if (it == m.end()) return std::nullopt;
    return it->second;
  }

  std::string state_text_words(const Word* w) const {
    std::string s = "(";
    for (std::size_t i = 0; i < p_.vars.size(); ++i)
      s += (i ? ", " : "") + p_.vars[i].name + "=" + format_value(*p_.vars[i].resolved, w + p_.vars[i].slot, p_);
    return s + ")";
  }

  void encode(const Word* w, std::span<std::byte> out) const {
    std::byte* o = out.data();
    for (const Leaf& l : leaves_) {
      std::uint64_t v;
      if (l.str) {
        std::uint64_t k = 0;
        while (k < l.str->strs.size() && static_cast<Word>(l.str->strs[k]) != w[l.word]) ++k;
        v = k;
      } else {
        v = static_cast<std::uint64_t>(w[l.word]) - static_cast<std::uint64_t>(l.lo);
      }
      for (std::uint8_t b = 0; b < l.bytes; ++b) *o++ = static_cast<std::byte>(v >> (8 * b));
    }
  }

  void decode(std::span<const std::byte> in, Word* w) const {
    const std::byte* p = in.data();
    for (const Leaf& l : leaves_) {
      std::uint64_t v = 0;
      for (std::uint8_t b = 0; b < l.bytes; ++b) v |= static_cast<std::uint64_t>(*p++) << (8 * b);
      if (l.str)
        w[l.word] = l.str->strs[v < l.str->strs.size() ? v : 0];
      else
        w[l.word] = static_cast<Word>(v + static_cast<std::uint64_t>(l.lo));
    }
  }

  Program p_;
  std::vector<Word> initial_;
  std::vector<SlotType> slot_types_;
  std::vector<ActionShape> shapes_;
  bool has_values_ = false;
  mutable std::mutex labels_mutex_;
  mutable std::vector<std::unordered_map<std::string, std::uint64_t>> labels_of_;
  std::vector<Leaf> leaves_;
  std::size_t size_ = 0;
  std::size_t key_words_ = 0;
  std::vector<std::uint32_t> trap_ids_;
  mutable std::mutex pool_mutex_;
  mutable std::vector<std::unique_ptr<Scratch>> pool_;
};

}  // namespace

std::unique_ptr<Model> program_model(Program p) {
  std::vector<Word> initial = check_program(p, {});
  return std::make_unique<ProgramModel>(std::move(p), std::move(initial));
}

}  // namespace lang

bool is_state_condition(std::string_view text) { return lang::parses_as_expression(text); }

ModelParam parse_model_param(std::string_view text) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw UsageError("param", fmt::format("expected NAME=VALUE, got '{}'", text));
  return {std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
}

std::unique_ptr<Model> compile_model(std::string_view text, const std::string& file,
                                     const std::vector<ModelParam>& params) {
  return compile_model(text, file, params, {});
}

std::unique_ptr<Model> compile_model(std::string_view text, const std::string& file,
                                     const std::vector<ModelParam>& params, const GoalConditions& goals) {
  lang::Program p = lang::parse(text, file);
  p.goal_origin = goals.origin;
  for (const std::string& c : goals.conditions) p.goal_conditions.push_back(lang::parse_condition(p, c, goals.origin));
  std::vector<std::pair<std::string, std::string>> kv;
  for (auto& m : params) kv.emplace_back(m.name, m.value);
  std::vector<lang::Word> initial = lang::check_program(p, kv);
  return std::make_unique<lang::ProgramModel>(std::move(p), std::move(initial));
}

std::unique_ptr<Model> load_model(const std::string& path, const std::vector<ModelParam>& params) {
  return compile_model(read_source_text(path), path, params);
}

}  // namespace playtest
