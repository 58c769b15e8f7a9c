// A GraphWalker model spread over several files (io/graphwalker.hpp parse_graphwalker_files,
// input/load.hpp LoadOptions::more_paths; docs/graphwalker.md "Several files"): the files' models
// read as one document, each element located in its own file, the start taken from the one file
// that has it, shared states joining the files. examples/graphwalker/login_crash is GraphWalker's
// Login/Crash shared-state example, written small: the expected state space and walk below are
// counted by hand. And what is refused: no start, two starts, a shared state no other file has, a
// file nothing leads into, two models of one name, a file that is no GraphWalker model.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "diagnostic_message.hpp"
#include "playtest/base/error.hpp"
#include "playtest/base/source_text.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/input/load.hpp"
#include "playtest/io/graphwalker.hpp"
#include "playtest/lang/graphwalker_model.hpp"
#include "test_paths.hpp"

namespace playtest {
namespace {

const std::string dir = playtest::testing::source_dir() + "/examples/graphwalker/login_crash/";
const std::string login = dir + "Login.graphml";
const std::string crash = dir + "Crash.graphml";

using playtest::testing::message_of;

// A scratch file with `text`; its path.
std::string scratch(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/gw_files_" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// `text` with the first `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

GwDocument read_files(const std::vector<std::string>& paths) {
  std::vector<std::string> texts;
  for (const std::string& p : paths) texts.push_back(read_source_text(p));
  std::vector<GwFile> files;
  for (std::size_t i = 0; i < paths.size(); ++i) files.push_back({texts[i], paths[i]});
  return parse_graphwalker_files(files);
}

// The vertex reached from the initial one along edges with these labels (one edge per label and
// vertex: the model is deterministic); nullopt where a label has no edge.
std::optional<VertexId> walk(const TestGraph& g, const std::vector<std::string>& labels, std::string& stuck) {
  VertexId at = g.initial();
  for (const std::string& l : labels) {
    std::optional<VertexId> next;
    for (EdgeId e : g.out_edges(at))
      if (g.label(e) == l) next = g.target(e);
    if (!next) {
      stuck = l;
      return std::nullopt;
    }
    at = *next;
  }
  return at;
}

TEST(GraphWalkerFiles, LoginAndCrashAreOneModelJoinedByTheirSharedStates) {
  const GwDocument doc = read_files({login, crash});
  ASSERT_EQ(doc.models.size(), 2u);
  EXPECT_EQ(doc.models[0].name, "Login");
  EXPECT_EQ(doc.models[1].name, "Crash");
  EXPECT_EQ(doc.start_model, 0u);
  EXPECT_EQ(doc.file, login);
  // Each element says which file it is in.
  EXPECT_EQ(doc.models[1].vertices[1].where.file, crash);
  EXPECT_EQ(doc.models[1].vertices[1].where.line, 8u);
  EXPECT_EQ(doc.models[0].edges[0].actions[0].where.file, login);

  const GraphWalkerImport imp = compile_graphwalker(doc);
  std::vector<std::string> labels;
  for (const GraphWalkerElement& e : imp.elements) labels.push_back(e.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"Login.v_ClientNotRunning", "Login.v_LoginPrompted", "Login.v_Browse",
                                              "Login.e_Init", "Login.e_StartClient", "Login.e_ValidPremiumCredentials",
                                              "Login.e_Logout", "Login.e_Exit", "Login.e_Close", "Crash.#n0",
                                              "Crash.v_CrashDumpFilesGenerated", "Crash.#n2", "Crash.e_CrashSpotify",
                                              "Crash.#e1"}));
  const ExploreResult r = explore(*imp.model, {.max_states = 1000});
  ASSERT_EQ(r.status, ExploreStatus::complete);
  // Counted by hand: the state is (element visited last, validLogin). validLogin is false from
  // e_Init until e_ValidPremiumCredentials and true from then on: start, e_Init (false), v_Browse,
  // e_ValidPremiumCredentials, e_Logout, e_Exit and the Crash elements entered from LOGGED_IN (#n0,
  // e_CrashSpotify, v_CrashDumpFilesGenerated, #e1) once each (true); v_ClientNotRunning,
  // e_StartClient, v_LoginPrompted, e_Close and Crash's #n2 (jumped to from CLIENT_NOT_RUNNING
  // either way) twice: 1 + 1 + 4 + 4 + 2 * 5 = 20.
  EXPECT_EQ(r.graph.num_vertices(), 20u);
  // Every element of both files is reachable.
  std::set<std::string> taken;
  for (EdgeId e : r.graph.edges()) taken.insert(std::string(r.graph.label(e)));
  for (const std::string& l : labels) EXPECT_TRUE(taken.count(l)) << l;
  // A walk that crosses into Crash at LOGGED_IN and back into Login at CLIENT_NOT_RUNNING.
  std::string stuck;
  const auto end = walk(
      r.graph,
      {"Login.e_Init", "Login.v_ClientNotRunning", "Login.e_StartClient", "Login.v_LoginPrompted",
       "Login.e_ValidPremiumCredentials", "Login.v_Browse", "Crash.#n0", "Crash.e_CrashSpotify",
       "Crash.v_CrashDumpFilesGenerated", "Crash.#e1", "Crash.#n2", "Login.v_ClientNotRunning", "Login.e_StartClient"},
      stuck);
  EXPECT_TRUE(end.has_value()) << "no edge '" << stuck << "'";
  // Crash has no way in but the shared states: right after e_Init none of its elements is enabled
  // but #n2 (CLIENT_NOT_RUNNING), and e_CrashSpotify only from LOGGED_IN.
  EXPECT_FALSE(walk(r.graph, {"Login.e_Init", "Login.v_ClientNotRunning", "Crash.#n0"}, stuck).has_value());
  EXPECT_TRUE(
      walk(r.graph, {"Login.e_Init", "Login.v_ClientNotRunning", "Crash.#n2", "Login.v_ClientNotRunning"}, stuck)
          .has_value())
      << stuck;
}

TEST(GraphWalkerFiles, TheStartComesFromTheFileThatHasOneInAnyOrder) {
  const GwDocument doc = read_files({crash, login});
  ASSERT_EQ(doc.models.size(), 2u);
  EXPECT_EQ(doc.models[0].name, "Crash");
  EXPECT_EQ(doc.start_model, 1u);
  const GraphWalkerImport imp = compile_graphwalker(doc);
  EXPECT_EQ(imp.start_model, "Login");
  // load_input takes the files as FILE and more_paths.
  const LoadedInput in = load_input({.path = crash, .more_paths = {login}});
  EXPECT_EQ(in.format, InputFormat::graphwalker);
  ASSERT_TRUE(in.graph.has_value());
  EXPECT_EQ(in.graph->num_vertices(), 20u);
}

TEST(GraphWalkerFiles, NoStartTwoStartsAndADanglingSharedStateAreLocatedInTheirFile) {
  const std::string crash_text = read_source_text(crash);
  const std::string login_text = read_source_text(login);
  // No file has a start: at the first file's <graph> (line 6, column 3).
  const std::string other = scratch("Other.graphml", replaced(crash_text, "e_CrashSpotify", "e_Other"));
  const std::string none = message_of<GraphError>([&] { read_files({crash, other}); });
  EXPECT_NE(none.find(crash + ":6:3: error: none of the 2 files has a start element"), std::string::npos) << none;
  // A second file with a Start vertex: at its node labelled Start (line 7, column 5).
  const std::string login2 = scratch("Login2.graphml", login_text);
  const std::string two = message_of<GraphError>([&] { read_files({login, crash, login2}); });
  EXPECT_NE(two.find(login2 + ":7:5: error: a second file with a start element"), std::string::npos) << two;
  EXPECT_NE(two.find(login + " has the first, at line 7"), std::string::npos) << two;
  // A shared state no other file has: Crash's LOGGED_IN misspelt; Login's is then alone too, and
  // is found first (Login's v_Browse, line 10).
  const std::string typo = scratch("Crash.graphml", replaced(crash_text, "SHARED:LOGGED_IN", "SHARED:LOGGED_ON"));
  const std::string dangling = message_of<GraphError>([&] { read_files({login, typo}); });
  EXPECT_NE(dangling.find(login + ":10:5: error: the shared state 'LOGGED_IN' is in no other file"), std::string::npos)
      << dangling;
  // Crash read first: its misspelt state is found first.
  const std::string dangling2 = message_of<GraphError>([&] { read_files({typo, login}); });
  EXPECT_NE(dangling2.find(typo + ":7:5: error: the shared state 'LOGGED_ON' is in no other file"), std::string::npos)
      << dangling2;
  // A file without the start and without a shared state: nothing leads into it.
  const std::string lonely = scratch(
      "Lonely.graphml", replaced(replaced(crash_text, "SHARED:LOGGED_IN", "v_A"), "SHARED:CLIENT_NOT_RUNNING", "v_B"));
  const std::string unreachable = message_of<GraphError>([&] { read_files({login, crash, lonely}); });
  EXPECT_NE(unreachable.find(lonely + ":6:3: error: the file has no start element and no shared state"),
            std::string::npos)
      << unreachable;
  // Two files of the same name in two folders: two models of one name.
  const std::string same = ::testing::TempDir() + "/gw_files_dir";
  std::filesystem::create_directories(same);
  const std::string crash_again = same + "/Crash.graphml";
  std::ofstream(crash_again, std::ios::binary) << crash_text;
  const std::string names = message_of<GraphError>([&] { read_files({login, crash, crash_again}); });
  EXPECT_NE(names.find(crash_again + ":6:3: error: two models are named 'Crash'"), std::string::npos) << names;
  // A file's own error keeps its place.
  const std::string broken = scratch("Broken.graphml", replaced(crash_text, "e_CrashSpotify", "1_bad"));
  const std::string bad = message_of<ParseError>([&] { read_files({login, broken}); });
  EXPECT_NE(bad.find(broken + ":10:"), std::string::npos) << bad;
  // JavaScript errors of the second file are located in it.
  const std::string js = scratch("Js.graphml", replaced(crash_text, "e_CrashSpotify", "e_CrashSpotify / n = 7 % 2;"));
  const std::string script = message_of<InputError>([&] { compile_graphwalker(read_files({login, js})); });
  EXPECT_NE(script.find(js + ":10:"), std::string::npos) << script;
  EXPECT_NE(script.find("'%' (the remainder operator)"), std::string::npos) << script;
}

TEST(GraphWalkerFiles, JsonFilesJoinTooAndOtherFormatsAreRefused) {
  // AltWalker's -m a.json -m b.json: the start in a's model, b entered through the shared state.
  const std::string a = scratch("a.json", R"({"models": [{"name": "A", "startElementId": "e0",
  "vertices": [{"id": "v0", "name": "v_Home", "sharedState": "HOME"}],
  "edges": [{"id": "e0", "name": "e_Start", "targetVertexId": "v0"}]}]})");
  const std::string b = scratch("b.json", R"({"models": [{"name": "B",
  "vertices": [{"id": "w0", "name": "v_Hub", "sharedState": "HOME"}, {"id": "w1", "name": "v_Away"}],
  "edges": [{"id": "f0", "name": "e_Go", "sourceVertexId": "w0", "targetVertexId": "w1"},
            {"id": "f1", "name": "e_Back", "sourceVertexId": "w1", "targetVertexId": "w0"}]}]})");
  const LoadedInput in = load_input({.path = a, .more_paths = {b}});
  ASSERT_TRUE(in.graph.has_value());
  ASSERT_TRUE(in.graphwalker);
  EXPECT_EQ(in.graphwalker->elements.size(), 6u);
  // start, A.e_Start, A.v_Home, B.v_Hub, B.e_Go, B.v_Away, B.e_Back: one state each.
  EXPECT_EQ(in.graph->num_vertices(), 7u);
  const std::string alone = message_of<GraphError>([&] { load_input({.path = b}); });
  EXPECT_NE(alone.find(b + ":1:12: error: no model has a start element"), std::string::npos) << alone;
  // A graph/1 file among them: not a GraphWalker model.
  const std::string g = scratch("g.json", R"({"vertices": [], "edges": []})");
  const std::string usage = message_of<UsageError>([&] { load_input({.path = a, .more_paths = {g}}); });
  EXPECT_NE(usage.find("several model files are read together only as GraphWalker models"), std::string::npos) << usage;
  EXPECT_NE(message_of<UsageError>([&] { load_input({.path = g, .more_paths = {a}}); }).find("'" + g + "'"),
            std::string::npos);
}

}  // namespace
}  // namespace playtest
