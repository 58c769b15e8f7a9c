// Helpers for the ioco tests: random small LTSs and a naive, set-of-states reading of the ioco
// definitions that shares no code with the library.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "playtest/graph/random.hpp"
#include "playtest/ioco/lts_io.hpp"

namespace ioco_test {

using playtest::Rng;
using playtest::ioco::Lts;

// A random LTS over inputs a, b and outputs x, y with `n` states; tau with some probability.
inline Lts random_lts(Rng& rng, std::uint32_t n, std::uint32_t edges, bool input_enabled) {
  static const char* labels[] = {"?a", "?b", "!x", "!y", "tau"};
  std::string body;
  std::uint32_t count = 0;
  for (std::uint32_t k = 0; k < edges; ++k) {
    const auto from = rng.below(n), to = rng.below(n);
    const auto l = rng.below(10) < 2 ? 4 : rng.below(4);
    body += "(" + std::to_string(from) + ", \"" + labels[l] + "\", " + std::to_string(to) + ")\n";
    ++count;
  }
  if (input_enabled)
    for (std::uint32_t s = 0; s < n; ++s)
      for (const char* in : {"?a", "?b"}) {
        body += "(" + std::to_string(s) + ", \"" + in + "\", " + std::to_string(rng.below(n)) + ")\n";
        ++count;
      }
  // Make sure every label exists with its kind in every LTS (a dead extra state carries them).
  for (const char* l : labels) {
    body += "(" + std::to_string(n) + ", \"" + l + "\", " + std::to_string(n) + ")\n";
    ++count;
  }
  return playtest::ioco::parse_aut("des (0, " + std::to_string(count) + ", " + std::to_string(n + 1) + ")\n" + body);
}

// Naive semantics on bitmasks (<= 32 states).
struct Naive {
  const Lts& l;
  std::uint32_t closure(std::uint32_t set) const {
    for (bool grew = true; grew;) {
      grew = false;
      for (std::uint32_t s = 0; s < l.num_states(); ++s) {
        if (!(set >> s & 1)) continue;
        auto a = l.out_actions(s);
        auto t = l.out_targets(s);
        for (std::size_t k = 0; k < a.size(); ++k)
          if (a[k] == Lts::tau && !(set >> t[k] & 1)) {
            set |= 1u << t[k];
            grew = true;
          }
      }
    }
    return set;
  }
  bool quiescent(std::uint32_t s) const {
    for (auto a : l.out_actions(s))
      if (a == Lts::tau || l.is_output(a)) return false;
    return true;
  }
  // After a visible label (by name, "delta" for quiescence); 0 when impossible.
  std::uint32_t after(std::uint32_t set, const std::string& name) const {
    if (name == "delta") {
      std::uint32_t q = 0;
      bool any_out = false;
      for (std::uint32_t s = 0; s < l.num_states(); ++s) {
        if (!(set >> s & 1)) continue;
        if (quiescent(s)) q |= 1u << s;
        for (auto a : l.out_actions(s)) any_out = any_out || l.is_output(a);
      }
      if (q == 0 && !any_out) return set;  // divergence observed as quiescence
      return q;
    }
    std::uint32_t r = 0;
    for (std::uint32_t s = 0; s < l.num_states(); ++s) {
      if (!(set >> s & 1)) continue;
      auto a = l.out_actions(s);
      auto t = l.out_targets(s);
      for (std::size_t k = 0; k < a.size(); ++k)
        if (a[k] != Lts::tau && l.action_name(a[k]) == name) r |= 1u << t[k];
    }
    return r ? closure(r) : 0;
  }
  std::uint32_t initial() const { return closure(1u << l.initial()); }
  std::uint32_t after_trace(const std::vector<std::string>& trace) const {
    std::uint32_t q = initial();
    for (const auto& x : trace) {
      if (!q) return 0;
      q = after(q, x);
    }
    return q;
  }
};

}  // namespace ioco_test
