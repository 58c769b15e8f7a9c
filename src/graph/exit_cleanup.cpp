#include "playtest/exit_cleanup.hpp"

#include <signal.h>
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

}  // namespace

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
  for (auto& g : g_groups)
    if (const pid_t p = g.load(); p > 0) ::kill(-p, SIGKILL);
  for (int i = 0; i < max_files; ++i)
    if (g_file_state[i].load() == 2) ::unlink(g_file_path[i]);
  errno = saved;
}

}  // namespace playtest
