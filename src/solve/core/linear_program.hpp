// Seed 001 §2.2's linear program for expected cost, on the choice model, solved with COIN-OR Clp.
#pragma once

#include <vector>

#include "solve/core/choice_model.hpp"

namespace playtest::detail {

struct LinearProgramOutcome {
  bool optimal = false;  // Clp proved its solution optimal
  int status = 0;        // Clp's status (0 optimal, 1 primal infeasible, 2 dual infeasible, ...)
};

// x receives n + 1 values (x[n] = 0; all 0 when Clp found no optimum). Needs ModelCosts::expected.
LinearProgramOutcome solve_linear_program(const ChoiceModel& m, std::vector<double>& x);

}  // namespace playtest::detail
