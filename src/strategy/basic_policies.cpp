#include <fmt/format.h>

#include <cstdlib>

#include "playtest/strategy/anti_ant_policy.hpp"
#include "playtest/strategy/basic_strategies.hpp"
#include "playtest/strategy/random_walk_policy.hpp"
#include "playtest/strategy/table_policy.hpp"

namespace playtest {

std::shared_ptr<const LabelWeights> parse_label_weights(std::string_view text) {
  if (text.empty()) return nullptr;
  auto out = std::make_shared<LabelWeights>();
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    const std::size_t tab = line.rfind('\t');
    if (tab == std::string_view::npos) continue;
    out->emplace(std::string(line.substr(0, tab)), std::strtod(std::string(line.substr(tab + 1)).c_str(), nullptr));
  }
  return out;
}

std::string label_weights_text(const LabelWeights& w) {
  std::string out;
  for (const auto& [label, weight] : w) out += fmt::format("{}\t{}\n", label, weight);
  return out;
}

TablePolicy::TablePolicy(std::string name, std::vector<EdgeId> strategy, std::string no_move)
    : name_(std::move(name)), strategy_(std::move(strategy)), no_move_(std::move(no_move)) {}

Decision TablePolicy::choose(const RunView& view, Rng&) {
  EdgeId e = view.current.index() < strategy_.size() ? strategy_[view.current.index()] : EdgeId::none();
  if (e.is_none()) {
    if (view.graph.is_resettable() && view.current != view.graph.initial()) return Decision::reset();
    stop_reason_ = fmt::format("the strategy has no move at '{}'{}", view.graph.vertex_name(view.current),
                               no_move_.empty() ? "" : ": " + no_move_);
    return Decision::stop();
  }
  return Decision::take(e);
}

BoundedPolicy::BoundedPolicy(std::string name, Choice choice, std::uint32_t bound)
    : name_(std::move(name)), choice_(std::move(choice)), bound_(bound) {}

void BoundedPolicy::begin_run(const RunView& view, Rng&) { start_step_ = view.step; }

Decision BoundedPolicy::choose(const RunView& view, Rng&) {
  std::uint64_t used = view.step - start_step_;
  EdgeId e = used < bound_ ? choice_(view.current, static_cast<std::uint32_t>(bound_ - used)) : EdgeId::none();
  if (e.is_none() && used > 0) {
    // The bound is spent (or the goal is out of reach within what is left): play a fresh game of
    // the full bound from here before giving up.
    start_step_ = view.step;
    e = choice_(view.current, bound_);
  }
  if (e.is_none()) {
    if (view.graph.is_resettable() && view.current != view.graph.initial()) return Decision::reset();
    stop_reason_ = fmt::format("no goal can be reached from '{}' within the bound of {} moves",
                               view.graph.vertex_name(view.current), bound_);
    return Decision::stop();
  }
  return Decision::take(e);
}

std::string_view RandomWalkPolicy::name() const { return random_strategy().name; }

std::string_view AntiAntPolicy::name() const { return anti_ant_strategy().name; }

const StrategyRow& random_strategy() {
  static const StrategyRow row{
      .name = "random",
      .summary =
          "uniform random walk: an out-edge chosen uniformly at random; resets after max(20, 2 x the edges "
          "taken) steps without a new edge",
      .source = "seed 002 §5.1 (the random baseline), with random restarts",
      .on_the_fly = true,
      .prepare = [](const StrategyContext& c) {
        // GraphWalker's weighted_random sets label weights (docs/graphwalker.md "Generators").
        auto weights = parse_label_weights(c.args.get(label_weights_arg).value_or(""));
        const bool restart = c.args.get(restarts_arg).value_or("on") != "off";
        return PreparedStrategy::play(
            [weights, restart](const GameGraph&) { return std::make_unique<RandomWalkPolicy>(restart, weights); });
      }};
  return row;
}

const StrategyRow& anti_ant_strategy() {
  static const StrategyRow row{
      .name = "anti-ant",
      .summary = "the least visited out-edge so far in the run, ties at random",
      .source = "seed 002 §2, §5.1 (after Li and Lam)",
      .on_the_fly = true,
      .prepare = [](const StrategyContext&) {
        return PreparedStrategy::play([](const GameGraph&) { return std::make_unique<AntiAntPolicy>(); });
      }};
  return row;
}

}  // namespace playtest
