// Online testing's own cost (docs/performance.md "Online testing"): the machine's pipe round trip
// (a line there and back over a socketpair between two processes: the limit of any adapter
// protocol), and playtest's cost per step when the adapter answers at once (bench/trivial_adapter):
// wall-clock steps/s on one job, and playtest's own CPU time per step (RUSAGE_SELF: the adapter's
// process is not counted).
//   campaign_timing TRIVIAL_ADAPTER [STEPS]
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "playtest/io/graph_json.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/run/subprocess_adapter.hpp"
#include "playtest/strategy/random_walk_policy.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// Round trips of a 15-byte line ("stimulus ping\n", answered "ack\n") between two processes.
double pipe_round_trip_us(int n) {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) std::exit(1);
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(sv[0]);
    char buf[64];
    for (;;) {
      if (::read(sv[1], buf, sizeof buf) <= 0) ::_exit(0);
      if (::write(sv[1], "ack\n", 4) != 4) ::_exit(0);
    }
  }
  ::close(sv[1]);
  char buf[64];
  const auto t0 = Clock::now();
  for (int i = 0; i < n; ++i) {
    if (::write(sv[0], "stimulus ping\n", 14) != 14 || ::read(sv[0], buf, sizeof buf) <= 0) std::exit(1);
  }
  const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / n;
  ::close(sv[0]);
  ::waitpid(child, nullptr, 0);
  return us;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: campaign_timing TRIVIAL_ADAPTER [STEPS]\n");
    return 2;
  }
  const std::uint64_t steps = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 200000;
  double best_rtt = 1e9;
  for (int rep = 0; rep < 5; ++rep) best_rtt = std::min(best_rtt, pipe_round_trip_us(50000));
  std::printf("pipe round trip (socketpair, best of 5 x 50000): %.2f us\n", best_rtt);

  using namespace playtest;
  const TestGraph g = parse_graph(R"({"playtest": "graph/1", "initial": "idle",
    "vertices": [{"id": "idle"}, {"id": "wait", "kind": "passive"}],
    "edges": [{"from": "idle", "to": "wait", "label": "ping"},
              {"from": "wait", "to": "idle", "label": "pong", "prob": 1}]})");
  RunOptions o;
  o.max_steps = steps;
  o.keep_trace = false;
  const Runner runner(g, o);
  for (int rep = 0; rep < 3; ++rep) {
    RandomWalkPolicy policy;
    SubprocessAdapter adapter({.command = argv[1]});
    const double cpu0 = cpu_seconds();
    const auto t0 = Clock::now();
    const RunResult r = runner.run(policy, adapter, nullptr, 1);
    const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    const double cpu = cpu_seconds() - cpu0;
    std::printf(
        "run of %llu steps (%s): %.0f steps/s, wall %.2f us/step, playtest CPU %.2f us/step = %.2f x the "
        "round trip\n",
        static_cast<unsigned long long>(r.steps), std::string(to_string(r.verdict)).c_str(), r.steps / wall,
        wall * 1e6 / r.steps, cpu * 1e6 / r.steps, cpu * 1e6 / r.steps / best_rtt);
  }
}
