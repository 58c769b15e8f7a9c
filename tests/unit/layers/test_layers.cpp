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
// below it that it uses). "error" is include/playtest/error.hpp, part of the bottom layer.
const std::map<std::string, std::set<std::string>>& allowed() {
  static const std::map<std::string, std::set<std::string>> table = [] {
    std::map<std::string, std::set<std::string>> t;
    t["error"] = {};
    t["graph"] = {"error"};
    t["strategy"] = {"error", "graph"};
    t["io"] = {"error", "graph"};
    t["explore"] = {"error", "graph"};
    t["lang"] = {"error", "graph", "explore", "io"};  // io: GraphWalker documents (lang/graphwalker_model)
    for (const char* a : {"solve", "cover", "plan", "ioco"}) t[a] = {"error", "graph", "strategy"};
    // The strategy table knows every strategy; run/ knows none of them (it plays policy makers).
    t["adapt"] = {"error", "graph", "strategy", "solve"};
    t["catalog"] = {"error", "graph", "strategy", "solve", "cover", "plan", "ioco", "adapt"};
    t["run"] = {"error", "graph", "strategy", "io", "explore", "lang"};
    std::set<std::string> below_report = t["run"];
    for (const char* a : {"run", "solve", "cover", "plan", "ioco", "adapt", "catalog"}) below_report.insert(a);
    t["report"] = below_report;
    t["diagnose"] = below_report;
    t["diagnose"].insert("report");
    // Loading any input (input/load.hpp): the readers of io, lang, ioco; run's on-the-fly play; the
    // strategy table, to name the strategies that play a model too big to explore.
    t["input"] = t["run"];
    for (const char* a : {"run", "ioco", "solve"}) t["input"].insert(a);
    t["input"].insert(t["catalog"].begin(), t["catalog"].end());
    t["input"].insert("catalog");
    // A campaign's output files, shrinking after it, the replay command (campaign/).
    t["campaign"] = t["diagnose"];
    t["campaign"].insert("diagnose");
    t["campaign"].insert("input");
    // include/playtest/gtest.hpp, the GoogleTest integration: above everything it plays with.
    t["gtest.hpp"] = t["campaign"];
    t["gtest.hpp"].insert("campaign");
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

// The bottom layer's top-level headers: include/playtest/error.hpp, source_text.hpp (reading
// inputs), output_file.hpp (writing outputs whole), exit_cleanup.hpp (what an exit at once
// releases) and subprocess.hpp (starting and ending the processes playtest runs).
bool bottom_header(const std::string& name) {
  return name == "error" || name == "source_text" || name == "output_file" || name == "exit_cleanup" ||
         name == "subprocess";
}

// The area of a path below include/playtest/ or src/ ("error" for the bottom layer's top-level
// headers).
std::string area_of(const fs::path& rel) {
  auto it = rel.begin();
  if (it == rel.end()) return {};
  std::string first = it->string();
  if (first.ends_with(".hpp") && bottom_header(first.substr(0, first.size() - 4))) return "error";
  return first;
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
        if ((*m)[2].str() == ".hpp" && bottom_header(included)) included = "error";
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
}

}  // namespace
