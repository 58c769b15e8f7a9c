// Loading any input in one call (input/load.hpp), in process as a C++ test would: a model program
// with a parameter, a graph/1 file (by extension and by content), explore-first within a budget and
// the refusal of a model too big to explore whole.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "playtest/base/error.hpp"
#include "playtest/input/load.hpp"
#include "playtest/io/graph_json.hpp"
#include "test_paths.hpp"

namespace playtest {
namespace {

const std::string source_dir = playtest::testing::source_dir();

TEST(LoadInput, AModelProgramWithAParameterIsExploredWithIt) {
  // counter.ptm: two counters on an N x N grid, every state one vertex.
  LoadOptions o{.path = source_dir + "/examples/models/counter.ptm", .params = {"N=3"}};
  const LoadedInput in = load_input(o);
  EXPECT_EQ(in.format, InputFormat::model);
  ASSERT_TRUE(in.graph.has_value());
  ASSERT_NE(in.model, nullptr);
  EXPECT_EQ(in.model->parameters(), (std::vector<std::pair<std::string, std::string>>{{"N", "3"}}));
  EXPECT_EQ(param_environment(in.model.get()), std::vector<std::string>{"PLAYTEST_PARAM_N=3"});
  const std::uint32_t three = in.graph->num_vertices();
  o.params = {"N=4"};
  const TestGraph four = load_test_graph(o);
  EXPECT_EQ(three, 9u);  // 3 x 3 states
  EXPECT_EQ(four.num_vertices(), 16u);
  // IncX from x < N-1 (N(N-1) states), IncY likewise, Restart from one state.
  EXPECT_EQ(in.graph->num_edges(), 3u * 2 + 3 * 2 + 1);
}

TEST(LoadInput, AGraphFileIsReadAsTheGraphReaderReadsIt) {
  const std::string path = source_dir + "/examples/sut/workers.json";
  const LoadedInput in = load_input({.path = path});
  EXPECT_EQ(in.format, InputFormat::graph);
  EXPECT_EQ(in.model, nullptr);
  const TestGraph direct = load_graph(path);
  ASSERT_TRUE(in.graph.has_value());
  EXPECT_EQ(in.graph->num_vertices(), direct.num_vertices());
  EXPECT_EQ(in.graph->num_edges(), direct.num_edges());

  // The same text under a name that says nothing: the format comes from the content.
  const auto copy = std::filesystem::temp_directory_path() / "playtest_input_test_workers.txt";
  std::filesystem::copy_file(path, copy, std::filesystem::copy_options::overwrite_existing);
  const LoadedInput by_content = load_input({.path = copy.string()});
  EXPECT_EQ(by_content.format, InputFormat::graph);
  EXPECT_EQ(by_content.graph->num_edges(), direct.num_edges());
  // Told it is a model program, it is read as one (and is not a valid one).
  EXPECT_THROW(load_input({.path = copy.string(), .format = InputFormat::model}), InputError);
  std::filesystem::remove(copy);
  // PRISM options on another format are a usage mistake.
  EXPECT_THROW(load_input({.path = path, .reward = "1"}), UsageError);
}

TEST(LoadInput, ExploreFirstPlaysABigModelOnTheFlyAndWholeExplorationRefusesIt) {
  LoadOptions o{.path = source_dir + "/examples/models/counter.ptm", .params = {"N=100"}, .max_states = 50};
  EXPECT_THROW(load_input(o), ModelError);  // 10^4 states, at most 50 explored
  o.explore_first = ExploreFirstOptions{.max_seconds = 0};
  const LoadedInput in = load_input(o);
  EXPECT_FALSE(in.graph.has_value());
  ASSERT_NE(in.model, nullptr);
  EXPECT_EQ(in.on_the_fly_reason, "it has more than 50 vertices (the state limit)");
  // A model that fits is explored as its graph.
  o.params = {"N=5"};
  const LoadedInput small = load_input(o);
  ASSERT_TRUE(small.graph.has_value());
  EXPECT_EQ(small.graph->num_vertices(), 25u);
  EXPECT_TRUE(small.on_the_fly_reason.empty());
  // What needs the whole graph explores it whole.
  o.params = {"N=100"};
  o.whole_graph_for = "strategy 'reach'";
  try {
    load_input(o);
    ADD_FAILURE() << "no refusal";
  } catch (const ModelError& e) {
    EXPECT_NE(e.diagnostic().message.find("strategy 'reach' needs the whole graph"), std::string::npos)
        << e.diagnostic().message;
  }
}

}  // namespace
}  // namespace playtest
