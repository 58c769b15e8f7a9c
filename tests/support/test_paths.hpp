// Where the tests find the checkout and the programs of the build: read at run time from
// test_paths.txt, which CMake writes next to the test executables (tests/CMakeLists.txt), rather
// than compiled in. A path in a compile definition differs from one clone to the next, so no
// compiler cache could share a test's object file between two checkouts (CI's fresh clone and a
// developer's); with the paths read here every test compiles to the same object everywhere.
//
// The file has one `name=path` per line: `source_dir`, and one line per program the tests run
// (`playtest`, `workers_sut`, ...). PLAYTEST_TEST_PATHS names another file (a test executable
// copied elsewhere).
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace playtest::testing {

namespace detail {

inline std::map<std::string, std::string> read_test_paths() {
  std::filesystem::path file;
  if (const char* e = std::getenv("PLAYTEST_TEST_PATHS"); e != nullptr && *e != '\0') {
    file = e;
  } else {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    file = exe.parent_path() / "test_paths.txt";
  }
  std::ifstream in(file);
  if (!in) {
    std::fprintf(stderr, "test_paths.hpp: cannot read %s (written by CMake next to the test executables)\n",
                 file.c_str());
    std::abort();
  }
  std::map<std::string, std::string> paths;
  for (std::string line; std::getline(in, line);) {
    const auto eq = line.find('=');
    if (eq != std::string::npos) paths[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return paths;
}

}  // namespace detail

// The path of `name` in test_paths.txt; a missing name stops the test program with a message.
inline const std::string& test_path(const std::string& name) {
  static const std::map<std::string, std::string> paths = detail::read_test_paths();
  const auto it = paths.find(name);
  if (it == paths.end()) {
    std::fprintf(stderr, "test_paths.hpp: test_paths.txt has no line for '%s'\n", name.c_str());
    std::abort();
  }
  return it->second;
}

// The checkout's top folder (no trailing slash) and the playtest binary under test.
inline const std::string& source_dir() { return test_path("source_dir"); }
inline const std::string& playtest_binary() { return test_path("playtest"); }

}  // namespace playtest::testing
