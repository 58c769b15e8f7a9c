// Values during a run (docs/language.md "Values the system chooses"): the bindings of a model's
// slots to the concrete values the system invented, the matching of a concrete output
// ("?Inserted(17)") against the symbolic labels of the model ("?Inserted(Job#0)", "?Size(_)") with
// the types and run-time guards, and the concrete text of a stimulus ("Delete(Job#0)" is sent as
// "Delete(17)"). One RunValues per run; the runner keeps it beside the model's vertex.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/explore/model.hpp"
#include "playtest/explore/model_values.hpp"

namespace playtest {

// What the runner needs to play a model whose labels hold values: the model (its ModelValues) and,
// for a graph explored before the run, the model state of each vertex (the vertex's id times
// state_size bytes into `states`). On the fly the graph knows its states and `states` is empty.
struct ValueContext {
  std::shared_ptr<const Model> model;
  std::vector<std::byte> states;
  std::size_t state_size = 0;

  const ModelValues& values() const { return *model->values(); }
  std::span<const std::byte> state(std::uint32_t vertex) const {
    return std::span<const std::byte>(states).subspan(std::size_t{vertex} * state_size, state_size);
  }
};

class RunValues {
 public:
  // `values` must outlive this; values.has_values() should be true.
  explicit RunValues(const ModelValues& values);

  // A run starts (or the system was reset): no slot has a value.
  void clear();

  struct OutputMatch {
    std::optional<std::size_t> candidate;  // the index of the candidate label that matched
    // Else, when a label of the same action as the output did not match only because of a value:
    // why, naming the run-time guard or the type it broke, or the slot whose value it is not.
    std::string broken;
  };
  // Matches the concrete output `observed` (as the adapter wrote it, "?Name(...)") against the
  // output labels `candidates` of the vertex whose model state is `state`. A slot the state holds
  // matches only its bound value; a slot it does not hold matches a value no held slot has (a value
  // the system just invented; the lowest such slot when several candidates allow it). On a match
  // the new bindings are kept. Throws ModelError when a run-time guard cannot be evaluated.
  OutputMatch match_output(std::span<const std::byte> state, std::span<const std::string_view> candidates,
                           std::string_view observed);

  // The concrete text of the stimulus `label`: its slots replaced by their values. Throws ModelError
  // for a slot that has no value (no output has given it one).
  std::string concrete(std::string_view label) const;

  // The value of slot `slot` of slot type `type`, if bound.
  const ConcreteValue* value(std::uint32_t type, std::uint32_t slot) const;

 private:
  struct SlotUse {
    std::uint32_t type, slot;
    ConcreteValue value;
  };
  struct Attempt {
    bool matched = false;
    std::string broken;   // a type or a guard the values broke
    std::string rebound;  // a slot given another value than before (or a value of a slot in use)
    std::vector<SlotUse> slots;
    std::vector<ConcreteValue> free;
  };
  Attempt attempt(std::span<const std::byte> state, std::span<const std::uint64_t> live, std::string_view candidate,
                  std::string_view observed) const;
  // Compares a symbolic argument with a concrete one: equal text, except that each slot of the
  // symbolic one matches one scalar of the concrete one (recorded in `out`).
  bool match_argument(std::string_view symbolic, std::string_view concrete, Attempt& out) const;
  // The slot type named `name`, if any.
  std::optional<std::uint32_t> slot_type(std::string_view name) const;

  const ModelValues& mv_;
  std::vector<std::vector<std::optional<ConcreteValue>>> bound_;  // [slot type][slot]
};

}  // namespace playtest
