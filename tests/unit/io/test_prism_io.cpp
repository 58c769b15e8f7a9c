// PRISM explicit format: export a test graph, import it back, and the expected costs at the MDP's
// states equal the original vertices' (the importer's choice vertices add no cost); errors carry
// file:line.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "playtest/error.hpp"
#include "playtest/graph/generate.hpp"
#include "playtest/io/prism_export.hpp"
#include "playtest/io/prism_import.hpp"
#include "playtest/solve/expected_cost.hpp"

using namespace playtest;

namespace {

struct Files {
  std::string tra, lab, trew;
};

Files export_graph(const TestGraph& g, std::span<const VertexId> goals) {
  std::ostringstream tra, lab, trew;
  write_prism_tra(g, goals, tra);
  write_prism_lab(g, goals, lab);
  write_prism_trew(g, goals, trew);
  return {tra.str(), lab.str(), trew.str()};
}

TEST(PrismIo, RoundTripKeepsExpectedCosts) {
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const TestGraph g = generate_random_graph({.vertices = 30 + static_cast<std::uint32_t>(seed),
                                               .passive_fraction = 0.4,
                                               .out_degree = 3,
                                               .goals = 2,
                                               .max_cost = 6,
                                               .min_cost = 0,
                                               .seed = seed});
    const auto goals = g.goals();
    const Files f = export_graph(g, goals);
    const TestGraph h = parse_prism(f.tra, f.lab, f.trew, "m");
    ASSERT_EQ(h.initial(), g.initial());
    const auto hg = h.goals();
    ASSERT_EQ(hg.size(), goals.size());
    const auto a = solve_expected_cost(g, goals);
    const auto b = solve_expected_cost(h, hg);
    for (VertexId v : g.vertices()) {
      const double x = a.value[v.index()], y = b.value[v.index()];
      if (std::isinf(x))
        EXPECT_TRUE(std::isinf(y)) << "seed " << seed << " vertex " << v.index();
      else
        EXPECT_NEAR(x, y, 1e-9 * std::max(1.0, x)) << "seed " << seed << " vertex " << v.index();
      EXPECT_EQ(h.name(v), std::to_string(v.index()));
    }
  }
}

TEST(PrismIo, ExportFormat) {
  const TestGraph g = generate_random_graph({.vertices = 5, .passive_fraction = 0.0, .out_degree = 2, .seed = 3});
  const auto goals = g.goals();
  const Files f = export_graph(g, goals);
  // The header counts states, choices (one per active edge, one for the absorbing goal) and rows.
  EXPECT_EQ(f.tra.substr(0, f.tra.find('\n')), "5 9 9");
  EXPECT_EQ(f.lab.substr(0, f.lab.find('\n')), "0=\"init\" 1=\"deadlock\" 2=\"goal\"");
  EXPECT_NE(f.lab.find("0: 0"), std::string::npos);
  EXPECT_NE(f.lab.find(std::to_string(goals[0].index()) + ": 2"), std::string::npos);
}

TEST(PrismIo, MergesParallelPassiveEdges) {
  const char* tra = "3 3 3\n0 0 1 1 a0\n1 0 2 1\n2 0 2 1\n";
  const char* lab = "0=\"init\" 1=\"goal\"\n0: 0\n2: 1\n";
  const char* trew = "3 3 2\n0 0 1 2.5\n1 0 2 4\n";
  const TestGraph g = parse_prism(tra, lab, trew, "m");
  EXPECT_EQ(g.num_vertices(), 6u);  // three states and three choice vertices
  const auto goals = g.goals();
  ASSERT_EQ(goals.size(), 1u);
  const auto r = solve_expected_cost(g, goals);
  EXPECT_DOUBLE_EQ(r.value[0], 6.5);
  EXPECT_DOUBLE_EQ(r.value[1], 4.0);
}

TEST(PrismIo, ErrorsNameFileAndLine) {
  const char* lab = "0=\"init\" 1=\"goal\"\n0: 0\n1: 1\n";
  auto expect_error = [&](const char* tra, const char* trew, const std::string& where, const std::string& what) {
    try {
      parse_prism(tra, lab, trew, "m");
      ADD_FAILURE() << "no error for " << tra;
    } catch (const ParseError& e) {
      const std::string msg = format_diagnostic(e.diagnostic());
      EXPECT_NE(msg.find(where), std::string::npos) << msg;
      EXPECT_NE(msg.find(what), std::string::npos) << msg;
    }
  };
  expect_error("2 1 1\n0 0 1 1\n1 0 1 1\n", "", "m.tra:", "header announces");
  expect_error("2 2 2\n0 0 1 1\n0 2 1 1\n", "", "m.tra:3", "out of order");
  expect_error("2 2 2\n0 0 7 1\n1 0 1 1\n", "", "m.tra:2", "out of range");
  expect_error("2 2 2\n0 0 1 x\n1 0 1 1\n", "", "m.tra:2", "probability");
  expect_error("2 2 2\n0 0 1 1\n1 0 1 1\n", "2 2 1\n0 3 1 1\n", "m.trew:2", "no choice 3");
  expect_error("2 2 2\n0 0 1 1\n1 0 1 1\n", "2 2 1\n0 0 1 -1\n", "m.trew:2", "negative");
}

}  // namespace
