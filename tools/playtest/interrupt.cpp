#include "interrupt.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <iterator>

#include "command.hpp"
#include "playtest/base/exit_cleanup.hpp"

namespace playtest::cli {
namespace {

std::atomic<StopSignal*> g_stop{nullptr};
constexpr int handled[] = {SIGINT, SIGTERM, SIGHUP};

std::atomic<int> g_signals{0};

extern "C" void on_signal(int signo) {
  StopSignal* stop = g_stop.load();
  if (stop == nullptr || g_signals.fetch_add(1) > 0) {
    // The second signal: the user insists. Leave now with the conventional status, taking the
    // process groups playtest started and its unfinished temporary files along.
    release_tracked();
    ::_exit(stopped_exit_code(signo));
  }
  stop->request(signo);
}

// Outside an InterruptScope a signal ends playtest as it always did (the default action), but
// first kills the process groups it started (Graphviz) and removes its temporary files.
extern "C" void on_signal_outside_scope(int signo) {
  release_tracked();
  ::signal(signo, SIG_DFL);
  ::raise(signo);
}

// Which of `handled` were ignored when playtest started (nohup, a shell's background job): outside
// an InterruptScope they stay ignored.
bool g_ignored[std::size(handled)] = {};
bool g_recorded = false;

void install(void (*handler)(int), int flags, bool keep_ignored) {
  struct sigaction sa {};
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = flags;
  for (std::size_t i = 0; i < std::size(handled); ++i) {
    if (keep_ignored && g_ignored[i]) continue;
    ::sigaction(handled[i], &sa, nullptr);
  }
}

}  // namespace

void install_exit_cleanup() {
  if (!g_recorded) {
    for (std::size_t i = 0; i < std::size(handled); ++i) {
      struct sigaction old {};
      g_ignored[i] = ::sigaction(handled[i], nullptr, &old) == 0 && old.sa_handler == SIG_IGN;
    }
    g_recorded = true;
  }
  install(on_signal_outside_scope, SA_RESETHAND, true);
}

InterruptScope::InterruptScope(StopSignal& stop) {
  g_stop.store(&stop);
  install(on_signal, SA_RESTART, false);
}

InterruptScope::~InterruptScope() {
  if (g_recorded)
    install_exit_cleanup();
  else
    install(SIG_DFL, 0, false);  // (tests that use a scope without main)
  g_stop.store(nullptr);
}

int interrupted_exit_code(const StopSignal& stop) { return stopped_exit_code(stop.signal()); }

}  // namespace playtest::cli
