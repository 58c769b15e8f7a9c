// PRISM explicit format: export a test graph, import it back, and the expected costs at the MDP's
// states equal the original vertices' (the importer's choice vertices add no cost); errors carry
// file:line.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "playtest/base/error.hpp"
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
  expect_error("2 1 2\n0 0 1 1\n1 0 1 1\n", "", "m.tra:3:3:", "more choices than the header declares");
  expect_error("2 3 3\n0 0 1 1\n1 0 1 1\n# padding to hold 3 rows\n", "", "m.tra:1:", "header declares 3 choices and 3 transitions");
  expect_error("2 2 2\n0 0 1 1\n0 2 1 1\n", "", "m.tra:3:3:", "out of order");
  expect_error("2 2 2\n0 0 7 1\n1 0 1 1\n", "", "m.tra:2:5:", "out of range");
  expect_error("2 2 2\n0 0 1 x\n1 0 1 1\n", "", "m.tra:2:7:", "probability");
  expect_error("2 2 2\n0 0 1 0.5\n1 0 1 1\n", "", "m.tra:2:", "sum to 0.5");
  expect_error("2 2 2\n0 0 1 1 a\n0 0 0 1 b\n", "", "m.tra:3:9:", "two action labels");
  expect_error("2 2 2\n0 0 1 1\n1 0 1 1\n", "2 2 1\n0 3 1 1\n", "m.trew:2:3:", "no choice 3");
  expect_error("2 2 2\n0 0 1 1\n1 0 1 1\n", "2 2 1\n0 0 1 -1\n", "m.trew:2:7:", "negative");
  expect_error("2 2 2\n0 0 1 1\n1 0 1 1\n", "2 2 1\n0 0 1 nan\n", "m.trew:2:7:", "finite number");
  expect_error("2 2 2\n0 0 1 1\n1 0 1 1\n", "2 2 2\n0 0 1 1\n0 0 1 1\n", "m.trew:3:1:", "second reward");
  expect_error("2 2 2\n0 0 1 1\n1 0 1 1\n", "2 2 2\n0 0 1 1\n", "m.trew:1:", "declares 2 rewards, the file has 1");
  expect_error("2 2 2\n0 0 1 1\n1 0 1 1\n", "2 1\n0 1 1\n", "m.trew:1:1:", "an MDP's transition reward file");
  expect_error("99999999999 2 2\n", "", "m.tra:1:1:", "too large");
  expect_error("2 2\n0 1 1\n1 1 1\n", "2 2 1\n0 0 1 1\n", "m.trew:1:1:", "a DTMC's transition reward file");
  expect_error("2 2\n1 1 1\n0 1 1\n", "", "m.tra:3:1:", "out of order");
}

// The streaming reader (load_prism) and the in-memory one (parse_prism) give the same graph, and
// that graph is the one the importer built before it streamed: vertices "s" then "s.c" in choice
// order, edges s -> s.c labelled with the action, then s.c -> t with the probabilities.
TEST(PrismIo, LoadedGraphIsExact) {
  const char* tra = "# comment\n3 4 5\n0 0 1 0.25 go\n0 0 2 0.75 go\n0 1 0 1\n1 0 2 1 go\n2 0 2 1 stay\n";
  const char* lab = "0=\"init\" 1=\"deadlock\" 2=\"goal\"\n0: 0\n2: 2\n";
  const char* trew = "# Reward structure \"r\"\n# Transition rewards\n3 4 3\n0 0 1 4\n0 0 2 4\n0 1 0 1.5\n";
  const char* srew = "# Reward structure \"r\"\n# State rewards\n3 1\n1 2\n";
  const TestGraph g = parse_prism(PrismText{tra, lab, srew, trew}, "m");
  ASSERT_EQ(g.num_vertices(), 7u);
  ASSERT_EQ(g.num_edges(), 9u);
  const char* names[] = {"0", "1", "2", "0.0", "0.1", "1.0", "2.0"};
  for (std::uint32_t v = 0; v < 7; ++v) {
    EXPECT_EQ(g.name(VertexId{v}), names[v]);
    EXPECT_EQ(g.is_passive(VertexId{v}), v >= 3) << v;
  }
  EXPECT_EQ(g.initial(), VertexId{0});
  ASSERT_EQ(g.goals().size(), 1u);
  EXPECT_EQ(g.goals()[0], VertexId{2});
  struct E {
    std::uint32_t from, to;
    const char* label;
    double cost, prob;
  };
  const E want[] = {{0, 3, "go", 4, 0},  {0, 4, "c1", 1.5, 0}, {1, 5, "go", 2, 0},    {2, 6, "stay", 0, 0},
                    {3, 1, "?", 0, 0.25}, {3, 2, "?", 0, 0.75}, {4, 0, "?", 0, 1}, {5, 2, "?", 0, 1}, {6, 2, "?", 0, 1}};
  for (std::uint32_t k = 0; k < 9; ++k) {
    const EdgeId e{k};
    EXPECT_EQ(g.source(e), VertexId{want[k].from}) << k;
    EXPECT_EQ(g.target(e), VertexId{want[k].to}) << k;
    EXPECT_EQ(g.label_name(g.label_id(e)), want[k].label) << k;
    EXPECT_EQ(g.cost(e), want[k].cost) << k;
    EXPECT_EQ(g.probability(e), want[k].prob) << k;
    EXPECT_EQ(g.name(e), "e" + std::to_string(k)) << k;
  }
  // The same files, streamed from disk.
  const auto dir = std::filesystem::temp_directory_path() / ("prism_io_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto put = [&](const char* ext, const char* text) { std::ofstream(dir / (std::string("m") + ext)) << text; };
  put(".tra", tra);
  put(".lab", lab);
  put(".trew", trew);
  put(".srew", srew);
  const TestGraph h = load_prism((dir / "m").string());
  std::filesystem::remove_all(dir);
  ASSERT_EQ(h.num_vertices(), g.num_vertices());
  ASSERT_EQ(h.num_edges(), g.num_edges());
  for (std::uint32_t v = 0; v < g.num_vertices(); ++v) EXPECT_EQ(h.name(VertexId{v}), g.name(VertexId{v}));
  for (std::uint32_t k = 0; k < g.num_edges(); ++k) {
    const EdgeId e{k};
    EXPECT_EQ(h.source(e), g.source(e));
    EXPECT_EQ(h.target(e), g.target(e));
    EXPECT_EQ(h.cost(e), g.cost(e));
    EXPECT_EQ(h.probability(e), g.probability(e));
    EXPECT_EQ(h.label_name(h.label_id(e)), g.label_name(g.label_id(e)));
  }
  EXPECT_EQ(h.find_vertex("1.0"), VertexId{5});
}

// A choice's reward written on each of its transitions (as PRISM does) costs exactly that value,
// not a rounded probability-weighted sum.
TEST(PrismIo, ChoiceRewardIsExact) {
  const char* tra2 = "4 4 6\n0 0 1 0.1\n0 0 2 0.2\n0 0 3 0.7\n1 0 1 1\n2 0 2 1\n3 0 3 1\n";
  const char* lab = "0=\"init\" 1=\"goal\"\n0: 0\n1: 1\n2: 1\n3: 1\n";
  const char* trew = "4 4 3\n0 0 1 7.7\n0 0 2 7.7\n0 0 3 7.7\n";
  const TestGraph g = parse_prism(tra2, lab, trew, "m");
  EXPECT_EQ(g.cost(EdgeId{0}), 7.7);  // 0.1 * 7.7 + 0.2 * 7.7 + 0.7 * 7.7 is 7.699999999999999
}

// A DTMC's states are passive vertices whose edges are the transitions.
TEST(PrismIo, Dtmc) {
  const char* tra = "3 4\n0 1 0.5 a\n0 2 0.5 b\n1 1 1\n2 1 1\n";
  const char* lab = "0=\"init\" 1=\"goal\"\n0: 0\n1: 1\n";
  const TestGraph g = parse_prism(PrismText{tra, lab, "3 1\n2 6\n", "3 1\n0 2 10\n"}, "m");
  ASSERT_EQ(g.num_vertices(), 3u);
  ASSERT_EQ(g.num_edges(), 4u);
  EXPECT_TRUE(g.is_passive(VertexId{0}));
  EXPECT_EQ(g.label_name(g.label_id(EdgeId{0})), "a");
  EXPECT_EQ(g.label_name(g.label_id(EdgeId{1})), "b");
  EXPECT_EQ(g.cost(EdgeId{1}), 10.0);
  const auto r = solve_expected_cost(g, g.goals());
  EXPECT_DOUBLE_EQ(r.value[0], 0.5 * 10 + 0.5 * 6);
}

TEST(PrismIo, ManyLabels) {
  std::string lab;
  for (int i = 0; i < 20; ++i) lab += std::to_string(i) + "=\"l" + std::to_string(i) + "\" ";
  lab += "\n0: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18\n1: 19\n";
  const TestGraph g = parse_prism("2 2 2\n0 0 1 1\n1 0 1 1\n", lab, "", "m", {.goal_label = "l19", .init_label = "l18"});
  ASSERT_EQ(g.goals().size(), 1u);
  EXPECT_EQ(g.goals()[0], VertexId{1});
}

TEST(PrismIo, GoalLabelMustExist) {
  const char* tra = "2 2 2\n0 0 1 1\n1 0 1 1\n";
  try {
    parse_prism(tra, "0=\"init\" 1=\"done\"\n0: 0\n1: 1\n", "", "m");
    ADD_FAILURE() << "no error";
  } catch (const UsageError& e) {
    EXPECT_EQ(e.parameter(), "goal_label");
    EXPECT_NE(e.diagnostic().message.find("\"done\""), std::string::npos);
  }
  const TestGraph g = parse_prism(tra, "0=\"init\" 1=\"done\"\n0: 0\n1: 1\n", "", "m", {.goal_label = "done"});
  EXPECT_EQ(g.goals().size(), 1u);
}

}  // namespace
