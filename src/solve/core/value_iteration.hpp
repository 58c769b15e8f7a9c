// Value iteration for expected cost (seed 001 §3, equation (10)) on the choice model, from M^0 = 0.
// Zero-cost end components (sets of states where the tester can stay forever at no cost) are
// collapsed, each taking the best exit of its members, so that the iteration converges to the least
// expected cost of a proper strategy rather than to 0 on a free loop.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "solve/core/choice_model.hpp"
#include "solve/detail/team.hpp"

namespace playtest::detail {

struct ValueIterationRequest {
  double epsilon = 1e-9;  // stop when the largest relative change of a sweep is <= epsilon
  std::uint32_t max_sweeps = 1000000;
  bool jacobi = false;  // M^{n+1} from M^n only (the paper's iterates); else Gauss-Seidel in state order
  // Whether a sweep may compute in single precision with the states cut into blocks for two
  // threads (value iteration only leads policy iteration to its first strategy then). Ignored when
  // zero-cost end components exist, with Jacobi, or when after_sweep is given.
  bool fast = false;
  // Called after every sweep with its number and the states' values (n + 1 entries, x[n] = 0).
  std::function<void(std::uint32_t, std::span<const double>)> after_sweep;
  // Called after every sweep with its number only (progress); may be empty.
  std::function<void(std::uint32_t)> on_sweep;
};

struct ValueIterationOutcome {
  std::uint32_t sweeps = 0;
  bool converged = false;
  std::uint32_t zero_cost_components = 0;
};

// x receives n + 1 values (x[n] = 0). Needs ModelCosts::expected.
ValueIterationOutcome value_iteration(Team& team, const ChoiceModel& m, const ValueIterationRequest& r,
                                      std::vector<double>& x);

// The zero-cost end components: mec[i] (component number, or UINT32_MAX) and their count.
std::uint32_t zero_cost_end_components(const ChoiceModel& m, std::vector<std::uint32_t>& mec);

}  // namespace playtest::detail
