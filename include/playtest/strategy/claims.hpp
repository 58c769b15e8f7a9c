// What playtest says about the system under test, from what it showed (issue 31, docs/testing.md
// "Claims about the system"). Evidence (strategy/evidence.hpp) is what was observed; a claim is
// only what the evidence proves:
// - "never chose L at V": L was not observed at V in the evidence at all, and the claim says how
//   many visits it rests on, over how many histories, and the rate it rules out: after n visits
//   without L, a rate above 1 - (1 - c)^(1/n) is ruled out at confidence c (the one-sided
//   Clopper-Pearson bound for no success in n trials). The rate comes from the visits, never from
//   the model's declared probability.
// - "never chose L at V in the histories h1, h2 tried; seen 74 times after h3": where a learned
//   memory (strategy/history_model.hpp) explains V's choices, the histories in which L came and
//   those in which it never did. A claim about some histories is never reported as one about V.
//
// A run stops early only when continuing is futile (is_futile, check_futility): what the purpose
// still wants lies only behind outcomes never seen, each ruled out above the floor `rare_rate` at
// V and in every history of the last edges into V that the run can offer (each stimulus into V).
// Only strategies that re-plan stop so: they steer into the histories they have not tried, where a
// random walk only offers what chance brings (a walk that stopped on a rare outcome would cover
// less than the same walk going on).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "playtest/graph/game_graph.hpp"
#include "playtest/strategy/evidence.hpp"
#include "playtest/strategy/history_model.hpp"

namespace playtest {

struct ClaimOptions {
  double confidence = 0.999;  // of every rate a claim rules out
  // --rare-rate: outcomes whose rate is ruled out above this are futile to wait for (a run may stop
  // early for them). 1%: at 99.9% that takes 688 visits without the outcome.
  double rare_rate = 0.01;
  // The histories is_futile asks to have been offered: the last edges into the vertex, up to this
  // many (1: each stimulus into it). The strategies that may stop early (those that re-plan) steer
  // into the histories their learned model cannot tell apart yet on their own (the prior makes an
  // untried history look as the model says), so the stimulus is the history they cannot choose.
  std::uint32_t history_length = 1;
};

// The rate above which n visits without an outcome rule it out at `confidence`: 1 - (1 -
// confidence)^(1/n); 1 for no visit.
double rate_ruled_out(std::uint64_t visits, double confidence);
// The least n with rate_ruled_out(n, confidence) <= rate (UINT64_MAX for rate <= 0).
std::uint64_t visits_to_rule_out(double rate, double confidence);

struct HistoryVisits {
  std::vector<LabelId> history;  // the memory's state (HistoryModel::describe)
  std::uint64_t visits = 0;      // of the vertex in that history
  std::uint64_t count = 0;       // how often the outcome came there
};

struct OutcomeClaim {
  enum class Kind : std::uint8_t {
    never_at_vertex,     // not observed at the vertex in the evidence at all
    never_in_histories,  // observed at the vertex, but never in some histories a memory tells apart
  };
  Kind kind = Kind::never_at_vertex;
  VertexId vertex;
  EdgeId outcome;
  std::uint64_t visits = 0;        // the visits the claim rests on (without the outcome)
  std::uint32_t histories = 0;     // distinct histories among them
  double rate = 1;                 // a rate above this is ruled out ...
  double confidence = 0.999;       // ... at this confidence
  double declared_prob = 0;        // the model's probability of the outcome (for reference only)
  std::uint32_t edges_behind = 0;  // a run's stop: wanted edges left untestable behind it
  // A run's stop (check_futility): the claim is about the evidence the run knew when it stopped
  // (the runs before it and its own), worded so ("had not been seen ... when the run stopped").
  bool at_stop = false;
  // never_in_histories: the histories without it (count 0) and those with it; how often it came.
  std::vector<HistoryVisits> without, with;
  std::uint64_t seen = 0;
  std::string memory;  // never_in_histories: the memory's name
};

// The sentence that states a claim, the same in text, JSON, JUnit and the HTML report.
std::string describe_claim(const GameGraph& g, const OutcomeClaim& c);

// The model's slack: every outcome the model allows at a visited passive vertex and the evidence
// never shows there (never_at_vertex), and, at vertices a memory of `history` explains (may be
// null), each outcome seen only in some of the histories tried (never_in_histories; histories
// with fewer than `min_history_visits` visits are not claimed about). Vertex order, then out-edge
// order.
std::vector<OutcomeClaim> model_slack(const GameGraph& g, const Evidence& evidence, const HistoryModel* history,
                                      const ClaimOptions& o = {}, std::uint64_t min_history_visits = 3);

// The claims grouped by the outcome's label, for a summary line each ("silence allowed at 40
// vertices, never observed in 2 300 visits").
struct SlackSummary {
  std::string label;
  std::uint32_t vertices = 0;
  std::uint64_t visits = 0;
};
std::vector<SlackSummary> summarize_slack(const GameGraph& g, std::span<const OutcomeClaim> claims);

// Whether every history of the last edges into passive vertex v that the run can offer (paths of
// up to `length` (and evidence.max_context()) edges into v whose edges the run has all taken, and
// each stimulus into v from a vertex it has reached: the initial vertex or one with a taken in-edge
// by `edge_visits`) has been seen there at least `visits` times. On a graph explored on the fly:
// only v's own visits count.
bool every_history_offered(const GameGraph& g, const Evidence& evidence, VertexId v,
                           std::span<const std::uint32_t> edge_visits, std::uint64_t visits, std::uint32_t length = 1);

// Whether waiting for outcome e of v is futile: never observed at v, and ruled out above
// o.rare_rate at v and in every history every_history_offered asks for.
bool is_futile(const GameGraph& g, const Evidence& evidence, VertexId v, EdgeId e,
               std::span<const std::uint32_t> edge_visits, const ClaimOptions& o = {});

// Whether what the purpose still wants is left only behind futile outcomes: from `current` (and
// from the initial vertex when the graph can be reset) no wanted edge can be taken without first
// passing one. `wanted[e]`: edge e is still wanted; `futile[e]`: outcome e is futile (is_futile).
struct FutilityVerdict {
  bool only_futile_left = false;
  std::vector<OutcomeClaim> futile;  // the futile outcomes (with the wanted edges behind each)
  std::uint32_t untestable = 0;      // wanted edges no run can reach any more (the futile ones included)
};
FutilityVerdict check_futility(const GameGraph& g, const Evidence& evidence, VertexId current,
                               std::span<const std::uint8_t> futile, std::span<const std::uint8_t> wanted,
                               const ClaimOptions& o = {});

}  // namespace playtest
