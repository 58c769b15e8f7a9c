#include "playtest/diagnose/script.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "diagnose/detail/located.hpp"
#include "playtest/base/error.hpp"

namespace playtest {

std::size_t count_stimuli(const Script& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](const ScriptStep& x) { return x.kind != ScriptStep::Kind::reset; }));
}

std::string describe(const Script& s) {
  std::string out;
  for (const ScriptStep& x : s) {
    if (!out.empty()) out += ' ';
    switch (x.kind) {
      case ScriptStep::Kind::stimulus:
        out += x.label;
        break;
      case ScriptStep::Kind::wait:
        out += "(wait)";
        break;
      case ScriptStep::Kind::reset:
        out += "[reset]";
        break;
    }
  }
  return out.empty() ? "(no stimulus)" : out;
}

std::string_view to_string(FailureMatch m) {
  switch (m) {
    case FailureMatch::verdict:
      return "verdict";
    case FailureMatch::symptom:
      return "symptom";
    case FailureMatch::vertex:
      return "vertex";
  }
  return "?";
}

FailureMatch parse_failure_match(std::string_view s) {
  for (FailureMatch m : {FailureMatch::verdict, FailureMatch::symptom, FailureMatch::vertex})
    if (to_string(m) == s) return m;
  throw UsageError("match", fmt::format("unknown failure match '{}'; expected verdict, symptom or vertex", s));
}

std::string describe(const StepKey& k) {
  switch (k.kind) {
    case StepKind::stimulus:
      return fmt::format("stimulus '{}' at '{}'", k.label, k.vertex);
    case StepKind::observation:
      return fmt::format("output '{}' at '{}'", k.label, k.vertex);
    case StepKind::timeout:
      return fmt::format("silence (timeout) at '{}'", k.vertex);
    case StepKind::reset:
      return fmt::format("reset at '{}'", k.vertex);
    case StepKind::unexpected:
      return fmt::format("unexpected output '{}' at '{}'", k.label, k.vertex);
    case StepKind::silence:
      return fmt::format("silence at '{}'", k.vertex);
    case StepKind::wait:
      return fmt::format("wait at '{}'", k.vertex);
  }
  return "?";
}

namespace {

std::vector<std::string> allowed_outputs(const TestGraph& g, VertexId v) {
  std::vector<std::string> out;
  if (g.is_passive(v))
    for (EdgeId e : g.out_edges(v))
      if (!g.is_timeout(e)) out.emplace_back(g.label(e));
  std::sort(out.begin(), out.end());
  return out;
}

EdgeId offered_stimulus(const GameGraph& g, VertexId v, std::string_view label) {
  if (!g.is_active(v)) return EdgeId::none();
  for (EdgeId e : g.out_edges(v))
    if (!g.is_observe(e) && g.label(e) == label) return e;
  return EdgeId::none();
}

void add_to_script(Script& s, StepKind kind, std::string_view label) {
  switch (kind) {
    case StepKind::stimulus:
      s.push_back({ScriptStep::Kind::stimulus, std::string(label)});
      break;
    case StepKind::wait:
      s.push_back({ScriptStep::Kind::wait, std::string(label)});
      break;
    case StepKind::reset:
      s.push_back({ScriptStep::Kind::reset, {}});
      break;
    default:
      break;
  }
}

}  // namespace

namespace {

// The runner's message for a run that ended on its step budget (runner.cpp: "step budget of N spent").
bool ended_on_step_budget(std::string_view message) { return message.starts_with("step budget of "); }

}  // namespace

ReplayTarget replay_target(const TestGraph& g, const RunRecord& run, const std::string& source) {
  ReplayTarget t;
  if (run.verdict && ended_on_step_budget(run.message)) t.step_budget = run.steps;
  // Every step checked against the model as report and learn check it.
  resolve_run(g, run);  // (located in run.source, the file `source` names)
  for (const StepRecord& s : run.trace) {
    add_to_script(t.script, s.kind, s.label);
    t.steps.push_back({s.kind, s.vertex, s.kind == StepKind::reset ? std::string() : s.label});
  }
  const bool failing_step = !run.trace.empty() && (run.trace.back().kind == StepKind::unexpected ||
                                                   run.trace.back().kind == StepKind::silence);
  if (!run.verdict && !failing_step)
    detail::throw_at<GraphError>(source, run.line,
                                 fmt::format("run {} of the trace has no \"end\" line and no failing step: the run "
                                             "was cut short, so there is no verdict to reproduce",
                                             run.run));
  t.verdict = failing_step ? Verdict::fail : *run.verdict;
  if (failing_step) {
    const StepRecord& last = run.trace.back();
    t.failure.failed = true;
    t.failure.vertex = last.vertex;
    t.failure.silence = last.kind == StepKind::silence;
    t.failure.observed = t.failure.silence ? std::string() : last.label;
    t.failure.allowed = allowed_outputs(g, *g.find_vertex(last.vertex));
  }
  return t;
}

FailureSignature failure_of(const TestGraph& g, const RunResult& r) {
  FailureSignature f;
  if (r.verdict != Verdict::fail) return f;
  f.failed = true;
  f.vertex = std::string(g.name(r.fail_vertex));
  f.observed = r.observed;
  f.silence = !r.trace.empty() ? r.trace.back().kind == StepKind::silence : r.observed.empty();
  f.allowed = allowed_outputs(g, r.fail_vertex);
  return f;
}

ReplayTarget replay_target(const TestGraph& g, const RunResult& r) {
  ReplayTarget t;
  if (ended_on_step_budget(r.message)) t.step_budget = r.steps;
  for (const TraceStep& s : r.trace) {
    add_to_script(t.script, s.kind, s.label);
    t.steps.push_back({s.kind, std::string(g.name(s.from)), s.kind == StepKind::reset ? std::string() : s.label});
  }
  t.verdict = r.verdict;
  t.failure = failure_of(g, r);
  return t;
}

bool same_failure(const FailureSignature& want, const FailureSignature& got, FailureMatch match) {
  if (!got.failed || !want.failed) return false;
  switch (match) {
    case FailureMatch::verdict:
      return true;
    case FailureMatch::symptom:
      return want.silence == got.silence && want.observed == got.observed && want.allowed == got.allowed;
    case FailureMatch::vertex:
      return want.silence == got.silence && want.observed == got.observed && want.vertex == got.vertex;
  }
  return false;
}

std::optional<std::size_t> first_unplayable(const TestGraph& g, const Script& s) {
  const std::uint32_t n = g.num_vertices();
  if (n == 0) return s.empty() ? std::nullopt : std::optional<std::size_t>(0);
  // `now` holds the active vertices where the tester may next be asked, after the system's choices.
  std::vector<std::uint32_t> seen(n, 0);
  std::uint32_t stamp = 0;
  std::vector<VertexId> now, stack;
  auto settle = [&](std::vector<VertexId> seeds) {
    ++stamp;
    now.clear();
    stack = std::move(seeds);
    while (!stack.empty()) {
      const VertexId v = stack.back();
      stack.pop_back();
      if (seen[v.index()] == stamp) continue;
      seen[v.index()] = stamp;
      if (g.is_passive(v)) {
        for (EdgeId e : g.out_edges(v)) stack.push_back(g.target(e));
      } else if (g.out_degree(v) == 0) {
        if (g.is_resettable()) stack.push_back(g.initial());  // the runner resets at a dead end
      } else {
        now.push_back(v);
      }
    }
  };
  settle({g.initial()});
  for (std::size_t i = 0; i < s.size(); ++i) {
    std::vector<VertexId> next;
    switch (s[i].kind) {
      case ScriptStep::Kind::reset:
        if (!g.is_resettable()) return i;
        next.push_back(g.initial());
        break;
      case ScriptStep::Kind::stimulus:
        for (VertexId v : now)
          if (EdgeId e = offered_stimulus(g, v, s[i].label); !e.is_none()) next.push_back(g.target(e));
        break;
      case ScriptStep::Kind::wait:
        for (VertexId v : now)
          if (EdgeId e = g.observe_edge(v); !e.is_none()) next.push_back(g.target(e));
        break;
    }
    if (next.empty()) return i;
    settle(std::move(next));
  }
  return std::nullopt;
}

void ScriptPolicy::begin_run(const RunView& view, Rng&) {
  if (view.step == 0) {
    pos_ = 0;
    stopped_.clear();
  } else if (pos_ < script_.size() && script_[pos_].kind == ScriptStep::Kind::reset) {
    ++pos_;  // the reset just made (asked for, or the runner's at a dead end) is the script's
  }
}

Decision ScriptPolicy::stop_unoffered(const RunView& view) {
  const ScriptStep& s = script_[pos_];
  switch (s.kind) {
    case ScriptStep::Kind::stimulus:
      stopped_ = fmt::format("the model does not offer the stimulus '{}' at vertex '{}' (step {} of the script)",
                             s.label, view.graph.vertex_name(view.current), pos_ + 1);
      break;
    case ScriptStep::Kind::wait:
      stopped_ = fmt::format("the model has no observe edge at vertex '{}' (step {} of the script)",
                             view.graph.vertex_name(view.current), pos_ + 1);
      break;
    case ScriptStep::Kind::reset:
      stopped_ = "the model has no reset";
      break;
  }
  return Decision::stop();
}

Decision ScriptPolicy::choose(const RunView& view, Rng&) {
  if (pos_ >= script_.size()) return Decision::stop();
  const ScriptStep& s = script_[pos_];
  switch (s.kind) {
    case ScriptStep::Kind::reset:
      if (!view.graph.is_resettable()) return stop_unoffered(view);
      return Decision::reset();  // begin_run, called after the reset, moves on
    case ScriptStep::Kind::stimulus:
      if (EdgeId e = offered_stimulus(view.graph, view.current, s.label); !e.is_none()) {
        ++pos_;
        return Decision::take(e);
      }
      return stop_unoffered(view);
    case ScriptStep::Kind::wait:
      if (EdgeId e = view.graph.observe_edge(view.current); !e.is_none()) {
        ++pos_;
        return Decision::take(e);
      }
      return stop_unoffered(view);
  }
  return Decision::stop();
}

}  // namespace playtest
