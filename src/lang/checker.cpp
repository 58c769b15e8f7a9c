// Static checks of a model program: names, types, bounded domains, constant folding of parameters
// and constants, and the allocation of frame slots to variables, parameters and locals.
#include "lang/detail/checker.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <unordered_map>
#include <utility>

#include "lang/detail/runtime.hpp"
#include "playtest/base/numbers.hpp"

namespace playtest::lang {

namespace {

enum Builtin : std::uint8_t {
  b_len = 1,
  b_size,
  b_head,
  b_tail,
  b_last,
  b_keys,
  b_min,
  b_max,
  b_abs,
  b_remove,
  b_value
};

struct BuiltinInfo {
  const char* name;
  Builtin id;
  std::size_t arity;
};
constexpr BuiltinInfo builtins[] = {{"len", b_len, 1},       {"size", b_size, 1},  {"head", b_head, 1},
                                    {"tail", b_tail, 1},     {"last", b_last, 1},  {"keys", b_keys, 1},
                                    {"min", b_min, 2},       {"max", b_max, 2},    {"abs", b_abs, 1},
                                    {"remove", b_remove, 2}, {"value", b_value, 1}};

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

TypeP make(TK k) {
  Type t;
  t.k = k;
  return finish(std::move(t));
}

class Checker {
 public:
  Checker(Program& p, const std::vector<std::pair<std::string, std::string>>& params) : p_(p) {
    for (auto& [n, v] : params) overrides_.emplace_back(n, v);
  }

  void run() {
    bool_ = make(TK::boolean);
    int_ = make(TK::integer);
    strlit_ = make(TK::str_literal);
    for (auto& [name, value] : overrides_) {
      bool found = false;
      for (auto& d : p_.named) found = found || (d.kind == NamedDecl::Kind::param && d.name == name);
      if (!found) {
        std::vector<std::string> names;
        for (auto& d : p_.named)
          if (d.kind == NamedDecl::Kind::param) names.push_back(d.name);
        throw ModelError(
            Diagnostic{{p_.file, 0, 0, ""},
                       fmt::format("unknown model parameter '{}'", name),
                       {names.empty() ? std::string("the model declares no parameters")
                                      : fmt::format("the model's parameters are: {}", fmt::join(names, ", "))}});
      }
    }
    for (auto& d : p_.named) named(d);
    // State variables.
    std::uint32_t slot = 0;
    for (auto& v : p_.vars) {
      declare(v.name, v.loc);
      v.resolved = resolve(*v.type, fmt::format("variable '{}'", v.name));
      if (const Type* held = slot_outside_container(*v.resolved))
        fail(v.type->loc,
             fmt::format("variable '{}' would always hold a slot of {}, so that slot would never be free", v.name,
                         held->alias),
             {"a slot is in use while the state holds it: keep slots in a set, a sequence or a map (an empty one "
              "holds none)"});
      v.slot = slot;
      slot += v.resolved->width;
      globals_[v.name] = Global{Global::var, v.resolved, {}, v.slot, v.loc};
    }
    p_.state_words = slot;
    max_slot_ = slot;
    // Initial values (constant expressions).
    initial_.assign(slot, 0);
    for (auto& v : p_.vars) {
      if (!v.init) {
        fill_default(*v.resolved, initial_.data() + v.slot);
        continue;
      }
      std::vector<Word> w = constant(*v.init, v.resolved, fmt::format("the initial value of '{}'", v.name));
      require_assignable(*v.resolved, *v.init, fmt::format("variable '{}'", v.name));
      if (auto m = misfit(*v.resolved, w.data(), p_); !m.empty())
        fail(v.init->loc, fmt::format("bad initial value of '{}': {}", v.name, m));
      std::copy(w.begin(), w.end(), initial_.begin() + v.slot);
    }
    // Actions.
    std::uint64_t label = 0;
    for (auto& a : p_.actions) {
      for (auto& b : p_.actions) {
        if (&b == &a) break;
        if (b.name == a.name)
          fail(a.loc, fmt::format("action '{}' is declared twice", a.name),
               {fmt::format("first declared at line {}", b.loc.line)});
      }
      action(a);
      a.label_base = static_cast<std::uint32_t>(label);
      label += a.combos;
      if (label > 0x7fffffffu)
        fail(a.loc, "too many action instances (more than 2^31 parameter combinations in all)",
             {"narrow the parameter types"});
    }
    // Final, timeout, reset, abstraction: expressions over the state.
    if (p_.final_) state_expr(*p_.final_, bool_, "the final condition");
    // Goal conditions from outside the file: their errors are located in their own text.
    for (auto& c : p_.goal_conditions) {
      const std::string file = std::exchange(p_.file, p_.goal_origin);
      state_expr(*c, bool_, "a goal condition");
      p_.file = file;
    }
    if (p_.timeout_cost) state_expr(*p_.timeout_cost, int_, "the timeout cost");
    if (p_.timeout_weight) state_expr(*p_.timeout_weight, int_, "the timeout weight");
    if (p_.timeout_when) state_expr(*p_.timeout_when, bool_, "the timeout condition");
    if (p_.timeout_after) state_expr(*p_.timeout_after, int_, "the timeout's duration ('after')");
    if (p_.has_reset) {
      p_.reset_value = 1.0;
      if (p_.reset_cost) {
        auto w = constant(*p_.reset_cost, int_, "the reset cost");
        if (w[0] < 0) fail(p_.reset_cost->loc, fmt::format("the reset cost must be >= 0, got {}", w[0]));
        p_.reset_value = static_cast<double>(w[0]);
      }
    }
    for (auto& e : p_.abstract_) state_expr(*e, nullptr, "the abstraction");
    p_.frame_words = max_slot_;
    // An empty file (or one with only declarations) explores to a single state with nothing to do:
    // a test of it would test nothing, so it is not a model.
    if (p_.actions.empty())
      fail(Loc{1, 1}, "the model declares no action: there is nothing to explore or test",
           {"declare what the tester can do with 'controllable NAME { ... }' and what the system does with "
            "'observable NAME { ... }' (docs/language.md)"});
  }

  std::vector<Word> initial_;

 private:
  struct Global {
    enum Kind { constant, type_decl, var } kind;
    TypeP type;
    std::vector<Word> value;
    std::uint32_t slot = 0;
    Loc loc;
  };
  struct Local {
    std::string name;
    std::uint32_t slot;
    TypeP type;
    bool is_param;
    bool runtime = false;  // a free value of an observable action: known only at run time
  };

  [[noreturn]] void fail(Loc loc, std::string msg, std::vector<std::string> notes = {}) {
    fail_at(p_.file, loc, std::move(msg), std::move(notes));
  }
  std::string tn(const Type& t) const { return type_name(t, p_.enums, p_.strings); }

  void declare(const std::string& name, Loc loc) {
    auto it = globals_.find(name);
    if (it != globals_.end())
      fail(loc, fmt::format("'{}' is already defined", name),
           {fmt::format("first defined at line {}", it->second.loc.line)});
    for (auto& b : builtins)
      if (name == b.name) fail(loc, fmt::format("'{}' is a built-in function and cannot be redefined", name));
  }

  std::vector<std::string> hint(const std::string& name) {
    std::string best;
    std::size_t bd = 3;
    auto consider = [&](const std::string& c) {
      const std::size_t d = edit_distance(name, c);
      if (d < bd && d < std::max<std::size_t>(name.size(), 2)) bd = d, best = c;
    };
    for (auto& [n, g] : globals_) consider(n);
    for (auto& l : locals_) consider(l.name);
    for (auto& b : builtins) consider(b.name);
    if (best.empty()) return {};
    return {fmt::format("did you mean '{}'?", best)};
  }

  void named(NamedDecl& d) {
    declare(d.name, d.loc);
    switch (d.kind) {
      case NamedDecl::Kind::type: {
        if (d.type->kind == TypeExpr::Kind::slot) {
          globals_[d.name] = Global{Global::type_decl, slot_type(*d.type, d.name), {}, 0, d.loc};
          break;
        }
        TypeP base = resolve(*d.type, fmt::format("type '{}'", d.name));
        if (base->k == TK::enumeration) {
          globals_[d.name] = Global{Global::type_decl, base, {}, 0, d.loc};
        } else {
          Type t = *base;
          t.alias = d.name;
          globals_[d.name] = Global{Global::type_decl, finish(std::move(t)), {}, 0, d.loc};
        }
        break;
      }
      case NamedDecl::Kind::enumeration: {
        Type t;
        t.k = TK::enumeration;
        t.enum_id = static_cast<std::uint32_t>(p_.enums.size());
        t.alias = d.name;
        std::vector<std::string> members;
        for (auto& [m, loc] : d.members) {
          for (auto& x : members)
            if (x == m) fail(loc, fmt::format("duplicate member '{}' in enum '{}'", m, d.name));
          members.push_back(m);
        }
        p_.enums.push_back(members);
        p_.enum_names.push_back(d.name);
        TypeP tp = finish(std::move(t));
        const_cast<Type&>(*tp).card = members.size();
        globals_[d.name] = Global{Global::type_decl, tp, {}, 0, d.loc};
        for (std::size_t i = 0; i < d.members.size(); ++i) {
          declare(d.members[i].first, d.members[i].second);
          globals_[d.members[i].first] = Global{Global::constant, tp, {static_cast<Word>(i)}, 0, d.members[i].second};
        }
        break;
      }
      case NamedDecl::Kind::constant: {
        std::vector<Word> w = constant(*d.value, nullptr, fmt::format("constant '{}'", d.name));
        globals_[d.name] = Global{Global::constant, d.value->type, std::move(w), 0, d.loc};
        break;
      }
      case NamedDecl::Kind::param: {
        TypeP t = resolve(*d.type, fmt::format("parameter '{}'", d.name), /*storage=*/false);
        if (t->k != TK::integer && t->k != TK::range && t->k != TK::boolean)
          fail(d.type->loc,
               fmt::format("parameter '{}' must have type int, bool or a range lo..hi, not {}", d.name, tn(*t)));
        std::vector<Word> w;
        auto ov = std::find_if(overrides_.begin(), overrides_.end(), [&](auto& o) { return o.first == d.name; });
        if (ov != overrides_.end()) {
          const std::string& text = ov->second;
          Word v = 0;
          if (t->k == TK::boolean) {
            if (text != "true" && text != "false")
              throw ModelError(
                  Diagnostic{{p_.file, 0, 0, ""},
                             fmt::format("model parameter '{}' expects true or false, got '{}'", d.name, text),
                             {}});
            v = text == "true";
          } else {
            const auto read = read_integer<Word>(text);
            if (!read.ok())
              throw ModelError(Diagnostic{
                  {p_.file, 0, 0, ""},
                  fmt::format("model parameter '{}' expects an integer, got '{}'{}", d.name, text, why_not(read, text)),
                  {}});
            v = read.value;
          }
          w = {v};
          if (auto m = misfit(*t, w.data(), p_); !m.empty())
            throw ModelError(Diagnostic{{p_.file, 0, 0, ""}, fmt::format("model parameter '{}': {}", d.name, m), {}});
        } else {
          w = constant(*d.value, t, fmt::format("the default of parameter '{}'", d.name));
          require_assignable(*t, *d.value, fmt::format("parameter '{}'", d.name));
          if (auto m = misfit(*t, w.data(), p_); !m.empty())
            fail(d.value->loc, fmt::format("bad default of parameter '{}': {}", d.name, m));
        }
        p_.param_values.emplace_back(d.name, t->k == TK::boolean ? (w[0] ? "true" : "false") : std::to_string(w[0]));
        globals_[d.name] = Global{Global::constant, t, std::move(w), 0, d.loc};
        break;
      }
    }
  }

  // Evaluates a constant expression (parameters, constants, enum members, literals only).
  std::vector<Word> constant(Expr& e, TypeP expected, const std::string& what) {
    const bool saved = const_ctx_;
    const std::uint32_t saved_next = next_slot_;
    const_ctx_ = true;
    const_what_ = what;
    next_slot_ = 0;
    const_max_ = 0;
    check(e, expected);
    const_ctx_ = saved;
    std::vector<Word> frame(const_max_ + 1, 0);
    Interp in(p_, frame.data());
    std::vector<Word> out(e.type->width);
    in.eval(e, out.data());
    next_slot_ = saved_next;
    return out;
  }

  std::int64_t const_int(Expr& e, const std::string& what) {
    auto w = constant(e, int_, what);
    if (!is_int(*e.type)) fail(e.loc, fmt::format("{} must be an integer, got {}", what, tn(*e.type)));
    return w[0];
  }

  TypeP resolve(TypeExpr& t, const std::string& what, bool storage = true) {
    Type r;
    switch (t.kind) {
      case TypeExpr::Kind::boolean:
        return bool_;
      case TypeExpr::Kind::integer:
        if (storage)
          fail(t.loc, fmt::format("unbounded domain: {} has type int", what), {"give it a range such as 0..10"});
        return int_;
      case TypeExpr::Kind::string:
        fail(t.loc, fmt::format("unbounded domain: {} has type string", what),
             {"declare the strings it can take, e.g. {\"hi\", \"bye\"}"});
      case TypeExpr::Kind::named: {
        auto it = globals_.find(t.name);
        if (it == globals_.end()) fail(t.loc, fmt::format("undefined type '{}'", t.name), hint(t.name));
        if (it->second.kind != Global::type_decl) fail(t.loc, fmt::format("'{}' is not a type", t.name));
        return it->second.type;
      }
      case TypeExpr::Kind::range: {
        r.k = TK::range;
        r.lo = const_int(*t.lo, "a range bound");
        r.hi = const_int(*t.hi, "a range bound");
        if (r.lo > r.hi) fail(t.loc, fmt::format("empty range {}..{}", r.lo, r.hi));
        return finish(std::move(r));
      }
      case TypeExpr::Kind::strings:
        r.k = TK::str;
        r.strs = t.strs;
        return finish(std::move(r));
      case TypeExpr::Kind::tuple:
        r.k = TK::tuple;
        for (auto& e : t.elems) r.elems.push_back(resolve(*e, what, storage));
        return finish(std::move(r));
      case TypeExpr::Kind::set:
      case TypeExpr::Kind::map: {
        r.k = t.kind == TypeExpr::Kind::set ? TK::set : TK::map;
        TypeP el = resolve(*t.elems[0], what, storage);
        if (el->card == 0 || el->card > 64)
          fail(t.elems[0]->loc,
               fmt::format("unbounded domain: the {} of {} must have a finite type with at most 64 values, not {}",
                           r.k == TK::set ? "elements" : "keys", what, tn(*el)),
               {"use a small range, an enum or a string set"});
        r.elems.push_back(el);
        if (r.k == TK::map) r.elems.push_back(resolve(*t.elems[1], what, storage));
        return finish(std::move(r));
      }
      case TypeExpr::Kind::slot:
        fail(t.loc, "a slot type needs a name: its slots are written NAME#0, NAME#1, ...",
             {"declare it with 'type Job = slot<int, 3>;' and use the name"});
      case TypeExpr::Kind::seq: {
        r.k = TK::seq;
        r.elems.push_back(resolve(*t.elems[0], what, storage));
        if (!t.cap)
          fail(t.loc, fmt::format("unbounded domain: the sequence type of {} needs a maximum length", what),
               {"write seq<T, N> with N the longest the sequence can grow"});
        const std::int64_t cap = const_int(*t.cap, "a sequence length");
        if (cap < 0 || cap > 4096) fail(t.cap->loc, fmt::format("sequence length {} is outside 0..4096", cap));
        r.cap = static_cast<std::uint32_t>(cap);
        return finish(std::move(r));
      }
    }
    return int_;
  }

  // A slot type `type NAME = slot<T, N>;`: N symbolic slots NAME#0..NAME#(N-1) of values of type T
  // (int, a range, or string) that the system invents.
  TypeP slot_type(TypeExpr& t, const std::string& name) {
    TypeExpr& c = *t.elems[0];
    TypeP concrete;
    if (c.kind == TypeExpr::Kind::integer)
      concrete = int_;
    else if (c.kind == TypeExpr::Kind::string)
      concrete = strlit_;
    else
      concrete = resolve(c, fmt::format("slot type '{}'", name), /*storage=*/false);
    if (concrete->k != TK::integer && concrete->k != TK::range && concrete->k != TK::str_literal)
      fail(c.loc, fmt::format("the values of slot type '{}' must be int, a range lo..hi or string, not {}", name,
                              tn(*concrete)));
    const std::int64_t n = const_int(*t.cap, "the number of slots");
    if (n < 1 || n > 64) fail(t.cap->loc, fmt::format("slot type '{}' has {} slots; give 1 to 64", name, n));
    Type r;
    r.k = TK::slot;
    r.cap = static_cast<std::uint32_t>(n);
    r.elems.push_back(concrete);
    r.alias = name;
    r.enum_id = static_cast<std::uint32_t>(p_.slot_types.size());
    TypeP tp = finish(std::move(r));
    p_.slot_types.push_back(tp);
    return tp;
  }
  // The slot type of a slot that a value of type t holds whatever its value (a slot or a tuple of
  // one), or null when every slot it holds sits in a set, a sequence or a map.
  static const Type* slot_outside_container(const Type& t) {
    if (t.k == TK::slot) return &t;
    if (t.k == TK::tuple)
      for (auto& e : t.elems)
        if (const Type* s = slot_outside_container(*e)) return s;
    return nullptr;
  }

  static bool is_int(const Type& t) { return t.k == TK::integer || t.k == TK::range; }
  static bool is_str(const Type& t) { return t.k == TK::str || t.k == TK::str_literal; }

  // Identical ordinal mappings (sets and map keys).
  static bool same_domain(const Type& a, const Type& b) {
    if (a.k != b.k) return false;
    switch (a.k) {
      case TK::range:
        return a.lo == b.lo && a.hi == b.hi;
      case TK::enumeration:
        return a.enum_id == b.enum_id;
      case TK::str:
        return a.strs == b.strs;
      case TK::boolean:
        return true;
      case TK::slot:
        return a.enum_id == b.enum_id;
      case TK::tuple:
        if (a.elems.size() != b.elems.size()) return false;
        for (std::size_t i = 0; i < a.elems.size(); ++i)
          if (!same_domain(*a.elems[i], *b.elems[i])) return false;
        return true;
      default:
        return false;
    }
  }

  // A value of `src` can be stored in `dst` (perhaps with a run-time range check).
  static bool assignable(const Type& dst, const Type& src) {
    if (is_int(dst) && is_int(src)) return true;
    if (dst.k == TK::str && is_str(src)) return true;
    if (dst.k != src.k) return false;
    switch (dst.k) {
      case TK::boolean:
        return true;
      case TK::enumeration:
      case TK::slot:
        return dst.enum_id == src.enum_id;
      case TK::tuple:
        if (dst.elems.size() != src.elems.size()) return false;
        for (std::size_t i = 0; i < dst.elems.size(); ++i)
          if (!assignable(*dst.elems[i], *src.elems[i])) return false;
        return true;
      case TK::set:
        return same_domain(*dst.elems[0], *src.elems[0]);
      case TK::seq:
        return dst.cap == src.cap && assignable(*dst.elems[0], *src.elems[0]);
      case TK::map:
        return same_domain(*dst.elems[0], *src.elems[0]) && assignable(*dst.elems[1], *src.elems[1]);
      default:
        return false;
    }
  }
  // Two values can be compared with == (either way round).
  static bool comparable(const Type& a, const Type& b) {
    if (is_int(a) && is_int(b)) return true;
    if (is_str(a) && is_str(b)) return true;
    return assignable(a, b) || assignable(b, a);
  }

  void require_assignable(const Type& dst, const Expr& e, const std::string& what) {
    if (!assignable(dst, *e.type))
      fail(e.loc, fmt::format("type mismatch: {} has type {}, but the value has type {}", what, tn(dst), tn(*e.type)));
  }
  void require(const Expr& e, const TypeP& t, const std::string& what) {
    const bool ok = t->k == TK::integer ? is_int(*e.type) : t->k == TK::boolean ? e.type->k == TK::boolean : true;
    if (!ok)
      fail(e.loc, fmt::format("type mismatch: {} must be {}, not {}", what,
                              t->k == TK::boolean ? "a bool" : "an integer", tn(*e.type)));
  }

  std::uint32_t alloc(std::uint32_t width) {
    const std::uint32_t s = next_slot_;
    next_slot_ += width;
    if (const_ctx_)
      const_max_ = std::max(const_max_, next_slot_);
    else
      max_slot_ = std::max(max_slot_, next_slot_);
    return s;
  }

  void state_expr(Expr& e, const TypeP& t, const std::string& what) {
    locals_.clear();
    next_slot_ = p_.state_words;
    check(e, t);
    if (t) require(e, t, what);
  }

  void action(Action& a) {
    locals_.clear();
    next_slot_ = p_.state_words;
    a.combos = 1;
    for (auto& prm : a.params) {
      for (auto& l : locals_)
        if (l.name == prm.name) fail(prm.loc, fmt::format("parameter '{}' is declared twice", prm.name));
      if (globals_.count(prm.name) && globals_[prm.name].kind != Global::type_decl) {
        // Shadowing a global is allowed but usually a mistake only for variables.
        if (globals_[prm.name].kind == Global::var)
          fail(prm.loc, fmt::format("parameter '{}' has the name of a state variable", prm.name));
      }
      if (a.observable && (prm.type->kind == TypeExpr::Kind::integer || prm.type->kind == TypeExpr::Kind::string)) {
        // A free value: chosen by the system, not enumerated, not kept (docs/language.md).
        prm.free = true;
        prm.resolved = prm.type->kind == TypeExpr::Kind::integer ? int_ : strlit_;
        prm.slot = alloc(1);
        locals_.push_back(Local{prm.name, prm.slot, prm.resolved, true, true});
        continue;
      }
      prm.resolved = resolve(*prm.type, fmt::format("parameter '{}' of action '{}'", prm.name, a.name));
      if (prm.resolved->card == 0)
        fail(prm.type->loc,
             fmt::format("unbounded domain: parameter '{}' of action '{}' has too many values ({})", prm.name, a.name,
                         tn(*prm.resolved)),
             {"action parameters range over finite domains: a small range, an enum, a string set or tuples of them"});
      a.combos *= prm.resolved->card;
      if (a.combos > 0x7fffffffu) fail(prm.loc, fmt::format("action '{}' has too many parameter combinations", a.name));
      prm.slot = alloc(prm.resolved->width);
      locals_.push_back(Local{prm.name, prm.slot, prm.resolved, true, false});
    }
    for (auto& r : a.requires_) {
      allow_runtime_ = a.observable;
      runtime_seen_ = false;
      check(*r, bool_);
      require(*r, bool_, "a 'require' condition");
      a.require_runtime.push_back(runtime_seen_ ? 1 : 0);
      allow_runtime_ = false;
    }
    if (a.cost) {
      check(*a.cost, int_);
      require(*a.cost, int_, "the cost");
    }
    if (a.weight) {
      check(*a.weight, int_);
      require(*a.weight, int_, "the weight");
    }
    if (a.delay) {
      check(*a.delay, int_);
      require(*a.delay, int_, "the delay");
    }
    if (a.anytime_when) {
      check(*a.anytime_when, bool_);
      require(*a.anytime_when, bool_, "the 'anytime when' condition");
    }
    for (auto& t : a.traps) {
      if (t.when) {
        check(*t.when, bool_);
        require(*t.when, bool_, "the trap condition");
      }
      auto it = std::find(p_.trap_names.begin(), p_.trap_names.end(), t.name);
      t.id = static_cast<std::uint32_t>(it - p_.trap_names.begin());
      if (it == p_.trap_names.end()) p_.trap_names.push_back(t.name);
    }
    block(a.body);
  }

  void block(std::vector<StmtP>& body) {
    const std::size_t nlocals = locals_.size();
    const std::uint32_t saved = next_slot_;
    for (auto& s : body) stmt(*s);
    locals_.resize(nlocals);
    next_slot_ = saved;
  }

  void stmt(Stmt& s) {
    switch (s.k) {
      case SK::if_:
        check(*s.e, bool_);
        require(*s.e, bool_, "an 'if' condition");
        block(s.then_);
        block(s.else_);
        return;
      case SK::let: {
        check(*s.e, nullptr);
        if (s.e->type->k == TK::str_literal || (s.e->type->k == TK::set && !s.e->type->elems[0]))
          fail(s.e->loc, "cannot tell the type of this value; give it where a typed value is expected");
        s.target_type = s.e->type;
        s.slot = alloc(s.e->type->width);
        locals_.push_back(Local{s.name, s.slot, s.e->type, false, false});
        return;
      }
      case SK::assign: {
        for (auto& l : locals_)
          if (l.name == s.name)
            fail(s.loc, fmt::format("cannot assign to {} '{}'; only state variables can be assigned",
                                    l.is_param ? "parameter" : "local", s.name));
        auto it = globals_.find(s.name);
        if (it == globals_.end()) fail(s.loc, fmt::format("undefined name '{}'", s.name), hint(s.name));
        if (it->second.kind != Global::var)
          fail(s.loc, fmt::format("cannot assign to '{}': it is a {}, not a state variable", s.name,
                                  it->second.kind == Global::type_decl ? "type" : "constant"));
        s.slot = it->second.slot;
        s.target_type = it->second.type;
        TypeP t = s.target_type;
        for (auto& st : s.path) {
          if (!st.is_index) {
            if (t->k != TK::tuple) fail(st.loc, fmt::format("'.{}' needs a tuple, but this is {}", st.field, tn(*t)));
            if (st.field >= t->elems.size()) fail(st.loc, fmt::format("tuple {} has no field .{}", tn(*t), st.field));
            t = t->elems[st.field];
          } else if (t->k == TK::seq) {
            check(*st.index, int_);
            require(*st.index, int_, "a sequence index");
            t = t->elems[0];
          } else if (t->k == TK::map) {
            check(*st.index, t->elems[0]);
            if (!assignable(*t->elems[0], *st.index->type))
              fail(st.index->loc,
                   fmt::format("type mismatch: the map's keys are {}, not {}", tn(*t->elems[0]), tn(*st.index->type)));
            t = t->elems[1];
          } else {
            fail(st.loc, fmt::format("'[...]' needs a sequence or a map, but this is {}", tn(*t)));
          }
        }
        check(*s.e, t);
        if (!assignable(*t, *s.e->type))
          fail(s.e->loc, fmt::format("type mismatch: cannot assign a value of type {} to '{}' of type {}",
                                     tn(*s.e->type), s.name, tn(*t)));
        s.target_type = it->second.type;
        return;
      }
    }
  }

  bool needs_context(const Expr& e) const {
    return e.k == EK::set_lit || e.k == EK::seq_lit || e.k == EK::int_lit || e.k == EK::str_lit ||
           (e.k == EK::tuple_lit);
  }

  TypeP check(Expr& e, TypeP expected) {
    e.type = check_inner(e, std::move(expected));
    return e.type;
  }

  TypeP check_inner(Expr& e, TypeP expected) {
    switch (e.k) {
      case EK::int_lit:
        return int_;
      case EK::bool_lit:
        return bool_;
      case EK::str_lit:
        return strlit_;
      case EK::name:
        return name(e);
      case EK::unary: {
        if (e.op == Op::not_) {
          check(*e.kids[0], bool_);
          require(*e.kids[0], bool_, "the operand of 'not'");
          return bool_;
        }
        check(*e.kids[0], int_);
        require(*e.kids[0], int_, "the operand of '-'");
        return int_;
      }
      case EK::binary:
        return binary(e);
      case EK::call:
        return call(e);
      case EK::field: {
        TypeP t = check(*e.kids[0], nullptr);
        if (t->k != TK::tuple) fail(e.loc, fmt::format("'.{}' needs a tuple, but this is {}", e.ival, tn(*t)));
        if (e.ival < 0 || static_cast<std::size_t>(e.ival) >= t->elems.size())
          fail(e.loc, fmt::format("tuple {} has no field .{}", tn(*t), e.ival),
               {fmt::format("its fields are .0 to .{}", t->elems.size() - 1)});
        return t->elems[e.ival];
      }
      case EK::index: {
        TypeP t = check(*e.kids[0], nullptr);
        if (t->k == TK::seq) {
          check(*e.kids[1], int_);
          require(*e.kids[1], int_, "a sequence index");
          return t->elems[0];
        }
        if (t->k == TK::map) {
          check(*e.kids[1], t->elems[0]);
          if (!assignable(*t->elems[0], *e.kids[1]->type))
            fail(e.kids[1]->loc,
                 fmt::format("type mismatch: the map's keys are {}, not {}", tn(*t->elems[0]), tn(*e.kids[1]->type)));
          return t->elems[1];
        }
        fail(e.loc, fmt::format("'[...]' needs a sequence or a map, but this is {}", tn(*t)));
      }
      case EK::tuple_lit: {
        Type t;
        t.k = TK::tuple;
        const bool ctx = expected && expected->k == TK::tuple && expected->elems.size() == e.kids.size();
        for (std::size_t i = 0; i < e.kids.size(); ++i) {
          TypeP k = check(*e.kids[i], ctx ? expected->elems[i] : nullptr);
          // Literals take the expected component type so the tuple's layout matches.
          if (ctx && k->k != TK::tuple && assignable(*expected->elems[i], *k)) k = expected->elems[i];
          if (k->k == TK::str_literal)
            fail(e.kids[i]->loc,
                 "cannot tell the string type of this tuple component; use it where a typed tuple is expected");
          t.elems.push_back(k);
        }
        return finish(std::move(t));
      }
      case EK::set_lit: {
        if (expected && expected->k == TK::map && e.kids.empty()) return expected;  // the empty map
        TypeP el;
        if (expected && expected->k == TK::set) el = expected->elems[0];
        for (auto& k : e.kids) {
          TypeP kt = check(*k, el);
          if (!el) {
            if (kt->card == 0 || kt->card > 64 || kt->k == TK::set)
              fail(e.loc, "cannot tell the element type of this set literal",
                   {"use it where a typed set is expected, e.g. assigned to a set variable or combined with one"});
            el = kt;
          }
          if (!assignable(*el, *kt))
            fail(k->loc, fmt::format("type mismatch: set element of type {} in a set of {}", tn(*kt), tn(*el)));
        }
        if (!el)
          fail(e.loc, "cannot tell the element type of the empty set '{}'", {"use it where a typed set is expected"});
        Type t;
        t.k = TK::set;
        t.elems.push_back(el);
        return finish(std::move(t));
      }
      case EK::seq_lit: {
        if (!expected || expected->k != TK::seq)
          fail(e.loc, "cannot tell the type of this sequence literal",
               {"use it where a typed sequence is expected, e.g. assigned to a sequence variable or appended to one"});
        if (e.kids.size() > expected->cap)
          fail(e.loc, fmt::format("sequence literal with {} elements does not fit {}", e.kids.size(), tn(*expected)));
        for (auto& k : e.kids) {
          check(*k, expected->elems[0]);
          if (!assignable(*expected->elems[0], *k->type))
            fail(k->loc, fmt::format("type mismatch: element of type {} in a sequence of {}", tn(*k->type),
                                     tn(*expected->elems[0])));
        }
        return expected;
      }
      case EK::quant: {
        Expr& dom = *e.kids[0];
        TypeP elem;
        if (dom.k == EK::name) {
          auto it = globals_.find(dom.name);
          if (it != globals_.end() && it->second.kind == Global::type_decl && !local(dom.name)) {
            dom.k = EK::type_ref;
            dom.type = it->second.type;
            if (dom.type->card == 0)
              fail(dom.loc, fmt::format("unbounded domain: cannot quantify over {}", tn(*dom.type)));
            e.dom_type = dom.type;
            elem = dom.type;
          }
        }
        if (!elem) {
          TypeP t = check(dom, nullptr);
          if (t->k != TK::set && t->k != TK::seq && t->k != TK::map)
            fail(dom.loc,
                 fmt::format("a quantifier ranges over a set, a sequence, a map's keys or a finite type, not {}",
                             tn(*t)));
          elem = t->elems[0];
        }
        const std::uint32_t saved = next_slot_;
        e.slot = alloc(elem->width);
        locals_.push_back(Local{e.name, e.slot, elem, false, false});
        check(*e.kids[1], bool_);
        require(*e.kids[1], bool_, "the body of a quantifier");
        locals_.pop_back();
        next_slot_ = saved;
        return bool_;
      }
      case EK::if_expr: {
        check(*e.kids[0], bool_);
        require(*e.kids[0], bool_, "the condition of 'if'");
        TypeP a = check(*e.kids[1], expected);
        TypeP b = check(*e.kids[2], expected ? expected : a);
        if (is_int(*a) && is_int(*b)) return int_;
        // Two string literals ("a" and "b") have no declared set; the if has the declared string
        // type of either branch, or is a literal itself.
        if (is_str(*a) && is_str(*b)) return a->k == TK::str ? a : b;
        if (!assignable(*a, *b))
          fail(e.loc, fmt::format("type mismatch: the branches of 'if' have types {} and {}", tn(*a), tn(*b)));
        return a;
      }
      default:
        return e.type;
    }
  }

  const Local* local(const std::string& n) const {
    for (auto it = locals_.rbegin(); it != locals_.rend(); ++it)
      if (it->name == n) return &*it;
    return nullptr;
  }

  // A free value or value() is read where it is allowed: a require of an observable action.
  void runtime_read(const Expr& e, const std::string& what) {
    if (!allow_runtime_)
      fail(e.loc,
           fmt::format("{} is known only when the system produces its output: only the 'require' guards of "
                       "observable actions can read it",
                       what),
           {"a free value is not part of the state; to remember a value the system invents, bind it to a slot type "
            "(type Id = slot<int, 3>;)"});
    runtime_seen_ = true;
  }

  TypeP name(Expr& e) {
    if (const Local* l = local(e.name)) {
      if (l->runtime) runtime_read(e, fmt::format("the free value '{}'", e.name));
      e.k = EK::local;
      e.slot = l->slot;
      return l->type;
    }
    auto it = globals_.find(e.name);
    if (it == globals_.end()) fail(e.loc, fmt::format("undefined name '{}'", e.name), hint(e.name));
    switch (it->second.kind) {
      case Global::var:
        if (const_ctx_)
          fail(e.loc, fmt::format("{} must be a constant, but '{}' is a state variable", const_what_, e.name));
        e.k = EK::var;
        e.slot = it->second.slot;
        return it->second.type;
      case Global::constant:
        e.k = EK::constant;
        e.value = it->second.value;
        return it->second.type;
      case Global::type_decl:
        fail(e.loc, fmt::format("'{}' is a type, not a value", e.name),
             {"types can be quantified over: forall x in T : ..."});
    }
    return int_;
  }

  TypeP binary(Expr& e) {
    Expr& a = *e.kids[0];
    Expr& b = *e.kids[1];
    auto both = [&](TypeP t, const char* what) {
      check(a, t);
      check(b, t);
      require(a, t, what);
      require(b, t, what);
    };
    switch (e.op) {
      case Op::and_:
        both(bool_, "an operand of 'and'");
        return bool_;
      case Op::or_:
        both(bool_, "an operand of 'or'");
        return bool_;
      case Op::implies:
        both(bool_, "an operand of '=>'");
        return bool_;
      case Op::lt:
      case Op::le:
      case Op::gt:
      case Op::ge:
        both(int_, "an operand of a comparison");
        return bool_;
      case Op::eq:
      case Op::ne: {
        if (needs_context(a) && !needs_context(b)) {
          check(b, nullptr);
          check(a, b.type);
        } else {
          check(a, nullptr);
          check(b, a.type);
        }
        if (!comparable(*a.type, *b.type))
          fail(e.loc, fmt::format("type mismatch: cannot compare {} with {}", tn(*a.type), tn(*b.type)));
        if (a.type->width != b.type->width)
          fail(e.loc,
               fmt::format("type mismatch: cannot compare {} with {} (different shapes)", tn(*a.type), tn(*b.type)));
        return bool_;
      }
      case Op::in: {
        TypeP c = check(b, nullptr);
        if (c->k != TK::set && c->k != TK::seq && c->k != TK::map)
          fail(b.loc, fmt::format("'in' needs a set, a sequence or a map on its right, not {}", tn(*c)));
        check(a, c->elems[0]);
        if (!comparable(*c->elems[0], *a.type) || a.type->width != c->elems[0]->width)
          fail(a.loc, fmt::format("type mismatch: {} cannot be an element of {}", tn(*a.type), tn(*c)));
        return bool_;
      }
      case Op::add:
      case Op::sub:
      case Op::mul:
      case Op::div:
      case Op::mod: {
        TypeP ta;
        if (needs_context(a) && (b.k == EK::name || b.k == EK::call || b.k == EK::binary)) {
          TypeP tb = check(b, nullptr);
          ta = check(a, tb);
        } else {
          ta = check(a, nullptr);
          check(b, ta);
        }
        const TypeP& tb = b.type;
        static const char* sym[] = {"+", "-", "*", "/", "%"};
        const char* op = sym[static_cast<int>(e.op) - static_cast<int>(Op::add)];
        if (is_int(*ta) && is_int(*tb)) return int_;
        if (ta->k == TK::set && tb->k == TK::set && e.op != Op::div && e.op != Op::mod) {
          if (!same_domain(*ta->elems[0], *tb->elems[0]))
            fail(e.loc, fmt::format("type mismatch: '{}' of {} and {}", op, tn(*ta), tn(*tb)));
          return ta;
        }
        if (ta->k == TK::seq && tb->k == TK::seq && e.op == Op::add) {
          if (!assignable(*ta->elems[0], *tb->elems[0]))
            fail(e.loc, fmt::format("type mismatch: '+' of {} and {}", tn(*ta), tn(*tb)));
          if (tb->elems[0]->width != ta->elems[0]->width)
            fail(e.loc, fmt::format("type mismatch: '+' of {} and {}", tn(*ta), tn(*tb)));
          return ta;
        }
        fail(e.loc, fmt::format("type mismatch: '{}' needs two integers{}, got {} and {}", op,
                                e.op == Op::add                      ? ", two sets or two sequences"
                                : e.op == Op::div || e.op == Op::mod ? ""
                                                                     : " or two sets",
                                tn(*ta), tn(*tb)));
      }
      default:
        fail(e.loc, "internal error: operator");
    }
  }

  TypeP call(Expr& e) {
    const BuiltinInfo* info = nullptr;
    for (auto& b : builtins)
      if (e.name == b.name) info = &b;
    if (!info) {
      std::vector<std::string> notes = hint(e.name);
      notes.push_back("built-in functions: len, size, head, tail, last, keys, min, max, abs, remove, value");
      fail(e.loc, fmt::format("unknown function '{}'", e.name), notes);
    }
    if (e.kids.size() != info->arity)
      fail(e.loc, fmt::format("{}() takes {} argument{}, got {}", info->name, info->arity, info->arity == 1 ? "" : "s",
                              e.kids.size()));
    e.builtin = info->id;
    auto arg = [&](std::size_t i, TypeP exp) { return check(*e.kids[i], std::move(exp)); };
    auto need = [&](const TypeP& t, std::initializer_list<TK> ks, const char* what) {
      for (TK k : ks)
        if (t->k == k) return;
      fail(e.kids[0]->loc, fmt::format("{}() needs {}, not {}", info->name, what, tn(*t)));
    };
    switch (info->id) {
      case b_len:
        need(arg(0, nullptr), {TK::seq}, "a sequence");
        return int_;
      case b_size:
        need(arg(0, nullptr), {TK::set, TK::map}, "a set or a map");
        return int_;
      case b_head:
      case b_last: {
        TypeP t = arg(0, nullptr);
        need(t, {TK::seq}, "a sequence");
        return t->elems[0];
      }
      case b_tail: {
        TypeP t = arg(0, nullptr);
        need(t, {TK::seq}, "a sequence");
        if (t->cap == 0) fail(e.loc, "tail() of a sequence that is always empty");
        return t;
      }
      case b_keys: {
        TypeP t = arg(0, nullptr);
        need(t, {TK::map}, "a map");
        Type s;
        s.k = TK::set;
        s.elems.push_back(t->elems[0]);
        return finish(std::move(s));
      }
      case b_remove: {
        TypeP t = arg(0, nullptr);
        need(t, {TK::map}, "a map");
        arg(1, t->elems[0]);
        if (!assignable(*t->elems[0], *e.kids[1]->type))
          fail(e.kids[1]->loc,
               fmt::format("type mismatch: the map's keys are {}, not {}", tn(*t->elems[0]), tn(*e.kids[1]->type)));
        return t;
      }
      case b_value: {
        TypeP t = arg(0, nullptr);
        need(t, {TK::slot}, "a slot");
        runtime_read(e, "value()");
        return t->elems[0]->k == TK::str_literal ? strlit_ : int_;
      }
      case b_min:
      case b_max:
      case b_abs:
        for (std::size_t i = 0; i < e.kids.size(); ++i) {
          arg(i, int_);
          require(*e.kids[i], int_, fmt::format("the argument of {}()", info->name));
        }
        return int_;
    }
    return int_;
  }

  Program& p_;
  std::vector<std::pair<std::string, std::string>> overrides_;
  std::unordered_map<std::string, Global> globals_;
  std::vector<Local> locals_;
  std::uint32_t next_slot_ = 0, max_slot_ = 0, const_max_ = 0;
  bool const_ctx_ = false;
  bool allow_runtime_ = false, runtime_seen_ = false;
  std::string const_what_;
  TypeP bool_, int_, strlit_;
};

}  // namespace

std::vector<Word> check_program(Program& p, const std::vector<std::pair<std::string, std::string>>& params) {
  Checker c(p, params);
  c.run();
  return std::move(c.initial_);
}

}  // namespace playtest::lang
