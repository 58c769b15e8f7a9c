#include "playtest/run/subprocess_adapter.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "playtest/base/error.hpp"

namespace playtest {

namespace {

int remaining_ms(Clock::time_point deadline) {
  auto now = Clock::now();
  if (deadline <= now) return 0;
  auto ms = std::chrono::ceil<std::chrono::milliseconds>(deadline - now).count();
  return ms > 1'000'000'000 ? 1'000'000'000 : static_cast<int>(ms);
}

// A line as it can be shown in a message: control bytes escaped, long lines cut.
std::string printable(std::string_view s) {
  std::string out;
  for (unsigned char c : s.substr(0, 200)) {
    if (c == '\\')
      out += "\\\\";
    else if (c < 0x20 || c == 0x7f)
      out += fmt::format("\\x{:02x}", c);
    else
      out += static_cast<char>(c);
  }
  if (s.size() > 200) out += "...";
  return out;
}

// The machine refused a resource to start the adapter (out of file descriptors, processes): the
// run is an ERROR whose message names the limit and what to do (environment_error), not the
// system's fault.
[[noreturn]] void cannot_start(const std::string& what, int err) {
  const Diagnostic d = environment_error(what, err).diagnostic();
  std::string message = d.message;
  for (const std::string& note : d.notes) message += "; " + note;
  throw AdapterError(message);
}

}  // namespace

void set_stderr(SubprocessOptions& o, const std::string& spec) {
  if (spec.empty() || spec == "inherit") {
    o.stderr_mode = SubprocessOptions::Stderr::inherit;
  } else if (spec == "discard") {
    o.stderr_mode = SubprocessOptions::Stderr::discard;
  } else {
    const int fd = ::open(spec.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0)
      throw UsageError("sut_stderr", fmt::format("cannot open '{}' for appending: {}", spec, std::strerror(errno)));
    ::close(fd);
    o.stderr_mode = SubprocessOptions::Stderr::file;
    o.stderr_path = spec;
  }
}

SubprocessOptions job_options(SubprocessOptions o, std::uint32_t job) {
  const std::string number = std::to_string(job);
  for (std::size_t at = 0; (at = o.command.find("{job}", at)) != std::string::npos; at += number.size())
    o.command.replace(at, 5, number);
  o.environment.push_back("PLAYTEST_JOB=" + number);
  return o;
}

std::function<std::unique_ptr<Adapter>(std::uint32_t job, const StopSignal& stop)> subprocess_adapters(
    SubprocessOptions options) {
  return [options = std::move(options)](std::uint32_t job, const StopSignal& stop) -> std::unique_ptr<Adapter> {
    SubprocessOptions o = job_options(options, job);
    o.stop = &stop;
    return std::make_unique<SubprocessAdapter>(std::move(o));
  };
}

SubprocessAdapter::SubprocessAdapter(SubprocessOptions options) : o_(std::move(options)) {}

SubprocessAdapter::~SubprocessAdapter() { finish(); }

void SubprocessAdapter::die(const std::string& what) {
  std::string status = exit_description(std::chrono::milliseconds(200));
  throw AdapterError(fmt::format("adapter '{}': {}{}", o_.command, what, status.empty() ? "" : " (" + status + ")"));
}

std::string SubprocessAdapter::exit_description(std::chrono::milliseconds grace) {
  if (!proc_.started()) return {};
  const ProcessEnd end = proc_.wait_for(grace);
  if (end.how == ProcessEnd::How::running) return "the process is still running";
  if (end.how == ProcessEnd::How::exited) {
    const int code = end.code;
    // The command runs under /bin/sh -c: when the shell did not exec it, a program killed by
    // signal N makes the shell exit with 128 + N. Say what that means, as for a direct kill.
    if (code > 128 && code < 128 + NSIG && ::strsignal(code - 128) != nullptr)
      return fmt::format(
          "the process exited with status {}: the shell's way of saying a command it ran was killed "
          "by signal {} ({})",
          code, code - 128, ::strsignal(code - 128));
    return fmt::format("the process exited with status {}", code);
  }
  if (end.how == ProcessEnd::How::signaled)
    return fmt::format("the process was killed by signal {} ({})", end.code, ::strsignal(end.code));
  return {};
}

void SubprocessAdapter::start() {
  finish();
  using Stream = SpawnOptions::Stream;
  const Stream err = o_.stderr_mode == SubprocessOptions::Stderr::file      ? Stream::append
                     : o_.stderr_mode == SubprocessOptions::Stderr::discard ? Stream::discard
                                                                            : Stream::inherit;
  const ProcessEnd started = proc_.start({.argv = {"/bin/sh", "-c", o_.command},
                                          .environment = o_.environment,
                                          .in = Stream::pipe,
                                          .out = Stream::pipe,
                                          .err = err,
                                          .err_path = o_.stderr_path});
  if (started.how == ProcessEnd::How::not_started)
    cannot_start(started.pipes ? "cannot create a socket pair for the adapter"
                               : fmt::format("cannot start adapter '{}'", o_.command),
                 started.error);
  buf_.clear();
  pending_.clear();
  received_any_ = false;
  wait_for("ready", o_.ready_timeout, "after it started");
}

void SubprocessAdapter::poll_or_stop(int fd, short events, int timeout_ms) {
  if (o_.stop != nullptr && o_.stop->requested())
    throw StopRequested(fmt::format("adapter '{}': stopped: playtest was interrupted", o_.command), o_.stop->signal());
  pollfd p[2] = {{fd, events, 0}, {o_.stop != nullptr ? o_.stop->fd() : -1, POLLIN, 0}};
  ::poll(p, o_.stop != nullptr ? 2 : 1, timeout_ms);
  if (o_.stop != nullptr && o_.stop->requested())
    throw StopRequested(fmt::format("adapter '{}': stopped: playtest was interrupted", o_.command), o_.stop->signal());
}

void SubprocessAdapter::check_budget(std::string_view what) const {
  if (Clock::now() >= run_deadline_)
    throw BudgetSpent(fmt::format("the run's time budget ended while waiting for {}", what));
}

void SubprocessAdapter::write_line(const std::string& line, Clock::time_point deadline) {
  if (in_fd() < 0) die("is not running");
  deadline = within_budget(deadline);
  std::size_t done = 0;
  while (done < line.size()) {
    ssize_t n = ::send(in_fd(), line.data() + done, line.size() - done, MSG_NOSIGNAL);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      int ms = remaining_ms(deadline);
      if (ms == 0) {
        check_budget(fmt::format("the adapter to read '{}'", printable(line.substr(0, line.size() - 1))));
        die(fmt::format("does not read its input: could not write '{}' within the time limit",
                        printable(line.substr(0, line.size() - 1))));
      }
      poll_or_stop(in_fd(), POLLOUT, ms);
      continue;
    }
    die(fmt::format("closed its input: cannot write '{}' ({})", printable(line.substr(0, line.size() - 1)),
                    std::strerror(errno)));
  }
}

SubprocessAdapter::ReadStatus SubprocessAdapter::read_line(Clock::time_point deadline, std::string& line) {
  for (;;) {
    std::size_t nl = buf_.find('\n');
    if (nl != std::string::npos) {
      line.assign(buf_, 0, nl);
      buf_.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!buf_.empty()) partial_since_ = Clock::now();
      return ReadStatus::line;
    }
    if (buf_.size() > o_.max_line)
      die(fmt::format("wrote a line longer than {} bytes: '{}'", o_.max_line, printable(buf_)));
    if (out_fd() < 0) die("is not running");
    char chunk[4096];
    ssize_t n = ::read(out_fd(), chunk, sizeof chunk);
    if (n > 0) {
      if (buf_.empty()) partial_since_ = Clock::now();
      buf_.append(chunk, static_cast<std::size_t>(n));
      received_any_ = true;
      continue;
    }
    if (n == 0) {
      if (!buf_.empty()) die(fmt::format("closed its output in the middle of a line: '{}'", printable(buf_)));
      die("closed its output");
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) die(fmt::format("cannot read its output: {}", std::strerror(errno)));
    // Nothing to read now. A line that has begun is the adapter's to finish: it must be completed
    // within line_timeout, whatever the caller's deadline (a partial line that runs into the wait
    // for an output is the adapter's fault, never the system's silence).
    if (!buf_.empty()) {
      const Clock::time_point line_end = partial_since_ + o_.line_timeout;
      if (Clock::now() >= line_end)
        die(
            fmt::format("wrote a partial line and nothing more for {} ms: '{}' (each line must end with a newline "
                        "and be flushed)",
                        o_.line_timeout.count(), printable(buf_)));
      check_budget(fmt::format("the rest of the line '{}'", printable(buf_)));
      poll_or_stop(out_fd(), POLLIN, remaining_ms(within_budget(line_end)));
      continue;
    }
    const int ms = remaining_ms(deadline);
    if (ms == 0) return ReadStatus::timeout;
    poll_or_stop(out_fd(), POLLIN, ms);
  }
}

void SubprocessAdapter::wait_for(std::string_view word, std::chrono::milliseconds timeout, std::string_view after) {
  Clock::time_point deadline = within_budget(Clock::now() + timeout);
  std::string line;
  for (;;) {
    if (read_line(deadline, line) == ReadStatus::timeout) {
      check_budget(fmt::format("'{}' {}", word, after));
      // The commonest adapter mistake: it printed the word, but standard output to a pipe is fully
      // buffered, so nothing arrived.
      const bool silent_since_start =
          !received_any_ && exit_description(std::chrono::milliseconds(0)) == "the process is still running";
      die(fmt::format("did not answer '{}' within {} ms {}{}", word, timeout.count(), after,
                      silent_since_start
                          ? fmt::format("; it sent nothing at all: if it does print '{}', its output is probably not "
                                        "flushed (standard output to a pipe is fully buffered: flush after each "
                                        "line, e.g. print(..., flush=True) or python3 -u in Python, fflush(stdout) "
                                        "in C, stdbuf -oL for other programs)",
                                        word)
                          : std::string()));
    }
    if (line == word) return;
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("error ", 0) == 0 || line == "error")
      die(fmt::format("reported an error: {}", printable(line.substr(std::min<std::size_t>(6, line.size())))));
    if (word == "ready" && (line.rfind("output ", 0) == 0 || line == "quiet" || line == "done"))
      continue;  // from before a reset
    die(fmt::format("answered '{}' where '{}' was expected {}", printable(line), word, after));
  }
}

AdapterEvent SubprocessAdapter::stimulate(std::string_view label) {
  write_line(fmt::format("stimulus {}\n", label), Clock::now() + o_.ack_timeout);
  Clock::time_point deadline = within_budget(Clock::now() + o_.ack_timeout);
  AdapterEvent early;
  std::string line;
  for (;;) {
    if (read_line(deadline, line) == ReadStatus::timeout) {
      check_budget(fmt::format("the acknowledgement of the stimulus '{}'", label));
      die(fmt::format("did not acknowledge the stimulus '{}' within {} ms", label, o_.ack_timeout.count()));
    }
    if (line == "ack") return early;
    if (line == "refused") {
      if (early.kind == AdapterEvent::Kind::output) pending_.push_front(std::move(early));
      return AdapterEvent::refusal();
    }
    if (line.rfind("output ", 0) == 0) {
      // The first early output is returned; later ones wait in order for next_event.
      if (early.kind == AdapterEvent::Kind::none)
        early = AdapterEvent::output(line.substr(7));
      else
        pending_.push_back(AdapterEvent::output(line.substr(7)));
      continue;
    }
    if (line == "done") {  // (before its ack) kept in order after the early outputs
      pending_.push_back(AdapterEvent::outputs_done());
      continue;
    }
    if (line == "quiet" || line.empty() || line[0] == '#') continue;
    if (line.rfind("error ", 0) == 0 || line == "error")
      die(fmt::format("reported an error: {}", printable(line.substr(std::min<std::size_t>(6, line.size())))));
    die(fmt::format("answered '{}' to the stimulus '{}' where 'ack' or 'refused' was expected", printable(line),
                    label));
  }
}

AdapterEvent SubprocessAdapter::next_event(Clock::time_point deadline) {
  if (!pending_.empty()) {
    AdapterEvent e = std::move(pending_.front());
    pending_.pop_front();
    return e;
  }
  std::string line;
  for (;;) {
    if (read_line(deadline, line) == ReadStatus::timeout) return AdapterEvent::nothing();
    if (line.rfind("output ", 0) == 0) return AdapterEvent::output(line.substr(7));
    if (line == "quiet") return AdapterEvent::quiescence();
    if (line == "done") return AdapterEvent::outputs_done();
    if (line.empty() || line[0] == '#') continue;
    if (line.rfind("error ", 0) == 0 || line == "error")
      die(fmt::format("reported an error: {}", printable(line.substr(std::min<std::size_t>(6, line.size())))));
    die(fmt::format("spoke garbage: '{}' (expected 'output LABEL', 'quiet', 'done', 'error MESSAGE' or '# comment')",
                    printable(line)));
  }
}

void SubprocessAdapter::reset() {
  pending_.clear();
  write_line("reset\n", Clock::now() + o_.ready_timeout);
  wait_for("ready", o_.ready_timeout, "after 'reset'");
}

void SubprocessAdapter::finish() noexcept {
  if (!proc_.started()) return;
  // Stopped, or the run's time budget is spent (the budget holds for the goodbye too): no grace.
  const bool stopping = (o_.stop != nullptr && o_.stop->requested()) || Clock::now() >= run_deadline_;
  if (in_fd() >= 0 && !proc_.poll().ended() && !stopping) {
    static const char end[] = "end\n";
    (void)::send(in_fd(), end, sizeof end - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    ::shutdown(in_fd(), SHUT_WR);
    (void)proc_.wait_for(o_.exit_timeout);
  }
  proc_.reset();  // kills the process group: also the grandchildren the command left behind
  buf_.clear();
}

}  // namespace playtest
