// Starting a process and ending it, for everything playtest runs (Graphviz, the adapters): the
// command runs in a process group of its own (so that what it starts can be killed with it), with
// SIGPIPE, SIGINT and SIGTERM at their defaults and no signal blocked, whatever playtest's own
// handling; its standard input, output and error are inherited, discarded, appended to a file or
// pipes (non-blocking on playtest's side; standard input is a socket, so that writing to a process
// that died is EPIPE with send(MSG_NOSIGNAL), never SIGPIPE). While it lives its group is tracked
// (exit_cleanup.hpp); it is killed (SIGKILL to the whole group) and reaped when the Subprocess is
// destroyed or reset, and then untracked.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "playtest/base/exit_cleanup.hpp"

namespace playtest {

struct SpawnOptions {
  // argv[0] is the program: a path, or a name looked up on PATH (posix_spawnp).
  std::vector<std::string> argv;
  // NAME=VALUE entries added to playtest's environment (replacing those of the same name).
  std::vector<std::string> environment;
  enum class Stream : std::uint8_t {
    inherit,  // playtest's own
    pipe,     // Subprocess::fd() is playtest's end
    discard,  // /dev/null
    append,   // standard error only: appended to err_path (created 0644 if missing)
  };
  Stream in = Stream::inherit, out = Stream::inherit, err = Stream::inherit;
  std::string err_path;
};

// How a process ended, or why it did not start.
struct ProcessEnd {
  enum class How : std::uint8_t {
    running,      // not ended (yet)
    exited,       // `code` is its exit status
    signaled,     // `code` is the signal that killed it
    timed_out,    // it outlived its time: its group was killed (`code`: the signal that ended it, 0 if it
                  // exited by itself in the grace)
    not_started,  // `error` is the errno; `pipes` tells whether creating its pipes failed (else the spawn did)
    unknown,      // waiting for it failed (`error`: the errno)
  };
  How how = How::running;
  int code = 0;
  int error = 0;
  bool pipes = false;

  bool ended() const { return how != How::running; }
  bool exited_with(int status) const { return how == How::exited && code == status; }
};

class Subprocess {
 public:
  using Clock = std::chrono::steady_clock;
  enum class Fd : std::uint8_t { in, out, err };

  Subprocess() = default;
  ~Subprocess() { reset(); }
  Subprocess(const Subprocess&) = delete;
  Subprocess& operator=(const Subprocess&) = delete;

  // Starts the command (ending the one started before, as reset() does). Returns how == running, or
  // how == not_started with the errno (nothing is left running then).
  ProcessEnd start(const SpawnOptions& options);

  pid_t pid() const { return pid_; }
  bool started() const { return pid_ > 0; }
  // playtest's end of a pipe (-1 when it is not a pipe or was closed).
  int fd(Fd which) const { return fds_[static_cast<int>(which)]; }
  void close(Fd which) noexcept;

  // How it ended, without waiting (how == running while it runs).
  ProcessEnd poll();
  // Waits at most `timeout` for it to end (how == running if it did not).
  ProcessEnd wait_for(std::chrono::milliseconds timeout);
  // Waits until it ends.
  ProcessEnd wait();
  // Waits until `deadline`; a process still running then has its group killed (kill_group(grace))
  // and ends as how == timed_out.
  ProcessEnd wait_until(Clock::time_point deadline, std::chrono::milliseconds grace = {});
  // Ends the whole process group: SIGTERM and up to `grace` for the command to end, then SIGKILL
  // (at once when `grace` is zero); reaps the command. Also after the command ended (what it started
  // may still run). Returns how it ended.
  ProcessEnd kill_group(std::chrono::milliseconds grace = {}) noexcept;
  // Closes the pipes, kills the group (SIGKILL), reaps it and forgets it.
  void reset() noexcept;

 private:
  ProcessEnd reap(bool block) noexcept;

  pid_t pid_ = -1;
  int fds_[3] = {-1, -1, -1};
  ProcessEnd end_;
  TrackedProcessGroup group_;  // killed should playtest have to exit at once
};

}  // namespace playtest
