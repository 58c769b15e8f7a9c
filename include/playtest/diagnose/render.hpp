// The diagnosis results as a person reads them (text) and as programs read them (JSON), one
// rendering of each per command, so that the commands only parse options and print.
#pragma once

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "playtest/diagnose/analyze.hpp"
#include "playtest/diagnose/learn.hpp"
#include "playtest/diagnose/replay.hpp"
#include "playtest/diagnose/shrink.hpp"
#include "playtest/strategy/statistics.hpp"

namespace playtest {

// "7/10 = 70% (95% interval 39.7% to 89.2%)"
std::string rate_text(const RateEstimate& r);
nlohmann::json rate_json(const RateEstimate& r);
// "FAIL at 'last0': allowed {all_done}, observed silence"
std::string failure_text(const FailureSignature& f);
nlohmann::json failure_json(const FailureSignature& f);
nlohmann::json script_json(const Script& s);

struct ReplayContext {
  std::string trace, model;
  std::uint32_t run = 1;
};
void write_replay_text(std::ostream& out, const ReplayResult& r, const ReplayContext& c);
nlohmann::json replay_json(const ReplayResult& r, const ReplayContext& c);

struct ShrinkContext {
  std::string trace, model;
  std::string output;          // where the minimal trace was written ("" when not written)
  std::string replay_command;  // how to reproduce it
};
void write_shrink_text(std::ostream& out, const ShrinkResult& r, const ShrinkContext& c);
nlohmann::json shrink_json(const ShrinkResult& r, const ShrinkContext& c);

struct LearnContext {
  std::string model, output;
  std::vector<std::string> traces;
};
void write_learn_text(std::ostream& out, const TestGraph& g, const LearnResult& r, const LearnContext& c);
nlohmann::json learn_json(const TestGraph& g, const LearnResult& r, const LearnContext& c);

void write_analysis_text(std::ostream& out, const TestGraph& g, const Analysis& a, const std::string& model);
nlohmann::json analysis_json(const TestGraph& g, const Analysis& a, const std::string& model);

}  // namespace playtest
