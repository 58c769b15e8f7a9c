// The areas' dependency graph is a DAG (docs/design.md "Areas and layers"): every #include of a
// playtest header in include/playtest/<area>/ and src/<area>/ must name the area itself or one the
// table below allows (run/ includes no solver, coverage, planner or ioco header: issue 27). A
// header-only include cycle (as run/policy.hpp once made between run and cover, plan, ioco) is
// invisible to CMake's link graph; this test sees it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "test_paths.hpp"

namespace {

namespace fs = std::filesystem;

// Each area and the areas it may include (transitively closed by hand: an area lists everything
// below it that it uses). base/ is the bottom layer: errors, files, numbers, processes.
const std::map<std::string, std::set<std::string>>& allowed() {
  static const std::map<std::string, std::set<std::string>> table = [] {
    std::map<std::string, std::set<std::string>> t;
    t["base"] = {};
    t["graph"] = {"base"};
    t["strategy"] = {"base", "graph"};
    t["io"] = {"base", "graph"};
    t["explore"] = {"base", "graph"};
    t["lang"] = {"base", "graph", "explore", "io"};  // io: GraphWalker documents (lang/graphwalker_model)
    for (const char* a : {"solve", "cover", "plan", "ioco"}) t[a] = {"base", "graph", "strategy"};
    // The strategy table knows every strategy; run/ knows none of them (it plays policy makers).
    t["adapt"] = {"base", "graph", "strategy", "solve"};
    t["catalog"] = {"base", "graph", "strategy", "solve", "cover", "plan", "ioco", "adapt"};
    // One run against one adapter; campaigns of runs (jobs, shards, merge, traces, JUnit,
    // simulated systems) above it.
    t["run"] = {"base", "graph", "strategy", "io", "explore", "lang"};
    t["campaign"] = t["run"];
    t["campaign"].insert("run");
    std::set<std::string> below_report = t["campaign"];
    for (const char* a : {"campaign", "solve", "cover", "plan", "ioco", "adapt", "catalog"}) below_report.insert(a);
    t["report"] = below_report;
    t["diagnose"] = below_report;
    t["diagnose"].insert("report");
    // Loading any input (input/load.hpp): the readers of io, lang, ioco; run's on-the-fly play; the
    // strategy table, to name the strategies that play a model too big to explore.
    t["input"] = t["run"];
    for (const char* a : {"run", "ioco", "solve"}) t["input"].insert(a);
    t["input"].insert(t["catalog"].begin(), t["catalog"].end());
    t["input"].insert("catalog");
    // A test session as the tool runs one: its plan, the files a campaign writes, shrinking after
    // it, the replay command (session/).
    t["session"] = t["diagnose"];
    t["session"].insert("diagnose");
    t["session"].insert("input");
    // include/playtest/gtest.hpp, the GoogleTest integration: above everything it plays with.
    t["gtest.hpp"] = t["session"];
    t["gtest.hpp"].insert("session");
    return t;
  }();
  return table;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Violation {
  std::string file, area, included;
};

// The area of a path below include/playtest/ or src/: its first folder (a top-level header, as
// gtest.hpp, is an area of its own).
std::string area_of(const fs::path& rel) {
  auto it = rel.begin();
  if (it == rel.end()) return {};
  return it->string();
}

std::vector<Violation> violations(std::set<std::string>* unknown_areas) {
  const fs::path root = playtest::testing::source_dir();
  const std::regex inc(R"(#\s*include\s*"playtest/([a-z_]+)(/|\.hpp))");
  std::vector<Violation> out;
  for (const fs::path& base : {root / "include" / "playtest", root / "src"}) {
    for (const auto& entry : fs::recursive_directory_iterator(base)) {
      if (!entry.is_regular_file()) continue;
      const std::string ext = entry.path().extension().string();
      if (ext != ".hpp" && ext != ".cpp") continue;
      const std::string area = area_of(fs::relative(entry.path(), base));
      auto rule = allowed().find(area);
      if (rule == allowed().end()) {
        unknown_areas->insert(area);
        continue;
      }
      const std::string text = read(entry.path());
      for (std::sregex_iterator m(text.begin(), text.end(), inc), end; m != end; ++m) {
        std::string included = (*m)[1].str();
        if ((*m)[2].str() == ".hpp") included += ".hpp";  // a top-level header (gtest.hpp)
        if (included == area || rule->second.count(included)) continue;
        out.push_back({fs::relative(entry.path(), root).string(), area, included});
      }
    }
  }
  return out;
}

TEST(Layers, EveryAreaIsInTheTable) {
  std::set<std::string> unknown;
  violations(&unknown);
  EXPECT_TRUE(unknown.empty()) << "areas missing from tests/unit/layers/test_layers.cpp's table (add them with the "
                                  "areas they may include): "
                               << ::testing::PrintToString(unknown);
}

TEST(Layers, NoIncludeCrossesALayerUpward) {
  std::set<std::string> unknown;
  std::string report;
  for (const Violation& v : violations(&unknown))
    report += "\n  " + v.file + " (area " + v.area + ") includes playtest/" + v.included + "/";
  EXPECT_TRUE(report.empty()) << "includes against the layering (docs/design.md):" << report;
}

TEST(Layers, TheTableIsADag) {
  // Depth-first search for a cycle in the allowed-dependency table itself.
  std::map<std::string, int> state;  // 0 new, 1 on stack, 2 done
  std::function<bool(const std::string&)> cyclic = [&](const std::string& a) {
    if (state[a] == 1) return true;
    if (state[a] == 2) return false;
    state[a] = 1;
    for (const auto& b : allowed().at(a))
      if (cyclic(b)) return true;
    state[a] = 2;
    return false;
  };
  for (const auto& [a, deps] : allowed()) EXPECT_FALSE(cyclic(a)) << "cycle through " << a;
}

TEST(Layers, TheCheckSeesAnUpwardInclude) {
  // The regex the check relies on matches the include forms the code uses.
  const std::regex inc(R"(#\s*include\s*"playtest/([a-z_]+)(/|\.hpp))");
  std::smatch m;
  std::string line = "#include \"playtest/run/runner.hpp\"";
  ASSERT_TRUE(std::regex_search(line, m, inc));
  EXPECT_EQ(m[1].str(), "run");
  EXPECT_EQ(allowed().at("cover").count("run"), 0u);
  EXPECT_EQ(allowed().at("strategy").count("run"), 0u);
  EXPECT_EQ(allowed().at("run").count("campaign"), 0u);  // run/ holds what one run needs
  EXPECT_TRUE(allowed().at("base").empty());
}

// A file's concept, from its path: include/playtest/P.hpp, src/P.cpp and src/P.hpp are P (a
// detail/ folder does not count); tools/playtest/P.* is tools/P.
std::string concept_of(const fs::path& rel) {
  std::string s = rel.generic_string();
  if (s.starts_with("include/playtest/"))
    s.erase(0, 17);
  else if (s.starts_with("src/"))
    s.erase(0, 4);
  else if (s.starts_with("tools/playtest/"))
    s.replace(0, 15, "tools/");
  s = s.substr(0, s.rfind('.'));
  for (std::size_t at; (at = s.find("detail/")) != std::string::npos;) s.erase(at, 7);
  return s;
}

// Issue 33: no basename means two things, and a header's path is its source's (include/playtest/X/Y.hpp
// is implemented by src/X/Y.cpp): every file of a basename is one concept.
TEST(Layers, EveryBasenameIsOneConceptAndHeadersMirrorSources) {
  const fs::path root = playtest::testing::source_dir();
  std::map<std::string, std::map<std::string, std::string>> by_basename;  // basename -> concept -> a file
  for (const char* dir : {"include/playtest", "src", "tools/playtest"})
    for (const auto& e : fs::recursive_directory_iterator(root / dir)) {
      const std::string ext = e.path().extension().string();
      if (!e.is_regular_file() || (ext != ".hpp" && ext != ".cpp")) continue;
      const fs::path rel = fs::relative(e.path(), root);
      by_basename[e.path().stem().string()][concept_of(rel)] = rel.generic_string();
    }
  std::string report;
  for (const auto& [name, concepts] : by_basename) {
    if (concepts.size() < 2) continue;
    report += "\n  " + name + ":";
    for (const auto& [c, file] : concepts) report += " " + file;
  }
  EXPECT_TRUE(report.empty()) << "basenames with two meanings, or headers away from their sources:" << report;
  EXPECT_EQ(concept_of("include/playtest/run/runner.hpp"), concept_of("src/run/runner.cpp"));
  EXPECT_NE(concept_of("include/playtest/diagnose/shrink.hpp"), concept_of("src/session/shrink.cpp"));
  EXPECT_EQ(concept_of("src/report/detail/page_template.hpp"), concept_of("src/report/page_template.cpp"));
}

}  // namespace
