// SIGINT, SIGTERM and SIGHUP while a test runs (CI's timeout, Ctrl-C): the first one requests a
// stop (the running adapter's process group is killed, the trace's end event and the JUnit file are
// written, playtest exits with 128 + the signal's number); a second one ends playtest at once.
#pragma once

#include "playtest/run/stop_signal.hpp"

namespace playtest::cli {

// Outside an InterruptScope: a signal kills the process groups playtest started (Graphviz) and
// removes its unfinished temporary files (exit_cleanup.hpp), then ends playtest as by default.
// main installs it first.
void install_exit_cleanup();

// Installs the handlers for its lifetime; they raise `stop`. One scope at a time.
class InterruptScope {
 public:
  explicit InterruptScope(StopSignal& stop);
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

// The exit code of a command that `stop` ended: 128 + its signal (130 for SIGINT, 143 for SIGTERM),
// or 3 (ERROR) when the stop came without a signal.
int interrupted_exit_code(const StopSignal& stop);

}  // namespace playtest::cli
