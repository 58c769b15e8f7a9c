#include "playtest/diagnose/render.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <ostream>
#include <tuple>

#include "playtest/base/source_text.hpp"

namespace playtest {

namespace {

using json = nlohmann::json;

json number_or_null(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

std::string percent(double x) {
  if (x == 0 || x == 1) return fmt::format("{}%", x * 100);
  return fmt::format("{:.1f}%", x * 100);
}

std::string list_quoted(const std::vector<std::string>& xs) {
  std::string s;
  for (const auto& x : xs) s += (s.empty() ? "" : ", ") + x;
  return "{" + s + "}";
}

// "1 stimulus", "3 stimuli", "1 candidate", "2 candidates".
std::string count_of(std::size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

}  // namespace

std::string rate_text(const RateEstimate& r) {
  return fmt::format("{}/{} = {} ({:g}% interval {} to {})", r.successes, r.trials, percent(r.rate), r.confidence * 100,
                     percent(r.low), percent(r.high));
}

json rate_json(const RateEstimate& r) {
  return {{"successes", r.successes}, {"trials", r.trials},        {"rate", r.rate}, {"low", r.low},
          {"high", r.high},           {"confidence", r.confidence}};
}

std::string failure_text(const FailureSignature& f) {
  if (!f.failed) return "no failure";
  return fmt::format("FAIL at '{}': allowed {}, observed {}", f.vertex, list_quoted(f.allowed),
                     f.silence ? "silence" : "'" + f.observed + "'");
}

json failure_json(const FailureSignature& f) {
  if (!f.failed) return nullptr;
  return {{"vertex", f.vertex}, {"allowed", f.allowed}, {"observed", f.silence ? json(nullptr) : json(f.observed)}};
}

json script_json(const Script& s) {
  json a = json::array();
  for (const ScriptStep& x : s) {
    switch (x.kind) {
      case ScriptStep::Kind::stimulus:
        a.push_back({{"stimulus", x.label}});
        break;
      case ScriptStep::Kind::wait:
        a.push_back({{"wait", x.label}});
        break;
      case ScriptStep::Kind::reset:
        a.push_back({{"reset", true}});
        break;
    }
  }
  return a;
}

// --- replay ---------------------------------------------------------------------------------------

namespace {

std::string replay_text(const ReplayResult& r, const ReplayContext& c) {
  std::string out =
      fmt::format("replay of run {} of {} (recorded: {}; {}), {}\n", c.run, c.trace,
                  r.recorded == Verdict::fail ? failure_text(r.recorded_failure) : std::string(to_string(r.recorded)),
                  count_of(r.stimuli, "stimulus", "stimuli"), count_of(r.attempts.size(), "attempt", "attempts"));
  for (std::size_t i = 0; i < r.attempts.size(); ++i) {
    const ReplayAttempt& a = r.attempts[i];
    out += fmt::format("  attempt {}: {} after {} steps", i + 1, to_string(a.result.verdict), a.result.steps);
    if (r.recorded == Verdict::fail)
      out += a.same_failure     ? " (same failure)"
             : a.failure.failed ? fmt::format(" (another failure: {})", failure_text(a.failure))
                                : "";
    if (a.divergence)
      out += fmt::format("; diverged at step {}: recorded {}, replayed {}", a.divergence->step,
                         a.divergence->recorded.empty() ? "(end)" : a.divergence->recorded,
                         a.divergence->replayed.empty() ? "(end)" : a.divergence->replayed);
    if (!a.stopped.empty()) out += "; " + a.stopped;
    // An ERROR is about the adapter or its environment, not the system: say what broke.
    if (a.result.verdict == Verdict::error && !a.result.message.empty()) out += ": " + a.result.message;
    out += "\n";
  }
  if (r.interrupted) out += "interrupted: a stop request ended the replay; the rates count the attempts before it\n";
  out += fmt::format("{} came back: {}\n", to_string(r.recorded), rate_text(r.verdict_rate));
  if (r.recorded == Verdict::fail)
    out += fmt::format("same failure ({} match): {}\n", to_string(r.match), rate_text(r.failure_rate));
  out += fmt::format("diverged from the recording: {} of {}\n", r.diverged,
                     count_of(r.attempts.size(), "attempt", "attempts"));
  out += fmt::format("verdict: {}\n", to_string(r.outcome()));
  return out;
}

}  // namespace

void write_replay_text(std::ostream& out, const ReplayResult& r, const ReplayContext& c) {
  out << terminal_text(replay_text(r, c));
}

json replay_json(const ReplayResult& r, const ReplayContext& c) {
  json runs = json::array();
  for (const ReplayAttempt& a : r.attempts) {
    json d = nullptr;
    if (a.divergence)
      d = {{"step", a.divergence->step},
           {"recorded", a.divergence->recorded.empty() ? json(nullptr) : json(a.divergence->recorded)},
           {"replayed", a.divergence->replayed.empty() ? json(nullptr) : json(a.divergence->replayed)}};
    runs.push_back({{"verdict", std::string(to_string(a.result.verdict))},
                    {"message", a.result.message},
                    {"steps", a.result.steps},
                    {"played", a.played},
                    {"stopped", a.stopped.empty() ? json(nullptr) : json(a.stopped)},
                    {"divergence", std::move(d)},
                    {"same_verdict", a.same_verdict},
                    {"same_failure", a.same_failure},
                    {"failure", failure_json(a.failure)}});
  }
  return {
      {"trace", c.trace},
      {"run", c.run},
      {"model", c.model},
      {"recorded", {{"verdict", std::string(to_string(r.recorded))}, {"failure", failure_json(r.recorded_failure)}}},
      {"script_steps", r.script_steps},
      {"stimuli", r.stimuli},
      {"attempts", r.attempts.size()},
      {"match", std::string(to_string(r.match))},
      {"verdict_rate", rate_json(r.verdict_rate)},
      {"failure_rate", rate_json(r.failure_rate)},
      {"diverged", r.diverged},
      {"interrupted", r.interrupted},
      {"verdict", std::string(to_string(r.outcome()))},
      {"runs", std::move(runs)}};
}

// --- shrink ---------------------------------------------------------------------------------------

namespace {

std::string shrink_text(const ShrinkResult& r, const ShrinkContext& c) {
  std::string out =
      fmt::format("original: {} ({}) from {}, failed {}\n", count_of(count_stimuli(r.original), "stimulus", "stimuli"),
                  count_of(r.original.size(), "script step", "script steps"), c.trace, rate_text(r.original_rate));
  if (!r.reproduced) {
    out += r.interrupted    ? "interrupted before the failure came back: nothing shrunk\nverdict: INCONCLUSIVE\n"
           : r.budget_spent ? "the budget ran out before the failure came back: nothing shrunk\nverdict: INCONCLUSIVE\n"
                            : "the failure did not come back: nothing to shrink\nverdict: INCONCLUSIVE\n";
    return out;
  }
  if (r.interrupted) out += "interrupted: the search stopped at a stop request; below is the best script so far\n";
  out += fmt::format("searched: {} ({} the model cannot play, not run), {}, {:.1f} s{}\n",
                     count_of(r.candidates, "candidate", "candidates"), r.unplayable,
                     count_of(r.attempts, "run", "runs"), r.elapsed_ms / 1000.0,
                     r.budget_spent ? "; the budget ran out, so the result may not be minimal" : "");
  out +=
      fmt::format("minimal: {}: {}\n", count_of(count_stimuli(r.minimal), "stimulus", "stimuli"), describe(r.minimal));
  out += fmt::format("  fails {}{}; threshold {}\n", rate_text(r.minimal_rate),
                     r.minimal_measured ? ""
                     : r.interrupted    ? " in the search (not measured again: interrupted)"
                                        : " in the search (not measured again: the budget ran out)",
                     percent(r.threshold));
  if (r.witness) out += fmt::format("  {}\n", failure_text(r.witness->failure));
  if (!c.output.empty()) out += fmt::format("  trace written to {}\n", c.output);
  // The same form as run's replay lines: "replay: " and the command as the user can paste it.
  if (!c.replay_command.empty()) out += fmt::format("replay: {}\n", c.replay_command);
  out += fmt::format("verdict: {}\n", r.minimal_rate.successes > 0 ? "FAIL" : "INCONCLUSIVE");
  return out;
}

}  // namespace

void write_shrink_text(std::ostream& out, const ShrinkResult& r, const ShrinkContext& c) {
  out << terminal_text(shrink_text(r, c));
}

json shrink_json(const ShrinkResult& r, const ShrinkContext& c) {
  auto part = [](const Script& s, const RateEstimate& rate) {
    return json{{"stimuli", count_stimuli(s)},
                {"script_steps", s.size()},
                {"sequence", describe(s)},
                {"script", script_json(s)},
                {"failure_rate", rate_json(rate)}};
  };
  json j = {{"trace", c.trace},
            {"model", c.model},
            {"reproduced", r.reproduced},
            {"original", part(r.original, r.original_rate)},
            {"minimal", part(r.minimal, r.minimal_rate)},
            {"threshold", r.threshold},
            {"candidates", r.candidates},
            {"unplayable", r.unplayable},
            {"runs", r.attempts},
            {"budget_spent", r.budget_spent},
            {"minimal_measured", r.minimal_measured},
            {"interrupted", r.interrupted},
            {"elapsed_ms", r.elapsed_ms},
            {"failure", r.witness ? failure_json(r.witness->failure) : json(nullptr)},
            {"output", c.output.empty() ? json(nullptr) : json(c.output)},
            {"replay_command", c.replay_command.empty() ? json(nullptr) : json(c.replay_command)}};
  j["verdict"] = !r.reproduced || r.minimal_rate.successes == 0 ? "INCONCLUSIVE" : "FAIL";
  return j;
}

// --- learn ----------------------------------------------------------------------------------------

namespace {

// The order of the table: evidence against the model first (flagged vertices, smallest p-value
// first), then the other tested vertices by p-value, then the visited untested ones, then the
// never-visited ones; vertices with one outcome (nothing to learn there) are left out and counted,
// unless something unexpected happened there.
std::vector<const VertexEstimate*> learn_rows(const LearnResult& r, std::size_t& single) {
  std::vector<const VertexEstimate*> rows;
  single = 0;
  for (const VertexEstimate& v : r.vertices) {
    if (v.outcomes.size() <= 1 && v.unexpected.empty()) {
      ++single;
      continue;
    }
    rows.push_back(&v);
  }
  auto rank = [](const VertexEstimate* v) {
    const int group = v->flagged ? 0 : v->fit ? 1 : v->visits > 0 ? 2 : 3;
    return std::make_tuple(group, v->fit ? v->fit->p_value : 1.0, -static_cast<double>(v->visits));
  };
  std::stable_sort(rows.begin(), rows.end(),
                   [&](const VertexEstimate* a, const VertexEstimate* b) { return rank(a) < rank(b); });
  return rows;
}

std::string learn_text(const TestGraph& g, const LearnResult& r, const LearnContext& c) {
  const LearnOptions& o = r.options;
  std::string out =
      fmt::format("learned from {}, {}; prior: {}, worth {:g} visit{}; {:g}% credible intervals\n",
                  count_of(r.runs, "run", "runs"), count_of(r.observations, "observation", "observations"),
                  o.prior == PriorCenter::model ? "the model's probabilities" : "uniform", o.prior_weight,
                  o.prior_weight == 1 ? "" : "s", o.confidence * 100);
  std::size_t single = 0;
  const std::vector<const VertexEstimate*> rows = learn_rows(r, single);
  auto label_of = [&](EdgeId e) { return g.is_timeout(e) ? std::string("(timeout)") : std::string(g.label(e)); };
  // Columns as wide as the names shown (up to a limit: a longer vertex name gets a line of its own).
  constexpr std::size_t max_width = 40;
  std::size_t wv = 6, wl = 7;
  for (const VertexEstimate* v : rows) {
    if (g.name(v->vertex).size() <= max_width) wv = std::max(wv, g.name(v->vertex).size());
    for (const OutcomeEstimate& e : v->outcomes) wl = std::min(max_width, std::max(wl, label_of(e.edge).size()));
  }
  out += fmt::format("{:<{}} {:>7}  {:<{}} {:>6} {:>7} {:>8}  {}\n", "vertex", wv, "visits", "outcome", wl, "count",
                     "model", "learned", "interval");
  std::string unseen, flagged;
  for (const VertexEstimate* vp : rows) {
    const VertexEstimate& v = *vp;
    const std::string name(g.name(v.vertex));
    const bool own_line = name.size() > wv;
    if (own_line) out += name + "\n";
    bool first = true;
    for (const OutcomeEstimate& e : v.outcomes) {
      const std::string label = label_of(e.edge);
      out += fmt::format("{:<{}} {:>7}  {:<{}} {:>6} {:>7.3f} {:>8.3f}  [{:.3f}, {:.3f}]\n",
                         first && !own_line ? name : "", wv, first ? fmt::format("{}", v.visits) : "", label, wl,
                         e.count, e.declared, e.estimate, e.low, e.high);
      first = false;
      if (v.visits > 0 && e.count == 0)
        unseen +=
            fmt::format("  '{}' at '{}': the model says {:g}; never in {} visits has probability {:.3g} under it\n",
                        label, name, e.declared, v.visits, e.chance_unseen);
    }
    if (v.fit)
      out += fmt::format("{:<{}} {:>7}  fit: {} test, {} = {:.4g}, p = {:.4g}{}\n", "", wv, "",
                         to_string(v.fit->method), v.fit->method == FitMethod::g_test ? "G" : "X2", v.fit->statistic,
                         v.fit->p_value, v.flagged ? "  << contradicts the model" : "");
    if (v.flagged) flagged += fmt::format("  '{}': p = {:.3g} after {} visits\n", name, v.fit->p_value, v.visits);
    for (const auto& u : v.unexpected)
      out += fmt::format("{:<{}} {:>7}  unexpected {} {} time{} (failures, not counted)\n", "", wv, "",
                         u.label.empty() ? "silence" : "'" + u.label + "'", u.count, u.count == 1 ? "" : "s");
  }
  if (single > 0)
    out += fmt::format("({} passive vert{} with a single outcome not shown: nothing to learn there)\n", single,
                       single == 1 ? "ex" : "ices");
  if (!unseen.empty()) out += "allowed but never observed:\n" + unseen;
  out += fmt::format("goodness of fit at significance {:g}: {} of {} tested vertices contradict the model{}\n",
                     o.significance, r.flagged, r.tested, flagged.empty() ? "" : ":");
  out += flagged;
  if (!c.output.empty()) out += fmt::format("learned model written to {}\n", c.output);
  return out;
}

}  // namespace

void write_learn_text(std::ostream& out, const TestGraph& g, const LearnResult& r, const LearnContext& c) {
  out << terminal_text(learn_text(g, r, c));
}

json learn_json(const TestGraph& g, const LearnResult& r, const LearnContext& c) {
  const LearnOptions& o = r.options;
  json vs = json::array();
  for (const VertexEstimate& v : r.vertices) {
    json outcomes = json::array();
    json never = json::array();
    for (const OutcomeEstimate& e : v.outcomes) {
      json oj = {{"edge", std::string(g.name(e.edge))},
                 {"label", std::string(g.label(e.edge))},
                 {"to", std::string(g.name(g.target(e.edge)))},
                 {"timeout", g.is_timeout(e.edge)},
                 {"count", e.count},
                 {"declared", e.declared},
                 {"estimate", e.estimate},
                 {"low", e.low},
                 {"high", e.high}};
      outcomes.push_back(std::move(oj));
      if (v.visits > 0 && e.count == 0)
        never.push_back({{"edge", std::string(g.name(e.edge))},
                         {"label", std::string(g.label(e.edge))},
                         {"declared", e.declared},
                         {"chance_unseen", e.chance_unseen}});
    }
    json fit = nullptr;
    if (v.fit)
      fit = {{"method", std::string(to_string(v.fit->method))},
             {"statistic", v.fit->statistic},
             {"df", v.fit->df},
             {"p_value", v.fit->p_value},
             {"min_expected", v.fit->min_expected}};
    json unexpected = json::array();
    for (const auto& u : v.unexpected)
      unexpected.push_back({{"observed", u.label.empty() ? json(nullptr) : json(u.label)}, {"count", u.count}});
    vs.push_back({{"vertex", std::string(g.name(v.vertex))},
                  {"visits", v.visits},
                  {"outcomes", std::move(outcomes)},
                  {"never_observed", std::move(never)},
                  {"fit", std::move(fit)},
                  {"flagged", v.flagged},
                  {"unexpected", std::move(unexpected)}});
  }
  return {{"model", c.model},
          {"traces", c.traces},
          {"runs", r.runs},
          {"observations", r.observations},
          {"prior", {{"center", std::string(to_string(o.prior))}, {"weight", o.prior_weight}}},
          {"confidence", o.confidence},
          {"significance", o.significance},
          {"method", std::string(to_string(o.method))},
          {"visited", r.visited},
          {"tested", r.tested},
          {"flagged", r.flagged},
          {"vertices", std::move(vs)},
          {"output", c.output.empty() ? json(nullptr) : json(c.output)}};
}

// --- analyze --------------------------------------------------------------------------------------

namespace {

std::string purpose_title(const TestGraph& g, const PurposeAnalysis& p) {
  if (p.kind == PurposeAnalysis::Kind::goal) return fmt::format("goal '{}'", p.name);
  if (p.edges.size() == 1 && g.name(p.edges[0]) == p.name)
    return fmt::format("edge '{}' ({} -> {})", p.name, g.name(g.source(p.edges[0])), g.name(g.target(p.edges[0])));
  return fmt::format("label '{}' ({} edge{})", p.name, p.edges.size(), p.edges.size() == 1 ? "" : "s");
}

}  // namespace

namespace {

std::string analysis_text(const TestGraph& g, const Analysis& a, const std::string& model) {
  std::string out = fmt::format("analysis of {} from '{}'\n", model, g.name(a.start));
  if (g.is_resettable() && !a.purposes.empty())
    out += "(the purposes' numbers are for one run without resets; the model's resets allow further tries)\n";
  if (a.purposes.empty() && !a.coverage) out += "no purpose: the graph has no goal; name one with --goal or --edge\n";
  for (const PurposeAnalysis& p : a.purposes) {
    out += purpose_title(g, p) + ":";
    if (!p.reachable) {
      out += fmt::format(" unreachable from '{}' (no choices of tester and system lead there)\n", g.name(a.start));
      continue;
    }
    out += "\n";
    out += p.sure_win ? fmt::format("  sure win: yes, worst-case cost {:g}\n", p.worst_case_cost)
                      : "  sure win: no (the system can keep the tester from it)\n";
    out += fmt::format("  within {} moves: probability {:.6g}", p.bound, p.probability);
    if (p.probability > 0) out += fmt::format(" (worst-case cost of those plays {:g})", p.cost_at_bound);
    std::string levels;
    for (const auto& l : p.levels)
      levels += fmt::format("{}{}: {}", levels.empty() ? "" : ", ", percent(l.probability),
                            l.moves ? fmt::format("{} moves", *l.moves) : fmt::format("not within {}", p.bound));
    out += "\n  moves needed for " + levels + "\n";
    out += p.almost_sure ? fmt::format("  expected cost: {:.6g}{}\n", p.expected_cost,
                                       p.expected_exact       ? std::string(" (certified: the exact optimum)")
                                       : p.expected_certified ? std::string(" (certified)")
                                                              : " (NOT certified: " + p.expected_not_certified + ")")
                         : "  expected cost: infinite (no strategy reaches it with probability 1)\n";
  }
  if (a.coverage) {
    const CoverageAnalysis& c = *a.coverage;
    if (!c.impossible.empty()) {
      out += "coverage: impossible: " + c.impossible + "\n";
    } else {
      out += fmt::format("coverage: optimal tour of cost {:g} (lower bound {:g}), {} steps{}{}\n", c.tour_cost,
                         c.lower_bound, c.tour_steps, c.resets ? fmt::format(", {} resets", c.resets) : "",
                         c.exact_costs ? "" : " (costs rounded for the flow)");
      if (c.cyclic)
        out += "  no choice point on the tour: one round of the tour covers every edge\n";
      else if (!c.bound_computed)
        out += fmt::format("  {} segments: too many to compute Proposition 2's p\n", c.segments);
      else if (c.rounds)
        out += fmt::format(
            "  Proposition 2: n = {} segments, p = {:.6g}: every edge covered with probability >= {} "
            "after m = {} rounds ({} iterations of Cover)\n",
            c.segments, c.p, percent(c.target), *c.rounds, *c.iterations);
      else
        out += fmt::format("  Proposition 2: n = {} segments, p = 0: no guarantee\n", c.segments);
      for (const UncoverableEdge& u : c.uncoverable)
        out += "  uncoverable: " + describe_uncoverable(g, a.start, u) + "\n";
    }
  }
  return out;
}

}  // namespace

void write_analysis_text(std::ostream& out, const TestGraph& g, const Analysis& a, const std::string& model) {
  out << terminal_text(analysis_text(g, a, model));
}

json analysis_json(const TestGraph& g, const Analysis& a, const std::string& model) {
  json ps = json::array();
  for (const PurposeAnalysis& p : a.purposes) {
    json levels = json::array();
    for (const auto& l : p.levels)
      levels.push_back({{"probability", l.probability}, {"moves", l.moves ? json(*l.moves) : json(nullptr)}});
    json names = json::array();
    if (p.kind == PurposeAnalysis::Kind::goal)
      for (VertexId v : p.goals) names.push_back(std::string(g.name(v)));
    else
      for (EdgeId e : p.edges) names.push_back(std::string(g.name(e)));
    ps.push_back(
        {{"kind", p.kind == PurposeAnalysis::Kind::goal ? "goal" : "edges"},
         {"name", p.name},
         {p.kind == PurposeAnalysis::Kind::goal ? "vertices" : "edges", std::move(names)},
         {"reachable", p.reachable},
         {"sure_win", p.sure_win},
         {"worst_case_cost", number_or_null(p.worst_case_cost)},
         {"bound", p.bound},
         {"probability", p.probability},
         {"cost_at_bound", p.cost_at_bound},
         {"levels", std::move(levels)},
         {"almost_sure", p.almost_sure},
         {"expected_cost", number_or_null(p.expected_cost)},
         {"expected_certified", p.expected_certified},
         {"expected_exact", p.expected_exact},
         {"expected_error_bound", number_or_null(p.expected_error_bound < 0 ? std::numeric_limits<double>::infinity()
                                                                            : p.expected_error_bound)},
         {"probability_error_bound", p.probability_error_bound}});
  }
  json j = {{"model", model},
            {"start", std::string(g.name(a.start))},
            {"purposes", std::move(ps)},
            {"certified", a.certified}};
  if (a.coverage) {
    const CoverageAnalysis& c = *a.coverage;
    json unc = json::array();
    for (const UncoverableEdge& u : c.uncoverable)
      unc.push_back(
          {{"edge", std::string(g.name(u.edge))}, {"unreachable", u.unreachable}, {"cannot_return", u.cannot_return}});
    j["coverage"] = {{"impossible", c.impossible.empty() ? json(nullptr) : json(c.impossible)},
                     {"tour_cost", c.tour_cost},
                     {"lower_bound", c.lower_bound},
                     {"tour_steps", c.tour_steps},
                     {"resets", c.resets},
                     {"exact_costs", c.exact_costs},
                     {"segments", c.segments},
                     {"cyclic", c.cyclic},
                     {"p", c.bound_computed ? json(c.p) : json(nullptr)},
                     {"target", c.target},
                     {"rounds", c.rounds ? json(*c.rounds) : json(nullptr)},
                     {"iterations", c.iterations ? json(*c.iterations) : json(nullptr)},
                     {"formula", "1 - n (1 - p)^m after m n iterations of Cover"},
                     {"uncoverable", std::move(unc)}};
  } else {
    j["coverage"] = nullptr;
  }
  return j;
}

}  // namespace playtest
