// Starting playtest in the background from a test, to signal it while it works: spawn, wait with a
// time limit, and check that the processes it started are gone.
#pragma once

#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "cli_runner.hpp"

extern char** environ;

namespace playtest::testing {

// Runs `command` (a shell command line) as `exec command` under /bin/sh -c; returns its pid.
inline pid_t spawn_shell(const std::string& command) {
  std::string sh = "/bin/sh", dash_c = "-c", exec_cmd = "exec " + command;
  char* argv[] = {sh.data(), dash_c.data(), exec_cmd.data(), nullptr};
  pid_t pid = -1;
  if (::posix_spawn(&pid, "/bin/sh", nullptr, nullptr, argv, environ) != 0) return -1;
  return pid;
}

// The exit code of `pid` (128 + N style codes as exited; -N when killed by signal N), waiting up to
// `limit`; -1000 when it did not end in time (it is then killed).
inline int wait_exit(pid_t pid, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  int status = 0;
  while (std::chrono::steady_clock::now() < until) {
    if (::waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return -1000;
}

// The process `pid` is gone, or a zombie (it holds no file, no pipe); waits up to 2 s for it.
inline bool process_gone(pid_t pid) {
  for (int i = 0; i < 200; ++i) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    if (!status) return true;
    bool zombie = false;
    for (std::string line; std::getline(status, line);)
      if (line.rfind("State:", 0) == 0 && line.find('Z') != std::string::npos) zombie = true;
    if (zombie) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

// The pid written to `path` (a line ending in a newline), waiting up to `limit` for it; -1 if none.
inline pid_t read_pid(const std::string& path, std::chrono::milliseconds limit = std::chrono::milliseconds(10000)) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    std::string text = read_file(path);
    if (!text.empty() && text.back() == '\n') return static_cast<pid_t>(std::stol(text));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

// A fake Graphviz `dot` in `dir` (put `dir` first on PATH): it notes its pid and its child's in
// dot.pid and dotchild.pid and never finishes its layout (a child sleeping in its process group).
inline std::string hanging_dot(const ScratchDir& d) {
  std::filesystem::create_directories(d.file("bin"));
  const std::string dot = d.write("bin/dot",
                                  "#!/bin/sh\n"
                                  "sleep 600 &\n"
                                  "echo $! > " +
                                      d.file("dotchild.pid") +
                                      "\n"
                                      "echo $$ > " +
                                      d.file("dot.pid") +
                                      "\n"
                                      "wait\n");
  ::chmod(dot.c_str(), 0755);
  return d.file("bin");
}

}  // namespace playtest::testing
