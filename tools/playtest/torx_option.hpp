// The TorX options of `ioco torx-prob` (seed 004 §3, docs/ioco.md; run and simulate take the same
// options from the torx row of the strategy table):
// --torx-p STOP:INPUT:OBSERVE, or --torx-ratio N:M with --torx-stop P1, and --max-length L.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "playtest/ioco/torx_policy.hpp"

namespace playtest::cli {

struct TorxCliOptions {
  std::string torx_p, torx_ratio;
  double p_stop = -1.0;  // < 0: not given
  std::uint32_t max_length = 0;
};

// Adds --torx-p, --torx-ratio, --torx-stop and --max-length to `sub`.
void add_torx_options(CLI::App* sub, TorxCliOptions& o);

// The probabilities the options give. Defaults: p1 = 0.02, p2 = p3 = 0.49; with --max-length and
// no probabilities, the paper's experiment: p1 = 0, p2 = p3 = 0.5; --torx-stop alone: p2 = p3 =
// (1 - p1) / 2. Throws Error on a bad combination.
ioco::TorxOptions resolve_torx_options(const TorxCliOptions& o);

}  // namespace playtest::cli
