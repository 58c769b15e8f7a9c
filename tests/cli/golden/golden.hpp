// The golden-output mechanism of tests/cli/golden (docs/testing.md, "Golden tests"): run the binary,
// normalise what varies from run to run, compare the whole output with a file; on a difference
// print the command line and a unified diff; with PLAYTEST_UPDATE_GOLDEN=1 rewrite the file instead.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>

#include "cli_runner.hpp"
#include "test_paths.hpp"

namespace playtest::testing::golden {

inline const std::string source_dir = playtest::testing::source_dir() + "/";
inline const std::string cases = source_dir + "tests/cli/golden/cases/";
inline const std::string expected_dir = source_dir + "tests/cli/golden/expected/";

inline void replace_all(std::string& s, const std::string& what, const std::string& with) {
  if (what.empty()) return;
  for (std::size_t at = 0; (at = s.find(what, at)) != std::string::npos; at += with.size())
    s.replace(at, what.size(), with);
}

// The filter, the one place where output is made stable (nothing else is dropped):
// - the golden cases' directory -> CASES/, the source tree -> SRC/, a test's scratch directory
//   -> TMP/, the binary's path -> playtest (paths differ between checkouts and builds);
// - times: "solve time: 0.12 s" -> "solve time: T s", right-aligned "   1.5 ms" -> " T ms",
//   ", 0.3 s" (shrink's search time, explore's time) -> ", T s".
inline std::string normalized_text(const std::string& text, const std::string& scratch = "") {
  std::string s = text;
  replace_all(s, playtest::testing::playtest_binary(), "playtest");
  replace_all(s, cases, "CASES/");
  if (!scratch.empty()) replace_all(s, scratch, "TMP/");
  replace_all(s, source_dir, "SRC/");
  s = std::regex_replace(s, std::regex(R"(solve time: [0-9.]+ s)"), "solve time: T s");
  // Times have varying widths in right-aligned columns: the padding goes with them.
  s = std::regex_replace(s, std::regex(R"( +[0-9]+\.[0-9] ms)"), " T ms");
  s = std::regex_replace(s, std::regex(R"(, [0-9]+\.[0-9]+ s\b)"), ", T s");
  return s;
}

// JSON keys whose numbers are times (wall clock, durations) or build identity: their value becomes
// the string "T" (the key stays, so a key that disappears is still a difference). Strings are
// filtered as text (paths).
inline const std::set<std::string>& volatile_json_keys() {
  // seconds: solve, explore; elapsed_ms: run, shrink, merge; time_ms: trace steps; version,
  // commit: the build's identity.
  static const std::set<std::string> keys = {"seconds", "elapsed_ms", "time_ms", "version", "commit"};
  return keys;
}

inline void normalize_json(nlohmann::json& j, const std::string& scratch) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (volatile_json_keys().count(it.key()) && (it->is_number() || it->is_string()))
        *it = "T";
      else
        normalize_json(*it, scratch);
    }
  } else if (j.is_array()) {
    for (auto& e : j) normalize_json(e, scratch);
  } else if (j.is_string()) {
    j = normalized_text(j.get<std::string>(), scratch);
  }
}

// A unified diff of two texts (diff -u), or the first differing line when diff is missing.
inline std::string text_diff(const std::string& expected, const std::string& got) {
  ScratchDir d("golden_diff");
  const std::string a = d.write("expected", expected), b = d.write("got", got);
  const std::string out = d.file("diff");
  const std::string cmd = "diff -u --label expected --label got " + a + " " + b + " >" + out + " 2>&1";
  const int status = std::system(cmd.c_str());
  std::string diff = read_file(out);
  if (WIFEXITED(status) && WEXITSTATUS(status) <= 1 && !diff.empty()) return diff;
  std::size_t line = 1, at = 0;
  while (at < expected.size() && at < got.size() && expected[at] == got[at]) {
    if (expected[at] == '\n') ++line;
    ++at;
  }
  return "first difference at line " + std::to_string(line) + "\n";
}

// Compares `got` with the file, or rewrites it under PLAYTEST_UPDATE_GOLDEN=1.
inline void compare_with_file(const std::string& path, const std::string& got, const std::string& command) {
  if (std::getenv("PLAYTEST_UPDATE_GOLDEN")) {
    std::ofstream(path, std::ios::binary) << got;
    return;
  }
  std::ifstream probe(path);
  ASSERT_TRUE(probe.good()) << "missing golden file " << path << "\n  command: playtest " << command
                            << "\n  (PLAYTEST_UPDATE_GOLDEN=1 ctest -R Golden writes it)";
  const std::string expected = read_file(path);
  EXPECT_TRUE(got == expected) << "output differs from golden file " << path << "\n  command: playtest " << command
                               << "\n  (PLAYTEST_UPDATE_GOLDEN=1 ctest -R Golden rewrites it; review the diff)\n"
                               << text_diff(expected, got);
}

// The whole output a person sees: exit code, stdout, stderr, normalised.
inline void check_text(const std::string& path, const std::string& args, int expected_code,
                       const std::string& scratch = "") {
  const CliResult r = run_playtest(args);
  EXPECT_EQ(r.code, expected_code) << "playtest " << args << "\n" << r.out << r.err;
  compare_with_file(
      path,
      normalized_text("exit " + std::to_string(r.code) + "\n--- stdout\n" + r.out + "--- stderr\n" + r.err, scratch),
      args);
}

// A JSON output: stdout parsed as JSON (so key order and number spelling are no false difference),
// volatile fields normalised, and written as {"exit": N, "stdout": ..., "stderr": "..."} with sorted
// keys and two-space indentation.
inline void check_json(const std::string& path, const std::string& args, int expected_code,
                       const std::string& scratch = "") {
  const CliResult r = run_playtest(args);
  EXPECT_EQ(r.code, expected_code) << "playtest " << args << "\n" << r.out << r.err;
  nlohmann::json out;
  try {
    out = nlohmann::json::parse(r.out);
  } catch (const nlohmann::json::exception& e) {
    FAIL() << "playtest " << args << ": standard output is not JSON (" << e.what() << "):\n" << r.out << r.err;
  }
  normalize_json(out, scratch);
  const nlohmann::json whole = {{"exit", r.code}, {"stdout", out}, {"stderr", normalized_text(r.err, scratch)}};
  compare_with_file(path, whole.dump(2) + "\n", args);
}

}  // namespace playtest::testing::golden
