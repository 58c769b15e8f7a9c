// A request to stop a test run from outside it: the tool raises it from its SIGINT/SIGTERM handler
// (CI's timeout while an adapter hangs), a campaign from another worker (--fail-fast). Waits that
// block (the subprocess adapter's poll) watch its file descriptor, so they end at once; the runner
// checks it between steps. The run that was stopped ends with the verdict ERROR ("interrupted"),
// its trace and report are still written (docs/testing.md "Interrupted runs").
#pragma once

#include <atomic>
#include <string>

#include "playtest/base/error.hpp"

namespace playtest {

class StopSignal {
 public:
  StopSignal();  // throws EnvironmentError when no pipe can be made (out of file descriptors)
  ~StopSignal();
  StopSignal(const StopSignal&) = delete;
  StopSignal& operator=(const StopSignal&) = delete;

  // Requests the stop; `signal` is the signal number that caused it (0: none, e.g. --fail-fast).
  // Async-signal-safe: it stores an atomic and writes one byte to a pipe. The first request's
  // signal is kept.
  void request(int signal = 0) noexcept;
  bool requested() const noexcept { return requested_.load(std::memory_order_acquire); }
  // The signal of the first request (0 when none or when the request came without one).
  int signal() const noexcept { return signal_.load(std::memory_order_acquire); }
  // Becomes readable once a stop was requested (never drained): poll it beside your own fds.
  int fd() const noexcept { return read_fd_; }

 private:
  std::atomic<bool> requested_{false};
  std::atomic<int> signal_{0};
  int read_fd_ = -1, write_fd_ = -1;
};

// An adapter whose wait was cut short by a StopSignal throws StopRequested (playtest/base/error.hpp) with
// the signal's number; one whose wait was cut short by the run's deadline throws BudgetSpent. Neither
// is an AdapterError: the runner reports the first as "interrupted" (ERROR), the second as
// INCONCLUSIVE.

// What playtest says when the machine refuses it a resource (errno `err` of `what`: a pipe, a
// socket, a process, a thread): the limit that was reached and what to do (ulimit -n, fewer --jobs).
EnvironmentError environment_error(const std::string& what, int err);

// "SIGINT", "SIGTERM", ... ("signal N" for others).
const char* signal_name(int signal) noexcept;

}  // namespace playtest
