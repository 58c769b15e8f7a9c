#include "playtest/base/exit_cleanup.hpp"

#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>

namespace playtest {

namespace {

// Process groups: 0 marks a free slot. Jobs are bounded by the machine's processes; 512 covers
// --jobs far beyond what a machine runs, and Graphviz is one at a time.
constexpr int max_groups = 512;
std::atomic<pid_t> g_groups[max_groups];

// Temporary files: a slot is free (0), being written (1) or holds a path (2).
constexpr int max_files = 64;
std::atomic<int> g_file_state[max_files];
char g_file_path[max_files][PATH_MAX];

// Open StartWindows.
std::atomic<int> g_starting{0};

}  // namespace

StartWindow::StartWindow() noexcept {
  sigset_t block;
  sigemptyset(&block);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&block, s);
  ::pthread_sigmask(SIG_BLOCK, &block, &old_);
  g_starting.fetch_add(1);
}

StartWindow::~StartWindow() {
  g_starting.fetch_sub(1);
  ::pthread_sigmask(SIG_SETMASK, &old_, nullptr);  // a pending signal is taken here
}

void TrackedProcessGroup::track(pid_t group) noexcept {
  reset();
  if (group <= 0) return;
  for (int i = 0; i < max_groups; ++i) {
    pid_t expected = 0;
    if (g_groups[i].compare_exchange_strong(expected, group)) {
      slot_ = i;
      return;
    }
  }
}

void TrackedProcessGroup::reset() noexcept {
  if (slot_ >= 0) g_groups[slot_].store(0);
  slot_ = -1;
}

void TrackedTempFile::track(std::string_view path) noexcept {
  reset();
  if (path.empty() || path.size() >= PATH_MAX) return;
  for (int i = 0; i < max_files; ++i) {
    int expected = 0;
    if (g_file_state[i].compare_exchange_strong(expected, 1)) {
      std::memcpy(g_file_path[i], path.data(), path.size());
      g_file_path[i][path.size()] = '\0';
      g_file_state[i].store(2);
      slot_ = i;
      return;
    }
  }
}

void TrackedTempFile::reset() noexcept {
  if (slot_ >= 0) g_file_state[slot_].store(0);
  slot_ = -1;
}

void release_tracked() noexcept {
  const int saved = errno;
  // A thread between starting a process and tracking its group finishes first (it takes no signal
  // there, so this handler never runs on it).
  for (int i = 0; i < 1000 && g_starting.load() > 0; ++i) {
    const timespec ms{0, 1000000};
    ::nanosleep(&ms, nullptr);
  }
  for (auto& g : g_groups)
    if (const pid_t p = g.load(); p > 0) ::kill(-p, SIGKILL);
  for (int i = 0; i < max_files; ++i)
    if (g_file_state[i].load() == 2) ::unlink(g_file_path[i]);
  errno = saved;
}

}  // namespace playtest
