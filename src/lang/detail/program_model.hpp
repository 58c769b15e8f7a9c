// A program built in memory (not parsed from text: GraphWalker models, lang/graphwalker_model.cpp)
// checked and made a playtest::Model, as compile_model does for model program text.
#pragma once

#include <memory>

#include "lang/detail/ast.hpp"
#include "playtest/explore/model.hpp"

namespace playtest::lang {

// Checks `p` (throws ModelError, located in p.file) and returns it as a Model.
std::unique_ptr<Model> program_model(Program p);

}  // namespace playtest::lang
