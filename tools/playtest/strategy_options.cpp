#include "strategy_options.hpp"

#include "common.hpp"
#include "option_checks.hpp"
#include "playtest/diagnose/analyze.hpp"
#include "playtest/error.hpp"

namespace playtest::cli {

void add_strategy_options(CLI::App* sub, StrategyOptions& o, bool several) {
  auto* s = sub->add_option("--strategy", o.strategies,
                            (several ? "Strategies, comma-separated: " : "One of: ") + strategy_list());
  s->default_str("random");
  if (several)
    s->delimiter(',');
  else
    s->expected(1);
  sub->add_option("--purpose", o.purpose, "reach (a goal), cover (edges), none (just run the budget), auto")
      ->check(CLI::IsMember({"auto", "reach", "cover", "none"}))
      ->default_val("auto");
  sub->add_option("--goal", o.goals, "Goal vertex (repeatable; default: the graph's goals)");
  sub->add_option("--edge", o.edges, "Edge id or label to cover (repeatable; default: every edge)");
  sub->add_option("--traps", o.traps,
                  "Test purpose as traps, comma-separated: all, model (meta.traps), edge ids, labels, globs (* ?), "
                  "id:/label: prefixes; the run covers them (docs/planning.md)")
      ->delimiter(',');
  sub->add_option("--bound", o.bound, "reach: the game bound n (default: 2 * vertices + 2; restarted when spent)")
      ->check(positive_integer());  // 0 is not "the default": leave the option out for that
  add_torx_options(sub, o.torx);
  sub->add_flag("--planner-exact", o.planner_exact,
                "planner: the paper's exact gain at any size (no planning horizon; slow on large graphs, "
                "docs/planning.md)");
  sub->add_flag("--allow-unreachable", o.allow_unreachable,
                "Run even when no run can meet the test purpose (a goal unreachable from the initial vertex, edges "
                "no run can take; playtest analyze tells more)");
}

void refuse_unreachable(const StrategyOptions& o, const TestGraph& g, const TestPurpose& purpose) {
  if (o.allow_unreachable) return;
  const PurposeFeasibility f = purpose_feasibility(g, purpose);
  if (f.feasible) return;
  Diagnostic d;
  d.message = "the test purpose cannot be met: " + f.reason;
  d.notes.push_back("every run would end INCONCLUSIVE; --allow-unreachable runs it anyway");
  throw GraphError(std::move(d));
}

StrategySpec strategy_spec(const StrategyOptions& o, const std::string& name) {
  return StrategySpec{.kind = parse_strategy_kind(name),
                      .purpose = parse_purpose_choice(o.purpose),
                      .goals = o.goals,
                      .edges = o.edges,
                      .traps = o.traps};
}

std::string whole_graph_reason(const StrategyOptions& o) {
  for (const std::string& name : o.strategies)
    if (!plays_on_the_fly(parse_strategy_kind(name))) return "strategy '" + name + "'";
  if (!o.goals.empty()) return "--goal";
  if (!o.edges.empty()) return "--edge";
  if (!o.traps.empty()) return "--traps";
  return "";
}

PolicySetup policy_setup(const StrategyOptions& o, const TestPurpose& purpose) {
  PolicySetup setup{
      .goals = purpose.goals, .edges = purpose.edges, .bound = o.bound, .torx = resolve_torx_options(o.torx)};
  if (o.planner_exact) setup.planner.horizon = setup.planner.tail_traps = 0;
  return setup;
}

}  // namespace playtest::cli
