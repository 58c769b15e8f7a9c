// Subprocess (subprocess.hpp): how a process ended (exit status, signal, timed out, could not
// start), its standard streams through pipes, and its whole process group killed with it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <string>
#include <thread>

#include "playtest/base/exit_cleanup.hpp"
#include "playtest/base/subprocess.hpp"

namespace playtest {
namespace {

using namespace std::chrono_literals;
using Fd = Subprocess::Fd;
using How = ProcessEnd::How;
using Stream = SpawnOptions::Stream;

SpawnOptions shell(const std::string& script) { return {.argv = {"/bin/sh", "-c", script}}; }

// Reads `fd` until end of file or `timeout`; `eof` tells which.
std::string read_all(int fd, std::chrono::milliseconds timeout, bool* eof = nullptr) {
  std::string out;
  const auto until = Subprocess::Clock::now() + timeout;
  for (;;) {
    char buf[256];
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      out.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) {
      if (eof != nullptr) *eof = true;
      return out;
    }
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - Subprocess::Clock::now());
    if (left.count() <= 0) {
      if (eof != nullptr) *eof = false;
      return out;
    }
    pollfd p{fd, POLLIN, 0};
    ::poll(&p, 1, static_cast<int>(left.count()));
  }
}

// Reads one line (without its newline) from `fd`, waiting at most a second.
std::string read_line(int fd) {
  std::string line;
  const auto until = Subprocess::Clock::now() + 1s;
  while (Subprocess::Clock::now() < until) {
    char c;
    const ssize_t n = ::read(fd, &c, 1);
    if (n == 1) {
      if (c == '\n') return line;
      line += c;
    } else if (n == 0) {
      return line;
    } else {
      pollfd p{fd, POLLIN, 0};
      ::poll(&p, 1, 100);
    }
  }
  return line;
}

TEST(Subprocess, ReportsTheExitStatus) {
  Subprocess p;
  ASSERT_EQ(p.start(shell("exit 3")).how, How::running);
  EXPECT_GT(p.pid(), 0);
  const ProcessEnd e = p.wait();
  EXPECT_EQ(e.how, How::exited);
  EXPECT_EQ(e.code, 3);
  EXPECT_TRUE(e.exited_with(3));
  EXPECT_FALSE(e.exited_with(0));
}

TEST(Subprocess, ReportsTheSignalThatKilledIt) {
  Subprocess p;
  ASSERT_EQ(p.start(shell("kill -USR1 $$")).how, How::running);
  const ProcessEnd e = p.wait_for(1s);
  EXPECT_EQ(e.how, How::signaled);
  EXPECT_EQ(e.code, SIGUSR1);
}

TEST(Subprocess, SignalsPlaytestHandlesAreAtTheirDefaultsInTheChild) {
  // Ignored here, as a stopping playtest may; the child gets SIGTERM's default all the same.
  struct sigaction ignore {
  }, old{};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGTERM, &ignore, &old);
  Subprocess p;
  const ProcessEnd started = p.start(shell("kill -TERM $$; sleep 5"));
  ::sigaction(SIGTERM, &old, nullptr);
  ASSERT_EQ(started.how, How::running);
  const ProcessEnd e = p.wait_for(1s);
  EXPECT_EQ(e.how, How::signaled);
  EXPECT_EQ(e.code, SIGTERM);
}

TEST(Subprocess, KillsTheWholeGroupWhenItOutlivesItsTime) {
  // The shell starts a child of its own (in the same group) that holds standard output open too:
  // the pipe ends only once both are dead.
  Subprocess p;
  SpawnOptions o = shell("sleep 30 & echo started; sleep 30");
  o.out = Stream::pipe;
  ASSERT_EQ(p.start(o).how, How::running);
  ASSERT_EQ(read_line(p.fd(Fd::out)), "started");
  const auto before = Subprocess::Clock::now();
  const ProcessEnd e = p.wait_until(Subprocess::Clock::now() + 100ms);
  EXPECT_GE(Subprocess::Clock::now() - before, 100ms);
  EXPECT_EQ(e.how, How::timed_out);
  EXPECT_EQ(e.code, SIGKILL);
  bool eof = false;
  read_all(p.fd(Fd::out), 900ms, &eof);
  EXPECT_TRUE(eof) << "the background sleep (same process group) still holds the pipe: it was not killed";
}

TEST(Subprocess, KillGroupSendsTermFirstThenKill) {
  {
    Subprocess p;  // ends on SIGTERM
    SpawnOptions o = shell("echo ready; sleep 30");
    o.out = Stream::pipe;
    ASSERT_EQ(p.start(o).how, How::running);
    ASSERT_EQ(read_line(p.fd(Fd::out)), "ready");
    const ProcessEnd e = p.kill_group(900ms);
    EXPECT_EQ(e.how, How::signaled);
    EXPECT_EQ(e.code, SIGTERM);
  }
  {
    Subprocess p;  // ignores SIGTERM (and so does its sleep): SIGKILL once the grace is over
    SpawnOptions o = shell("trap '' TERM; echo ready; sleep 30");
    o.out = Stream::pipe;
    ASSERT_EQ(p.start(o).how, How::running);
    ASSERT_EQ(read_line(p.fd(Fd::out)), "ready");
    const auto before = Subprocess::Clock::now();
    const ProcessEnd e = p.kill_group(100ms);
    EXPECT_GE(Subprocess::Clock::now() - before, 100ms);
    EXPECT_EQ(e.how, How::signaled);
    EXPECT_EQ(e.code, SIGKILL);
  }
}

TEST(Subprocess, SaysWhyItCouldNotStart) {
  Subprocess p;
  ProcessEnd e = p.start({.argv = {"/nonexistent/playtest-no-such-program"}});
  EXPECT_EQ(e.how, How::not_started);
  EXPECT_EQ(e.error, ENOENT);
  EXPECT_FALSE(e.pipes);
  EXPECT_FALSE(p.started());
  e = p.start({.argv = {"playtest-no-such-program-on-path"}, .in = Stream::pipe, .out = Stream::pipe});
  EXPECT_EQ(e.how, How::not_started);
  EXPECT_EQ(e.error, ENOENT);
  EXPECT_EQ(p.fd(Fd::in), -1);
  EXPECT_EQ(p.fd(Fd::out), -1);
}

TEST(Subprocess, StandardStreamsThroughPipes) {
  Subprocess p;
  SpawnOptions o = shell("cat; echo \"$PLAYTEST_SUBPROCESS_TEST\" >&2; exit 4");
  o.environment = {"PLAYTEST_SUBPROCESS_TEST=from the environment"};
  o.in = o.out = o.err = Stream::pipe;
  ASSERT_EQ(p.start(o).how, How::running);
  const std::string text = "one line\nand another\n";
  // Standard input is a socket: a write to a process that died is EPIPE, not SIGPIPE.
  ASSERT_EQ(::send(p.fd(Fd::in), text.data(), text.size(), MSG_NOSIGNAL), static_cast<ssize_t>(text.size()));
  p.close(Fd::in);
  EXPECT_EQ(p.fd(Fd::in), -1);
  EXPECT_EQ(read_all(p.fd(Fd::out), 900ms), text);
  EXPECT_EQ(read_all(p.fd(Fd::err), 900ms), "from the environment\n");
  EXPECT_TRUE(p.wait().exited_with(4));
}

TEST(Subprocess, DiscardsAndAppendsStandardError) {
  const std::string path = testing::TempDir() + "playtest_subprocess_" + std::to_string(::getpid()) + ".txt";
  ::unlink(path.c_str());
  for (int i = 0; i < 2; ++i) {
    Subprocess p;
    ASSERT_EQ(p.start({.argv = {"/bin/sh", "-c", "echo to stderr >&2"}, .err = Stream::append, .err_path = path}).how,
              How::running);
    EXPECT_TRUE(p.wait().exited_with(0));
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  EXPECT_EQ(read_all(fd, 100ms), "to stderr\nto stderr\n");
  ::close(fd);
  ::unlink(path.c_str());
  Subprocess p;
  ASSERT_EQ(
      p.start({.argv = {"/bin/sh", "-c", "cat; echo gone >&2"}, .in = Stream::discard, .err = Stream::discard}).how,
      How::running);
  EXPECT_TRUE(p.wait_for(900ms).exited_with(0));  // stdin /dev/null: cat ends at once
}

TEST(Subprocess, ResetKillsWhatIsRunning) {
  Subprocess p;
  SpawnOptions o = shell("echo ready; sleep 30");
  o.out = Stream::pipe;
  ASSERT_EQ(p.start(o).how, How::running);
  const pid_t pid = p.pid();
  ASSERT_EQ(read_line(p.fd(Fd::out)), "ready");
  EXPECT_EQ(p.poll().how, How::running);
  p.reset();
  EXPECT_FALSE(p.started());
  EXPECT_EQ(p.fd(Fd::out), -1);
  EXPECT_EQ(::kill(pid, 0), -1);  // reaped, not a zombie
  EXPECT_EQ(errno, ESRCH);
}

// The window between starting a process and tracking its group (StartWindow): the starting thread
// takes none of the signals playtest handles in it, they wait until it closes.
std::atomic<int> g_hups{0};
extern "C" void count_hup(int) { g_hups.fetch_add(1); }

TEST(StartWindow, HandledSignalsWaitUntilTheWindowCloses) {
  struct sigaction sa {
  }, old{};
  sa.sa_handler = count_hup;
  sigemptyset(&sa.sa_mask);
  ASSERT_EQ(::sigaction(SIGHUP, &sa, &old), 0);
  g_hups = 0;
  {
    const StartWindow window;
    ::raise(SIGHUP);
    EXPECT_EQ(g_hups.load(), 0) << "a signal was taken between starting a process and tracking it";
  }
  EXPECT_EQ(g_hups.load(), 1) << "the signal held in the window was lost";
  ::sigaction(SIGHUP, &old, nullptr);
}

// A second signal taken on another thread while a process is being started (release_tracked()
// from a handler) waits for the start to be tracked, and so kills it: before the window existed a
// Graphviz started just then outlived playtest (CliOutputsUnderSignals.SecondSignalWhileDrawing...
// failed under load).
TEST(StartWindow, ReleaseTrackedWaitsForAStartInProgress) {
  Subprocess p;
  std::atomic<bool> opened{false};
  std::thread starter([&] {
    const StartWindow window;  // as Subprocess::start holds one; this one is held longer
    opened = true;
    std::this_thread::sleep_for(300ms);
    p.start(shell("exec sleep 60"));
  });
  while (!opened) std::this_thread::sleep_for(1ms);
  const auto before = Subprocess::Clock::now();
  release_tracked();  // must wait for the window, then kill the group started in it
  EXPECT_GE(Subprocess::Clock::now() - before, 200ms) << "release_tracked did not wait for the start";
  starter.join();
  ASSERT_GT(p.pid(), 0);
  const ProcessEnd end = p.wait_for(5s);
  EXPECT_EQ(end.how, How::signaled) << "the process started in the window outlived release_tracked";
  EXPECT_EQ(end.code, SIGKILL);
}

}  // namespace
}  // namespace playtest
