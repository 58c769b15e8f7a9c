#include "playtest/campaign/campaign.hpp"

#include <fmt/format.h>
#include <poll.h>

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>
#include <type_traits>

#include "playtest/base/error.hpp"
#include "playtest/graph/graph_digest.hpp"

namespace playtest {

std::uint32_t CampaignResult::runs_not_completed() const {
  return static_cast<std::uint32_t>(
      std::count_if(runs.begin(), runs.end(), [](const RunResult& r) { return r.interrupted; }));
}

namespace {

// The state of one campaign shared by its workers; every member below the mutex is guarded by it.
class Campaign {
 public:
  // `own_runner` false (one job whose adapter watches the runner's own StopSignal): the worker plays
  // with `runner` itself rather than a copy bound to a StopSignal of its own.
  Campaign(const Runner& runner, const CampaignWorkers& workers, const CampaignOptions& options,
           CampaignObserver* observer, bool own_runner = true)
      : g_(runner.graph()),
        options_(options),
        observer_(observer),
        global_stop_(runner.options().stop),
        prefix_(std::min(runner.options().evidence_context, Evidence::max_context_limit)),
        policies_(workers.policy) {
    for (std::uint32_t i = 1; i <= options.runs; ++i)
      if (options.shard.contains(i)) order_.push_back(i);
    slots_.resize(order_.size());
    const std::size_t jobs = std::min<std::size_t>(options.jobs, order_.size());
    for (std::size_t j = 0; j < jobs; ++j) {
      auto w = std::make_unique<Worker>();
      if (own_runner) {
        RunOptions ro = runner.options();
        ro.stop = &w->stop;
        w->own_runner.emplace(g_, std::move(ro));
        w->runner = &*w->own_runner;
      } else {
        w->runner = &runner;
      }
      w->adapter = workers.adapter(static_cast<std::uint32_t>(j + 1), w->stop);
      if (!w->adapter) throw InternalError("run_campaign: a worker factory returned nothing");
      workers_.push_back(std::move(w));
    }
  }

  CampaignResult run() {
    if (observer_) observer_->on_campaign_begin(g_, options_);
    running_ = workers_.size();
    for (std::size_t j = 0; j < workers_.size(); ++j) {
      try {
        workers_[j]->thread = std::thread([this, w = workers_[j].get()] { work(*w); });
      } catch (...) {  // no thread for this worker and the rest: stop those that started
        const std::lock_guard lock(m_);
        error_ = std::current_exception();
        try {
          throw;
        } catch (const std::system_error& e) {  // the machine's limit, not a bug: say which
          error_ = std::make_exception_ptr(
              environment_error(fmt::format("cannot start a thread for job {}", j + 1), e.code().value()));
        } catch (...) {
        }
        for (auto& w : workers_) w->stop.request();
        running_ -= workers_.size() - j;
        if (running_ == 0) all_done_.request();
        break;
      }
    }
    watch_global_stop();
    for (auto& w : workers_)
      if (w->thread.joinable()) w->thread.join();
    if (error_) std::rethrow_exception(error_);
    deliver_ready();  // everything is done: report what is left
    return result();
  }

 private:
  struct Worker {
    StopSignal stop;
    std::optional<Runner> own_runner;
    const Runner* runner = nullptr;
    std::unique_ptr<Adapter> adapter;
    std::thread thread;
    std::size_t current = none;  // the position (in order_) of the run it plays
    bool stopped_for_failure = false;
  };
  struct Slot {
    enum class State : std::uint8_t { pending, running, done };
    State state = State::pending;
    bool live = false;            // its begin was reported: its steps go to the observer as they come
    std::vector<TraceStep> held;  // its steps so far, while an earlier run is being reported
    std::optional<RunResult> result;
  };
  static constexpr std::size_t none = static_cast<std::size_t>(-1);

  // Passes one run's steps on to the campaign (the runner calls it in the worker's thread).
  class Forward final : public RunObserver {
   public:
    Forward(Campaign& c, std::size_t pos, RunObserver* live) : c_(c), pos_(pos), live_(live) {}
    void on_step(const GameGraph& g, const TraceStep& step) override {
      if (live_) live_->on_step(g, step);
      const std::lock_guard lock(c_.m_);
      Slot& s = c_.slots_[pos_];
      if (s.live)
        c_.observer_->on_step(g, step);
      else
        s.held.push_back(step);
    }

   private:
    Campaign& c_;
    std::size_t pos_;
    RunObserver* live_;  // CampaignObserver::on_live_run's
  };

  std::unique_ptr<Policy> new_policy() {
    const std::lock_guard lock(m_);  // the maker is called by one worker at a time
    std::unique_ptr<Policy> p = policies_(g_);
    if (!p) throw InternalError("run_campaign: the policy factory returned nothing");
    return p;
  }

  bool globally_stopped() const { return global_stop_ != nullptr && global_stop_->requested(); }

  // The calling thread forwards a stop of the runner's StopSignal to every worker (with its signal),
  // until all workers are done.
  void watch_global_stop() {
    if (global_stop_ == nullptr) return;
    pollfd p[2] = {{global_stop_->fd(), POLLIN, 0}, {all_done_.fd(), POLLIN, 0}};
    while (!all_done_.requested() && !global_stop_->requested()) ::poll(p, 2, p[0].fd < 0 || p[1].fd < 0 ? 50 : -1);
    if (!global_stop_->requested()) return;
    const std::lock_guard lock(m_);
    for (auto& w : workers_) w->stop.request(global_stop_->signal());
    ended_.notify_all();
  }

  // The next run for a worker, or none when the campaign is over for it.
  std::size_t take_run(Worker& w) {
    const std::lock_guard lock(m_);
    if (next_ >= order_.size() || error_) return none;
    // The first run is always played, so that a campaign stopped before it began still has a run
    // (interrupted: ERROR) and never reads as a PASS.
    if (next_ > 0 && (failed_fast_ != 0 || model_failed_ != 0 || stopped_by_errors_ != 0 || w.stop.requested() ||
                      globally_stopped()))
      return none;
    const std::size_t pos = next_++;
    w.current = pos;
    slots_[pos].state = Slot::State::running;
    deliver_ready();
    return pos;
  }

  // What run `pos` learns from (CampaignOptions::share_evidence): the runs at least `jobs` places
  // before it, merged in run order; waits for them to end (or for a stop).
  std::shared_ptr<const Evidence> prior_of(Worker& w, std::size_t pos) {
    if (!options_.share_evidence) return nullptr;
    const std::size_t jobs = workers_.size();
    const std::size_t need = pos + 1 > jobs ? pos + 1 - jobs : 0;  // positions [0, need)
    std::unique_lock lock(m_);
    ended_.wait(lock, [&] {
      if (w.stop.requested() || globally_stopped() || error_) return true;
      for (std::size_t k = merged_; k < need; ++k)
        if (slots_[k].state != Slot::State::done) return false;
      return true;
    });
    // A later run may have merged past `need` already (its worker asked first): then this run's
    // prior is made again from its own runs, so that what it knows never depends on timing.
    if (merged_ > need) {
      auto prior = std::make_shared<Evidence>(prefix_.max_context());
      for (std::size_t k = 0; k < need; ++k)
        if (slots_[k].result && slots_[k].result->evidence) prior->merge_own(*slots_[k].result->evidence);
      return prior;
    }
    for (; merged_ < need && slots_[merged_].state == Slot::State::done; ++merged_)
      if (slots_[merged_].result && slots_[merged_].result->evidence)
        prefix_.merge_own(*slots_[merged_].result->evidence);
    return std::make_shared<const Evidence>(prefix_);
  }

  void work(Worker& w) {
    try {
      for (std::size_t pos; (pos = take_run(w)) != none;) {
        const std::uint32_t run = order_[pos];
        const std::uint64_t seed = campaign_seed(options_.seed, run);
        RunObserver* live = observer_ ? observer_->on_live_run(run, seed) : nullptr;
        Forward forward(*this, pos, live);
        const std::shared_ptr<const Evidence> prior = prior_of(w, pos);
        // A fresh policy for every run: what a policy keeps between runs (an adaptive wrapper's
        // amortisation, a walk's counts) would otherwise depend on which worker played which run
        // before, that is on thread timing.
        const std::unique_ptr<Policy> policy = new_policy();
        RunResult r = w.runner->run(*policy, *w.adapter, observer_ ? &forward : nullptr, seed, prior.get());
        r.run = run;
        if (live) live->on_end(g_, r);
        finish_run(w, pos, std::move(r));
      }
    } catch (...) {
      const std::lock_guard lock(m_);
      if (!error_) error_ = std::current_exception();
      for (auto& other : workers_) other->stop.request();
      ended_.notify_all();
    }
    const std::lock_guard lock(m_);
    if (--running_ == 0) all_done_.request();
  }

  void finish_run(Worker& w, std::size_t pos, RunResult r) {
    const std::lock_guard lock(m_);
    r.run = order_[pos];
    if (r.interrupted && w.stopped_for_failure)
      r.message = fmt::format(
          "not completed: stopped after {} step{} because run {} failed (fail-fast); there is no verdict on the "
          "system under test",
          r.steps, r.steps == 1 ? "" : "s", failed_fast_);
    if (r.model_error && (model_failed_ == 0 || r.run < model_failed_)) model_failed_ = r.run;
    if (r.verdict == Verdict::error && !r.interrupted && options_.max_errors != 0 && stopped_by_errors_ == 0 &&
        ++errors_ >= options_.max_errors)
      stopped_by_errors_ = r.run;
    if (r.verdict == Verdict::fail && options_.fail_fast) {
      if (failed_fast_ == 0 || r.run < failed_fast_) failed_fast_ = r.run;
      // Stop the runs after this one; those before it are played to the end.
      for (auto& other : workers_)
        if (other.get() != &w && other->current != none && other->current > pos && !other->stopped_for_failure) {
          other->stopped_for_failure = true;
          other->stop.request();
        }
    }
    w.current = none;
    slots_[pos].result = std::move(r);
    slots_[pos].state = Slot::State::done;
    deliver_ready();
    ended_.notify_all();
  }

  // Reports, in run order, every run whose turn has come (caller holds m_).
  void deliver_ready() {
    if (observer_ == nullptr) return;
    for (; head_ < slots_.size(); ++head_) {
      Slot& s = slots_[head_];
      if (s.state == Slot::State::pending) return;
      if (!s.live) {
        observer_->on_run_begin(order_[head_], campaign_seed(options_.seed, order_[head_]));
        for (const TraceStep& step : s.held) observer_->on_step(g_, step);
        s.held = {};
        s.live = true;
      }
      if (s.state == Slot::State::running) return;
      observer_->on_end(g_, *s.result);
    }
  }

  CampaignResult result() {
    CampaignResult c;
    c.runs_requested = options_.runs;
    c.runs_in_shard = static_cast<std::uint32_t>(order_.size());
    c.seed = options_.seed;
    c.shard = options_.shard;
    c.failed_fast = failed_fast_;
    c.model_failed = model_failed_;
    c.model_play = options_.model_play;
    c.stopped_by_errors = stopped_by_errors_;
    c.settings = options_.settings;
    c.fail_fast = options_.fail_fast;
    if (const TestGraph* t = g_.explored()) c.model_digest = graph_digest(*t);
    c.edge_visits.assign(g_.num_edges(), 0);
    for (Slot& s : slots_) {
      if (!s.result) continue;
      RunResult& r = *s.result;
      // (On the fly a run's counts end with the edges discovered by then.)
      const std::size_t n = std::min(c.edge_visits.size(), r.edge_visits.size());
      for (std::size_t e = 0; e < n; ++e) c.edge_visits[e] += r.edge_visits[e];
      c.verdict = c.runs.empty() ? r.verdict : combine(c.verdict, r.verdict);
      c.runs.push_back(std::move(r));
    }
    c.coverage = coverage_of(g_, c.edge_visits);
    claim(c);
    // A stop that came after the last run ended changed nothing.
    c.interrupted = globally_stopped() && (c.runs.size() < order_.size() || c.runs_not_completed() > 0);
    if (c.interrupted) c.signal = global_stop_->signal();
    return c;
  }

  // What the campaign's evidence proves about the system (CampaignResult::slack): every run's
  // evidence merged in run order, what the choices depend on learned over all of it.
  void claim(CampaignResult& c) const {
    auto all = std::make_shared<Evidence>(prefix_.max_context());
    for (const RunResult& r : c.runs)
      if (r.evidence) all->merge_own(*r.evidence);
    if (options_.learn_history && !all->empty()) {
      HistoryLearningOptions ho;
      // Learning reads the paths once per candidate memory and length: kept to about 1e8 edge reads.
      const std::uint64_t length = std::max<std::uint64_t>(1, all->path_length());
      while (ho.max_length > 1 && length * ho.max_length * 40 > 100'000'000) --ho.max_length;
      c.history = learn_history(g_, *all, ho);
    }
    c.slack = model_slack(g_, *all, options_.learn_history ? &c.history : nullptr, options_.claims);
    c.evidence = std::move(all);
  }

  const GameGraph& g_;
  const CampaignOptions& options_;
  CampaignObserver* observer_;
  const StopSignal* global_stop_;
  std::vector<std::uint32_t> order_;  // the run indices of the shard, in run order
  std::vector<std::unique_ptr<Worker>> workers_;
  StopSignal all_done_;

  std::mutex m_;
  std::condition_variable ended_;  // a run ended (or the campaign is stopping)
  Evidence prefix_;                // share_evidence: the evidence of positions [0, merged_)
  PolicyMaker policies_;           // called under m_, once per run
  std::size_t merged_ = 0;
  std::vector<Slot> slots_;  // per position in order_
  std::size_t next_ = 0;     // the next position to hand out
  std::size_t head_ = 0;     // the position being reported to the observer
  std::size_t running_ = 0;  // workers still working
  std::uint32_t failed_fast_ = 0;
  std::uint32_t model_failed_ = 0;       // the first run whose model failed (no run starts after it)
  std::uint32_t errors_ = 0;             // runs ended ERROR, not interrupted (max_errors)
  std::uint32_t stopped_by_errors_ = 0;  // the run that reached max_errors (no run starts after it)
  std::exception_ptr error_;
};

}  // namespace

namespace {

void check_options(const CampaignOptions& options) {
  if (options.runs == 0) throw UsageError("runs", "must be at least 1");
  if (options.jobs == 0) throw UsageError("jobs", "must be at least 1");
  const Shard& s = options.shard;
  if (s.count == 0 || s.index == 0 || s.index > s.count)
    throw UsageError("shard", fmt::format("shard {} does not exist: K/M needs 1 <= K <= M", to_string(s)));
  if (s.runs_of(options.runs) == 0)
    throw UsageError("shard", fmt::format("shard {} of a campaign of {} run{} holds no run: use at most {} shards",
                                          to_string(s), options.runs, options.runs == 1 ? "" : "s", options.runs));
}

// A policy and an adapter that belong to the caller, lent to the one worker.
class LentPolicy final : public Policy {
 public:
  explicit LentPolicy(Policy& p) : p_(p) {}
  std::string_view name() const override { return p_.name(); }
  void begin_run(const RunView& view, Rng& rng) override { p_.begin_run(view, rng); }
  Decision choose(const RunView& view, Rng& rng) override { return p_.choose(view, rng); }
  void observe(EdgeId taken, const RunView& view) override { p_.observe(taken, view); }
  bool stop_at_passive(const RunView& view) override { return p_.stop_at_passive(view); }
  std::string stop_reason() const override { return p_.stop_reason(); }

 private:
  Policy& p_;
};

class LentAdapter final : public Adapter {
 public:
  explicit LentAdapter(Adapter& a) : a_(a) {}
  void start() override { a_.start(); }
  AdapterEvent stimulate(std::string_view label) override { return a_.stimulate(label); }
  AdapterEvent next_event(Clock::time_point deadline) override { return a_.next_event(deadline); }
  bool simulate_delay(std::string_view label) override { return a_.simulate_delay(label); }
  void reset() override { a_.reset(); }
  void set_run_deadline(Clock::time_point deadline) override { a_.set_run_deadline(deadline); }
  void finish() noexcept override { a_.finish(); }

 private:
  Adapter& a_;
};

// On the fly the runs share one ModelGraph (campaign.hpp).
void check_on_the_fly(const GameGraph& g, const CampaignOptions& options) {
  if (g.is_explored()) return;
  if (options.jobs > 1)
    throw UsageError("jobs",
                     "a model explored on the fly is played by one job: its runs share the state space they "
                     "discover (it is not shared between threads, and edge ids follow the order of discovery)");
  if (!options.shard.is_whole())
    throw UsageError("shard",
                     "a model explored on the fly is not split into shards: each shard would number the edges it "
                     "discovers differently, so their coverage could not be merged");
}

}  // namespace

CampaignResult run_campaign(const Runner& runner, const CampaignWorkers& workers, const CampaignOptions& options,
                            CampaignObserver* observer) {
  check_options(options);
  check_on_the_fly(runner.graph(), options);
  if (!workers.policy || !workers.adapter) throw InternalError("run_campaign: a worker factory is missing");
  Campaign c(runner, workers, options, observer);
  return c.run();
}

CampaignResult run_campaign(const Runner& runner, Policy& policy, Adapter& adapter, const CampaignOptions& options,
                            CampaignObserver* observer) {
  check_options(options);
  check_on_the_fly(runner.graph(), options);
  if (options.jobs != 1)
    throw UsageError("jobs", "one policy and one adapter play one job: give CampaignWorkers for several");
  const CampaignWorkers lent{
      .policy = [&policy](const GameGraph&) { return std::make_unique<LentPolicy>(policy); },
      .adapter = [&adapter](std::uint32_t, const StopSignal&) { return std::make_unique<LentAdapter>(adapter); }};
  Campaign c(runner, lent, options, observer, false);
  return c.run();
}

}  // namespace playtest
