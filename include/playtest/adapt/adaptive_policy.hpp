// Playing the real opponent (issue 22, docs/testing.md "Adaptive strategies"): a strategy that
// plays for a purpose, wrapped so that it re-plans on what the system under test has shown
// (RunView::evidence) instead of the model's declared probabilities.
//
// While the evidence agrees with the model the wrapped strategy plays as it was prepared (on an
// honest system nothing changes). Where it departs, the wrapper plans on the context product
// (adapt/context_product.hpp) with the learned probabilities, the declared ones as the prior of
// every history, so a history not tried yet looks as the model says and one tried in vain looks
// worse:
// Where the system's choice depends on a longer history (who waited first, whose turn a
// round-robin is), the plan learns what it depends on from the campaign's paths
// (strategy/history_model.hpp) and plans on the product with that memory, steering into the
// histories that produce the outcome it wants.
// - coverage (cover, planner): once the system withholds an outcome (never seen although the
//   model's probability would have shown it with the row's adapt_suspicion: 0.5 for cover, 0.9 for
//   the planner), it steers by the least expected number of steps to the next purpose edge left,
//   choosing the history that gets it; while a plan's target was taken and the next plan is not
//   yet due, the wrapped strategy plays;
// - reach, expected: the strategy is solved again (bounded reachability, expected cost) on the
//   learned product, wherever a goodness-of-fit test rejects the declared frequencies or an outcome
//   is withheld.
// Plans are re-made when the evidence says something new (an outcome first seen in its history, a
// change of what is withheld, a target taken), amortised: a plan that cost W units of work
// (product vertices and edges times sweeps plus the build) is re-made at the earliest
// W / work_per_step steps later, or, when its target was taken, at once if W is at most
// free_plan_work (a few milliseconds, at most once per purpose edge), a deterministic rule, so a
// run's choices depend on its seed and evidence only, never on timing.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "playtest/adapt/learned_model.hpp"
#include "playtest/graph/test_graph.hpp"
#include "playtest/strategy/claims.hpp"
#include "playtest/strategy/policy.hpp"
#include "playtest/strategy/strategy_row.hpp"
#include "playtest/strategy/test_purpose.hpp"

namespace playtest {

// What the adaptive wrappers did, added up over every policy a maker made (thread-safe), for
// tests and measurements.
struct AdaptStats {
  std::atomic<std::uint64_t> plans{0};      // plans made
  std::atomic<std::uint64_t> plan_work{0};  // their work units
  std::atomic<std::uint64_t> steered{0};    // decisions taken from a plan rather than the wrapped strategy
  std::atomic<std::uint64_t> plan_ns{0};    // wall time spent planning (for measurements only)
};

struct AdaptOptions {
  LearningOptions learning;
  // What counts as futile to aim at (strategy/claims.hpp): the run's own floor, --rare-rate.
  ClaimOptions claims;
  // The longest history a plan distinguishes at a vertex whose outcomes it learns per history.
  std::uint32_t max_context = 2;
  // The longest memory (the last labels of one class, however far back: strategy/history_model.hpp)
  // a plan learns and distinguishes; 0: windows of the last edges only.
  std::uint32_t max_memory = 6;
  // The work a re-plan may cost per step taken since the last one (see above). 10000 keeps the
  // planning under 10% of a run against the Redis work queue's adapter (about 0.17 ms a step;
  // docs/testing.md, "Adaptive strategies").
  std::uint64_t work_per_step = 10000;
  // A plan whose target was taken and that cost at most this is re-made at once (a stale plan
  // hands the run to the wrapped strategy, whose tour re-walks what is covered: on the MQTT broker
  // a 760000-unit plan waited 110 steps so). A few milliseconds of planning.
  std::uint64_t free_plan_work = 1u << 20;
  // Past this many product vertices a plan keeps shorter histories (then none).
  std::uint32_t max_product_vertices = 1u << 16;
  // reach: the bound of the re-solved game (0: 2 * vertices + 2 of the model).
  std::uint32_t reach_bound = 0;
  // Where to add up what the wrappers did; may be null.
  std::shared_ptr<AdaptStats> stats;
};

// The policies of `inner`, each wrapped to re-plan as `mode` says. `g` and `purpose` are what the
// strategy was prepared for (an explored graph); they must outlive the maker.
PolicyMaker adaptive_maker(Replanning mode, const TestGraph& g, const TestPurpose& purpose, PolicyMaker inner,
                           const AdaptOptions& options = {});

}  // namespace playtest
