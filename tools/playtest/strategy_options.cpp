#include "strategy_options.hpp"

#include <fmt/format.h>

#include "common.hpp"
#include "option_checks.hpp"
#include "playtest/base/error.hpp"
#include "playtest/base/numbers.hpp"
#include "playtest/catalog/strategy_table.hpp"
#include "playtest/diagnose/analyze.hpp"
#include "playtest/graph/names.hpp"
#include "playtest/lang/model_program.hpp"

namespace playtest::cli {

void add_strategy_options(CLI::App* sub, StrategyOptions& o, bool several) {
  auto* s = sub->add_option("--strategy", o.strategies,
                            (several ? "Strategies, comma-separated: " : "One of: ") + strategy_names_list());
  s->default_str("random");
  if (several)
    s->delimiter(',');
  else
    s->expected(1);
  sub->add_option("--purpose", o.purpose,
                  "reach (a goal), cover (edges), labels (every label once), cover:80% or labels:80% (a share of "
                  "them), none (the smoke test: run the budget, pass without a failure), auto")
      ->default_val("auto");
  sub->add_option("--goal", o.goals,
                  "Goal vertex (repeatable; default: the graph's goals); for a model program also a condition on the "
                  "state in the model language, e.g. 'len(queue) == 0' (in place of its final states)");
  sub->add_option("--edge", o.edges, "Edge id or label to cover (repeatable; default: every edge)");
  sub->add_option("--traps", o.traps,
                  "Test purpose as traps, comma-separated: all, model (meta.traps), edge ids, labels, globs (* ?), "
                  "id:/label: prefixes; the run covers them (docs/planning.md)")
      ->delimiter(',');
  // The strategies' own options, from the table's rows.
  for (const StrategyOption& so : strategy_options()) {
    const std::string name(so.name);
    if (so.value.empty()) {
      sub->add_flag_callback(
          "--" + name, [&o, name] { o.args.set(name, "true"); }, std::string(so.help));
    } else {
      CLI::Option* opt =
          sub->add_option_function<std::string>(
                 "--" + name, [&o, name](const std::string& v) { o.args.set(name, v); }, std::string(so.help))
              ->type_name(std::string(so.value));
      if (so.positive) opt->check(positive_integer());  // 0 is not "the default": leave the option out
    }
  }
  sub->add_flag("--allow-unreachable", o.allow_unreachable,
                "Run even when no run can meet the test purpose (a goal unreachable from the initial vertex, edges "
                "no run can take; playtest analyze tells more)");
  sub->add_flag("--allow-uncertified", o.allow_uncertified,
                "Play a solver's strategy even when it could not be certified optimal (expected; refused by default)");
  sub->add_option("--rare-rate", o.rare_rate,
                  "With --adapt on: a run stops early only when what its purpose wants lies behind outcomes never "
                  "seen whose rate above R is ruled out at 99.9%, at their vertex and in every history offered "
                  "(R = 0.01 takes 688 visits without one; docs/testing.md \"Claims about the system\")")
      ->default_val(0.01)
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            const auto r = read_finite(s);
            return r.ok() && r.value > 0 && r.value < 1 ? std::string() : "must be a rate above 0 and below 1";
          },
          "RATE", "rate"));
}

void take_goal_conditions(StrategyOptions& o, InputOptions& input) {
  if (!o.goals.empty() && (input.format == InputFormat::graphwalker || is_graphwalker_file(input.path))) {
    // GraphWalker models: --goal names elements (Model.name or name); being at one is the goal.
    input.goal_conditions = o.goals;
    o.goals.clear();
    if (o.purpose == "auto") o.purpose = "reach";
    return;
  }
  if (o.goals.empty() || !(is_model_program(input.path) || input.format == InputFormat::model)) return;
  std::vector<std::string> names;
  // ("v12", a vertex's short name in a report's picture, is a vertex, not a condition.)
  for (const std::string& g : o.goals)
    (is_state_condition(g) && !short_vertex_index(g) ? input.goal_conditions : names).push_back(g);
  if (input.goal_conditions.empty()) return;
  if (!names.empty())
    throw UsageError("goals", make_diagnostic("", 0, 0, "",
                                              fmt::format("vertex '{}' and the condition '{}' given together",
                                                          names.front(), input.goal_conditions.front()),
                                              {"--goal takes vertex names or conditions on the state; write the "
                                               "vertex as a condition (several conditions: any of them)"}));
  o.goals.clear();
  if (o.purpose == "auto") o.purpose = "reach";
}

void add_explore_first_options(CLI::App* sub, ExploreFirstOptions& o) {
  sub->add_flag("--on-the-fly", o.on_the_fly,
                fmt::format("Model programs: play on the fly, expanding states as the runs reach them, without "
                            "exploring the model first ({})",
                            on_the_fly_strategies()));
  sub->add_option("--explore-time", o.max_seconds,
                  "Model programs: explore the model first for at most this many seconds (and --max-states); a "
                  "model that does not fit is played on the fly (0: no time limit)")
      ->default_val(1.0)
      ->check(non_negative_finite());
}

ExploreFirstOptions explore_first_options(const ExploreFirstOptions& o, const InputOptions& input) {
  if (o.on_the_fly && !input.whole_graph_for.empty())
    throw UsageError("on_the_fly",
                     fmt::format("{} needs the whole graph: it cannot be played on the fly", input.whole_graph_for));
  ExploreFirstOptions out = o;
  out.max_states = input.max_states;
  return out;
}

void refuse_on_the_fly_for(const ExploreFirstOptions& o, InputFormat format) {
  if (o.on_the_fly && format != InputFormat::model && format != InputFormat::graphwalker)
    throw UsageError("on_the_fly", "applies to model programs (.ptm) only: other models are graphs already");
}

}  // namespace playtest::cli
