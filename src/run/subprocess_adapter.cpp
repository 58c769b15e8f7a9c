#include "playtest/run/subprocess_adapter.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

#include "playtest/error.hpp"

extern char** environ;

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

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
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
  if (pid_ < 0) return {};
  Clock::time_point until = Clock::now() + grace;
  while (!exited_) {
    pid_t r = ::waitpid(pid_, &status_, WNOHANG);
    if (r == pid_) {
      exited_ = true;
      break;
    }
    if (r < 0 && errno != EINTR) return {};
    if (Clock::now() >= until) return "the process is still running";
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (WIFEXITED(status_)) {
    const int code = WEXITSTATUS(status_);
    // The command runs under /bin/sh -c: when the shell did not exec it, a program killed by
    // signal N makes the shell exit with 128 + N. Say what that means, as for a direct kill.
    if (code > 128 && code < 128 + NSIG && ::strsignal(code - 128) != nullptr)
      return fmt::format(
          "the process exited with status {}: the shell's way of saying a command it ran was killed "
          "by signal {} ({})",
          code, code - 128, ::strsignal(code - 128));
    return fmt::format("the process exited with status {}", code);
  }
  if (WIFSIGNALED(status_))
    return fmt::format("the process was killed by signal {} ({})", WTERMSIG(status_), ::strsignal(WTERMSIG(status_)));
  return {};
}

void SubprocessAdapter::start() {
  finish();
  int in_pair[2], out_pair[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in_pair) != 0)
    cannot_start("cannot create a socket pair for the adapter", errno);
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, out_pair) != 0) {
    const int err = errno;
    ::close(in_pair[0]);
    ::close(in_pair[1]);
    cannot_start("cannot create a socket pair for the adapter", err);
  }
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_adddup2(&fa, in_pair[1], 0);
  posix_spawn_file_actions_adddup2(&fa, out_pair[1], 1);
  if (o_.stderr_mode == SubprocessOptions::Stderr::file)
    posix_spawn_file_actions_addopen(&fa, 2, o_.stderr_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  else if (o_.stderr_mode == SubprocessOptions::Stderr::discard)
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  sigset_t def, mask;
  sigemptyset(&def);
  sigaddset(&def, SIGPIPE);
  sigaddset(&def, SIGINT);
  sigaddset(&def, SIGTERM);
  sigemptyset(&mask);
  posix_spawnattr_setsigdefault(&attr, &def);
  posix_spawnattr_setsigmask(&attr, &mask);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::string sh = "/bin/sh", dash_c = "-c", cmd = o_.command;
  char* argv[] = {sh.data(), dash_c.data(), cmd.data(), nullptr};
  // playtest's environment with o_.environment's entries added or replacing those of the same name
  // (environ is only read: nothing in playtest changes it while adapters start).
  std::vector<std::string> extra = o_.environment;
  std::vector<char*> envp;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const std::string_view name = entry.substr(0, entry.find('='));
    const bool replaced = std::any_of(extra.begin(), extra.end(), [&](const std::string& x) {
      return x.size() > name.size() && x.compare(0, name.size(), name) == 0 && x[name.size()] == '=';
    });
    if (!replaced) envp.push_back(*e);
  }
  for (std::string& x : extra) envp.push_back(x.data());
  envp.push_back(nullptr);
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, "/bin/sh", &fa, &attr, argv, envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(in_pair[1]);
  ::close(out_pair[1]);
  if (rc != 0) {
    ::close(in_pair[0]);
    ::close(out_pair[0]);
    cannot_start(fmt::format("cannot start adapter '{}'", o_.command), rc);
  }
  pid_ = pid;
  group_.track(pid);
  exited_ = false;
  in_fd_ = in_pair[0];
  out_fd_ = out_pair[0];
  ::fcntl(in_fd_, F_SETFL, ::fcntl(in_fd_, F_GETFL) | O_NONBLOCK);
  ::fcntl(out_fd_, F_SETFL, ::fcntl(out_fd_, F_GETFL) | O_NONBLOCK);
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
  if (in_fd_ < 0) die("is not running");
  deadline = within_budget(deadline);
  std::size_t done = 0;
  while (done < line.size()) {
    ssize_t n = ::send(in_fd_, line.data() + done, line.size() - done, MSG_NOSIGNAL);
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
      poll_or_stop(in_fd_, POLLOUT, ms);
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
    if (out_fd_ < 0) die("is not running");
    char chunk[4096];
    ssize_t n = ::read(out_fd_, chunk, sizeof chunk);
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
      poll_or_stop(out_fd_, POLLIN, remaining_ms(within_budget(line_end)));
      continue;
    }
    const int ms = remaining_ms(deadline);
    if (ms == 0) return ReadStatus::timeout;
    poll_or_stop(out_fd_, POLLIN, ms);
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

void SubprocessAdapter::kill_group() noexcept {
  if (pid_ < 0) return;
  ::kill(-pid_, SIGKILL);
  if (!exited_) {
    while (::waitpid(pid_, &status_, 0) < 0 && errno == EINTR) {
    }
    exited_ = true;
  }
}

void SubprocessAdapter::finish() noexcept {
  if (pid_ < 0) return;
  // Stopped, or the run's time budget is spent (the budget holds for the goodbye too): no grace.
  const bool stopping = (o_.stop != nullptr && o_.stop->requested()) || Clock::now() >= run_deadline_;
  if (in_fd_ >= 0 && !exited_ && !stopping) {
    static const char end[] = "end\n";
    (void)::send(in_fd_, end, sizeof end - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    ::shutdown(in_fd_, SHUT_WR);
    Clock::time_point until = Clock::now() + o_.exit_timeout;
    while (!exited_ && Clock::now() < until) {
      pid_t r = ::waitpid(pid_, &status_, WNOHANG);
      if (r == pid_)
        exited_ = true;
      else if (r < 0 && errno != EINTR)
        break;
      else
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  kill_group();  // also the grandchildren the command left behind
  group_.reset();
  close_fd(in_fd_);
  close_fd(out_fd_);
  pid_ = -1;
  buf_.clear();
}

}  // namespace playtest
