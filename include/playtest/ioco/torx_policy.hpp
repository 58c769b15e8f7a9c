// The TorX test derivation algorithm with explicit probabilities (seed 004 §3) as an online
// policy: at every active vertex stop with p1, give a uniformly chosen input with p2, or take the
// "observe" edge with p3. Theorem 3.2: for n inputs per m outputs on the traces one wants,
// p2 = n/(n+m) (1-p1) and p3 = m/(n+m) (1-p1) maximize their probability.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "playtest/strategy/policy.hpp"
#include "playtest/strategy/strategy_row.hpp"

namespace playtest::ioco {

struct TorxOptions {
  double p_stop = 0.02;     // p1, choice 1: end the test (PASS)
  double p_input = 0.49;    // p2, choice 2: give an input, each input of the vertex equally likely
  double p_observe = 0.49;  // p3, choice 3: take the "observe" edge and wait for the next output
  // Stop for sure once the trace holds this many inputs and outputs (0: no bound). The paper's
  // experiment uses p1 = 0 below length 3 and p1 = 1 at length 3: {.p_stop = 0, .max_length = 3}.
  std::uint32_t max_length = 0;
};

// Throws UsageError (torx_p, max_length) unless the probabilities are in [0, 1] and sum to 1, and unless a
// run is sure to end on its own (p_stop > 0 or max_length > 0).
void validate(const TorxOptions& o);

// Theorem 3.2: p_input = n/(n+m) (1-p_stop), p_observe = m/(n+m) (1-p_stop).
TorxOptions torx_options_from_ratio(double n, double m, double p_stop = 0.0, std::uint32_t max_length = 0);

// Command-line forms, for `--torx-p STOP:INPUT:OBSERVE` and `--torx-ratio N:M`: "0.02:0.49:0.49"
// (must sum to 1) and "1:2". Throw playtest::Error with a message naming the option on bad text.
TorxOptions parse_torx_p(std::string_view text, std::uint32_t max_length = 0);
TorxOptions parse_torx_ratio(std::string_view text, double p_stop, std::uint32_t max_length = 0);

// Works on any TestGraph: at an active vertex the out-edges labelled "observe" are the observe
// choice, all others are inputs. A vertex with only one of the two kinds renormalizes the
// probabilities over what it has (and stop).
// The probabilities from what a user gave: --torx-p STOP:INPUT:OBSERVE, or --torx-ratio N:M with
// --torx-stop P1, and --max-length L (each nullopt/0 when not given). Defaults: p1 = 0.02, p2 = p3 =
// 0.49; with a length bound and no probabilities, the paper's experiment: p1 = 0, p2 = p3 = 0.5;
// --torx-stop alone: p2 = p3 = (1 - p1) / 2. Throws UsageError on a bad combination.
TorxOptions resolve_torx_options(std::optional<std::string_view> torx_p, std::optional<std::string_view> torx_ratio,
                                 std::optional<double> p_stop, std::uint32_t max_length);

class TorxPolicy : public Policy {
 public:
  explicit TorxPolicy(TorxOptions options = {});
  std::string_view name() const override;  // its row's (strategy_row.hpp)
  void begin_run(const RunView& view, Rng& rng) override;
  Decision choose(const RunView& view, Rng& rng) override;
  void observe(EdgeId taken, const RunView& view) override;
  // The length bound holds at passive vertices too: a run of max_length events observes no more.
  bool stop_at_passive(const RunView& view) override;

  const TorxOptions& options() const { return options_; }
  // Inputs and outputs (observe edges excluded) taken since the run began.
  std::uint32_t trace_length() const { return length_; }

 private:
  TorxOptions options_;
  std::uint32_t length_ = 0;
};

}  // namespace playtest::ioco

namespace playtest {

// TorX's random derivation (seed 004 §3) as a row of the strategy table (strategy/strategy_row.hpp),
// with the options --torx-p, --torx-ratio, --torx-stop and --max-length.
const StrategyRow& torx_strategy();

}  // namespace playtest
