#include "playtest/run/on_the_fly.hpp"

#include <fmt/format.h>

#include "playtest/base/error.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/explore/model_graph.hpp"
#include "playtest/explore/state_space.hpp"
#include "playtest/strategy/strategy_row.hpp"

namespace playtest {

ExploreFirst explore_first(const std::shared_ptr<const Model>& model, const ExploreFirstOptions& o) {
  ExploreFirst out;
  if (o.on_the_fly) {
    out.on_the_fly_reason = "on-the-fly play was asked for";
    return out;
  }
  StateSpace space(*model);
  ExploreResult r = explore(space, {.max_states = o.max_states, .max_seconds = o.max_seconds, .partial_graph = false});
  switch (r.status) {
    case ExploreStatus::complete:
      if (model->values() && model->values()->has_values()) {
        // The runner matches values against the model state of each vertex.
        auto ctx = std::make_shared<ValueContext>();
        ctx->model = model;
        ctx->state_size = model->state_size();
        ctx->states.reserve(r.node_of_vertex.size() * ctx->state_size);
        for (NodeId n : r.node_of_vertex) {
          const auto st = space.state(n);
          ctx->states.insert(ctx->states.end(), st.begin(), st.end());
        }
        out.values = std::move(ctx);
      }
      out.graph = std::move(r.graph);
      break;
    case ExploreStatus::state_limit:
      out.on_the_fly_reason = fmt::format("it has more than {} vertices (the state limit)", o.max_states);
      break;
    case ExploreStatus::time_limit:
    case ExploreStatus::depth_limit:
      out.on_the_fly_reason =
          fmt::format("exploring it did not end within {:g} s ({} states found)", o.max_seconds, r.states);
      break;
  }
  return out;
}

bool can_play_on_the_fly(const StrategySpec& spec) {
  return (spec.strategy == nullptr || spec.strategy->on_the_fly) && spec.goals.empty() && spec.edges.empty() &&
         spec.traps.empty();
}

TestPurpose on_the_fly_purpose(const StrategySpec& spec, std::span<const StrategyRow* const> table) {
  if (spec.strategy != nullptr && !spec.strategy->on_the_fly)
    throw UsageError("strategy", fmt::format("strategy '{}' needs the whole graph: it cannot play a model explored on "
                                             "the fly ({} can)",
                                             spec.strategy->name, on_the_fly_names(table)));
  const char* why = "a model explored on the fly has no vertex or edge ids before a run reaches them";
  if (!spec.goals.empty()) throw UsageError("goals", why);
  if (!spec.edges.empty()) throw UsageError("edges", why);
  if (!spec.traps.empty()) throw UsageError("traps", why);
  return TestPurpose{.kind = spec.purpose_kind()};
}

void require_something_to_test(const ModelGraph& g, const TestPurpose& purpose) {
  const VertexId init = g.initial();
  if (g.is_active(init) && g.out_degree(init) == 0)
    throw InputError(fmt::format("nothing to test: the initial vertex '{}' has no out-edges", g.name(init)));
  if (purpose.kind == TestPurpose::Kind::reach && !g.model().may_have_final_states())
    throw UsageError("goals",
                     "the test purpose 'reach' needs goal vertices, and the model declares no final states (no "
                     "'final' declaration)");
  if (purpose.kind == TestPurpose::Kind::reach && g.is_goal(init))
    throw InputError(fmt::format("nothing to test: the purpose is to reach a goal, and the initial vertex '{}' is one",
                                 g.name(init)));
}

}  // namespace playtest
