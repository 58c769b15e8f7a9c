#include "playtest/ioco/ioco_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "playtest/base/error.hpp"

namespace playtest::ioco {

namespace {

// Maps the actions of `from` to those of `to` by name (none when `to` lacks the label).
std::vector<ActionId> action_map(const Lts& from, const Lts& to) {
  std::vector<ActionId> m(from.num_actions(), ~ActionId{0});
  m[Lts::tau] = Lts::tau;
  m[Lts::delta] = Lts::delta;
  for (ActionId a = 2; a < from.num_actions(); ++a) {
    if (auto b = to.find_action(from.action_name(a))) {
      if (to.kind(*b) != from.kind(a))
        throw ModelError(fmt::format("label '{}' is an {} of the implementation but an {} of the specification",
                                     from.action_name(a), to_string(from.kind(a)), to_string(to.kind(*b))));
      m[a] = *b;
    }
  }
  return m;
}

std::vector<std::string> names(const Lts& l, const std::vector<ActionId>& as) {
  std::vector<std::string> r;
  for (ActionId a : as) r.emplace_back(l.action_name(a));
  std::sort(r.begin(), r.end());
  return r;
}

}  // namespace

IocoResult check_ioco(const Lts& impl, const Lts& spec, const IocoOptions& options) {
  const std::vector<ActionId> i2s = action_map(impl, spec);
  (void)action_map(spec, impl);  // checks kinds in the other direction too
  SuspensionAutomaton si(impl, {.max_sets = options.max_sets});
  SuspensionAutomaton ss(spec, {.max_sets = options.max_sets});
  struct Node {
    SetId qi, qs;
    std::uint32_t parent;
    ActionId action;  // impl action id that led here
  };
  std::vector<Node> nodes{{si.initial(), ss.initial(), ~0u, 0}};
  std::unordered_map<std::uint64_t, std::uint32_t> seen{{0, 0}};
  auto key = [](SetId a, SetId b) { return (std::uint64_t{a} << 32) | b; };
  IocoResult result;
  auto trace_to = [&](std::uint32_t n) {
    std::vector<std::string> t;
    for (; nodes[n].parent != ~0u; n = nodes[n].parent) t.emplace_back(impl.action_name(nodes[n].action));
    std::reverse(t.begin(), t.end());
    return t;
  };
  for (std::uint32_t n = 0; n < nodes.size(); ++n) {
    const SetId qi = nodes[n].qi, qs = nodes[n].qs;
    ++result.pairs_explored;
    // Copy: expanding other sets may move the successor arrays.
    auto ia = si.actions(qi);
    const std::vector<ActionId> acts(ia.begin(), ia.end());
    auto it = si.targets(qi);
    const std::vector<SetId> tgts(it.begin(), it.end());
    for (std::size_t k = 0; k < acts.size(); ++k) {
      const ActionId a = acts[k];
      const ActionId b = i2s[a];
      const SetId next_s = b == ~ActionId{0} ? no_set : ss.after(qs, b);
      if (impl.is_input(a)) {
        if (next_s == no_set) continue;  // the specification does not allow this input here
      } else if (next_s == no_set) {     // an output or delta the specification does not allow
        result.conforms = false;
        result.counterexample = trace_to(n);
        result.counterexample.emplace_back(impl.action_name(a));
        result.allowed = names(spec, ss.outputs(qs));
        result.implemented = names(impl, si.outputs(qi));
        return result;
      }
      auto [pos, fresh] = seen.emplace(key(tgts[k], next_s), static_cast<std::uint32_t>(nodes.size()));
      if (fresh) nodes.push_back({tgts[k], next_s, n, a});
    }
  }
  return result;
}

std::vector<std::string> out_after(const Lts& lts, const std::vector<std::string>& trace) {
  SuspensionAutomaton sa(lts);
  SetId q = sa.initial();
  for (const auto& label : trace) {
    auto a = lts.find_action(label);
    if (!a) throw ModelError(fmt::format("trace label '{}' is not an action of the model", label));
    q = sa.after(q, *a);
    if (q == no_set) return {};
  }
  return names(lts, sa.outputs(q));
}

}  // namespace playtest::ioco
