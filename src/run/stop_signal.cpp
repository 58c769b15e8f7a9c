#include "playtest/run/stop_signal.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace playtest {

StopSignal::StopSignal() {
  // Out of file descriptors (issue 36): no pipe; fd() is then -1, which poll ignores, and the stop
  // is still requested and seen between steps and when a wait ends (each is bounded; campaign.cpp
  // polls with a timeout then). The runs meet the limit where it matters, when their adapter starts:
  // an ERROR run saying so, in the trace and JUnit, never exit 6 with an empty trace.
  int p[2];
  if (::pipe2(p, O_CLOEXEC | O_NONBLOCK) != 0) return;
  read_fd_ = p[0];
  write_fd_ = p[1];
}

StopSignal::~StopSignal() {
  if (read_fd_ >= 0) ::close(read_fd_);
  if (write_fd_ >= 0) ::close(write_fd_);
}

void StopSignal::request(int signal) noexcept {
  int expected = 0;
  if (signal != 0) signal_.compare_exchange_strong(expected, signal, std::memory_order_acq_rel);
  if (!requested_.exchange(true, std::memory_order_acq_rel)) {
    const int saved = errno;  // a signal handler must leave errno as it found it
    const char byte = 1;
    while (write_fd_ >= 0 && ::write(write_fd_, &byte, 1) < 0 && errno == EINTR) {
    }
    errno = saved;
  }
}

EnvironmentError environment_error(const std::string& what, int err) {
  std::vector<std::string> notes;
  if (err == EMFILE) {
    struct rlimit limit {};
    const bool known = ::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY;
    notes.push_back(fmt::format("playtest reached its limit of open files{}",
                                known ? fmt::format(" ({})", static_cast<std::uint64_t>(limit.rlim_cur)) : ""));
    notes.push_back(
        "each job holds a few (a pipe, its adapter's sockets); raise the limit (ulimit -n) or use fewer --jobs");
  } else if (err == ENFILE) {
    notes.push_back("the system's table of open files is full");
    notes.push_back("close other programs' files, raise fs.file-max, or use fewer --jobs");
  } else if (err == EAGAIN || err == ENOMEM) {
    notes.push_back("the system has no room for another process or thread");
    notes.push_back("raise the limit of processes (ulimit -u) or use fewer --jobs");
  }
  return EnvironmentError("", err, what, std::move(notes));
}

const char* signal_name(int signal) noexcept {
  switch (signal) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGHUP:
      return "SIGHUP";
    case SIGQUIT:
      return "SIGQUIT";
    default:
      return "a signal";
  }
}

}  // namespace playtest
