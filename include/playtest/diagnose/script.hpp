// A test run as something to play again: the tester's side of it (the stimuli, the waits of ioco
// graphs, the resets) as a script, the steps the system answered with, and the failure it ended in.
// ScriptPolicy plays a script through the Runner; is_playable says whether the model can play one
// at all (some choices of the system let every stimulus be offered when its turn comes).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/campaign/trace_reader.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/strategy/policy.hpp"

namespace playtest {

struct ScriptStep {
  enum class Kind : std::uint8_t {
    stimulus,  // send `label` (the out-edge of the current active vertex with that label)
    wait,      // take the current vertex's observe edge (ioco graphs): send nothing, wait for output
    reset,     // reset the system under test
  };
  Kind kind = Kind::stimulus;
  std::string label;
  friend auto operator<=>(const ScriptStep&, const ScriptStep&) = default;
};
using Script = std::vector<ScriptStep>;

// Stimuli and waits in `s` (the tester's moves other than resets).
std::size_t count_stimuli(const Script& s);
// "submit submit shutdown" (resets as "[reset]", waits as "(wait)").
std::string describe(const Script& s);

// What a failing run ended in: the vertex, what came ("" for silence), what the model allows there.
struct FailureSignature {
  bool failed = false;  // the run's verdict is FAIL
  std::string vertex;
  bool silence = false;
  std::string observed;
  std::vector<std::string> allowed;  // sorted
};

// When a replayed failure counts as the same.
enum class FailureMatch : std::uint8_t {
  verdict,  // any FAIL
  symptom,  // the same observation ("" for silence) where the same outputs are allowed, at any vertex
  vertex,   // the same observation at the same vertex
};
std::string_view to_string(FailureMatch m);            // "verdict", "symptom", "vertex"
FailureMatch parse_failure_match(std::string_view s);  // UsageError("match") when unknown

// One step of a run by name, for comparing a replay with the recording.
struct StepKey {
  StepKind kind = StepKind::stimulus;
  std::string vertex, label;
  friend bool operator==(const StepKey&, const StepKey&) = default;
};
std::string describe(const StepKey& k);  // "observation 'done_a' at 'both0'"

// A recorded run made ready to be played again on a model.
struct ReplayTarget {
  Script script;
  Verdict verdict = Verdict::inconclusive;
  FailureSignature failure;
  std::vector<StepKey> steps;
  // The recorded run ended on its step budget after this many steps: a replay stops there too (the
  // recording says nothing about the steps after it, so none is a divergence).
  std::optional<std::uint64_t> step_budget;
};

// From a trace read back. Throws GraphError located at the trace line when a step names a vertex
// the model does not have, or a stimulus the model does not offer at that vertex (a trace of another
// model); and when the run has no "end" line and no failing step (nothing to reproduce).
ReplayTarget replay_target(const TestGraph& g, const RunRecord& run, const std::string& source);
// From a run just played (r.trace must be kept).
ReplayTarget replay_target(const TestGraph& g, const RunResult& r);

FailureSignature failure_of(const TestGraph& g, const RunResult& r);
// Whether run `r` ends in the failure `want` in the sense of `match` (false unless r FAILed).
bool same_failure(const FailureSignature& want, const FailureSignature& got, FailureMatch match);

// Whether the model can play `s` from its initial vertex: some choices of the system lead, before
// each stimulus (wait), to an active vertex offering it (an observe edge); resets need a resettable
// graph. Dead ends reset on their own, as the runner does. Returns the index of the first step no
// choice of the system makes playable, or nullopt when all are.
std::optional<std::size_t> first_unplayable(const TestGraph& g, const Script& s);
inline bool is_playable(const TestGraph& g, const Script& s) { return !first_unplayable(g, s); }

// Plays a script: at an active vertex the next stimulus (or wait, or reset); when the script is
// played out, or the model does not offer its next stimulus where the run now is (the system chose
// differently than when it was recorded), it stops. A reset the runner makes at a dead end consumes
// a reset of the script.
class ScriptPolicy final : public Policy {
 public:
  explicit ScriptPolicy(Script script) : script_(std::move(script)) {}
  std::string_view name() const override { return "replay"; }
  void begin_run(const RunView& view, Rng& rng) override;
  Decision choose(const RunView& view, Rng& rng) override;

  // Script steps played so far in this run.
  std::size_t played() const { return pos_; }
  bool finished() const { return pos_ == script_.size(); }
  // Why the script stopped before its end in this run, or "" ("stimulus 'x' is not offered at 'v'").
  const std::string& stopped() const { return stopped_; }

 private:
  Decision stop_unoffered(const RunView& view);
  Script script_;
  std::size_t pos_ = 0;
  std::string stopped_;
};

}  // namespace playtest
