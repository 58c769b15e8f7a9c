#include "playtest/base/subprocess.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string_view>
#include <thread>

extern char** environ;

namespace playtest {

namespace {

using Stream = SpawnOptions::Stream;

ProcessEnd from_status(int status) {
  ProcessEnd e;
  if (WIFEXITED(status)) {
    e.how = ProcessEnd::How::exited;
    e.code = WEXITSTATUS(status);
  } else {
    e.how = ProcessEnd::How::signaled;
    e.code = WTERMSIG(status);
  }
  return e;
}

ProcessEnd not_started(int error, bool pipes) {
  ProcessEnd e;
  e.how = ProcessEnd::How::not_started;
  e.error = error;
  e.pipes = pipes;
  return e;
}

// playtest's environment with `extra`'s entries added or replacing those of the same name (environ
// is only read: nothing in playtest changes it while processes start).
std::vector<char*> environment_with(std::vector<std::string>& extra) {
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
  return envp;
}

void close_both(int pair[2]) {
  for (int i = 0; i < 2; ++i)
    if (pair[i] >= 0) ::close(pair[i]);
  pair[0] = pair[1] = -1;
}

}  // namespace

ProcessEnd Subprocess::start(const SpawnOptions& options) {
  reset();
  const Stream streams[3] = {options.in, options.out, options.err};
  int pairs[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};  // [0]: playtest's end, [1]: the child's
  for (int i = 0; i < 3; ++i) {
    if (streams[i] != Stream::pipe) continue;
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pairs[i]) != 0) {
      const int error = errno;
      for (auto& pair : pairs) close_both(pair);
      return end_ = not_started(error, true);
    }
  }
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&attr);
  for (int i = 0; i < 3; ++i) {
    if (streams[i] == Stream::pipe)
      posix_spawn_file_actions_adddup2(&fa, pairs[i][1], i);
    else if (streams[i] == Stream::discard)
      posix_spawn_file_actions_addopen(&fa, i, "/dev/null", i == 0 ? O_RDONLY : O_WRONLY, 0);
    else if (streams[i] == Stream::append)
      posix_spawn_file_actions_addopen(&fa, i, options.err_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  }
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
  std::vector<std::string> args = options.argv, extra = options.environment;
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<char*> envp;
  if (!extra.empty()) envp = environment_with(extra);
  const StartWindow window;  // until the group is tracked: no second signal leaves it running
  pid_t pid = -1;
  const int rc = args.empty()
                     ? EINVAL
                     : ::posix_spawnp(&pid, argv[0], &fa, &attr, argv.data(), extra.empty() ? environ : envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  for (auto& pair : pairs)
    if (pair[1] >= 0) {
      ::close(pair[1]);
      pair[1] = -1;
    }
  if (rc != 0) {
    for (auto& pair : pairs) close_both(pair);
    return end_ = not_started(rc, false);
  }
  pid_ = pid;
  group_.track(pid);
  for (int i = 0; i < 3; ++i) {
    fds_[i] = pairs[i][0];
    if (fds_[i] >= 0) ::fcntl(fds_[i], F_SETFL, ::fcntl(fds_[i], F_GETFL) | O_NONBLOCK);
  }
  end_ = ProcessEnd{};
  return end_;
}

void Subprocess::close(Fd which) noexcept {
  int& fd = fds_[static_cast<int>(which)];
  if (fd >= 0) ::close(fd);
  fd = -1;
}

ProcessEnd Subprocess::reap(bool block) noexcept {
  if (pid_ <= 0 || end_.ended()) return end_;
  int status = 0;
  for (;;) {
    const pid_t r = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
    if (r == pid_) return end_ = from_status(status);
    if (r == 0) return end_;
    if (errno == EINTR) continue;
    end_.how = ProcessEnd::How::unknown;
    end_.error = errno;
    return end_;
  }
}

ProcessEnd Subprocess::poll() { return reap(false); }

ProcessEnd Subprocess::wait() { return reap(true); }

ProcessEnd Subprocess::wait_for(std::chrono::milliseconds timeout) {
  const Clock::time_point until = Clock::now() + timeout;
  for (;;) {
    const ProcessEnd e = reap(false);
    if (e.ended() || Clock::now() >= until) return e;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

ProcessEnd Subprocess::wait_until(Clock::time_point deadline, std::chrono::milliseconds grace) {
  const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
  const ProcessEnd e = wait_for(std::max(left, std::chrono::milliseconds(0)));
  if (e.ended()) return e;
  end_ = kill_group(grace);
  if (end_.how == ProcessEnd::How::signaled || end_.how == ProcessEnd::How::exited) {
    if (end_.how == ProcessEnd::How::exited) end_.code = 0;
    end_.how = ProcessEnd::How::timed_out;
  }
  return end_;
}

ProcessEnd Subprocess::kill_group(std::chrono::milliseconds grace) noexcept {
  if (pid_ <= 0) return end_;
  if (grace.count() > 0 && !reap(false).ended()) {
    ::kill(-pid_, SIGTERM);
    const Clock::time_point until = Clock::now() + grace;
    while (!reap(false).ended() && Clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ::kill(-pid_, SIGKILL);  // also what it started
  return reap(true);
}

void Subprocess::reset() noexcept {
  kill_group();
  for (int& fd : fds_) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  group_.reset();
  pid_ = -1;
  end_ = ProcessEnd{};
}

}  // namespace playtest
