#include "playtest/campaign/campaign_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ostream>
#include <sstream>

#include "campaign/claim_json.hpp"
#include "playtest/base/source_text.hpp"
#include "playtest/campaign/trace_writer.hpp"
#include "playtest/graph/names.hpp"

namespace playtest {

namespace {

std::vector<EdgeId> edges_left(const Runner& runner, const RunResult& r) {
  std::vector<EdgeId> left;
  if (r.purpose_met || runner.options().purpose.kind != TestPurpose::Kind::cover) return left;
  const GameGraph& g = runner.graph();
  if (!g.is_explored()) {
    // The edges discovered by the end of the run (its counts end there).
    for (std::uint32_t i = 0; i < r.edge_visits.size(); ++i)
      if (r.edge_visits[i] == 0 && g.is_coverable(EdgeId{i})) left.push_back(EdgeId{i});
  } else if (runner.options().purpose.by_label) {
    // The purpose edges whose label the run never took (by any edge).
    std::vector<std::uint8_t> taken(g.num_labels(), 0);
    for (EdgeId e : g.edges())
      if (r.edge_visits[e.index()] != 0) taken[g.label_id(e).index()] = 1;
    const auto purpose = runner.purpose_edges();
    for (EdgeId e : g.edges())
      if ((purpose.empty() || purpose[e.index()]) && !taken[g.label_id(e).index()]) left.push_back(e);
  } else {
    const auto purpose = runner.purpose_edges();
    for (EdgeId e : g.edges())
      if ((purpose.empty() || purpose[e.index()]) && r.edge_visits[e.index()] == 0) left.push_back(e);
  }
  return left;
}

// The labels of `edges`, each once, in the order they first appear.
std::vector<std::string> labels_of(const GameGraph& g, const std::vector<EdgeId>& edges) {
  std::vector<std::string> out;
  for (EdgeId e : edges)
    if (std::find(out.begin(), out.end(), g.label(e)) == out.end()) out.emplace_back(g.label(e));
  return out;
}

nlohmann::json coverage_json(const Coverage& c) {
  return {{"edges_covered", c.edges_covered},
          {"edges_total", c.edges_total},
          {"labels_covered", c.labels_covered},
          {"labels_total", c.labels_total}};
}

// Stimuli the system refused in some run and accepted in none (no edge with that label was taken in
// any run): more likely a label the adapter does not know than a system that is not input-enabled
// (docs/adapter-protocol.md). With the number of refusals of each.
template <class G>
std::vector<std::pair<std::string, std::uint32_t>> never_accepted(const G& g, const CampaignResult& c) {
  std::vector<std::pair<std::string, std::uint32_t>> out;
  for (const RunResult& r : c.runs) {
    if (r.refused.empty()) continue;
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& x) { return x.first == r.refused; });
    if (it != out.end())
      ++it->second;
    else
      out.emplace_back(r.refused, 1);
  }
  std::erase_if(out, [&](const auto& x) {
    for (EdgeId e : g.edges())
      if (e.index() < c.edge_visits.size() && c.edge_visits[e.index()] > 0 && g.label(e) == x.first) return true;
    return false;
  });
  return out;
}

std::string quoted_list(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& a : items) s += (s.empty() ? "" : ", ") + a;
  return s;
}

}  // namespace

std::vector<EdgeId> purpose_edges_left(const Runner& runner, const RunResult& r) { return edges_left(runner, r); }

std::string replay_command(const RunOutputOptions& o, const RunResult& r) {
  if (!o.replay || r.interrupted || (r.verdict != Verdict::fail && r.verdict != Verdict::error)) return {};
  return o.replay(r.seed);
}

namespace {

void run_text(std::ostream& out, const Runner& runner, const RunResult& r, std::uint32_t run_index,
              const RunOutputOptions& o) {
  const GameGraph& g = runner.graph();
  out << fmt::format("run {} (seed {}): {} after {} steps, {} resets, {:.1f} ms: {}\n", r.run != 0 ? r.run : run_index,
                     r.seed, to_string(r.verdict), r.steps, r.resets, r.elapsed_ms, r.message);
  if ((r.verdict == Verdict::fail || r.verdict == Verdict::error) && !r.trace.empty())
    out << "trace (last steps):\n" << format_trace(g, r, o.trace_steps);
  if (r.verdict == Verdict::fail)
    out << fmt::format("at vertex '{}': allowed {{{}}}, observed {}\n", g.vertex_name(r.fail_vertex),
                       quoted_list(r.allowed), r.observed.empty() ? "silence" : "'" + r.observed + "'");
  if (r.verdict == Verdict::inconclusive) {
    const std::vector<EdgeId> left = edges_left(runner, r);
    if (!left.empty() && runner.options().purpose.by_label) {
      const std::vector<std::string> labels = labels_of(g, left);
      out << fmt::format("purpose labels left uncovered: {} of {}{}\n", labels.size(), runner.purpose_label_count(),
                         runner.purpose_needed() < runner.purpose_label_count()
                             ? fmt::format(" (the purpose needed {} covered)", runner.purpose_needed())
                             : "");
      for (std::size_t i = 0; i < labels.size() && i < o.purpose_listed; ++i) out << "  " << labels[i] << '\n';
      if (labels.size() > o.purpose_listed) out << fmt::format("  ... and {} more\n", labels.size() - o.purpose_listed);
    } else if (!left.empty()) {
      if (!runner.graph().is_explored())
        out << fmt::format(
            "edges left uncovered: {} of the {} discovered by then (explored on the fly: the model's total is "
            "unknown)\n",
            left.size(), r.coverage.edges_total);
      else
        out << fmt::format("purpose edges left uncovered: {} of {}{}\n", left.size(), runner.purpose_edge_count(),
                           runner.purpose_needed() < runner.purpose_edge_count()
                               ? fmt::format(" (the purpose needed {} covered)", runner.purpose_needed())
                               : "");
      for (std::size_t i = 0; i < left.size() && i < o.purpose_listed; ++i)
        out << "  "
            << fmt::format("{} --{}--> {}", g.vertex_name(g.source(left[i])), g.label(left[i]),
                           g.vertex_name(g.target(left[i])))
            << '\n';
      if (left.size() > o.purpose_listed) out << fmt::format("  ... and {} more\n", left.size() - o.purpose_listed);
    } else if (runner.options().purpose.kind == TestPurpose::Kind::reach && !r.purpose_met) {
      out << "purpose left unmet: no goal vertex was reached\n";
    }
  }
  if (const std::string replay = replay_command(o, r); !replay.empty()) out << "replay: " << replay << '\n';
}

// The runs that stopped because continuing was futile, their claims said once with the runs they
// concern; then the model's slack (strategy/claims.hpp): a finding about the model, PASS or not.
void claims_text(std::ostream& out, const Runner& runner, const CampaignResult& c, const RunOutputOptions& o) {
  const GameGraph& g = runner.graph();
  struct Stop {
    const OutcomeClaim* claim;
    std::vector<std::uint32_t> runs;
  };
  std::vector<Stop> stops;  // by outcome, the claim of the latest run (the most evidence)
  for (const RunResult& r : c.runs)
    for (const OutcomeClaim& claim : r.stopped_by) {
      auto it = std::find_if(stops.begin(), stops.end(), [&](const Stop& s) { return s.claim->outcome == claim.outcome; });
      if (it == stops.end()) {
        stops.push_back({&claim, {r.run}});
      } else {
        it->claim = &claim;
        it->runs.push_back(r.run);
      }
    }
  if (!stops.empty()) {
    out << fmt::format(
        "stopped early, because continuing was futile (what the purpose asked for lay only behind these outcomes, each "
        "ruled out above the floor --rare-rate {:g}):\n",
        runner.options().claims.rare_rate);
    for (const Stop& s : stops) {
      std::string runs;
      for (std::uint32_t r : s.runs) runs += (runs.empty() ? "" : ", ") + std::to_string(r);
      // A later run may have seen what an earlier one stopped waiting for: said, never hidden.
      const std::uint64_t seen = c.evidence ? c.evidence->count(s.claim->vertex, s.claim->outcome) : 0;
      out << fmt::format("  {} (run{} {}){}\n", describe_claim(g, *s.claim), s.runs.size() == 1 ? "" : "s", runs,
                         seen == 0 ? std::string()
                                   : fmt::format("; the campaign saw it {} time{} in all: that stop was premature", seen,
                                                 seen == 1 ? "" : "s"));
    }
  }
  if (c.slack.empty()) return;
  std::size_t at_vertex = 0;
  for (const OutcomeClaim& claim : c.slack) at_vertex += claim.kind == OutcomeClaim::Kind::never_at_vertex;
  out << fmt::format(
      "model slack: {} outcome{} the model allows {} never observed{} (a finding about the model, not a failure of "
      "the system: a model that allows more than the system does hides bugs behind outcomes that never come)\n",
      c.slack.size(), c.slack.size() == 1 ? "" : "s", c.slack.size() == 1 ? "was" : "were",
      at_vertex == c.slack.size() ? "" : fmt::format(" ({} of them only in some histories)", c.slack.size() - at_vertex));
  const std::vector<SlackSummary> summary = summarize_slack(g, c.slack);
  for (std::size_t i = 0; i < summary.size() && i < 5; ++i)
    if (summary[i].vertices > 1)
      out << fmt::format("  {} allowed at {} vertices, never observed in {} visits\n",
                         summary[i].label == "silence" ? "silence" : "'" + summary[i].label + "'", summary[i].vertices,
                         summary[i].visits);
  for (std::size_t i = 0; i < c.slack.size() && i < o.purpose_listed; ++i)
    out << "  " << describe_claim(g, c.slack[i]) << '\n';
  if (c.slack.size() > o.purpose_listed)
    out << fmt::format("  ... and {} more (--json lists every one)\n", c.slack.size() - o.purpose_listed);
}

void campaign_text(std::ostream& out, const Runner& runner, const CampaignResult& c, const RunOutputOptions& o) {
  if (o.per_run)
    for (std::size_t i = 0; i < c.runs.size(); ++i)
      run_text(out, runner, c.runs[i], static_cast<std::uint32_t>(i + 1), o);
  // Every run that failed, with the command that replays it, together at the end (with many runs
  // the per-run lines scroll away; with per_run off they are the only ones shown).
  std::vector<const RunResult*> failed;
  for (const RunResult& r : c.runs)
    if ((r.verdict == Verdict::fail || r.verdict == Verdict::error) && !r.interrupted) failed.push_back(&r);
  if (!failed.empty() && (c.runs.size() > 1 || !o.per_run)) {
    out << fmt::format("failed runs: {} of {}\n", failed.size(), c.runs.size());
    for (const RunResult* r : failed) {
      out << fmt::format("  run {} (seed {}): {}", r->run, r->seed, to_string(r->verdict));
      // An ERROR says nothing about the system under test: why it happened (the adapter died, the
      // server was down) is what the reader needs, with --quiet too.
      if (r->verdict == Verdict::error) out << " (" << r->message << ")";
      const std::string replay = replay_command(o, *r);
      out << (replay.empty() ? "" : ": " + replay) << '\n';
    }
  }
  if (!c.shard.is_whole())
    out << fmt::format("shard {}: {} of the campaign's {} runs\n", to_string(c.shard), c.runs_in_shard,
                       c.runs_requested);
  if (!runner.graph().is_explored() && !c.model_play.on_the_fly_reason.empty())
    out << fmt::format("the model was played on the fly: {}\n", c.model_play.on_the_fly_reason);
  std::string note;
  if (!runner.graph().is_explored())
    note = fmt::format(
        " of the explored part (the model was explored on the fly: {} vertices expanded; its "
        "totals are unknown)",
        runner.graph().num_expanded());
  out << fmt::format("coverage: {}/{} edges, {}/{} labels{}\n", c.coverage.edges_covered, c.coverage.edges_total,
                     c.coverage.labels_covered, c.coverage.labels_total, note);
  if (!o.default_purpose.empty() && std::any_of(c.runs.begin(), c.runs.end(), [](const RunResult& r) {
        // (A run stopped because continuing was futile says why itself: the budget was not the reason.)
        return r.verdict == Verdict::inconclusive && r.stopped_by.empty() && !r.interrupted;
      }))
    out << fmt::format(
        "note: INCONCLUSIVE means the default purpose ({}) was not met within the budget, not a failure; "
        "--purpose none is the smoke test (run the budget, PASS without a failure); --purpose cover:80% or labels "
        "ask for less\n",
        o.default_purpose);
  for (const auto& [label, times] : never_accepted(runner.graph(), c))
    out << fmt::format(
        "note: the system refused the stimulus '{}' every time it was sent ({} time{}) and never accepted it: does "
        "the adapter know it? (adapter and model disagree?)\n",
        label, times, times == 1 ? "" : "s");
  claims_text(out, runner, c, o);
  if (c.interrupted) {
    // Only the runs that ended count as done: a run the signal cut short has no verdict.
    const std::uint32_t cut = c.runs_not_completed();
    const auto finished = static_cast<std::uint32_t>(c.runs.size()) - cut;
    out << fmt::format("interrupted by {} after {} of {} runs",
                       c.signal != 0 ? signal_name(c.signal) : "a stop request", finished, c.runs_in_shard);
    if (cut != 0 || c.runs_not_started() != 0)
      out << fmt::format(" ({} stopped before {} ended, {} not started)", cut, cut == 1 ? "it" : "they",
                         c.runs_not_started());
    out << '\n';
  }
  if (c.stopped_by_errors != 0) {
    const auto errors = std::count_if(c.runs.begin(), c.runs.end(),
                                      [](const RunResult& r) { return r.verdict == Verdict::error && !r.interrupted; });
    out << fmt::format(
        "stopped at run {}: {} run{} ended ERROR, the limit (max-errors); {} run{} not started: is the system "
        "under test up?\n",
        c.stopped_by_errors, errors, errors == 1 ? "" : "s", c.runs_not_started(),
        c.runs_not_started() == 1 ? "" : "s");
  }
  if (c.failed_fast != 0)
    out << fmt::format("stopped at the first FAIL (run {}, fail-fast): {} run{} not completed, {} not started\n",
                       c.failed_fast, c.runs_not_completed(), c.runs_not_completed() == 1 ? "" : "s",
                       c.runs_not_started());
  out << fmt::format("verdict: {}\n", to_string(c.verdict));
}

nlohmann::json campaign_json_of(const Runner& runner, const CampaignResult& c, std::string_view strategy,
                                const RunOutputOptions& o) {
  const GameGraph& g = runner.graph();
  nlohmann::json j;
  j["verdict"] = std::string(to_string(c.verdict));
  j["strategy"] = std::string(strategy);
  j["seed"] = c.seed;
  j["coverage"] = coverage_json(c.coverage);
  if (!runner.graph().is_explored()) {
    // Coverage totals are those of the part discovered (model's totals unknown).
    j["on_the_fly"] = true;
    j["vertices_expanded"] = g.num_expanded();
  }
  if (c.model_play.model_program) {
    j["exploration"] = runner.graph().is_explored() ? "whole" : "on_the_fly";
    if (!runner.graph().is_explored()) j["on_the_fly_reason"] = c.model_play.on_the_fly_reason;
  }
  if (c.stopped_by_errors != 0) j["stopped_by_errors"] = c.stopped_by_errors;
  nlohmann::json visits = nlohmann::json::object();
  std::vector<std::string> labels;
  for (EdgeId e : g.edges()) {
    if (e.index() >= c.edge_visits.size() || c.edge_visits[e.index()] == 0) continue;
    visits[(g.edge_name(e))] = c.edge_visits[e.index()];
    labels.emplace_back(g.label(e));
  }
  std::sort(labels.begin(), labels.end());
  labels.erase(std::unique(labels.begin(), labels.end()), labels.end());
  j["edge_visits"] = std::move(visits);
  j["covered_labels"] = std::move(labels);
  if (const auto refused = never_accepted(g, c); !refused.empty()) {
    j["never_accepted"] = nlohmann::json::array();
    for (const auto& [label, times] : refused) j["never_accepted"].push_back(label);
  }
  j["interrupted"] = c.interrupted;
  j["runs_requested"] = c.runs_requested;
  j["runs_in_shard"] = c.runs_in_shard;
  if (!c.shard.is_whole()) j["shard"] = to_string(c.shard);
  if (c.interrupted) j["signal"] = c.signal != 0 ? nlohmann::json(signal_name(c.signal)) : nlohmann::json(nullptr);
  if (c.failed_fast != 0) j["failed_fast"] = c.failed_fast;
  if (c.fail_fast) j["fail_fast"] = true;
  if (!c.model_digest.empty()) j["model_digest"] = c.model_digest;
  if (!c.settings.empty()) j["settings"] = c.settings;
  j["model_slack"] = detail::claims_json(g, c.slack);
  j["runs_not_completed"] = c.runs_not_completed();
  j["runs_not_started"] = c.runs_not_started();
  j["runs"] = nlohmann::json::array();
  for (const RunResult& r : c.runs) {
    nlohmann::json jr = {{"run", r.run},
                         {"verdict", std::string(to_string(r.verdict))},
                         {"message", r.message},
                         {"seed", r.seed},
                         {"steps", r.steps},
                         {"resets", r.resets},
                         {"elapsed_ms", r.elapsed_ms},
                         {"purpose_met", r.purpose_met},
                         {"final_vertex", (g.vertex_name(r.final_vertex))},
                         {"coverage", coverage_json(r.coverage)}};
    if (r.interrupted) jr["interrupted"] = true;
    detail::add_stopped_by_json(jr, g, r);  // stopped: continuing was futile
    if (r.verdict == Verdict::fail)
      jr["failure"] = {{"vertex", (g.vertex_name(r.fail_vertex))},
                       {"allowed", r.allowed},
                       {"observed", r.observed.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.observed)}};
    if (r.verdict == Verdict::inconclusive) {
      const std::vector<EdgeId> left = edges_left(runner, r);
      if (!left.empty()) {
        nlohmann::json jl = nlohmann::json::array();
        for (EdgeId e : left)
          jl.push_back({{"edge", (g.edge_name(e))},
                        {"label", std::string(g.label(e))},
                        {"from", (g.vertex_name(g.source(e)))},
                        {"to", (g.vertex_name(g.target(e)))}});
        jr["purpose_left"] = std::move(jl);
      }
    }
    if (const std::string replay = replay_command(o, r); !replay.empty()) jr["replay"] = replay;
    j["runs"].push_back(std::move(jr));
  }
  return j;
}

}  // namespace

// The text outputs hold what the system under test sent (labels, messages): escaped for the
// terminal as the JSON, the trace and JUnit escape it.
void write_run_text(std::ostream& out, const Runner& runner, const RunResult& r, std::uint32_t run_index,
                    const RunOutputOptions& options) {
  std::ostringstream text;
  run_text(text, runner, r, run_index, options);
  out << terminal_text(text.str());
}
void write_campaign_text(std::ostream& out, const Runner& runner, const CampaignResult& c,
                         const RunOutputOptions& options) {
  std::ostringstream text;
  campaign_text(text, runner, c, options);
  out << terminal_text(text.str());
}
nlohmann::json campaign_json(const Runner& runner, const CampaignResult& c, std::string_view strategy,
                             const RunOutputOptions& options) {
  return campaign_json_of(runner, c, strategy, options);
}
}  // namespace playtest
