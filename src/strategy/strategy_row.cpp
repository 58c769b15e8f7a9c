#include "playtest/strategy/strategy_row.hpp"

#include <fmt/format.h>

#include "playtest/base/error.hpp"
#include "playtest/base/numbers.hpp"
#include "playtest/graph/test_graph.hpp"

namespace playtest {

std::optional<std::string_view> StrategyArgs::get(std::string_view name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) return std::nullopt;
  return std::string_view(it->second);
}

std::uint64_t StrategyArgs::integer(std::string_view name, std::uint64_t fallback, std::uint64_t min,
                                    std::uint64_t max) const {
  const auto text = get(name);
  if (!text) return fallback;
  const auto v = parse_unsigned(*text);
  if (!v || *v < min || *v > max)
    throw UsageError(std::string(name), max == UINT64_MAX
                                            ? fmt::format("'{}' is not an integer of at least {}", *text, min)
                                            : fmt::format("'{}' is not an integer from {} to {}", *text, min, max));
  return *v;
}

double StrategyArgs::number(std::string_view name, double fallback) const {
  const auto text = get(name);
  if (!text) return fallback;
  const auto v = parse_finite(*text);
  if (!v) throw UsageError(std::string(name), fmt::format("'{}' is not a number", *text));
  return *v;
}

std::vector<VertexId> goals_of(const TestGraph& g, const TestPurpose& purpose) {
  return purpose.goals.empty() ? g.goals() : purpose.goals;
}

std::string on_the_fly_names(std::span<const StrategyRow* const> table, std::string_view conjunction) {
  std::vector<std::string_view> names;
  for (const StrategyRow* row : table)
    if (row->on_the_fly) names.push_back(row->name);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += fmt::format("{}{}", i == 0 ? "" : i + 1 == names.size() ? fmt::format(" {} ", conjunction) : ", ", names[i]);
  return out;
}

PreparedStrategy prepare_strategy(const StrategyRow& row, const StrategyContext& context,
                                  std::span<const StrategyRow* const> table) {
  const TestGraph* whole = context.graph.explored();
  if (whole == nullptr && !row.on_the_fly)
    return PreparedStrategy::refuse(
        "strategy",
        fmt::format("strategy '{}' needs the whole graph: it cannot play a model explored on the fly", row.name),
        {fmt::format("{} play on the fly; explore the model (a smaller --param, a larger --max-states) for the others",
                     on_the_fly_names(table))});
  if (whole != nullptr && row.needs_goals && goals_of(*whole, context.purpose).empty())
    return PreparedStrategy::refuse("goals",
                                    fmt::format("strategy '{}' needs goal vertices, and the graph has none", row.name));
  PreparedStrategy p = row.prepare(context);
  if (!p.refusal && !p.maker) throw InternalError(fmt::format("strategy '{}' prepared no policy", row.name));
  return p;
}

}  // namespace playtest
