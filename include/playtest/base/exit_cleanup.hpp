// What playtest must not leave behind when it has to exit at once (a second SIGINT or SIGTERM while
// it winds down, docs/testing.md "Interrupted runs"): the process groups it started (adapters,
// Graphviz) and the temporary files it writes before renaming them into place (OutputFile). Each
// is tracked while it lives; release_tracked() kills every tracked group and removes every tracked
// temporary file. Tracking, untracking and releasing are async-signal-safe (no allocation, no
// lock), so a signal handler may release; the tables have fixed sizes and tracking beyond them is
// silently skipped (best effort: the ordinary paths clean up all the same).
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <string_view>

namespace playtest {

// A tracked process group (its leader's pid): untracked when destroyed.
class TrackedProcessGroup {
 public:
  TrackedProcessGroup() = default;
  ~TrackedProcessGroup() { reset(); }
  TrackedProcessGroup(const TrackedProcessGroup&) = delete;
  TrackedProcessGroup& operator=(const TrackedProcessGroup&) = delete;
  void track(pid_t group) noexcept;  // (untracking the one tracked before)
  void reset() noexcept;             // untracks it (the caller kills and reaps it)

 private:
  int slot_ = -1;
};

// A tracked temporary file: untracked when destroyed (or reset, after it was renamed or removed).
class TrackedTempFile {
 public:
  TrackedTempFile() = default;
  ~TrackedTempFile() { reset(); }
  TrackedTempFile(const TrackedTempFile&) = delete;
  TrackedTempFile& operator=(const TrackedTempFile&) = delete;
  void track(std::string_view path) noexcept;  // (untracking the one tracked before)
  void reset() noexcept;

 private:
  int slot_ = -1;
};

// The window between starting a process and tracking its group: open while a StartWindow lives.
// The thread that starts the process takes no SIGINT, SIGTERM or SIGHUP in it (they stay pending
// until the window closes), and release_tracked() on any other thread waits for open windows (up to
// a second) before it kills: a process is never started and left untracked by a second signal.
class StartWindow {
 public:
  StartWindow() noexcept;
  ~StartWindow();
  StartWindow(const StartWindow&) = delete;
  StartWindow& operator=(const StartWindow&) = delete;

 private:
  sigset_t old_;
};

// Kills (SIGKILL) every tracked process group and unlinks every tracked temporary file.
// Async-signal-safe; meant for the moment before _exit(). Waits up to a second for open
// StartWindows first.
void release_tracked() noexcept;

}  // namespace playtest
