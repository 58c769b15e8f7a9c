// The in-process adapter: a C++ project tests its own component from its own GoogleTest tests,
// without a subprocess. Derive from InProcessAdapter, apply stimuli in on_stimulus() and report the
// component's outputs with emit() from any thread; the runner waits for them with a bounded wait.
// See tests/unit/run/test_in_process_adapter.cpp for a complete example.
#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>

#include "playtest/run/adapter.hpp"

namespace playtest {

class InProcessAdapter : public Adapter {
 public:
  // Thread-safe: the component produced the output `label`.
  void emit(std::string label);
  // Thread-safe: the component declares it is quiescent (the runner takes the timeout at once).
  void declare_quiescence();

  void start() final;
  AdapterEvent stimulate(std::string_view label) final;
  AdapterEvent next_event(Clock::time_point deadline) final;
  void reset() final;
  void finish() noexcept final;

 protected:
  // Forget outputs emitted and not yet read (for on_reset overrides).
  void clear_events();
  // Bring the component to its initial state (a new run begins).
  virtual void on_start() = 0;
  // Apply a stimulus; return once the component accepted it. Throw AdapterError when it cannot.
  virtual void on_stimulus(std::string_view label) = 0;
  // Default: on_finish(), forget the outputs not yet read, on_start(). An override must also stop
  // the old activity before it restarts, or its late outputs count in the new run.
  virtual void on_reset();
  // Release the component (stop its threads). Must not throw.
  virtual void on_finish() noexcept = 0;

 private:
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<AdapterEvent> events_;
};

}  // namespace playtest
