#include "playtest/run/stop_signal.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace playtest {

StopSignal::StopSignal() {
  int p[2];
  if (::pipe2(p, O_CLOEXEC | O_NONBLOCK) != 0)
    throw InternalError(std::string("StopSignal: cannot create a pipe: ") + std::strerror(errno));
  read_fd_ = p[0];
  write_fd_ = p[1];
}

StopSignal::~StopSignal() {
  ::close(read_fd_);
  ::close(write_fd_);
}

void StopSignal::request(int signal) noexcept {
  int expected = 0;
  if (signal != 0) signal_.compare_exchange_strong(expected, signal, std::memory_order_acq_rel);
  if (!requested_.exchange(true, std::memory_order_acq_rel)) {
    const int saved = errno;  // a signal handler must leave errno as it found it
    const char byte = 1;
    while (::write(write_fd_, &byte, 1) < 0 && errno == EINTR) {
    }
    errno = saved;
  }
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
