// GraphWalker/AltWalker models end to end (docs/graphwalker.md): validate with located errors,
// explore, --generator on run and simulate, AltWalker-style Python test classes driving a simulated
// door and a real redis-server through `playtest run`, and convert --to graphwalker read back.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "cli_runner.hpp"
#include "playtest/io/graphwalker.hpp"
#include "redis_server.hpp"

namespace playtest::testing {
namespace {

const std::string door = example("examples/graphwalker/door.json");
const std::string kit = example("adapters/python/playtest_altwalker.py");

TEST(GraphWalkerCli, ValidateAcceptsAModelAndLocatesWhatIsWrong) {
  CliResult ok = run_playtest("validate " + door);
  EXPECT_EQ(ok.code, 0) << ok.out << ok.err;
  ScratchDir dir("gw_validate");
  const std::string bad = dir.write("bad.json",
                                    "{\"models\": [{\"name\": \"M\", \"startElementId\": \"a\",\n"
                                    "  \"vertices\": [{\"id\": \"a\", \"name\": \"v_A\"}],\n"
                                    "  \"edges\": [{\"id\": \"e\", \"name\": \"e_E\", \"sourceVertexId\": \"a\", "
                                    "\"targetVertexId\": \"a\", \"guard\": \"count % 2 == 0\"}]}]}\n");
  CliResult r = run_playtest("validate " + bad);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  // The guard's string starts at column 95 of line 3; '%' is its 7th character.
  EXPECT_NE(r.err.find("bad.json:3:102: error: '%' (the remainder operator) is outside the JavaScript subset"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("/models/0/edges/0/guard"), std::string::npos) << r.err;
}

TEST(GraphWalkerCli, ExploreGivesTheWalksStatesAndFormatGraphwalkerReadsStandardInput) {
  CliResult r = run_playtest("explore " + door + " --json");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_GT(j["vertices"].get<int>(), 9) << r.out;  // positions times the values of opened and locked
  CliResult s = run_playtest("info - --format graphwalker", read_file(door));
  EXPECT_EQ(s.code, 0) << s.out << s.err;
}

TEST(GraphWalkerCli, TheModelsGeneratorIsPlayedAndRunSaysWhereCoverIsBetter) {
  const std::string sut = "python3 " + kit + " " + example("examples/graphwalker/door_test.py");
  CliResult r = run_playtest("run " + door + " --sut '" + sut + "' --seed 3 --steps 5000 --json");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["verdict"], "PASS");
  EXPECT_EQ(j["runs"][0]["purpose_met"], true) << r.out;
  EXPECT_NE(r.err.find("the model's generator 'random(edge_coverage(100))' is played as --strategy random --purpose "
                       "labels:100%"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("playtest's cover (--strategy cover) plays an optimal tour"), std::string::npos) << r.err;
  // Every edge label taken (the GraphWalker edges are the purpose): the five of them.
  CliResult c = run_playtest("run " + door + " --sut '" + sut +
                             "' --generator 'a_star(edge_coverage(100))' --seed 1 --steps 5000 --json");
  ASSERT_EQ(c.code, 0) << c.out << c.err;
  EXPECT_NE(c.err.find("played as --strategy cover --purpose labels:100%"), std::string::npos) << c.err;
}

TEST(GraphWalkerCli, AnAssertionInAVertexIsAFailNamingTheElement) {
  const std::string sut = "env DOOR_BUG=1 python3 " + kit + " " + example("examples/graphwalker/door_test.py");
  CliResult r = run_playtest("run " + door + " --sut '" + sut + "' --generator 'a_star(edge_coverage(100))' --seed 1");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict: FAIL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Door.v_Closed: the door is open"), std::string::npos) << r.out;
}

TEST(GraphWalkerCli, GeneratorsOutsideTheGrammarAreRefusedWithTheirPlace) {
  CliResult r = run_playtest("simulate " + door + " --generator 'random(edge_coverag(100))'");
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("--generator:1:8: error: in the generator 'random(edge_coverag(100))': unknown stop condition "
                       "'edge_coverag'"),
            std::string::npos)
      << r.err;
  CliResult g = run_playtest("simulate " + example("examples/graphs/seed000-figure1.json") +
                             " --generator 'random(edge_coverage(100))'");
  EXPECT_EQ(g.code, 2);
  EXPECT_NE(g.err.find("applies to GraphWalker models"), std::string::npos) << g.err;
}

// GraphWalker's random walk never resets; playtest's `--strategy random` restarts after a stretch
// without a new edge (docs/testing.md). A generator plays GraphWalker's walk: no restart, on a
// model that can be reset (the import's reset) and long after every edge was taken.
TEST(GraphWalkerCli, TheGeneratorsRandomWalkIsGraphWalkersWithoutRestarts) {
  const std::string sut = "python3 " + kit + " " + example("examples/graphwalker/door_test.py");
  CliResult g = run_playtest("run " + door + " --sut '" + sut + "' --generator 'random(length(1500))' --seed 1 --json");
  ASSERT_EQ(g.code, 0) << g.out << g.err;
  const auto gj = nlohmann::json::parse(g.out);
  EXPECT_EQ(gj["runs"][0]["steps"], 1500) << g.out;
  EXPECT_EQ(gj["runs"][0]["resets"], 0) << g.out;
  CliResult r = run_playtest("run " + door + " --sut '" + sut +
                             "' --strategy random --purpose none --steps 1500 --seed 1 --json");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_GT(nlohmann::json::parse(r.out)["runs"][0]["resets"].get<int>(), 0) << r.out;
}

TEST(GraphWalkerCli, SimulateComparesGraphWalkersWalkWithCover) {
  CliResult r = run_playtest("simulate " + door +
                             " --generator 'random(edge_coverage(100))' --strategy random,cover --runs 20 --json");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  double random_steps = 0, cover_steps = 0;
  for (const auto& row : j["strategies"]) {
    EXPECT_EQ(row["success_rate"], 1.0) << row;
    (row["strategy"] == "random" ? random_steps : cover_steps) = row["mean_steps"].get<double>();
  }
  // The optimal tour: e_Init v_Closed e_Open v_Open e_Close v_Closed e_Lock v_Locked e_Unlock (9 steps).
  EXPECT_EQ(cover_steps, 9.0) << r.out;
  EXPECT_GT(random_steps, cover_steps) << r.out;
}

TEST(GraphWalkerCli, ConvertWritesAGraphWalkerModelThatReadsBack) {
  ScratchDir dir("gw_convert");
  const std::string out = dir.file("exported.json");
  CliResult r =
      run_playtest("convert " + example("examples/graphs/seed000-figure1.json") + " --to graphwalker -o " + out);
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const GwDocument doc = parse_graphwalker(read_file(out), out);
  ASSERT_EQ(doc.models.size(), 1u);
  CliResult info = run_playtest("info " + example("examples/graphs/seed000-figure1.json") + " --json");
  const auto j = nlohmann::json::parse(info.out);
  EXPECT_EQ(doc.models[0].vertices.size(), j["vertices"].get<std::size_t>());
  EXPECT_EQ(doc.models[0].edges.size(), j["edges"].get<std::size_t>());
  EXPECT_EQ(doc.models[0].name, "seed000-figure1");
  CliResult v = run_playtest("validate " + out);
  EXPECT_EQ(v.code, 0) << v.out << v.err;
}

TEST(GraphWalkerCli, APredefinedPathIsPlayedStepByStepAndAClosedPathIsRefused) {
  // door.json's predefinedPathEdgeIds: e_open e_close e_lock e_unlock e_open after the start edge.
  const std::string sut = "python3 " + kit + " " + example("examples/graphwalker/door_test.py");
  ScratchDir dir("gw_path");
  const std::string trace = dir.file("t.jsonl");
  CliResult r = run_playtest("run " + door + " --sut '" + sut +
                             "' --generator 'predefined_path(predefined_path)' --seed 1 --json --trace " + trace);
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["verdict"], "PASS") << r.out;
  EXPECT_NE(r.err.find("predefinedPathEdgeIds is the walk"), std::string::npos) << r.err;
  // The walk, each edge then its target vertex (GraphWalker's order).
  std::vector<std::string> labels;
  std::istringstream lines(read_file(trace));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    const auto j = nlohmann::json::parse(line);
    if (j.contains("label")) labels.push_back(j["label"]);
  }
  EXPECT_EQ(labels, (std::vector<std::string>{"Door.e_Init", "Door.v_Closed", "Door.e_Open", "Door.v_Open",
                                              "Door.e_Close", "Door.v_Closed", "Door.e_Lock", "Door.v_Locked",
                                              "Door.e_Unlock", "Door.v_Closed", "Door.e_Open", "Door.v_Open"}))
      << read_file(trace);
  // A path a guard closes (e_Lock first: opened >= 1 is false): refused before any run, saying
  // where it stops (GraphWalker stops there with an error), never a PASS.
  std::string text = read_file(door);
  text.replace(text.find("\"e_open\", \"e_close\""), 8, "\"e_lock\"");
  const std::string closed = dir.write("closed.json", text);
  CliResult c = run_playtest("run " + closed + " --sut '" + sut + "' --generator 'predefined_path(predefined_path)'");
  EXPECT_EQ(c.code, 2) << c.out << c.err;
  EXPECT_NE(c.err.find("the predefined path cannot be walked to its end: its step 3 of 12 ('Door.e_Lock') is not "
                       "enabled after 'Door.v_Closed'"),
            std::string::npos)
      << c.err;
  // simulate plays it too: 12 steps every run.
  CliResult s = run_playtest("simulate " + door + " --generator 'predefined_path(predefined_path)' --runs 3 --json");
  ASSERT_EQ(s.code, 0) << s.out << s.err;
  EXPECT_EQ(nlohmann::json::parse(s.out)["strategies"][0]["mean_steps"], 12.0) << s.out;
}

// GraphWalker's GraphML (yEd): Door.graphml is door.json drawn in yEd.
const std::string door_graphml = example("examples/graphwalker/Door.graphml");

TEST(GraphWalkerCli, AGraphmlModelValidatesExploresAndRunsAsItsJson) {
  CliResult v = run_playtest("validate " + door_graphml);
  EXPECT_EQ(v.code, 0) << v.out << v.err;
  CliResult a = run_playtest("explore " + door_graphml + " --json");
  CliResult b = run_playtest("explore " + door + " --json");
  ASSERT_EQ(a.code, 0) << a.out << a.err;
  const auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  EXPECT_EQ(ja["vertices"], jb["vertices"]);
  EXPECT_EQ(ja["edges"], jb["edges"]);
  // Read from standard input by its content.
  CliResult s = run_playtest("info -", read_file(door_graphml));
  EXPECT_EQ(s.code, 0) << s.out << s.err;
  // The same optimal tour as door.json's (9 steps), through --generator.
  CliResult c = run_playtest("simulate " + door_graphml + " --generator 'a_star(edge_coverage(100))' --runs 3 --json");
  ASSERT_EQ(c.code, 0) << c.out << c.err;
  EXPECT_EQ(nlohmann::json::parse(c.out)["strategies"][0]["mean_steps"], 9.0) << c.out;
  const std::string sut = "python3 " + kit + " " + example("examples/graphwalker/door_test.py");
  CliResult r = run_playtest("run " + door_graphml + " --sut '" + sut +
                             "' --generator 'random(edge_coverage(100))' --seed 2 --steps 5000 --json");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["verdict"], "PASS") << r.out;
}

TEST(GraphWalkerCli, AMalformedGraphmlLabelIsLocated) {
  ScratchDir dir("gw_graphml");
  const std::string bad = dir.write("bad.graphml",
                                    "<graphml xmlns:y=\"http://www.yworks.com/xml/graphml\"><graph id=\"G\">\n"
                                    "<node id=\"s\"><y:NodeLabel>Start</y:NodeLabel></node>\n"
                                    "<node id=\"a\"><y:NodeLabel>v_A</y:NodeLabel></node>\n"
                                    "<edge id=\"e\" source=\"s\" target=\"a\"><y:EdgeLabel>e_Init\n"
                                    "weight = 2</y:EdgeLabel></edge>\n"
                                    "</graph></graphml>\n");
  CliResult r = run_playtest("validate " + bad);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("bad.graphml:5:10: error: '2' is no weight"), std::string::npos) << r.err;
  const std::string dangling = dir.write("dangling.graphml",
                                         "<graphml><graph id=\"G\">\n"
                                         "<node id=\"s\"/>\n"
                                         "  <edge id=\"e\" source=\"s\" target=\"b\"/>\n"
                                         "</graph></graphml>\n");
  CliResult d = run_playtest("validate " + dangling);
  EXPECT_EQ(d.code, 2) << d.out << d.err;
  EXPECT_NE(d.err.find("dangling.graphml:3:3: error: the edge's target 'b' is no node of the file"), std::string::npos)
      << d.err;
}

// A model spread over several GraphML files (docs/graphwalker.md "Several files"): GraphWalker's
// Login/Crash shared-state example, written small in examples/graphwalker/login_crash.
const std::string login_crash = example("examples/graphwalker/login_crash/Login.graphml") + " " +
                                example("examples/graphwalker/login_crash/Crash.graphml");

TEST(GraphWalkerCli, SeveralGraphmlFilesAreOneModelForEveryCommand) {
  // 20 states, counted by hand in tests/unit/lang/test_graphwalker_files.cpp.
  CliResult v = run_playtest("validate " + login_crash + " --json");
  ASSERT_EQ(v.code, 0) << v.out << v.err;
  EXPECT_EQ(nlohmann::json::parse(v.out)["vertices"], 20) << v.out;
  CliResult e = run_playtest("explore " + login_crash + " --json");
  ASSERT_EQ(e.code, 0) << e.out << e.err;
  EXPECT_EQ(nlohmann::json::parse(e.out)["vertices"], 20) << e.out;
  CliResult i = run_playtest("info " + login_crash + " --json");
  ASSERT_EQ(i.code, 0) << i.out << i.err;
  EXPECT_EQ(nlohmann::json::parse(i.out)["vertices"], 20) << i.out;
  // The shortest walk taking the 8 edges of both files, counted by hand: e_Init v_ClientNotRunning,
  // then e_StartClient v_LoginPrompted e_ValidPremiumCredentials v_Browse (4) and into Crash at
  // LOGGED_IN: #n0 e_CrashSpotify v_CrashDumpFilesGenerated #e1 (4), with detours for e_Close
  // (e_Close e_StartClient: 4 steps), e_Logout (e_Logout e_ValidPremiumCredentials: 4) and e_Exit
  // (e_Exit e_StartClient e_ValidPremiumCredentials: 6), each edge followed by its vertex:
  // 2 + 4 + 4 + 4 + 4 + 6 = 24 steps.
  CliResult p =
      run_playtest("simulate " + login_crash + " --generator 'quick_random(edge_coverage(100))' --runs 3 --json");
  ASSERT_EQ(p.code, 0) << p.out << p.err;
  const auto jp = nlohmann::json::parse(p.out)["strategies"][0];
  EXPECT_EQ(jp["success_rate"], 1.0) << p.out;
  EXPECT_EQ(jp["mean_steps"], 24.0) << p.out;
  // GraphWalker's random walk reaches Crash through the shared state too.
  CliResult r = run_playtest("simulate " + login_crash +
                             " --generator 'random(edge_coverage(100))' --runs 5 --steps 5000 --json");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["strategies"][0]["success_rate"], 1.0) << r.out;
  // cover tours every edge of the explored graph; solve plans to a goal in the second file.
  CliResult c = run_playtest("cover " + login_crash + " --json");
  ASSERT_EQ(c.code, 0) << c.out << c.err;
  CliResult g = run_playtest("solve " + login_crash + " --goal Crash.v_CrashDumpFilesGenerated --json");
  ASSERT_EQ(g.code, 0) << g.out << g.err;
  // convert writes the explored model (both files) as one GraphWalker model.
  ScratchDir dir("gw_files");
  const std::string out = dir.file("login_crash.json");
  CliResult x = run_playtest("convert " + login_crash + " --to graphwalker -o " + out);
  ASSERT_EQ(x.code, 0) << x.out << x.err;
  const GwDocument doc = parse_graphwalker(read_file(out), out);
  ASSERT_EQ(doc.models.size(), 1u);
  EXPECT_EQ(doc.models[0].vertices.size(), 20u);
}

TEST(GraphWalkerCli, SeveralFilesWithoutAStartOrWithTwoOrAnotherFormatAreRefused) {
  const std::string crash = example("examples/graphwalker/login_crash/Crash.graphml");
  const std::string login = example("examples/graphwalker/login_crash/Login.graphml");
  ScratchDir dir("gw_files_bad");
  std::string text = read_file(crash);
  text.replace(text.find("e_CrashSpotify"), 14, "e_Other");
  const std::string other = dir.write("Other.graphml", text);
  CliResult n = run_playtest("validate " + crash + " " + other);
  EXPECT_EQ(n.code, 2) << n.out << n.err;
  EXPECT_NE(n.err.find(crash + ":6:3: error: none of the 2 files has a start element"), std::string::npos) << n.err;
  const std::string login2 = dir.write("Login2.graphml", read_file(login));
  CliResult t = run_playtest("validate " + login + " " + crash + " " + login2);
  EXPECT_EQ(t.code, 2) << t.out << t.err;
  EXPECT_NE(t.err.find(login2 + ":7:5: error: a second file with a start element"), std::string::npos) << t.err;
  CliResult f = run_playtest("validate " + login + " " + example("examples/graphs/seed000-figure1.json"));
  EXPECT_EQ(f.code, 2) << f.out << f.err;
  EXPECT_NE(f.err.find("several model files are read together only as GraphWalker models"), std::string::npos) << f.err;
}

class GraphWalkerRedis : public ::testing::Test {
 protected:
  void SetUp() override {
    server_.emplace(dir_);
    if (!server_->why_not().empty()) GTEST_SKIP() << server_->why_not();
  }
  CliResult run(const std::string& env) {
    const std::string sut = "env REDIS_PORT=" + std::to_string(server_->port()) + env + " python3 " + kit + " " +
                            example("examples/graphwalker/redis_queue_test.py");
    return run_playtest("run " + example("examples/graphwalker/redis_queue.json") + " --sut '" + sut +
                        "' --generator 'quick_random(edge_coverage(100))' --seed 1 --steps 2000 --timeout-ms 5000");
  }
  ScratchDir dir_{"gw_redis_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name())};
  std::optional<RedisServer> server_;
};

TEST_F(GraphWalkerRedis, AnAltWalkerClassDrivesTheRealServerToAPass) {
  CliResult r = run("");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict: PASS"), std::string::npos) << r.out;
}

TEST_F(GraphWalkerRedis, ALostPushIsAFailAtTheNextVerification) {
  CliResult r = run(" DROP_PUSH=2");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("Queue.v_Filled: LLEN is "), std::string::npos) << r.out;
}

}  // namespace
}  // namespace playtest::testing
