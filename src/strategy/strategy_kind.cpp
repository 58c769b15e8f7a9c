#include "playtest/strategy/strategy_kind.hpp"

#include <fmt/format.h>

#include <array>

#include "playtest/error.hpp"

namespace playtest {

namespace {

constexpr std::array<StrategyKind, 9> kinds = {
    StrategyKind::random, StrategyKind::anti_ant, StrategyKind::reach,       StrategyKind::win,  StrategyKind::expected,
    StrategyKind::cover,  StrategyKind::planner,  StrategyKind::pessimistic, StrategyKind::torx,
};

}  // namespace

std::span<const StrategyKind> strategy_kinds() { return kinds; }

std::string_view to_string(StrategyKind k) {
  switch (k) {
    case StrategyKind::random: return "random";
    case StrategyKind::anti_ant: return "anti-ant";
    case StrategyKind::reach: return "reach";
    case StrategyKind::win: return "win";
    case StrategyKind::expected: return "expected";
    case StrategyKind::cover: return "cover";
    case StrategyKind::planner: return "planner";
    case StrategyKind::pessimistic: return "pessimistic";
    case StrategyKind::torx: return "torx";
  }
  throw InternalError("to_string(StrategyKind): unknown kind");
}

std::string strategy_names_list() {
  std::string s;
  for (StrategyKind k : kinds) s += (s.empty() ? "" : ", ") + std::string(to_string(k));
  return s;
}

StrategyKind parse_strategy_kind(std::string_view name) {
  for (StrategyKind k : kinds)
    if (to_string(k) == name) return k;
  throw UsageError("strategy", fmt::format("unknown strategy '{}'; known strategies: {}", name, strategy_names_list()));
}

bool needs_goals(StrategyKind k) {
  return k == StrategyKind::reach || k == StrategyKind::win || k == StrategyKind::expected;
}

bool needs_whole_graph(StrategyKind k) {
  switch (k) {
    case StrategyKind::random:
    case StrategyKind::anti_ant:
    case StrategyKind::pessimistic:
    case StrategyKind::torx:
      return false;
    default:
      return true;
  }
}

}  // namespace playtest
