// Which declarations of a model program multiply its state space (issue 36: allowing a message loss
// grew a model from 64 to 2752 vertices, and nothing said so): for each `param` of the model, the
// vertices with its value against those with a neighbouring value (a boolean flipped; an integer one
// lower, else one higher), for `playtest explore` and `playtest info`.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "playtest/lang/model_program.hpp"

namespace playtest::cli {

struct ParamEffect {
  std::string name;
  std::string value, other;  // the value explored, the neighbouring value tried
  std::uint64_t vertices = 0, other_vertices = 0;
  bool other_capped = false;  // the other value's exploration stopped at its limit: it has more
};

// The parameters whose neighbouring value changes the number of vertices by a factor of 2 or more.
// `path` is the model file ('-': standard input, whose text is kept), `given` the --param
// values, `vertices` the vertices with them. Each other exploration is bounded (a state limit of 50
// times `vertices`, at least 100000, and 1 s; 3 s for all); a value the model refuses is skipped.
std::vector<ParamEffect> param_effects(const std::string& path, const std::vector<ModelParam>& given,
                                       const std::vector<std::pair<std::string, std::string>>& values,
                                       std::uint64_t vertices);

// "MAYDROP=true: 43x vertices (2752; 64 with MAYDROP=false)".
std::string describe(const ParamEffect& e);
nlohmann::json to_json(const std::vector<ParamEffect>& effects);

}  // namespace playtest::cli
