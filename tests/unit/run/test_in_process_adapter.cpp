// Example: a C++ project testing its own multithreaded component with playtest, inside GoogleTest,
// through the in-process adapter. The component starts two worker threads per job that race to
// report; the model (examples/sut/workers.json) allows both orders. A buggy component that loses
// the "last worker" update never reports all_done, and playtest reports FAIL with the trace.
#include <gtest/gtest.h>

#include <atomic>
#include <latch>
#include <memory>
#include <thread>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/campaign/trace_writer.hpp"
#include "playtest/catalog/strategy_table.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/run/in_process_adapter.hpp"
#include "playtest/run/runner.hpp"
#include "test_paths.hpp"

namespace playtest {
namespace {

// The component under test: reports through a callback.
class JobRunner {
 public:
  explicit JobRunner(std::function<void(std::string)> report, bool buggy) : report_(std::move(report)), buggy_(buggy) {}
  ~JobRunner() { join(); }
  void submit() {
    join();
    finished_ = 0;
    auto both = std::make_shared<std::latch>(2);
    for (const char* name : {"done_a", "done_b"})
      threads_.emplace_back([this, name, both] {
        both->arrive_and_wait();
        std::lock_guard lock(m_);
        report_(name);
        int now = buggy_ ? finished_.load() : finished_.fetch_add(1) + 1;  // buggy: forgets to count
        if (now == 2) report_("all_done");
      });
  }
  void shutdown() {
    join();
    report_("bye");
  }
  void join() {
    for (auto& t : threads_) t.join();
    threads_.clear();
  }

 private:
  std::function<void(std::string)> report_;
  bool buggy_;
  std::mutex m_;
  std::atomic<int> finished_{0};
  std::vector<std::thread> threads_;
};

// The adapter: the only glue a project writes.
class JobRunnerAdapter final : public InProcessAdapter {
 public:
  explicit JobRunnerAdapter(bool buggy) : buggy_(buggy) {}
  ~JobRunnerAdapter() override { on_finish(); }

 protected:
  void on_start() override {
    jobs_ = std::make_unique<JobRunner>([this](std::string out) { emit(std::move(out)); }, buggy_);
  }
  void on_stimulus(std::string_view label) override {
    if (label == "submit") jobs_->submit();
    else if (label == "shutdown") jobs_->shutdown();
    else throw AdapterError("unknown stimulus " + std::string(label));
  }
  void on_finish() noexcept override { jobs_.reset(); }

 private:
  bool buggy_;
  std::unique_ptr<JobRunner> jobs_;
};

TestGraph workers_model() { return load_graph(playtest::testing::source_dir() + "/examples/sut/workers.json"); }

TEST(InProcessAdapter, CorrectComponentPassesForEveryStrategy) {
  TestGraph g = workers_model();
  RunOptions o;
  o.purpose.kind = TestPurpose::Kind::reach;
  o.max_steps = 2000;
  o.timeout = std::chrono::milliseconds(10000);  // only a real silence waits this long
  Runner runner(g, o);
  for (const StrategyRow* row : strategy_table()) {
    std::string_view name = row->name;
    auto policy = make_policy(name, g);
    JobRunnerAdapter adapter(false);
    for (std::uint64_t seed = 0; seed < 3; ++seed) {
      RunResult r = runner.run(*policy, adapter, nullptr, seed);
      EXPECT_EQ(r.verdict, Verdict::pass) << name << ": " << r.message << "\n" << format_trace(g, r);
    }
  }
}

TEST(InProcessAdapter, BuggyComponentFailsWithATrace) {
  TestGraph g = workers_model();
  RunOptions o;
  o.purpose.kind = TestPurpose::Kind::reach;
  o.timeout = std::chrono::milliseconds(10000);
  o.vertex_timeouts.assign(g.num_vertices(), std::chrono::milliseconds(0));
  o.vertex_timeouts[g.find_vertex("last0")->index()] = std::chrono::milliseconds(50);  // the silence is the bug
  Runner runner(g, o);
  auto policy = make_policy("reach", g);
  JobRunnerAdapter adapter(true);
  RunResult r = runner.run(*policy, adapter);
  ASSERT_EQ(r.verdict, Verdict::fail) << r.message;
  EXPECT_EQ(g.name(r.fail_vertex), "last0");
  EXPECT_EQ(r.allowed, (std::vector<std::string>{"all_done"}));
  EXPECT_EQ(r.observed, "");
  ASSERT_EQ(r.trace.size(), 4u);  // submit, done_x, done_y, silence
  EXPECT_EQ(r.trace[0].label, "submit");
  EXPECT_NE(r.trace[1].label, r.trace[2].label);
}

TEST(InProcessAdapter, EventsAreDeliveredInOrderAndWaitsAreBounded) {
  struct Echo final : InProcessAdapter {
    void on_start() override {}
    void on_stimulus(std::string_view label) override {
      emit(std::string(label) + "1");
      emit(std::string(label) + "2");
    }
    void on_finish() noexcept override {}
  } a;
  a.start();
  EXPECT_EQ(a.stimulate("x").kind, AdapterEvent::Kind::none);
  EXPECT_EQ(a.next_event(Clock::now()).label, "x1");
  EXPECT_EQ(a.next_event(Clock::now()).label, "x2");
  EXPECT_EQ(a.next_event(Clock::now() + std::chrono::milliseconds(5)).kind, AdapterEvent::Kind::none);
  a.emit("early");
  AdapterEvent e = a.stimulate("y");  // an output queued before the stimulus is handed back
  EXPECT_EQ(e.kind, AdapterEvent::Kind::output);
  EXPECT_EQ(e.label, "early");
  // ... and the stimulus is applied all the same (it came after the output): its outputs follow.
  EXPECT_EQ(a.next_event(Clock::now()).label, "y1");
  EXPECT_EQ(a.next_event(Clock::now()).label, "y2");
  a.declare_quiescence();
  EXPECT_EQ(a.next_event(Clock::now()).kind, AdapterEvent::Kind::quiet);
  a.finish();
}

}  // namespace
}  // namespace playtest
