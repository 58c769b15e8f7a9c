// Values the system chooses (docs/language.md "Values the system chooses"; seed 001 §1: "the model
// tells you that any non-timeout action enabled in s returns a positive integer but the IUT ...
// returns -1"). A model program's labels may hold
//
//  * slots: symbolic names (Job#0, Job#1, ...) of a finite slot type `type Job = slot<int, 3>;`
//    standing for values the system invents (ids, handles). The explored graph has the slots, so it
//    stays finite; a run binds each slot to the concrete value the system gave, and a stimulus that
//    uses the slot is sent with that value;
//  * free values, shown as `_`: a parameter of an observable action of type int or string, a value
//    the system chooses that the state does not keep;
//
// and `require` guards that read them (run-time guards), which the runner checks on the concrete
// output. This header is the model's side; run/run_values.hpp matches outputs during a run.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace playtest {

// A scalar of a label, as the system wrote it.
struct ConcreteValue {
  bool is_string = false;
  std::int64_t number = 0;  // integers
  std::string text;         // strings: the content (unquoted)
  // The value as labels write it: the integer in decimal, the string in double quotes with \" and \\.
  std::string label() const;
  bool operator==(const ConcreteValue&) const = default;
};

// The concrete values a slot type stands for.
struct SlotType {
  std::string name;         // the type's name: its slots are written name#0, name#1, ...
  std::uint32_t count = 0;  // the number of slots (at most 64)
  bool is_string = false;   // values are strings (else integers)
  std::optional<std::pair<std::int64_t, std::int64_t>> range;  // integers: the range lo..hi, if declared
};

// A parameter of an action, as the runner matches it.
enum class ParamKind : std::uint8_t {
  fixed,        // enumerated by the exploration: the label holds its value (which may contain slots)
  free_int,     // a free value of type int: `_` in the label
  free_string,  // a free value of type string: `_` in the label
};

struct ActionShape {
  std::string name;
  bool observable = false;
  std::vector<ParamKind> params;
  bool runtime_guards = false;  // some `require` reads a free value or a slot's value()
};

// A guard that a concrete output broke.
struct GuardFailure {
  std::string guard;  // its source text, "require value(j) > 0"
  std::string where;  // file:line:column
};

class ModelValues {
 public:
  virtual ~ModelValues() = default;
  // True when some label holds a slot or a free value: runs must then match outputs by value.
  virtual bool has_values() const = 0;
  virtual std::span<const SlotType> slot_types() const = 0;
  // The action named `name` (without the '?' of outputs), or null.
  virtual const ActionShape* action(std::string_view name) const = 0;
  virtual std::span<const ActionShape> actions() const = 0;
  // Whether `label` ("Name(...)" or "?Name(...)", as the explored graph writes them) is the label of
  // an action instance of the model.
  virtual bool is_label(std::string_view label) const = 0;
  // The slots `state` holds (through its variables: sets, sequences, maps): bit k of live[t] is set
  // when slot k of slot type t is in use there. `live` has one entry per slot type.
  virtual void live_slots(std::span<const std::byte> state, std::span<std::uint64_t> live) const = 0;
  // Checks the run-time guards of the output `label` (an edge label of the explored graph, "?Name(...)")
  // in `state`, with `free` the concrete values of its free parameters in order and `slot_value`
  // the concrete value of a slot (null when it has none). Returns the first guard that does not
  // hold. Throws ModelError when a guard fails to evaluate (value() of a slot without a value).
  virtual std::optional<GuardFailure> check_guards(
      std::span<const std::byte> state, std::string_view label, std::span<const ConcreteValue> free,
      const std::function<const ConcreteValue*(std::uint32_t type, std::uint32_t slot)>& slot_value) const = 0;
};

// Labels as the modelling language writes them: Name, Name(a, b), ?Name(...) for outputs.
// The action name of a label (without '?' and arguments).
std::string_view label_action(std::string_view label);
// The top-level arguments of a label (each as written), or nullopt when the label has no balanced
// argument list (an unterminated string, a missing parenthesis). A label without '(' has none.
std::optional<std::vector<std::string_view>> label_arguments(std::string_view label);
// Reads one scalar at the start of `text`: an integer ("-17") or a string ("\"a\\\"b\""), written
// as the language writes them (no '+', no leading zeros, only \" and \\ escapes). Returns the
// value and the number of characters read, or nullopt.
std::optional<std::pair<ConcreteValue, std::size_t>> read_concrete(std::string_view text);

}  // namespace playtest
