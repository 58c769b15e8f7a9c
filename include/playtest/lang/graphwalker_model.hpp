// GraphWalker and AltWalker models as model programs (docs/graphwalker.md): the walk's position (the
// element last visited) and the JavaScript variables of the guards and actions are the state; each
// vertex and each edge is a controllable action (its label `Model.name`) that visits it. Guards and
// actions, in the JavaScript subset models use, are compiled into the modelling language's
// expressions and statements, so the explorer, the solvers and the runner play them as any model
// program; anything outside the subset is refused with its location and the construct named.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/explore/model.hpp"
#include "playtest/io/graphwalker.hpp"

namespace playtest {

struct GraphWalkerOptions {
  // Goals: names of elements ("Login.v_Browse", or "v_Browse" in any model, or a label): the final
  // states are those where the walk has just visited one of them. Unknown names are a ModelError
  // located in `goal_origin`.
  std::vector<std::string> goal_elements;
  std::string goal_origin = "--goal";
  // A number variable ranges over [lowest - slack, highest + slack] of the number literals it is
  // given or compared with (and 0); a step that would take it outside is not enabled there.
  std::int64_t number_slack = 8;
  // The generator predefined_path: the start model's predefinedPathEdgeIds is the walk. Only the
  // path's next step is enabled (a variable `path_step` counts them) and the goal is its end; a
  // model without a path is a ModelError.
  bool predefined_path = false;
};

// One vertex or edge of the imported models.
struct GraphWalkerElement {
  std::string label;  // the action's label: "Model.name", "Model.name#id" when names repeat, "Model.#id" unnamed
  std::string model;
  std::string name;  // "" when the element has none
  std::string id;
  bool is_edge = false;
  std::vector<std::string> requirements;
  std::optional<std::int64_t> dependency;
  std::optional<double> weight;
};

struct GraphWalkerImport {
  std::shared_ptr<const Model> model;
  std::vector<GraphWalkerElement> elements;  // per model: its vertices, then its edges
  std::string start_model;
  std::optional<GwScript> generator;  // the start model's generator, if it has one
  // The start model's predefined path (predefinedPathEdgeIds) as the labels of its steps, each edge
  // followed by its target vertex, from the start element on.
  std::vector<std::string> predefined_path;
  // Where the number variables are cut (docs/graphwalker.md "Numbers"): "Login.count in -8..13".
  std::vector<std::string> number_ranges;
  // The vertices whose out-edges' weights sum to more than 1, with the sum: "M.v_A (1.3)".
  std::vector<std::string> weight_overflows;
};

// Compiles the document. Throws ParseError (a guard or action that is not JavaScript), ModelError
// (a construct outside the subset, a variable read but never assigned, types that do not agree),
// each located at file:line:column with the JSON pointer of the script.
GraphWalkerImport compile_graphwalker(const GwDocument& doc, const GraphWalkerOptions& options = {});

// parse_graphwalker, then compile_graphwalker.
GraphWalkerImport load_graphwalker(std::string_view text, const std::string& file,
                                   const GraphWalkerOptions& options = {});

}  // namespace playtest
