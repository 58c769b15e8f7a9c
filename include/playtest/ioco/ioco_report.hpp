// What `playtest ioco check` and `playtest ioco torx-prob` compute (seed 004), as typed results
// with one text rendering for people and one JSON rendering for programs.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "playtest/ioco/ioco_check.hpp"
#include "playtest/ioco/lts.hpp"
#include "playtest/ioco/torx_analysis.hpp"
#include "playtest/ioco/torx_policy.hpp"

namespace playtest::ioco {

// impl ioco spec, with the names users gave the two systems (file names).
void write_ioco_text(std::ostream& out, const IocoResult& r, const std::string& spec_name,
                     const std::string& impl_name);
nlohmann::json ioco_json(const IocoResult& r, const std::string& spec_name, const std::string& impl_name);

struct TorxReportOptions {
  TorxOptions torx;
  std::vector<std::string> sequences;  // traces whose probability to compute (labels separated by spaces)
  bool list_fail_traces = false;       // needs torx.max_length > 0
  std::uint64_t simulate_runs = 0;     // 0: no simulation
  std::uint64_t seed = 0;
};

struct TorxReport {
  TorxReportOptions options;
  struct Sequence {
    std::vector<std::string> trace;  // canonical labels
    double probability = 0;          // Lemma 3.1
  };
  std::vector<Sequence> sequences;
  TorxOutcome exact;
  std::vector<LabelledTrace> fail_traces;  // when asked for
  double fail_traces_sum = 0;
  std::optional<TorxSimulation> simulation;
};

// Throws UsageError("fail_traces") when fail traces are asked for without a maximal length.
TorxReport analyze_torx(const Lts& spec, const Lts& impl, const TorxReportOptions& options);
void write_torx_text(std::ostream& out, const TorxReport& r);
nlohmann::json torx_json(const TorxReport& r);

}  // namespace playtest::ioco
