#include "playtest/session/plan.hpp"

#include <fmt/format.h>

#include <utility>

#include "playtest/base/error.hpp"
#include "playtest/campaign/shard.hpp"
#include "playtest/catalog/strategy_table.hpp"
#include "playtest/diagnose/analyze.hpp"
#include "playtest/run/on_the_fly.hpp"
#include "playtest/strategy/traps.hpp"

namespace playtest {

std::string whole_graph_reason(const StrategyRequest& r) {
  for (const std::string& name : r.strategies)
    if (!strategy_named(name).on_the_fly) return "strategy '" + name + "'";
  if (!r.goals.empty()) return "--goal";
  if (!r.edges.empty()) return "--edge";
  if (!r.traps.empty()) return "--traps";
  // Labels and thresholds count against the model's totals, unknown on the fly.
  const PurposeRequest purpose = parse_purpose_request(r.purpose);  // refused before any exploration
  if (purpose.choice == PurposeChoice::labels || purpose.threshold < 1) return "--purpose " + r.purpose;
  return "";
}

std::string whole_graph_reason(const CampaignRequest& r) {
  if (std::string why = whole_graph_reason(r.strategy); !why.empty()) return why;
  if (!r.sut.vertex_timeouts.empty()) return "--vertex-timeout";
  if (r.shrink_after) return "--shrink";
  // Runs on the fly share one growing graph: one job, no shards (run_campaign refuses them).
  if (r.jobs > 1) return "--jobs";
  if (r.shard != "1/1") return "--shard";
  return "";
}

StrategySpec strategy_spec(const StrategyRequest& r, const std::string& name) {
  const PurposeRequest purpose = parse_purpose_request(r.purpose);
  return StrategySpec{.strategy = &strategy_named(name),
                      .purpose = purpose.choice,
                      .goals = r.goals,
                      .edges = r.edges,
                      .traps = r.traps,
                      .threshold = purpose.threshold};
}

ClaimOptions claim_options(const StrategyRequest& r) { return ClaimOptions{.rare_rate = r.rare_rate}; }

void refuse_unreachable(const StrategyRequest& r, const TestGraph& g, const TestPurpose& purpose) {
  if (r.allow_unreachable) return;
  const PurposeFeasibility f = purpose_feasibility(g, purpose);
  if (f.feasible) return;
  Diagnostic d;
  d.message = "the test purpose cannot be met: " + f.reason;
  d.notes.push_back("every run would end INCONCLUSIVE; --allow-unreachable runs it anyway");
  throw GraphError(std::move(d));
}

PolicyMaker prepare_policy(const StrategyRequest& r, const StrategySpec& spec, const GameGraph& g,
                           const TestPurpose& purpose, Adaptation adapt) {
  PrepareOptions po{.args = r.args, .adapt = adapt, .allow_uncertified = r.allow_uncertified};
  po.adaptation.claims = claim_options(r);
  return policy_maker(spec.strategy->name, g, purpose, po);
}

SubprocessOptions subprocess_options(const SutRequest& r) {
  SubprocessOptions so{.command = r.sut,
                       .ready_timeout = std::chrono::milliseconds(r.ready_timeout_ms),
                       .ack_timeout = std::chrono::milliseconds(r.ack_timeout_ms)};
  set_stderr(so, r.sut_stderr);
  return so;
}

void apply_timeouts(const TestGraph& g, const SutRequest& r, RunOptions& ro) {
  ro.timeout = std::chrono::milliseconds(r.timeout_ms);
  ro.vertex_timeouts = vertex_timeouts_from_specs(g, r.vertex_timeouts);
}

namespace {

// The run options: budgets, claims, values, and the purpose resolved on the graph (on the fly:
// on_the_fly_purpose) with the timeouts; refuses a graph with nothing to test.
RunOptions run_options(const LoadedInput& in, const GameGraph& g, const ModelGraph* on_the_fly,
                       const CampaignRequest& r, const StrategySpec& spec, Adaptation adapt, StopSignal& stop) {
  RunOptions run{.max_steps = r.steps,
                 .time_budget = std::chrono::milliseconds(static_cast<std::int64_t>(r.time_s * 1000.0)),
                 .stop_when_futile = adapt == Adaptation::on && spec.strategy->replanning != Replanning::none,
                 .claims = claim_options(r.strategy),
                 .stop = &stop,
                 .values = in.values};
  if (!run.values && in.model && in.model->values()) {
    // A model program whose labels hold no values: the runner still asks it whether an output it
    // does not find on the explored graph is a label of the model at all (label_check.hpp).
    auto ctx = std::make_shared<ValueContext>();
    ctx->model = in.model;
    run.values = std::move(ctx);
  }
  if (on_the_fly) {
    run.purpose = on_the_fly_purpose(spec, strategy_table());
    run.timeout = std::chrono::milliseconds(r.sut.timeout_ms);  // (no --vertex-timeout on the fly)
    require_something_to_test(*on_the_fly, run.purpose);
  } else {
    run.purpose = spec.resolve(*g.explored(), declared_traps(*g.explored()));
    apply_timeouts(*g.explored(), r.sut, run);
    require_something_to_test(*g.explored(), run.purpose,
                              spec.strategy && spec.strategy->needs_goals ? spec.strategy->name : "");
  }
  return run;
}

}  // namespace

CampaignPlan plan_campaign(const LoadedInput& in, const GameGraph& g, const ModelGraph* on_the_fly,
                           const CampaignRequest& r, const ModelPlay& model_play, StopSignal& stop) {
  if (r.strategy.strategies.empty()) throw UsageError("strategy", "no strategy named");
  StrategySpec spec = strategy_spec(r.strategy, r.strategy.strategies.front());
  const Adaptation adapt = r.adapt ? Adaptation::on : Adaptation::off;
  Runner runner(g, run_options(in, g, on_the_fly, r, spec, adapt, stop));  // refuses graphs it cannot play
  CampaignOptions campaign{.runs = r.runs,
                           .seed = r.seed,
                           .jobs = r.jobs,
                           .shard = parse_shard(r.shard),
                           .fail_fast = r.fail_fast,
                           .settings = r.settings,
                           .share_evidence = r.adapt,
                           .model_play = model_play,
                           .claims = claim_options(r.strategy),
                           .max_errors = r.max_errors};
  SubprocessOptions adapter = subprocess_options(r.sut);
  const std::vector<std::string> params = param_environment(in.model.get());
  adapter.environment.insert(adapter.environment.end(), params.begin(), params.end());
  const TestPurpose& purpose = runner.options().purpose;
  if (!on_the_fly) refuse_unreachable(r.strategy, *g.explored(), purpose);  // after the options' checks
  PolicyMaker policy = prepare_policy(r.strategy, spec, g, purpose, adapt);
  return CampaignPlan{.spec = std::move(spec),
                      .adapt = adapt,
                      .runner = std::move(runner),
                      .campaign = std::move(campaign),
                      .adapter = std::move(adapter),
                      .policy = std::move(policy)};
}

}  // namespace playtest
