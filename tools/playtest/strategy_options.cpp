#include "strategy_options.hpp"

#include "common.hpp"
#include "option_checks.hpp"
#include "playtest/catalog/strategy_table.hpp"
#include "playtest/diagnose/analyze.hpp"
#include "playtest/error.hpp"

namespace playtest::cli {

void add_strategy_options(CLI::App* sub, StrategyOptions& o, bool several) {
  auto* s = sub->add_option("--strategy", o.strategies,
                            (several ? "Strategies, comma-separated: " : "One of: ") + strategy_names_list());
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
  // The strategies' own options, from the table's rows.
  for (const StrategyOption& so : strategy_options()) {
    const std::string name(so.name);
    if (so.value.empty()) {
      sub->add_flag_callback("--" + name, [&o, name] { o.args.set(name, "true"); }, std::string(so.help));
    } else {
      CLI::Option* opt = sub->add_option_function<std::string>(
                             "--" + name, [&o, name](const std::string& v) { o.args.set(name, v); },
                             std::string(so.help))
                             ->type_name(std::string(so.value));
      if (so.positive) opt->check(positive_integer());  // 0 is not "the default": leave the option out
    }
  }
  sub->add_flag("--allow-unreachable", o.allow_unreachable,
                "Run even when no run can meet the test purpose (a goal unreachable from the initial vertex, edges "
                "no run can take; playtest analyze tells more)");
  sub->add_flag("--allow-uncertified", o.allow_uncertified,
                "Play a solver's strategy even when it could not be certified optimal (expected; refused by default)");
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
  return StrategySpec{.strategy = &strategy_named(name),
                      .purpose = parse_purpose_choice(o.purpose),
                      .goals = o.goals,
                      .edges = o.edges,
                      .traps = o.traps};
}

std::string whole_graph_reason(const StrategyOptions& o) {
  for (const std::string& name : o.strategies)
    if (!strategy_named(name).on_the_fly) return "strategy '" + name + "'";
  if (!o.goals.empty()) return "--goal";
  if (!o.edges.empty()) return "--edge";
  if (!o.traps.empty()) return "--traps";
  return "";
}

PolicyMaker prepare(const StrategyOptions& o, const StrategySpec& spec, const GameGraph& g, const TestPurpose& purpose,
                    Adaptation adapt) {
  return policy_maker(spec.strategy->name, g, purpose,
                      {.args = o.args, .adapt = adapt, .allow_uncertified = o.allow_uncertified});
}

}  // namespace playtest::cli
