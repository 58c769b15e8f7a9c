// A trivial adapter for the model idle --ping--> wait --pong--> idle (bench/campaign_timing.cpp,
// docs/performance.md "Online testing"): it answers every stimulus with "ack" and "output pong" at
// once, each answer in one write(2), so that a run measures playtest and the pipe, not the system.
// With a number of milliseconds as its argument it sleeps that long before each answer (a slow
// system under test, for the campaign speedup).
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>

namespace {

void say(std::string_view s) {
  while (!s.empty()) {
    const ssize_t n = ::write(1, s.data(), s.size());
    if (n <= 0) std::exit(0);
    s.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int sleep_ms = argc > 1 ? std::atoi(argv[1]) : 0;
  say("ready\n");
  std::string buf;
  char chunk[4096];
  for (;;) {
    const ssize_t n = ::read(0, chunk, sizeof chunk);
    if (n <= 0) return 0;
    buf.append(chunk, static_cast<std::size_t>(n));
    for (std::size_t nl; (nl = buf.find('\n')) != std::string::npos;) {
      const std::string line = buf.substr(0, nl);
      buf.erase(0, nl + 1);
      if (line == "end") return 0;
      if (sleep_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
      if (line.rfind("stimulus", 0) == 0)
        say("ack\noutput pong\n");
      else if (line == "reset")
        say("ready\n");
    }
  }
}
