#include "playtest/ioco/suspension.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "playtest/base/error.hpp"

namespace playtest::ioco {

namespace {
std::uint64_t hash_set(std::span<const StateId> s) {
  std::uint64_t h = 0x9e3779b97f4a7c15ull ^ s.size();
  for (StateId x : s) {
    h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    h *= 0xbf58476d1ce4e5b9ull;
  }
  return h ^ (h >> 31);
}
}  // namespace

SuspensionAutomaton::SuspensionAutomaton(const Lts& lts, SuspensionOptions options)
    : lts_(&lts), options_(options), mark_(lts.num_states(), 0) {
  if (options_.max_sets == 0) throw UsageError("max_sets", "must be positive");
  std::vector<StateId> init{lts.initial()};
  close_in_place(init);
  intern(init);
}

void SuspensionAutomaton::close_in_place(std::vector<StateId>& set) {
  // Depth-first over tau steps; mark_ is all zero between calls.
  std::vector<StateId> stack;
  std::size_t n = 0;
  for (StateId s : set)
    if (!mark_[s]) {
      mark_[s] = 1;
      set[n++] = s;
      stack.push_back(s);
    }
  set.resize(n);
  while (!stack.empty()) {
    const StateId s = stack.back();
    stack.pop_back();
    auto acts = lts_->out_actions(s);
    auto tgts = lts_->out_targets(s);
    for (std::size_t k = 0; k < acts.size(); ++k)
      if (acts[k] == Lts::tau && !mark_[tgts[k]]) {
        mark_[tgts[k]] = 1;
        set.push_back(tgts[k]);
        stack.push_back(tgts[k]);
      }
  }
  for (StateId s : set) mark_[s] = 0;
  std::sort(set.begin(), set.end());
}

SetId SuspensionAutomaton::intern(const std::vector<StateId>& set) {
  const std::uint64_t h = hash_set(set);
  if (slots_.empty()) slots_.assign(64, 0);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    const std::uint32_t slot = slots_[i];
    if (slot == 0) break;
    const SetId q = slot - 1;
    if (set_hash_[q] == h && std::ranges::equal(states(q), set)) return q;
  }
  if (num_sets() >= options_.max_sets || members_.size() + set.size() > options_.max_members) {
    Diagnostic d;
    d.message = num_sets() >= options_.max_sets
                    ? fmt::format("the suspension automaton needs more than {} state sets (subset construction blow-up)",
                                  options_.max_sets)
                    : fmt::format("the state sets of the suspension automaton hold more than {} states in all "
                                  "(subset construction blow-up)",
                                  options_.max_members);
    d.notes.push_back("raise the bound (--max-sets) or reduce the nondeterminism of the model");
    throw ModelError(std::move(d));
  }
  const SetId q = num_sets();
  members_.insert(members_.end(), set.begin(), set.end());
  set_offsets_.push_back(static_cast<std::uint32_t>(members_.size()));
  set_hash_.push_back(h);
  succ_begin_.push_back(unexpanded);
  succ_end_.push_back(unexpanded);
  if ((num_sets() + 1) * 2 > slots_.size()) {
    slots_.assign(slots_.size() * 2, 0);
    const std::size_t m = slots_.size() - 1;
    for (SetId r = 0; r < num_sets(); ++r) {
      std::size_t i = set_hash_[r] & m;
      while (slots_[i] != 0) i = (i + 1) & m;
      slots_[i] = r + 1;
    }
  } else {
    std::size_t i = h & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = q + 1;
  }
  return q;
}

void SuspensionAutomaton::expand(SetId q) {
  if (succ_begin_[q] != unexpanded) return;
  // Collect (action, target) over the visible transitions of the members, grouped by action.
  std::vector<std::pair<ActionId, StateId>> steps;
  bool any_output = false, any_quiescent = false;
  for (StateId s : states(q)) {
    auto acts = lts_->out_actions(s);
    auto tgts = lts_->out_targets(s);
    for (std::size_t k = 0; k < acts.size(); ++k) {
      if (acts[k] == Lts::tau) continue;
      if (lts_->is_output(acts[k]) || acts[k] == Lts::delta) any_output = true;
      steps.emplace_back(acts[k], tgts[k]);
    }
    if (lts_->is_quiescent(s)) any_quiescent = true;
  }
  std::sort(steps.begin(), steps.end());
  std::vector<std::pair<ActionId, SetId>> succ;
  std::vector<StateId> set;
  for (std::size_t i = 0; i < steps.size();) {
    std::size_t j = i;
    set.clear();
    while (j < steps.size() && steps[j].first == steps[i].first) set.push_back(steps[j++].second);
    close_in_place(set);
    succ.emplace_back(steps[i].first, intern(set));
    i = j;
  }
  // delta: the quiescent members (already tau-closed: they have no tau step). A divergent set
  // (no output, no quiescent member) observes its silence as quiescence and stays where it is.
  if (lts_->has_explicit_delta()) {
    if (!any_output) succ.emplace_back(Lts::delta, q);
  } else if (any_quiescent) {
    set.clear();
    for (StateId s : states(q))
      if (lts_->is_quiescent(s)) set.push_back(s);
    succ.emplace_back(Lts::delta, intern(set));
  } else if (!any_output) {
    succ.emplace_back(Lts::delta, q);
  }
  std::sort(succ.begin(), succ.end());
  succ_begin_[q] = static_cast<std::uint32_t>(succ_action_.size());
  for (auto [a, t] : succ) {
    succ_action_.push_back(a);
    succ_target_.push_back(t);
  }
  succ_end_[q] = static_cast<std::uint32_t>(succ_action_.size());
}

SetId SuspensionAutomaton::after(SetId q, ActionId a) {
  expand(q);
  auto acts = span_of(succ_action_, q);
  auto it = std::lower_bound(acts.begin(), acts.end(), a);
  if (it == acts.end() || *it != a) return no_set;
  return succ_target_[succ_begin_[q] + static_cast<std::uint32_t>(it - acts.begin())];
}

std::vector<ActionId> SuspensionAutomaton::outputs(SetId q) {
  std::vector<ActionId> r;
  for (ActionId a : actions(q))
    if (a == Lts::delta || lts_->is_output(a)) r.push_back(a);
  return r;
}

std::vector<ActionId> SuspensionAutomaton::inputs(SetId q) {
  std::vector<ActionId> r;
  for (ActionId a : actions(q))
    if (lts_->is_input(a)) r.push_back(a);
  return r;
}

bool SuspensionAutomaton::has_input(SetId q) {
  for (ActionId a : actions(q))
    if (lts_->is_input(a)) return true;
  return false;
}

void SuspensionAutomaton::expand_all() {
  for (SetId q = 0; q < num_sets(); ++q) expand(q);
}

}  // namespace playtest::ioco
