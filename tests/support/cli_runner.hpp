// Runs the playtest binary in end-to-end tests: exit code, standard output and standard error.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "test_paths.hpp"

namespace playtest::testing {

struct CliResult {
  int code = -1;  // exit code, or -1 when killed by a signal
  std::string out, err;
};

// A scratch directory per test, removed at the end.
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag) {
    path_ = std::filesystem::temp_directory_path() / ("playtest_" + tag + "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(file(name), std::ios::binary) << text;
    return file(name);
  }

 private:
  std::filesystem::path path_;
};

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs `playtest <args>` through /bin/sh (args are shell words: quote them), with `stdin_text` on
// standard input.
inline CliResult run_playtest(const std::string& args, const std::string& stdin_text = "") {
  static int counter = 0;
  ScratchDir dir("cli" + std::to_string(counter++));
  const std::string in = dir.write("stdin.txt", stdin_text);
  const std::string cmd = playtest::testing::playtest_binary() + " " + args + " <" + in + " >" + dir.file("stdout.txt") +
                          " 2>" + dir.file("stderr.txt");
  const int status = std::system(cmd.c_str());
  CliResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(dir.file("stdout.txt"));
  r.err = read_file(dir.file("stderr.txt"));
  return r;
}

inline std::string example(const std::string& relative) { return playtest::testing::source_dir() + "/" + relative; }

}  // namespace playtest::testing
