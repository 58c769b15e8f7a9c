// The modelling language (docs/language.md): a model program in text, with typed bounded state
// variables, controllable and observable actions with finite parameters, guards and updates, costs,
// weights, a final predicate, traps, reset, timeouts and an abstraction (seed 001 §1, seed 002 §3).
// Compiling parses it, checks every name and type statically, and yields a playtest::Model.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/explore/model.hpp"

namespace playtest {

struct ModelParam {
  std::string name;
  std::string value;  // an integer, true or false
};

// Splits "NAME=VALUE" (as given to --param); throws Error when there is no '='.
ModelParam parse_model_param(std::string_view text);

// Compiles model program text. `file` names the source in diagnostics. Throws ParseError (lexing,
// parsing) or ModelError (names, types, unbounded domains, bad parameters), each located at
// file:line:column. Run-time errors during exploration are ModelErrors naming the action and state.
std::unique_ptr<Model> compile_model(std::string_view text, const std::string& file = "<model>",
                                     const std::vector<ModelParam>& params = {});

// Goals given as conditions on the state in the model language ("len(queue) == 0", the tool's
// --goal): the compiled model's final states are those where one of them holds, instead of its own
// `final`. Errors in a condition are located in `origin` (the flag that gave it) at its column.
struct GoalConditions {
  std::vector<std::string> conditions;
  std::string origin = "<goal>";
};
std::unique_ptr<Model> compile_model(std::string_view text, const std::string& file,
                                     const std::vector<ModelParam>& params, const GoalConditions& goals);

// Whether `text` parses as an expression of the language (names unchecked): how --goal tells a state
// condition ("len(queue) == 0") from a vertex name, which is a state's text ("(queue=[])") and never
// parses (a state text has '=' where an expression has '==').
bool is_state_condition(std::string_view text);

// Reads and compiles a model file ("-" reads standard input).
std::unique_ptr<Model> load_model(const std::string& path, const std::vector<ModelParam>& params = {});

// The file extension of model programs: ".ptm".
inline constexpr std::string_view model_file_extension = ".ptm";

}  // namespace playtest
