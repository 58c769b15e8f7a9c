// An example system under test with truly nondeterministic output order: each "submit" starts two
// worker threads that race to report "done_a" / "done_b"; the one that finishes last reports
// "all_done". It speaks the playtest adapter protocol itself (docs/adapter-protocol.md) on
// stdin/stdout, so `playtest run workers.json --sut ./workers_sut` tests it directly.
//
// The buggy build (WORKERS_BUGGY, target workers_sut_buggy) counts finished workers with a
// read-then-write instead of an atomic increment: both workers read the count before either writes
// it (they meet at a latch in between, so the lost update happens on every job, not only on unlucky
// schedules) and nobody reports "all_done". playtest sees the silence where the model expects
// "all_done" and reports FAIL.
#include <atomic>
#include <cstdio>
#include <iostream>
#include <latch>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

std::mutex out_mutex;

void say(const std::string& line) {
  std::lock_guard lock(out_mutex);
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

class Workers {
 public:
  ~Workers() { join(); }

  void submit() {
    join();
    finished_.store(0);
    auto start = std::make_shared<std::latch>(2);
    auto both_counted = std::make_shared<std::latch>(2);
    for (const char* name : {"a", "b"}) {
      threads_.emplace_back([this, name, start, both_counted] {
        start->arrive_and_wait();  // both start together: which one reports first is up to the scheduler
        {
          std::lock_guard lock(out_mutex);
          std::printf("output done_%s\n", name);
          std::fflush(stdout);
#ifndef WORKERS_BUGGY
          if (finished_.fetch_add(1) + 1 == 2) {
            std::printf("output all_done\n");
            std::fflush(stdout);
          }
#endif
        }
#ifdef WORKERS_BUGGY
        int seen = finished_.load();  // BUG: read, then write; the other worker's update is lost
        both_counted->arrive_and_wait();
        finished_.store(seen + 1);
        if (seen + 1 == 2) say("output all_done");
#else
        (void)both_counted;
#endif
      });
    }
  }

  void join() {
    for (auto& t : threads_) t.join();
    threads_.clear();
  }

 private:
  std::vector<std::thread> threads_;
  std::atomic<int> finished_{0};
};

}  // namespace

int main() {
  Workers workers;
  bool shut_down = false;
  say("# workers example SUT"
#ifdef WORKERS_BUGGY
      " (buggy build)"
#endif
  );
  say("ready");
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line == "end") break;
    if (line == "reset") {
      workers.join();
      shut_down = false;
      say("ready");
    } else if (line == "stimulus submit" && !shut_down) {
      // The ack goes out before the workers can report: outputs after it belong to this stimulus.
      say("ack");
      workers.submit();
    } else if (line == "stimulus shutdown" && !shut_down) {
      say("ack");
      workers.join();
      shut_down = true;
      say("output bye");
    } else {
      say("error cannot handle '" + line + "'" + (shut_down ? " after shutdown" : ""));
    }
  }
  workers.join();
  return 0;
}
