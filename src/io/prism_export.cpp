#include "playtest/io/prism_export.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "playtest/base/error.hpp"

namespace playtest {

namespace {

// One row of the MDP: state, choice, target, probability, reward, action.
struct Row {
  std::uint32_t state, choice, target;
  double prob, reward;
  std::string_view action;
};

std::vector<std::uint8_t> goal_flags(const TestGraph& g, std::span<const VertexId> goals) {
  std::vector<std::uint8_t> f(g.num_vertices(), 0);
  for (VertexId v : goals) {
    if (v.is_none() || v.index() >= g.num_vertices()) throw InternalError("write_prism: goal id out of range");
    f[v.index()] = 1;
  }
  return f;
}

// Calls emit(row) for every row in (state, choice, target) order; returns the number of choices.
template <class Emit>
std::uint64_t for_each_row(const TestGraph& g, std::span<const VertexId> goals, Emit emit) {
  const auto goal = goal_flags(g, goals);
  std::uint64_t choices = 0;
  std::vector<std::pair<std::uint32_t, EdgeId>> by_target;
  std::string action;
  for (VertexId v : g.vertices()) {
    const std::uint32_t s = v.value;
    if (goal[s] || g.out_degree(v) == 0) {
      emit(Row{s, 0, s, 1.0, 0.0, "a0"});
      ++choices;
    } else if (g.is_active(v)) {
      std::uint32_t c = 0;
      for (EdgeId e : g.out_edges(v)) {
        action = fmt::format("e{}", e.value);
        emit(Row{s, c++, g.target(e).value, 1.0, g.cost(e), action});
      }
      choices += c;
    } else {
      by_target.clear();
      for (EdgeId e : g.out_edges(v)) by_target.emplace_back(g.target(e).value, e);
      std::sort(by_target.begin(), by_target.end());
      for (std::size_t i = 0; i < by_target.size();) {
        std::size_t j = i;
        double p = 0, pc = 0;
        for (; j < by_target.size() && by_target[j].first == by_target[i].first; ++j) {
          p += g.probability(by_target[j].second);
          pc += g.probability(by_target[j].second) * g.cost(by_target[j].second);
        }
        emit(Row{s, 0, by_target[i].first, p, p > 0 ? pc / p : 0.0, "p"});
        i = j;
      }
      ++choices;
    }
  }
  return choices;
}

}  // namespace

void write_prism_tra(const TestGraph& g, std::span<const VertexId> goals, std::ostream& out) {
  std::uint64_t rows = 0;
  const std::uint64_t choices = for_each_row(g, goals, [&](const Row&) { ++rows; });
  std::string buf = fmt::format("{} {} {}\n", g.num_vertices(), choices, rows);
  for_each_row(g, goals, [&](const Row& r) {
    fmt::format_to(std::back_inserter(buf), "{} {} {} {} {}\n", r.state, r.choice, r.target, r.prob, r.action);
    if (buf.size() > (1u << 20)) {
      out << buf;
      buf.clear();
    }
  });
  out << buf;
}

void write_prism_trew(const TestGraph& g, std::span<const VertexId> goals, std::ostream& out) {
  std::uint64_t rows = 0;
  const std::uint64_t choices = for_each_row(g, goals, [&](const Row& r) { rows += r.reward != 0; });
  std::string buf = fmt::format("{} {} {}\n", g.num_vertices(), choices, rows);
  for_each_row(g, goals, [&](const Row& r) {
    if (r.reward == 0) return;
    fmt::format_to(std::back_inserter(buf), "{} {} {} {}\n", r.state, r.choice, r.target, r.reward);
    if (buf.size() > (1u << 20)) {
      out << buf;
      buf.clear();
    }
  });
  out << buf;
}

void write_prism_lab(const TestGraph& g, std::span<const VertexId> goals, std::ostream& out) {
  const auto goal = goal_flags(g, goals);
  std::string buf = "0=\"init\" 1=\"deadlock\" 2=\"goal\"\n";
  for (VertexId v : g.vertices()) {
    const bool init = v == g.initial();
    const bool dead = !goal[v.index()] && g.out_degree(v) == 0;
    if (!init && !dead && !goal[v.index()]) continue;
    buf += fmt::format("{}:", v.value);
    if (init) buf += " 0";
    if (dead) buf += " 1";
    if (goal[v.index()]) buf += " 2";
    buf += '\n';
  }
  out << buf;
}

}  // namespace playtest
