// Labelled transition systems with inputs and outputs (seed 004 Definition 2.1, IOTS): the models
// of the ioco world (TorX, JTorX, TorXakis). States are dense numbers, actions are interned names
// with a kind; action 0 is the internal step tau and action 1 the quiescence observation delta.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace playtest::ioco {

using ActionId = std::uint32_t;
using StateId = std::uint32_t;

enum class ActionKind : std::uint8_t {
  internal,    // tau (CADP "i", mCRL2 "tau")
  quiescence,  // delta: the observation that no output comes (seed 004: null; Tretmans: delta)
  input,       // a stimulus the tester gives (L_I)
  output,      // a response the system gives (L_U)
};

struct Transition {
  StateId from;
  ActionId action;
  StateId to;
};

// An immutable LTS: transitions sorted by source state (compressed rows).
class Lts {
 public:
  static constexpr ActionId tau = 0;
  static constexpr ActionId delta = 1;

  Lts();
  // Adds an action; returns its id (the existing one if `name` is already known with the same kind).
  // Throws ModelError when `name` exists with another kind.
  ActionId add_action(std::string_view name, ActionKind kind);
  std::optional<ActionId> find_action(std::string_view name) const;

  // Freezes the system: `num_states` states 0..n-1, `initial`, the transitions (any order).
  // Throws InternalError on out-of-range ids (loaders check first and report locations).
  void set_structure(StateId num_states, StateId initial, std::vector<Transition> transitions);
  // Optional names of the states (e.g. from the JSON form); default: the numbers.
  void set_state_names(std::vector<std::string> names);

  StateId num_states() const { return num_states_; }
  StateId initial() const { return initial_; }
  std::uint32_t num_actions() const { return static_cast<std::uint32_t>(names_.size()); }
  std::uint32_t num_transitions() const { return static_cast<std::uint32_t>(action_.size()); }
  std::string_view action_name(ActionId a) const { return names_[a]; }
  ActionKind kind(ActionId a) const { return kinds_[a]; }
  bool is_input(ActionId a) const { return kinds_[a] == ActionKind::input; }
  bool is_output(ActionId a) const { return kinds_[a] == ActionKind::output; }
  std::string state_name(StateId s) const;

  // Out-transitions of state s: actions and targets, in parallel.
  std::span<const ActionId> out_actions(StateId s) const {
    return std::span<const ActionId>(action_).subspan(offsets_[s], offsets_[s + 1] - offsets_[s]);
  }
  std::span<const StateId> out_targets(StateId s) const {
    return std::span<const StateId>(target_).subspan(offsets_[s], offsets_[s + 1] - offsets_[s]);
  }
  // seed 004 §2: s is quiescent when it has neither an output nor an internal step.
  bool is_quiescent(StateId s) const;
  // A model with explicit "delta" transitions is taken as a suspension automaton given by hand
  // (as JTorX allows): quiescence is exactly what its delta transitions say, nothing is derived.
  bool has_explicit_delta() const { return explicit_delta_; }

  // The labels of the inputs and of the outputs, sorted by name.
  std::vector<std::string> input_names() const;
  std::vector<std::string> output_names() const;

 private:
  std::vector<std::string> names_;
  std::vector<ActionKind> kinds_;
  StateId num_states_ = 0, initial_ = 0;
  std::vector<std::uint32_t> offsets_{0};
  std::vector<ActionId> action_;
  std::vector<StateId> target_;
  std::vector<std::string> state_names_;
  bool explicit_delta_ = false;
};

// The name of a kind ("input", ...), for messages.
std::string_view to_string(ActionKind k);

}  // namespace playtest::ioco
