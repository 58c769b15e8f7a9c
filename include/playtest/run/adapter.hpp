// The adapter: how the runner talks to a system under test (SUT). Stimuli go in, observations
// come out; seed 001 §1: at a passive state the tester waits for an observable action, and silence
// until a timeout is itself an observation. Implementations: SubprocessAdapter (a program speaking
// docs/adapter-protocol.md), InProcessAdapter (C++ code in the same process), SimulatedSut.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace playtest {

using Clock = std::chrono::steady_clock;

struct AdapterEvent {
  enum class Kind : std::uint8_t {
    none,     // nothing arrived before the deadline
    output,   // the SUT produced the observable output `label`
    quiet,    // the adapter itself declares quiescence: treat it as the timeout, now
    refused,  // (from stimulate only) the SUT does not accept this stimulus now: it is not
              // input-enabled here (ioco, docs/ioco.md); nothing can be judged after it
    done,     // the adapter says the outputs of the last stimulus are complete (`done`): silence
              // now at a passive vertex, and an output after it is a late one (runner names the stimulus)
  };
  Kind kind = Kind::none;
  std::string label;

  static AdapterEvent nothing() { return {}; }
  static AdapterEvent output(std::string l) { return {Kind::output, std::move(l)}; }
  static AdapterEvent quiescence() { return {Kind::quiet, {}}; }
  static AdapterEvent refusal() { return {Kind::refused, {}}; }
  static AdapterEvent outputs_done() { return {Kind::done, {}}; }
};

// The deadline that asks next_event only for what has already arrived (the epoch: always past).
// The runner polls with it before each stimulus; a simulated system tells it from a wait by this
// value, never by comparing clocks (a busy machine must not turn a wait into a poll).
inline constexpr Clock::time_point poll_only{};

// Every member may throw AdapterError (the SUT or its adapter died, spoke garbage or hung); the
// runner turns it into the verdict ERROR. No member may block past the deadline it is given, or,
// for start/stimulate/reset, past the adapter's own documented limit.
class Adapter {
 public:
  virtual ~Adapter() = default;
  // A test run begins: the SUT is in its initial state when this returns.
  virtual void start() = 0;
  // Apply the stimulus `label`; returns once the SUT has accepted it. Returns the first output the
  // SUT produced before it accepted the stimulus (the output came first: the runner judges it before
  // the stimulus, docs/ioco.md "race"); further such outputs are kept for next_event, in order.
  // Returns AdapterEvent::refusal() when the SUT refused the stimulus, else nothing().
  virtual AdapterEvent stimulate(std::string_view label) = 0;
  // The next event, waiting at most until `deadline`; a deadline in the past (poll_only) polls
  // without waiting.
  // Outputs are delivered in the order the SUT produced them, none is ever dropped.
  virtual AdapterEvent next_event(Clock::time_point deadline) = 0;
  // The tester's own move of waiting (a delay edge labelled `label`, docs/language.md "Time"):
  // nothing is sent to the system. Returns false (the default) when the runner is to wait in real
  // time while the system runs on; a simulated system returns true after moving along the edge at
  // once (no time passes in a simulation).
  virtual bool simulate_delay(std::string_view label) {
    (void)label;
    return false;
  }
  // Bring the SUT back to its initial state (only called when the model is resettable).
  virtual void reset() = 0;
  // The run's wall-clock budget ends at `deadline` (Clock::time_point::max(): no budget); the runner
  // sets it before start(). start, stimulate and reset stop waiting there and throw BudgetSpent
  // (stop_signal.hpp), so that a budget holds while a slow system answers; the runner ends the run
  // INCONCLUSIVE (the step did not finish). Adapters whose calls never wait long may ignore it.
  virtual void set_run_deadline(Clock::time_point deadline) { (void)deadline; }
  // The run is over (any verdict); release the SUT. Never throws.
  virtual void finish() noexcept = 0;
};

}  // namespace playtest
