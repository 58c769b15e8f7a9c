// The suspension automaton of an LTS (seed 004 Definition 2.4), determinized on the fly: its states
// are tau-closed sets of LTS states, its actions the inputs, the outputs and delta (quiescence,
// the paper's null). A set is expanded (all its successors computed) the first time it is asked.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "playtest/ioco/lts.hpp"

namespace playtest::ioco {

using SetId = std::uint32_t;
inline constexpr SetId no_set = ~SetId{0};

struct SuspensionOptions {
  // Maximum number of state sets; building more throws ModelError (the subset construction can
  // blow up exponentially on nondeterministic models).
  std::uint32_t max_sets = 1'000'000;
  // Maximum number of LTS states summed over all sets (memory: 4 bytes each).
  std::uint64_t max_members = 100'000'000;
};

class SuspensionAutomaton {
 public:
  explicit SuspensionAutomaton(const Lts& lts, SuspensionOptions options = {});

  const Lts& lts() const { return *lts_; }
  SetId initial() const { return 0; }
  std::uint32_t num_sets() const { return static_cast<std::uint32_t>(set_offsets_.size() - 1); }
  // The LTS states in set q, sorted.
  std::span<const StateId> states(SetId q) const {
    return std::span<const StateId>(members_).subspan(set_offsets_[q], set_offsets_[q + 1] - set_offsets_[q]);
  }

  // The successors of q, sorted by action id: inputs, outputs and delta (expands q when needed).
  // Divergence: a set with neither an output nor a quiescent state (only tau cycles) gets
  // delta to itself, so that every set has at least one output (docs/ioco.md).
  std::span<const ActionId> actions(SetId q) { expand(q); return span_of(succ_action_, q); }
  std::span<const SetId> targets(SetId q) { expand(q); return span_of(succ_target_, q); }
  // q after a, or no_set when a is not possible in q.
  SetId after(SetId q, ActionId a);
  // out(q) (seed 004 Definition 2.5): the outputs and delta possible in q, by action id.
  std::vector<ActionId> outputs(SetId q);
  std::vector<ActionId> inputs(SetId q);
  bool has_input(SetId q);

  // Expands every reachable set (breadth first); throws ModelError past max_sets.
  void expand_all();
  bool is_expanded(SetId q) const { return succ_begin_[q] != unexpanded; }

 private:
  static constexpr std::uint32_t unexpanded = ~std::uint32_t{0};
  template <class T>
  std::span<const T> span_of(const std::vector<T>& v, SetId q) const {
    return std::span<const T>(v).subspan(succ_begin_[q], succ_end_[q] - succ_begin_[q]);
  }
  void expand(SetId q);
  void close_in_place(std::vector<StateId>& set);  // tau-closure, sorted, unique
  SetId intern(const std::vector<StateId>& set);

  const Lts* lts_;
  SuspensionOptions options_;
  std::vector<StateId> members_;
  std::vector<std::uint32_t> set_offsets_{0};
  std::vector<std::uint64_t> set_hash_;
  std::vector<std::uint32_t> slots_;  // open addressing: set id + 1, 0 = empty
  std::vector<std::uint32_t> succ_begin_, succ_end_;
  std::vector<ActionId> succ_action_;
  std::vector<SetId> succ_target_;
  std::vector<std::uint8_t> mark_;  // scratch, per LTS state
};

}  // namespace playtest::ioco
