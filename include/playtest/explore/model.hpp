// The abstract model program (seed 001 §1): states, enabled controllable and observable actions,
// costs, weights, the final predicate, traps (seed 002 §3.4), reset and per-state timeouts. One
// interface serves the modelling language (lang/) and the C++ model API (explore/cpp_model.hpp), so
// the explorer, the lazy state space and the runner never care where a model came from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace playtest {

class ModelValues;

// A controllable action is a stimulus the tester applies; an observable action is an output of the
// system under test. A state where an observable action is enabled is passive (seed 001 §1).
enum class ActionKind : std::uint8_t { controllable = 0, observable = 1 };

// One enabled action as a model reports it.
struct Transition {
  std::uint32_t label = 0;  // the model's own label id; Model::label_text(label) gives its text
  ActionKind kind = ActionKind::controllable;
  double cost = 1.0;                     // finite, >= 0
  double weight = 1.0;                   // observable actions: > 0, relative likelihood among the enabled outputs
  std::span<const std::uint32_t> traps;  // ids of the traps (test purposes) this transition hits
  // Controllable actions: a delay (docs/language.md "Time"): the tester's move of waiting this many
  // ms itself; nothing is sent to the system. 0: a stimulus.
  std::uint32_t delay_ms = 0;
  // Observable actions: the output may come at any time, also while the tester is about to act (an
  // "anytime" observable): a state where only such outputs are enabled stays active, with an observe
  // edge to a passive vertex of those outputs (docs/language.md "Outputs at any time").
  bool anytime = false;
};

// The timeout of a passive state: the cost of waiting for it and its weight among the outputs.
struct TimeoutSpec {
  double cost = 1.0;
  double weight = 1.0;
};

// Receives the enabled actions of a state, each with the encoded successor state.
class SuccessorSink {
 public:
  virtual void add(const Transition& t, std::span<const std::byte> next_state) = 0;

 protected:
  ~SuccessorSink() = default;
};

// State abstraction (seed 001 §1: "follow only the values of these functions"): states whose
// projections are equal are merged; exploration continues from the first one found.
struct Projection {
  std::size_t size = 0;  // bytes of a projected key
  std::function<void(std::span<const std::byte> state, std::span<std::byte> key)> project;
};

// A model program. States are fixed-size byte strings of state_size() bytes: two states are the
// same state exactly when their bytes are equal (the encoding must be canonical).
class Model {
 public:
  virtual ~Model() = default;

  virtual std::string name() const { return "model"; }
  virtual std::size_t state_size() const = 0;
  virtual void initial_state(std::span<std::byte> out) const = 0;
  // Calls sink.add once per enabled action instance. Throws ModelError when the model itself fails
  // in this state (division by zero, a value out of range), naming the state and the action.
  virtual void successors(std::span<const std::byte> state, SuccessorSink& sink) const = 0;
  // The goal of the reachability game: the tester may stop in an active final state.
  virtual bool is_final(std::span<const std::byte> state) const = 0;
  // False when no state can be final (a model program without `final`): known before exploring,
  // so that a purpose to reach a final state is refused up front even on the fly.
  virtual bool may_have_final_states() const { return true; }
  // The timeout edge of a passive state, or none: the system must then produce an output.
  virtual std::optional<TimeoutSpec> timeout(std::span<const std::byte> state) const {
    (void)state;
    return TimeoutSpec{};
  }
  // How long the tester waits for an output in a passive state before it judges silence, in ms
  // (seed 001 §1: "a state-dependent timeout"); 0 when the model does not say (the runner's own
  // default applies). Asked for passive states only; at most 2^31 - 1.
  virtual std::uint32_t timeout_ms(std::span<const std::byte> state) const {
    (void)state;
    return 0;
  }
  virtual std::string label_text(std::uint32_t label) const = 0;
  virtual std::string state_text(std::span<const std::byte> state) const = 0;

  virtual std::uint32_t num_traps() const { return 0; }
  virtual std::string trap_name(std::uint32_t trap) const { return "trap" + std::to_string(trap); }
  // The cost of resetting the system under test to the initial state; none when it cannot be reset.
  virtual std::optional<double> reset_cost() const { return std::nullopt; }
  // The model's parameters (the language's `param`) with their values, given or default, as text
  // (docs/adapter-protocol.md: the adapter gets them as PLAYTEST_PARAM_<NAME>).
  virtual std::vector<std::pair<std::string, std::string>> parameters() const { return {}; }
  // The abstraction the model asks for itself (the language's `abstract` declaration).
  virtual std::optional<Projection> projection() const { return std::nullopt; }
  // The shapes of its actions and the values its labels hold (explore/model_values.hpp): slots and
  // free values that runs match by value; null when the model does not describe them.
  virtual const ModelValues* values() const { return nullptr; }
};

}  // namespace playtest
