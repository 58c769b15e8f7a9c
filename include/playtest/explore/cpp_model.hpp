// The C++ model API: a model program written in C++20 next to the code it tests (seed 001 §1: a
// state type, controllable and observable actions with guards and effects, costs, weights, a final
// predicate), explored, solved and run by playtest inside a GoogleTest test. It implements the same
// abstract Model as the modelling language, so both give the same test graph for the same model.
//
//   struct Counter { int x = 0; bool operator==(const Counter&) const = default; };
//   CppModel<Counter> m{Counter{}};
//   m.controllable("Inc", [](const Counter& s) { return s.x < 3; }, [](Counter& s) { ++s.x; });
//   m.observable("Tick", std::vector<int>{1, 2}, [](const Counter& s, int d) { return s.x >= d; },
//                [](Counter& s, int d) { s.x -= d; });
//   m.final([](const Counter& s) { return s.x == 0; });
//   ExploreResult r = explore(m);
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/explore/model.hpp"

namespace playtest {

// Label text of an action argument, in the notation of the modelling language: integers in
// decimal, true/false, strings in double quotes, tuples and pairs as (a, b), vectors as [a, b].
template <class T>
std::string label_arg(const T& v);

namespace detail {
template <class T>
struct is_tuple_like : std::false_type {};
template <class... Ts>
struct is_tuple_like<std::tuple<Ts...>> : std::true_type {};
template <class A, class B>
struct is_tuple_like<std::pair<A, B>> : std::true_type {};
template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

inline std::string quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}
}  // namespace detail

template <class T>
std::string label_arg(const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_integral_v<T>) {
    return std::to_string(v);
  } else if constexpr (std::is_enum_v<T>) {
    return std::to_string(static_cast<std::underlying_type_t<T>>(v));
  } else if constexpr (std::is_convertible_v<const T&, std::string_view>) {
    return detail::quote(std::string_view(v));
  } else if constexpr (detail::is_tuple_like<T>::value) {
    std::string out = "(";
    std::apply([&](const auto&... xs) {
      bool first = true;
      ((out += (first ? "" : ", ") + label_arg(xs), first = false), ...);
    }, v);
    return out + ")";
  } else if constexpr (detail::is_vector<T>::value) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + label_arg(v[i]);
    return out + "]";
  } else {
    static_assert(sizeof(T) == 0, "label_arg: give the action a label function for this parameter type");
  }
}

struct CppActionOptions {
  double cost = 1.0;
  double weight = 1.0;  // observable actions only
  std::vector<std::string> traps;  // test-purpose traps this action hits (seed 002 §3.4)
  std::uint32_t delay_ms = 0;      // controllable actions: a delay (the tester waits, sends nothing)
  bool anytime = false;            // observable actions: may come at any time, also in active states
};

template <class S>
concept ModelState = std::copyable<S> && std::equality_comparable<S> &&
                     ((std::is_trivially_copyable_v<S> && std::has_unique_object_representations_v<S>) ||
                      requires(const S& s) { { std::hash<S>{}(s) } -> std::convertible_to<std::size_t>; });

template <ModelState S>
class CppModel final : public Model {
 public:
  explicit CppModel(S initial, std::string name = "model") : initial_(std::move(initial)), name_(std::move(name)) {}

  // An action without parameters; its label is `name`.
  CppModel& controllable(std::string name, std::function<bool(const S&)> guard, std::function<void(S&)> effect,
                         CppActionOptions o = {}) {
    return add_plain(ActionKind::controllable, std::move(name), std::move(guard), std::move(effect), std::move(o));
  }
  CppModel& observable(std::string name, std::function<bool(const S&)> guard, std::function<void(S&)> effect,
                       CppActionOptions o = {}) {
    return add_plain(ActionKind::observable, std::move(name), std::move(guard), std::move(effect), std::move(o));
  }
  // An action with a parameter drawn from a finite domain; label "name(arg)" (a tuple parameter
  // gives "name(a, b)").
  template <class P>
  CppModel& controllable(std::string name, std::vector<P> domain, std::function<bool(const S&, const P&)> guard,
                         std::function<void(S&, const P&)> effect, CppActionOptions o = {}) {
    return add_param<P>(ActionKind::controllable, std::move(name), std::move(domain), std::move(guard),
                        std::move(effect), std::move(o));
  }
  template <class P>
  CppModel& observable(std::string name, std::vector<P> domain, std::function<bool(const S&, const P&)> guard,
                       std::function<void(S&, const P&)> effect, CppActionOptions o = {}) {
    return add_param<P>(ActionKind::observable, std::move(name), std::move(domain), std::move(guard),
                        std::move(effect), std::move(o));
  }
  CppModel& final(std::function<bool(const S&)> f) {
    final_ = std::move(f);
    return *this;
  }
  // Per-state timeout of passive states; return nullopt where the system must speak.
  CppModel& timeout(std::function<std::optional<TimeoutSpec>(const S&)> f) {
    timeout_ = std::move(f);
    return *this;
  }
  // Per-state wait for an output at passive states, in ms (0: the runner's default).
  CppModel& timeout_ms(std::function<std::uint32_t(const S&)> f) {
    timeout_ms_ = std::move(f);
    return *this;
  }
  CppModel& resettable(double cost) {
    reset_cost_ = cost;
    return *this;
  }
  CppModel& describe(std::function<std::string(const S&)> f) {
    describe_ = std::move(f);
    return *this;
  }

  // The C++ state behind an encoded state (for lazy users of a StateSpace over this model).
  S decode(std::span<const std::byte> bytes) const {
    if constexpr (fast) {
      S s = initial_;
      std::memcpy(static_cast<void*>(&s), bytes.data(), sizeof(S));
      return s;
    } else {
      std::uint32_t id;
      std::memcpy(&id, bytes.data(), sizeof id);
      return table_[id];
    }
  }

  // Model
  std::string name() const override { return name_; }
  std::size_t state_size() const override { return fast ? sizeof(S) : sizeof(std::uint32_t); }
  void initial_state(std::span<std::byte> out) const override { encode(initial_, out); }
  void successors(std::span<const std::byte> state, SuccessorSink& sink) const override {
    const S s = decode(state);
    std::byte buf[fast ? sizeof(S) : sizeof(std::uint32_t)];
    for (const Rule& r : rules_) {
      for (std::uint32_t i = 0; i < r.count; ++i) {
        if (!r.guard(s, i)) continue;
        S next = s;
        r.effect(next, i);
        encode(next, buf);
        sink.add(Transition{r.label_base + i, r.kind, r.cost, r.weight, r.traps, r.delay_ms, r.anytime}, buf);
      }
    }
  }
  bool is_final(std::span<const std::byte> state) const override { return final_ && final_(decode(state)); }
  std::optional<TimeoutSpec> timeout(std::span<const std::byte> state) const override {
    return timeout_ ? timeout_(decode(state)) : std::optional<TimeoutSpec>(TimeoutSpec{});
  }
  std::uint32_t timeout_ms(std::span<const std::byte> state) const override {
    return timeout_ms_ ? timeout_ms_(decode(state)) : 0;
  }
  std::string label_text(std::uint32_t label) const override { return labels_.at(label); }
  std::string state_text(std::span<const std::byte> state) const override {
    if (describe_) return describe_(decode(state));
    std::string out = "#";
    static constexpr char hex[] = "0123456789abcdef";
    for (std::byte b : state) {
      out += hex[static_cast<unsigned>(b) >> 4];
      out += hex[static_cast<unsigned>(b) & 15];
    }
    return out;
  }
  std::uint32_t num_traps() const override { return static_cast<std::uint32_t>(trap_names_.size()); }
  std::string trap_name(std::uint32_t t) const override { return trap_names_.at(t); }
  std::optional<double> reset_cost() const override { return reset_cost_; }

 private:
  static constexpr bool fast = std::is_trivially_copyable_v<S> && std::has_unique_object_representations_v<S>;
  struct Rule {
    ActionKind kind;
    std::uint32_t label_base, count;
    std::function<bool(const S&, std::uint32_t)> guard;
    std::function<void(S&, std::uint32_t)> effect;
    double cost, weight;
    std::vector<std::uint32_t> traps;
    std::uint32_t delay_ms = 0;
    bool anytime = false;
  };

  void encode(const S& s, std::span<std::byte> out) const {
    if constexpr (fast) {
      std::memcpy(out.data(), static_cast<const void*>(&s), sizeof(S));
    } else {
      auto [it, added] = index_.try_emplace(s, static_cast<std::uint32_t>(table_.size()));
      if (added) table_.push_back(s);
      std::memcpy(out.data(), &it->second, sizeof(std::uint32_t));
    }
  }
  std::vector<std::uint32_t> trap_ids(const std::vector<std::string>& names) {
    std::vector<std::uint32_t> ids;
    for (const auto& n : names) {
      std::uint32_t k = 0;
      while (k < trap_names_.size() && trap_names_[k] != n) ++k;
      if (k == trap_names_.size()) trap_names_.push_back(n);
      ids.push_back(k);
    }
    return ids;
  }
  CppModel& add_plain(ActionKind kind, std::string name, std::function<bool(const S&)> guard,
                      std::function<void(S&)> effect, CppActionOptions o) {
    if (!guard || !effect) throw ModelError("CppModel: action '" + name + "' needs a guard and an effect");
    const auto base = static_cast<std::uint32_t>(labels_.size());
    labels_.push_back(std::move(name));
    rules_.push_back(Rule{kind, base, 1, [g = std::move(guard)](const S& s, std::uint32_t) { return g(s); },
                          [e = std::move(effect)](S& s, std::uint32_t) { e(s); }, o.cost, o.weight, trap_ids(o.traps),
                          o.delay_ms, o.anytime});
    return *this;
  }
  template <class P>
  CppModel& add_param(ActionKind kind, std::string name, std::vector<P> domain,
                      std::function<bool(const S&, const P&)> guard, std::function<void(S&, const P&)> effect,
                      CppActionOptions o) {
    if (!guard || !effect) throw ModelError("CppModel: action '" + name + "' needs a guard and an effect");
    const auto base = static_cast<std::uint32_t>(labels_.size());
    for (const P& p : domain) {
      if constexpr (detail::is_tuple_like<P>::value)
        labels_.push_back(name + label_arg(p));
      else
        labels_.push_back(name + "(" + label_arg(p) + ")");
    }
    auto dom = std::make_shared<std::vector<P>>(std::move(domain));
    rules_.push_back(Rule{kind, base, static_cast<std::uint32_t>(dom->size()),
                          [g = std::move(guard), dom](const S& s, std::uint32_t i) { return g(s, (*dom)[i]); },
                          [e = std::move(effect), dom](S& s, std::uint32_t i) { e(s, (*dom)[i]); }, o.cost, o.weight,
                          trap_ids(o.traps), o.delay_ms, o.anytime});
    return *this;
  }

  struct Hash {
    std::size_t operator()(const S& s) const {
      if constexpr (fast)
        return 0;  // unused
      else
        return std::hash<S>{}(s);
    }
  };

  S initial_;
  std::string name_;
  std::vector<Rule> rules_;
  std::vector<std::string> labels_;
  std::vector<std::string> trap_names_;
  std::function<bool(const S&)> final_;
  std::function<std::optional<TimeoutSpec>(const S&)> timeout_;
  std::function<std::uint32_t(const S&)> timeout_ms_;
  std::function<std::string(const S&)> describe_;
  std::optional<double> reset_cost_;
  // Slow path (states that are not plain bytes): states interned by equality and hash.
  mutable std::vector<S> table_;
  mutable std::unordered_map<S, std::uint32_t, Hash> index_;
};

}  // namespace playtest
