#include "playtest/diagnose/shrink.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "playtest/base/error.hpp"

namespace playtest {

namespace {

class Shrinker {
 public:
  Shrinker(const TestGraph& g, const ReplayTarget& target, Adapter& adapter, const ShrinkOptions& o)
      : g_(g), target_(target), adapter_(adapter), o_(o), t0_(Clock::now()) {}

  ShrinkResult run() {
    r_.original = target_.script;
    const std::uint32_t k = o_.replay.attempts;
    // The original's rate: K full attempts (fewer when the budget ends first).
    Measure m = measure(target_.script, k);
    r_.original_rate = estimate_rate(m.failures, m.runs, o_.replay.confidence);
    r_.reproduced = m.failures > 0;
    r_.minimal_measured = true;
    if (!r_.reproduced) {
      r_.minimal = target_.script;
      r_.minimal_rate = r_.original_rate;
      return finish();
    }
    r_.threshold = o_.threshold > 0 ? o_.threshold : 0.5 * r_.original_rate.rate;
    need_ = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(std::ceil(r_.threshold * k - 1e-9)));
    Script best = cut(target_.script, m.played);
    kept_rate_ = r_.original_rate;
    witness_ = std::move(m.witness);
    ddmin(best);
    while (!out_of_budget() && remove_windows(best)) ddmin(best);
    r_.minimal = best;
    // The rate it was kept with (early-stopped attempts of the search), unless fresh attempts can
    // measure it again.
    r_.minimal_rate = kept_rate_;
    r_.minimal_measured = best == target_.script;
    if (best != target_.script && !out_of_budget()) {
      Measure final_m = measure(best, k);
      if (final_m.runs > 0) {
        r_.minimal_rate = estimate_rate(final_m.failures, final_m.runs, o_.replay.confidence);
        r_.minimal_measured = true;
      }
      if (final_m.witness) witness_ = std::move(final_m.witness);
    }
    r_.witness = std::move(witness_);
    return finish();
  }

 private:
  struct Measure {
    std::uint32_t failures = 0, runs = 0;
    std::size_t played = 0;  // the most script steps a failing attempt played
    std::optional<ReplayAttempt> witness;
  };

  bool stopped() const { return o_.replay.run.stop != nullptr && o_.replay.run.stop->requested(); }
  bool has_budget() const { return o_.budget.count() > 0; }
  bool out_of_budget() {
    if (has_budget() && Clock::now() >= t0_ + o_.budget) r_.budget_spent = true;
    if (stopped()) r_.interrupted = true;
    return r_.budget_spent || r_.interrupted;
  }

  // Up to `k` attempts; with `early`, stops as soon as the verdict on the threshold is certain.
  // The budget (ShrinkOptions::budget) holds inside an attempt too: each runs with the time that is
  // left as its time budget, and one the budget cut short (without the failure) is not counted.
  Measure measure(const Script& s, std::uint32_t k, bool early = false) {
    ReplayTarget t = target_;
    t.script = s;
    Measure m;
    ReplayOptions ro = o_.replay;
    for (std::uint32_t i = 0; i < k; ++i) {
      if (out_of_budget()) break;
      if (has_budget()) {
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(t0_ + o_.budget - Clock::now());
        const auto own = o_.replay.run.time_budget;
        ro.run.time_budget = own.count() > 0 ? std::min(own, left) : left;
      }
      ReplayAttempt a = replay_once(g_, t, adapter_, ro);
      if (a.result.interrupted) {
        r_.interrupted = true;
        break;
      }
      if (!a.same_failure && out_of_budget()) break;  // cut by the budget: not an attempt that passed
      ++m.runs;
      ++r_.attempts;
      if (a.same_failure) {
        ++m.failures;
        m.played = std::max(m.played, a.played);
        if (!m.witness) m.witness = std::move(a);
      }
      if (early && (m.failures >= need_ || m.failures + (k - m.runs) < need_)) break;
    }
    return m;
  }

  static Script cut(const Script& s, std::size_t n) { return Script(s.begin(), s.begin() + std::min(n, s.size())); }

  // Whether `c` still fails often enough; on success `c` is cut to the steps the failures used.
  bool fails(Script& c) {
    ++r_.candidates;
    auto known = tested_.find(c);
    if (known != tested_.end()) {
      if (known->second) kept_rate_ = kept_rates_.at(c);
      return known->second;
    }
    if (!is_playable(g_, c)) {
      ++r_.unplayable;
      tested_.emplace(c, false);
      return false;
    }
    Measure m = measure(c, o_.replay.attempts, true);
    const bool ok = m.failures >= need_ && !r_.interrupted;
    tested_.emplace(c, ok);
    if (ok) {
      kept_rate_ = estimate_rate(m.failures, m.runs, o_.replay.confidence);
      kept_rates_.emplace(c, kept_rate_);
      c = cut(c, m.played);
      witness_ = std::move(m.witness);
    }
    return ok;
  }

  // ddmin: split into n chunks; keep a chunk that fails alone, else a complement that fails; else
  // refine. Ends 1-minimal (n reaches the length) unless the budget runs out.
  void ddmin(Script& best) {
    Script empty;
    if (!best.empty() && fails(empty)) {
      best = empty;
      return;
    }
    std::size_t n = 2;
    while (best.size() >= 2 && !out_of_budget()) {
      const std::size_t len = best.size();
      n = std::min(n, len);
      auto bound = [&](std::size_t i) { return i * len / n; };
      bool reduced = false;
      for (std::size_t i = 0; i < n && !reduced && !out_of_budget(); ++i) {
        Script chunk(best.begin() + bound(i), best.begin() + bound(i + 1));
        if (fails(chunk)) {
          best = std::move(chunk);
          n = 2;
          reduced = true;
        }
      }
      for (std::size_t i = 0; i < n && !reduced && n > 2 && !out_of_budget(); ++i) {
        Script rest(best.begin(), best.begin() + bound(i));
        rest.insert(rest.end(), best.begin() + bound(i + 1), best.end());
        if (fails(rest)) {
          best = std::move(rest);
          n = std::max<std::size_t>(n - 1, 2);
          reduced = true;
        }
      }
      if (reduced) continue;
      if (n >= len) break;
      n = std::min(2 * n, len);
    }
  }

  // ddmin's result is 1-minimal, but where the model constrains the order a step may only go
  // together with others ("unlock lock" before "knock unlock ping": either alone leaves a script
  // the model cannot play). Removes the widest window of consecutive steps that keeps the failure.
  bool remove_windows(Script& best) {
    if (best.size() < 3) return false;
    for (std::size_t w = std::min<std::size_t>(best.size() - 1, max_window); w >= 2; --w)
      for (std::size_t i = 0; i + w <= best.size(); ++i) {
        if (out_of_budget()) return false;
        Script c(best.begin(), best.begin() + i);
        c.insert(c.end(), best.begin() + i + w, best.end());
        if (fails(c)) {
          best = std::move(c);
          return true;
        }
      }
    return false;
  }
  static constexpr std::size_t max_window = 16;

  ShrinkResult finish() {
    r_.elapsed_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0_).count();
    return std::move(r_);
  }

  const TestGraph& g_;
  const ReplayTarget& target_;
  Adapter& adapter_;
  const ShrinkOptions& o_;
  const Clock::time_point t0_;
  ShrinkResult r_;
  std::uint32_t need_ = 1;
  std::map<Script, bool, std::less<>> tested_;
  std::map<Script, RateEstimate, std::less<>> kept_rates_;
  RateEstimate kept_rate_;  // the rate of the best script so far, as measured when it was kept
  std::optional<ReplayAttempt> witness_;
};

}  // namespace

ShrinkResult shrink(const TestGraph& g, const ReplayTarget& target, Adapter& adapter, const ShrinkOptions& o) {
  if (!(o.threshold >= 0 && o.threshold <= 1))
    throw UsageError("threshold", fmt::format("the failure-rate threshold must lie in [0, 1], got {}", o.threshold));
  if (o.replay.attempts == 0) throw UsageError("attempts", "the number of attempts must be at least 1");
  if (target.verdict != Verdict::fail || !target.failure.failed)
    throw UsageError("verdict", fmt::format("only a failing run can be shrunk; this run's verdict is {}",
                                            to_string(target.verdict)));
  z_for_confidence(o.replay.confidence);
  return Shrinker(g, target, adapter, o).run();
}

}  // namespace playtest
