// An example system under test with truly nondeterministic output order: each "submit" starts two
// worker threads that race to report "done_a" / "done_b"; the one that finishes last reports
// "all_done". It speaks the playtest adapter protocol itself (docs/adapter-protocol.md) through the
// C++ adapter kit (adapters/cpp/playtest/adapter_kit.hpp), so `playtest run workers.json --sut
// ./workers_sut` tests it directly. The kit writes the ack of "submit" before the workers' outputs
// even though the workers start before the handler returns: outputs raised while a stimulus is
// applied are held back until after its ack.
//
// The buggy build (WORKERS_BUGGY, target workers_sut_buggy) counts finished workers with a
// read-then-write instead of an atomic increment: both workers read the count before either writes
// it (they meet at a latch in between, so the lost update happens on every job, not only on unlucky
// schedules) and nobody reports "all_done". playtest sees the silence where the model expects
// "all_done" and reports FAIL.
#include <atomic>
#include <latch>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "playtest/adapter_kit.hpp"

namespace pa = playtest_adapter;

namespace {

class Workers {
 public:
  explicit Workers(pa::Adapter& out) : out_(out) {}
  ~Workers() { join(); }

  void submit() {
    join();
    finished_.store(0);
    auto start = std::make_shared<std::latch>(2);
    auto both_counted = std::make_shared<std::latch>(2);
    for (const char* name : {"a", "b"}) {
      threads_.emplace_back([this, name, start, both_counted] {
        start->arrive_and_wait();  // both start together: which one reports first is up to the scheduler
#ifndef WORKERS_BUGGY
        {
          // The report and the count together: "all_done" follows the second "done".
          std::lock_guard lock(count_mutex_);
          out_.output_label(std::string("done_") + name);
          if (finished_.fetch_add(1) + 1 == 2) out_.output_label("all_done");
        }
        (void)both_counted;
#else
        out_.output_label(std::string("done_") + name);
        int seen = finished_.load();  // BUG: read, then write; the other worker's update is lost
        both_counted->arrive_and_wait();
        finished_.store(seen + 1);
        if (seen + 1 == 2) out_.output_label("all_done");
#endif
      });
    }
  }

  void join() {
    for (auto& t : threads_) t.join();
    threads_.clear();
  }

 private:
  pa::Adapter& out_;
  std::vector<std::thread> threads_;
  std::atomic<int> finished_{0};
  std::mutex count_mutex_;
};

class WorkersSut final : public pa::Adapter {
 public:
  void on_start() override {
    comment(
        "workers example SUT"
#ifdef WORKERS_BUGGY
        " (buggy build)"
#endif
    );
  }
  void on_stimulus(const pa::Label& s) override {
    if (shut_down_) throw std::runtime_error("cannot handle 'stimulus " + s.format() + "' after shutdown");
    if (s.name == "submit") {
      workers_.submit();
    } else if (s.name == "shutdown") {
      workers_.join();
      shut_down_ = true;
      output_label("bye");  // workers.json writes its outputs without the ? of model programs
    } else {
      throw std::runtime_error("cannot handle 'stimulus " + s.format() + "'");
    }
  }
  void on_reset() override {
    workers_.join();
    shut_down_ = false;
  }
  void on_stop() override { workers_.join(); }

 private:
  Workers workers_{*this};
  bool shut_down_ = false;
};

}  // namespace

int main() {
  WorkersSut sut;
  return sut.run();
}
