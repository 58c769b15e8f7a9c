// A PRISM/Storm property (io/prism_property.hpp) asked of a loaded input, as the solver's request
// (solve/property_report.hpp): what to load for it (only the reward structure it names, every
// label) and its label formulas resolved to vertices. `playtest solve --property` is these calls
// and the solver's report; a C++ test asks the same questions in process.
#pragma once

#include <string>

#include "playtest/input/load.hpp"
#include "playtest/io/prism_property.hpp"
#include "playtest/solve/property_report.hpp"
#include "playtest/solve/solve_report.hpp"

namespace playtest {

// The load options for asking `p` of o.path: PRISM exports read every label, the reward structure
// the property names (a probability query reads none), and several initial states. Throws
// UsageError("reward") when o.reward names another structure than the property.
LoadOptions property_load_options(const PrismProperty& p, LoadOptions o);

// `p` as the solver's request on `in` (loaded with property_load_options). Labels are the .lab
// file's for a PRISM export (an MDP's choice vertices take the labels of their state); otherwise
// "goal", "init", "deadlock" or a vertex id. Throws InputError for an unknown label or an empty
// filter, UsageError("property") for an unquantified query on an MDP, a bad bound or threshold.
PropertyRequest property_request(const PrismProperty& p, const LoadedInput& in, const PropertyOptions& options);

// `solve --objective expected|reach --exact` as a property: expected is Rmin to the goals, reach is
// Pmax within q.bound moves, from q.from.
PropertyRequest exact_objective_request(const SolveRequest& q, double exact_seconds);

}  // namespace playtest
