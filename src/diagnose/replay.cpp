#include "playtest/diagnose/replay.hpp"

#include <fmt/format.h>

#include "playtest/base/error.hpp"

namespace playtest {

namespace {

// Turns the runner's poll at the first active vertex after the script into a wait of `linger`, so
// that an output the system produces there (a failure at an active vertex) is not missed.
class LingeringAdapter final : public Adapter {
 public:
  LingeringAdapter(Adapter& inner, const ScriptPolicy& policy, std::chrono::milliseconds linger)
      : inner_(inner), policy_(policy), linger_(linger) {}
  void start() override {
    lingered_ = false;
    inner_.start();
  }
  AdapterEvent stimulate(std::string_view label) override { return inner_.stimulate(label); }
  AdapterEvent next_event(Clock::time_point deadline) override {
    const auto now = Clock::now();
    if (linger_.count() > 0 && !lingered_ && policy_.finished() && deadline <= now) {
      lingered_ = true;
      deadline = now + linger_;
    }
    return inner_.next_event(deadline);
  }
  bool simulate_delay(std::string_view label) override { return inner_.simulate_delay(label); }
  void reset() override { inner_.reset(); }
  void set_run_deadline(Clock::time_point deadline) override { inner_.set_run_deadline(deadline); }
  void finish() noexcept override { inner_.finish(); }

 private:
  Adapter& inner_;
  const ScriptPolicy& policy_;
  std::chrono::milliseconds linger_;
  bool lingered_ = false;
};

StepKey key_of(const TestGraph& g, const TraceStep& s) {
  return {s.kind, std::string(g.name(s.from)), s.kind == StepKind::reset ? std::string() : s.label};
}

}  // namespace

std::optional<Divergence> first_divergence(const TestGraph& g, const std::vector<StepKey>& recorded,
                                           const RunResult& replayed) {
  const std::size_t n = std::min(recorded.size(), replayed.trace.size());
  for (std::size_t i = 0; i < n; ++i) {
    StepKey k = key_of(g, replayed.trace[i]);
    if (!(k == recorded[i])) return Divergence{i + 1, describe(recorded[i]), describe(k)};
  }
  if (recorded.size() == replayed.trace.size()) return std::nullopt;
  if (recorded.size() > n) return Divergence{n + 1, describe(recorded[n]), ""};
  return Divergence{n + 1, "", describe(key_of(g, replayed.trace[n]))};
}

ReplayAttempt replay_once(const TestGraph& g, const ReplayTarget& target, Adapter& adapter, const ReplayOptions& o,
                          RunObserver* observer) {
  RunOptions ro = o.run;
  ro.keep_trace = true;
  if (target.step_budget && (ro.max_steps == 0 || ro.max_steps > *target.step_budget))
    ro.max_steps = *target.step_budget;  // as far as the recording goes
  const Runner runner(g, ro);
  ScriptPolicy policy(target.script);
  std::chrono::milliseconds linger{0};
  if (o.linger) {
    linger = *o.linger;
  } else if (target.failure.failed && !target.failure.silence) {
    const auto v = g.find_vertex(target.failure.vertex);
    if (v && g.is_active(*v)) linger = ro.timeout;
  }
  LingeringAdapter lingering(adapter, policy, linger);
  ReplayAttempt a;
  a.result = runner.run(policy, lingering, observer, o.seed);
  a.failure = failure_of(g, a.result);
  a.played = policy.played();
  a.stopped = policy.stopped();
  a.divergence = first_divergence(g, target.steps, a.result);
  a.same_verdict = a.result.verdict == target.verdict;
  a.same_failure = target.failure.failed ? same_failure(target.failure, a.failure, o.match) : a.same_verdict;
  return a;
}

ReplayResult replay(const TestGraph& g, const ReplayTarget& target, Adapter& adapter, const ReplayOptions& o) {
  if (o.attempts == 0) throw UsageError("attempts", "the number of attempts must be at least 1");
  z_for_confidence(o.confidence);  // checks the level before any attempt
  ReplayResult r;
  r.recorded = target.verdict;
  r.recorded_failure = target.failure;
  r.match = o.match;
  r.script_steps = target.script.size();
  r.stimuli = count_stimuli(target.script);
  std::uint32_t verdicts = 0, failures = 0;
  for (std::uint32_t i = 0; i < o.attempts; ++i) {
    ReplayAttempt a = replay_once(g, target, adapter, o);
    if (a.result.interrupted) {
      r.interrupted = true;
      break;
    }
    verdicts += a.same_verdict;
    failures += a.same_failure;
    r.diverged += a.divergence.has_value();
    r.attempts.push_back(std::move(a));
  }
  const auto done = static_cast<std::uint32_t>(r.attempts.size());
  r.verdict_rate = estimate_rate(verdicts, done, o.confidence);
  r.failure_rate = estimate_rate(failures, done, o.confidence);
  return r;
}

Verdict ReplayResult::outcome() const {
  if (verdict_rate.successes > 0) return recorded;
  Verdict worst = Verdict::pass;
  for (const ReplayAttempt& a : attempts)
    worst = combine(worst, a.result.verdict == Verdict::pass ? Verdict::inconclusive : a.result.verdict);
  return worst;
}

}  // namespace playtest
