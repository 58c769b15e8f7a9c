// The subprocess adapter: playtest starts a command (/bin/sh -c COMMAND) in its own process group and
// speaks the line-based adapter protocol (docs/adapter-protocol.md) on its standard input and output.
// Every wait is bounded; a crash, a hang, a garbage or partial line, an early close all become an
// AdapterError with a message (verdict ERROR), never a hang. The process group is killed at the end.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "playtest/base/subprocess.hpp"
#include "playtest/run/adapter.hpp"
#include "playtest/run/stop_signal.hpp"

namespace playtest {

struct SubprocessOptions {
  std::string command;  // run by /bin/sh -c
  enum class Stderr : std::uint8_t { inherit, file, discard };
  Stderr stderr_mode = Stderr::inherit;
  std::string stderr_path;                        // Stderr::file: appended to
  std::chrono::milliseconds ready_timeout{5000};  // for "ready" after the start and after "reset"
  std::chrono::milliseconds ack_timeout{5000};    // for "ack" after "stimulus"
  std::chrono::milliseconds line_timeout{2000};   // for the rest of a line once its first byte came
  std::chrono::milliseconds exit_timeout{500};    // after "end", before the process group is killed
  std::size_t max_line = 65536;
  // NAME=VALUE entries set in the adapter's environment (on top of playtest's own).
  std::vector<std::string> environment;
  // Every wait also watches this: once a stop is requested the current call throws StopRequested
  // (and finish() kills the process group without waiting for the adapter to exit).
  const StopSignal* stop = nullptr;
};

// Sets where the adapter's standard error goes from what users write: "inherit", "discard" or a
// file path (appended to; checked now, so an unwritable path is a UsageError("sut_stderr") before
// any test starts rather than an ERROR in the middle of one).
void set_stderr(SubprocessOptions& options, const std::string& spec);

// The options of job `job` (1-based): every "{job}" in the command replaced by its number and
// PLAYTEST_JOB=<job> in the environment, so that each instance of the system under test can pick its
// own port or data directory. Every adapter playtest starts is some job's: a lone one (replay,
// shrink, run --shrink) is job 1, as a campaign of one job's.
SubprocessOptions job_options(SubprocessOptions options, std::uint32_t job);

// The adapters of a campaign's workers (CampaignWorkers::adapter, campaign.hpp): worker `job`
// (1-based) runs with job_options(options, job); its waits watch the worker's stop signal.
std::function<std::unique_ptr<Adapter>(std::uint32_t job, const StopSignal& stop)> subprocess_adapters(
    SubprocessOptions options);

class SubprocessAdapter final : public Adapter {
 public:
  explicit SubprocessAdapter(SubprocessOptions options);
  ~SubprocessAdapter() override;
  SubprocessAdapter(const SubprocessAdapter&) = delete;
  SubprocessAdapter& operator=(const SubprocessAdapter&) = delete;

  // Starts a fresh process (ending the previous one) and waits for its "ready".
  void start() override;
  AdapterEvent stimulate(std::string_view label) override;
  AdapterEvent next_event(Clock::time_point deadline) override;
  void reset() override;
  void set_run_deadline(Clock::time_point deadline) override { run_deadline_ = deadline; }
  // Sends "end", gives the process exit_timeout to exit, then kills its process group.
  void finish() noexcept override;

  pid_t pid() const { return proc_.pid(); }

 private:
  enum class ReadStatus : std::uint8_t { line, timeout };
  ReadStatus read_line(Clock::time_point deadline, std::string& line);
  void write_line(const std::string& line, Clock::time_point deadline);
  [[noreturn]] void die(const std::string& what);
  std::string exit_description(std::chrono::milliseconds grace);
  void wait_for(std::string_view word, std::chrono::milliseconds timeout, std::string_view after);
  // poll() on `fd` for `events` and on the stop signal; throws StopRequested once a stop is requested.
  void poll_or_stop(int fd, short events, int timeout_ms);
  // `deadline`, or the run's deadline when that comes first.
  Clock::time_point within_budget(Clock::time_point deadline) const { return std::min(deadline, run_deadline_); }
  // Throws BudgetSpent ("... while waiting for `what`") when the run's deadline has passed.
  void check_budget(std::string_view what) const;

  // The child's stdin (we write), stdout (we read).
  int in_fd() const { return proc_.fd(Subprocess::Fd::in); }
  int out_fd() const { return proc_.fd(Subprocess::Fd::out); }

  SubprocessOptions o_;
  Subprocess proc_;                   // /bin/sh -c COMMAND in its own process group
  std::string buf_;                   // bytes read but not yet consumed
  std::deque<AdapterEvent> pending_;  // outputs read during stimulate() after its first early one
  Clock::time_point partial_since_;
  Clock::time_point run_deadline_ = Clock::time_point::max();  // the run's budget (set_run_deadline)
  bool received_any_ = false;  // a byte came since start(): "ready" missing is then not unflushed output
};

}  // namespace playtest
