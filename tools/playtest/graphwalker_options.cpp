#include "graphwalker_options.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/base/source_text.hpp"
#include "playtest/io/graphwalker.hpp"
#include "playtest/strategy/random_walk_policy.hpp"

namespace playtest::cli {

void add_generator_option(CLI::App* sub, std::string& generator) {
  sub->add_option("--generator", generator,
                  "GraphWalker models: a generator and stop condition in GraphWalker's grammar, e.g. "
                  "'random(edge_coverage(100))', played as a strategy, purpose and budget (docs/graphwalker.md; "
                  "default: the model's own generator when no --strategy is given)");
}

GeneratorChoice generator_before_load(const std::string& text, StrategyOptions& strategy, InputOptions& input,
                                      std::uint64_t& steps, double* time_s, bool strategy_given, bool keep_strategies) {
  GeneratorChoice c;
  const bool graphwalker = input.format == InputFormat::graphwalker || is_graphwalker_file(input.path);
  if (!text.empty()) {
    if (!graphwalker && input.path != "-")
      throw UsageError("generator", "applies to GraphWalker models (docs/graphwalker.md)");
    c.generator = parse_generator(text);
  } else {
    if (strategy_given || !graphwalker) return c;
    const GwDocument doc = read_graphwalker_document(input);
    const GwModel& m = doc.models[doc.start_model];
    if (!m.generator) return c;
    c.generator = parse_generator(*m.generator, m.where.file.empty() ? input.path : m.where.file);
  }
  const GeneratorPlan plan = plan_generator(*c.generator, nullptr);
  if (!keep_strategies) strategy.strategies = {plan.strategy};
  if (strategy.purpose == "auto") strategy.purpose = plan.purpose;
  if (!plan.goals.empty()) strategy.goals = plan.goals;
  if (plan.steps != 0) steps = plan.steps;
  if (plan.time_s != 0 && time_s) *time_s = plan.time_s;
  input.graphwalker_predefined_path = plan.predefined_path;
  fmt::print(stderr, "playtest: note: {} '{}' is played as{} --purpose {}{}{}\n",
             text.empty() ? "the model's generator" : "the generator", c.generator->text,
             keep_strategies ? "" : " --strategy " + strategy.strategies.front(), strategy.purpose,
             plan.steps ? fmt::format(" --steps {}", plan.steps) : "",
             plan.time_s != 0 ? fmt::format(" --time {}", plan.time_s) : "");
  if (plan.predefined_path)
    fmt::print(stderr,
               "playtest: note: the model's predefinedPathEdgeIds is the walk: only its next step is taken, "
               "and a run that cannot follow it to its end is INCONCLUSIVE\n");
  for (const std::string& n : plan.notes) fmt::print(stderr, "playtest: note: {}\n", n);
  if (!plan.better.empty() && !keep_strategies) fmt::print(stderr, "playtest: note: {}\n", plan.better);
  return c;
}

void generator_after_load(const GeneratorChoice& choice, const LoadedInput& in, StrategyOptions& strategy) {
  if (!choice.generator) return;
  if (!in.graphwalker) throw UsageError("generator", "applies to GraphWalker models (docs/graphwalker.md)");
  const GeneratorPlan plan = plan_generator(*choice.generator, in.graphwalker.get());
  if (plan.predefined_path && in.graph) {
    // The path compiled into the model is a line from the start; without its goal, a guard closed
    // it: the steps it has are those walked, the next one is where it stops.
    bool goal = false;
    for (VertexId v : in.graph->vertices()) goal = goal || in.graph->is_goal(v);
    const std::vector<std::string>& path = in.graphwalker->predefined_path;
    const std::size_t walked = in.graph->num_vertices() - 1;
    if (!goal && walked < path.size())
      throw GraphError(make_diagnostic(
          "", 0, 0, "",
          fmt::format("the predefined path cannot be walked to its end: its step {} of {} ('{}') is not enabled "
                      "after '{}' (a guard does not hold there)",
                      walked + 1, path.size(), path[walked], walked == 0 ? std::string("the start") : path[walked - 1]),
          {"GraphWalker's predefined_path stops there with NoPathFoundException; every run would end INCONCLUSIVE"}));
  }
  // GraphWalker's random walks never reset: the same walk, without playtest's restarts.
  if (plan.strategy == "random") strategy.args.set(std::string(restarts_arg), "off");
  if (plan.weighted && !plan.label_weights.empty()) {
    LabelWeights w;
    for (const auto& [label, weight] : plan.label_weights) w.emplace(label, weight);
    strategy.args.set(std::string(label_weights_arg), label_weights_text(w));
  }
  for (const std::string& n : plan.notes)
    if (n.starts_with("no edge of the model has a weight")) fmt::print(stderr, "playtest: note: {}\n", n);
  if (plan.trap_labels.empty()) return;
  if (!in.graph)
    throw UsageError("generator", fmt::format("'{}' counts the model's elements: it needs the whole graph, and the "
                                              "model was not explored whole ({})",
                                              choice.generator->text, in.on_the_fly_reason));
  // Every edge with a counted label is a trap; the purpose counts each label once, taken by any of
  // them (a label has an edge per valuation of the variables).
  std::vector<std::string> missing;
  for (const std::string& l : plan.trap_labels) {
    if (in.graph->find_label(l))
      strategy.traps.push_back("label:" + l);
    else
      missing.push_back(l);
  }
  if (!missing.empty())
    fmt::print(stderr,
               "playtest: note: {} element(s) can never be visited (no walk from the start reaches them), "
               "left out of the coverage: {}{}\n",
               missing.size(),
               fmt::join(missing.begin(), missing.begin() + std::min<std::size_t>(missing.size(), 5), ", "),
               missing.size() > 5 ? ", ..." : "");
  if (strategy.traps.empty())
    throw UsageError("generator", fmt::format("'{}': no element it counts can be visited", choice.generator->text));
}

}  // namespace playtest::cli
