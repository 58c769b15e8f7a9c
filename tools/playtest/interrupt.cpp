#include "interrupt.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>

#include "command.hpp"

namespace playtest::cli {
namespace {

std::atomic<StopSignal*> g_stop{nullptr};
constexpr int handled[] = {SIGINT, SIGTERM, SIGHUP};

std::atomic<int> g_signals{0};

extern "C" void on_signal(int signo) {
  StopSignal* stop = g_stop.load();
  if (stop == nullptr || g_signals.fetch_add(1) > 0) {
    // The second signal: the user insists. Leave now with the conventional status.
    ::_exit(128 + signo);
  }
  stop->request(signo);
}

}  // namespace

InterruptScope::InterruptScope(StopSignal& stop) {
  g_stop.store(&stop);
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  for (int s : handled) ::sigaction(s, &sa, nullptr);
}

InterruptScope::~InterruptScope() {
  struct sigaction sa {};
  sa.sa_handler = SIG_DFL;
  sigemptyset(&sa.sa_mask);
  for (int s : handled) ::sigaction(s, &sa, nullptr);
  g_stop.store(nullptr);
}

int interrupted_exit_code(const StopSignal& stop) { return stop.signal() != 0 ? 128 + stop.signal() : exit_error; }

}  // namespace playtest::cli
