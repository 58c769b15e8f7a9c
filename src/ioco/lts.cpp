#include "playtest/ioco/lts.hpp"
#include <algorithm>

#include <stdexcept>
#include "playtest/base/error.hpp"

namespace playtest::ioco {

Lts::Lts() : names_{"tau", "delta"}, kinds_{ActionKind::internal, ActionKind::quiescence} {}

ActionId Lts::add_action(std::string_view name, ActionKind kind) {
  if (name == "delta" && kind == ActionKind::quiescence) return delta;
  if (name == "tau" && kind == ActionKind::internal) return tau;
  if (auto a = find_action(name)) {
    if (kinds_[*a] != kind)
      throw ModelError("the action '" + std::string(name) + "' is both an input and an output");
    return *a;
  }
  names_.emplace_back(name);
  kinds_.push_back(kind);
  return static_cast<ActionId>(names_.size() - 1);
}

std::optional<ActionId> Lts::find_action(std::string_view name) const {
  // Alphabets are small (tens of labels); a linear scan beats hashing here.
  for (std::size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) return static_cast<ActionId>(i);
  return std::nullopt;
}

void Lts::set_structure(StateId num_states, StateId initial, std::vector<Transition> transitions) {
  if (num_states == 0 || initial >= num_states)
    throw InternalError("Lts::set_structure: the initial state must be one of the states");
  for (const auto& t : transitions)
    if (t.from >= num_states || t.to >= num_states || t.action >= names_.size())
      throw InternalError("Lts::set_structure: transition out of range");
  explicit_delta_ = false;
  for (const auto& t : transitions) explicit_delta_ = explicit_delta_ || t.action == delta;
  std::stable_sort(transitions.begin(), transitions.end(), [](const Transition& a, const Transition& b) {
    return a.from < b.from;
  });
  num_states_ = num_states;
  initial_ = initial;
  offsets_.assign(num_states + 1, 0);
  action_.resize(transitions.size());
  target_.resize(transitions.size());
  for (std::size_t i = 0; i < transitions.size(); ++i) {
    ++offsets_[transitions[i].from + 1];
    action_[i] = transitions[i].action;
    target_[i] = transitions[i].to;
  }
  for (StateId s = 0; s < num_states; ++s) offsets_[s + 1] += offsets_[s];
}

void Lts::set_state_names(std::vector<std::string> names) {
  if (names.size() != num_states_) throw InternalError("Lts::set_state_names: one name per state");
  state_names_ = std::move(names);
}

std::string Lts::state_name(StateId s) const {
  return state_names_.empty() ? std::to_string(s) : state_names_[s];
}

bool Lts::is_quiescent(StateId s) const {
  for (ActionId a : out_actions(s))
    if (kinds_[a] == ActionKind::output || kinds_[a] == ActionKind::internal) return false;
  return true;
}

namespace {
std::vector<std::string> names_of(const std::vector<std::string>& names, const std::vector<ActionKind>& kinds,
                                  ActionKind k) {
  std::vector<std::string> r;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (kinds[i] == k) r.push_back(names[i]);
  std::sort(r.begin(), r.end());
  return r;
}
}  // namespace

std::vector<std::string> Lts::input_names() const { return names_of(names_, kinds_, ActionKind::input); }
std::vector<std::string> Lts::output_names() const { return names_of(names_, kinds_, ActionKind::output); }

std::string_view to_string(ActionKind k) {
  switch (k) {
    case ActionKind::internal: return "internal";
    case ActionKind::quiescence: return "quiescence";
    case ActionKind::input: return "input";
    case ActionKind::output: return "output";
  }
  return "?";
}

}  // namespace playtest::ioco
