#include "playtest/run/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "playtest/error.hpp"
#include "playtest/ioco/ioco_graph.hpp"

namespace playtest {

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::pass: return "PASS";
    case Verdict::fail: return "FAIL";
    case Verdict::inconclusive: return "INCONCLUSIVE";
    case Verdict::error: return "ERROR";
  }
  return "?";
}

Verdict combine(Verdict a, Verdict b) {
  auto rank = [](Verdict v) {
    switch (v) {
      case Verdict::fail: return 3;
      case Verdict::error: return 2;
      case Verdict::inconclusive: return 1;
      case Verdict::pass: return 0;
    }
    return 0;
  };
  return rank(a) >= rank(b) ? a : b;
}

std::string_view to_string(StepKind k) {
  switch (k) {
    case StepKind::stimulus: return "stimulus";
    case StepKind::observation: return "observation";
    case StepKind::timeout: return "timeout";
    case StepKind::reset: return "reset";
    case StepKind::unexpected: return "unexpected";
    case StepKind::silence: return "silence";
    case StepKind::wait: return "wait";
  }
  return "?";
}

Coverage coverage_of(const TestGraph& g, std::span<const std::uint32_t> edge_visits) {
  Coverage c;
  c.edges_total = g.num_edges();
  std::vector<std::uint8_t> used(g.num_labels(), 0), seen(g.num_labels(), 0);
  for (EdgeId e : g.edges()) {
    std::uint32_t l = g.label_id(e).value;
    used[l] = 1;
    if (e.index() < edge_visits.size() && edge_visits[e.index()] > 0) {
      ++c.edges_covered;
      seen[l] = 1;
    }
  }
  for (std::size_t l = 0; l < used.size(); ++l) {
    c.labels_total += used[l];
    c.labels_covered += seen[l];
  }
  return c;
}

void check_online_testable(const TestGraph& g) {
  std::vector<std::uint32_t> last_seen(g.num_labels(), ~0u);
  std::vector<EdgeId> first_edge(g.num_labels());
  for (VertexId v : g.vertices()) {
    for (EdgeId e : g.out_edges(v)) {
      std::string_view l = g.label(e);
      if (l.find_first_of("\r\n") != std::string_view::npos)
        throw GraphError(fmt::format("edge '{}' has a label with a line break; labels must fit on one line "
                                     "of the adapter protocol", g.name(e)));
      if (g.is_timeout(e)) continue;  // matched by silence, not by its label
      std::uint32_t id = g.label_id(e).value;
      if (last_seen[id] == v.value) {
        EdgeId other = first_edge[id];
        if (g.is_passive(v))
          throw GraphError(Diagnostic{
              {},
              fmt::format("passive vertex '{}' has two outputs labelled '{}' (edges '{}' and '{}'): an "
                          "observation could not tell which edge the system took, so the graph cannot "
                          "drive an online test",
                          g.name(v), l, g.name(other), g.name(e)),
              {"give the outputs of a passive vertex distinct labels"}});
        if (g.target(other) != g.target(e))
          throw GraphError(Diagnostic{
              {},
              fmt::format("active vertex '{}' has two stimuli labelled '{}' (edges '{}' and '{}') leading to "
                          "different vertices: the system under test sees only the label",
                          g.name(v), l, g.name(other), g.name(e)),
              {"give the stimuli of an active vertex distinct labels, or model the choice as a passive vertex"}});
      }
      last_seen[id] = v.value;
      first_edge[id] = e;
    }
  }
}

TestPurpose purpose_from_names(const TestGraph& g, TestPurpose::Kind kind, std::span<const std::string> goals,
                               std::span<const std::string> edges) {
  TestPurpose p;
  p.kind = kind;
  for (const std::string& name : goals) {
    auto v = g.find_vertex(name);
    if (!v) throw GraphError(Diagnostic{{}, fmt::format("no vertex '{}' in the graph (given as a goal)", name), {}});
    p.goals.push_back(*v);
  }
  for (const std::string& name : edges) {
    if (auto e = g.find_edge(name)) {
      p.edges.push_back(*e);
      continue;
    }
    std::size_t before = p.edges.size();
    for (EdgeId e : g.edges())
      if (g.label(e) == name) p.edges.push_back(e);
    if (p.edges.size() == before)
      throw GraphError(Diagnostic{{}, fmt::format("no edge with id or label '{}' in the graph (given as an edge to cover)", name), {}});
  }
  return p;
}

Runner::Runner(const TestGraph& g, RunOptions options) : g_(g), options_(std::move(options)) {
  if (g_.num_vertices() == 0) throw GraphError("the graph has no vertices");
  check_online_testable(g_);
  if (!options_.vertex_timeouts.empty() && options_.vertex_timeouts.size() != g_.num_vertices())
    throw std::invalid_argument("Runner: vertex_timeouts must be empty or have one entry per vertex");
  const TestPurpose& p = options_.purpose;
  if (p.kind == TestPurpose::Kind::reach) {
    goals_ = p.goals.empty() ? g_.goals() : p.goals;
    if (goals_.empty()) throw GraphError("the test purpose is to reach a goal, but the graph has no goal vertex");
    is_goal_.assign(g_.num_vertices(), 0);
    for (VertexId v : goals_) {
      if (v.index() >= g_.num_vertices()) throw std::invalid_argument("Runner: goal vertex out of range");
      is_goal_[v.index()] = 1;
    }
  } else if (p.kind == TestPurpose::Kind::cover) {
    if (!p.edges.empty()) {
      purpose_edges_.assign(g_.num_edges(), 0);
      for (EdgeId e : p.edges) {
        if (e.index() >= g_.num_edges()) throw std::invalid_argument("Runner: purpose edge out of range");
        purpose_edges_[e.index()] = 1;
      }
      purpose_edge_count_ = static_cast<std::uint32_t>(std::count(purpose_edges_.begin(), purpose_edges_.end(), 1));
    } else {
      purpose_edge_count_ = g_.num_edges();
    }
  }
}

namespace {

std::string allowed_list(const std::vector<std::string>& allowed) {
  if (allowed.empty()) return "nothing";
  std::string s;
  for (const auto& a : allowed) {
    if (!s.empty()) s += ", ";
    s += "'" + a + "'";
  }
  return s;
}

}  // namespace

RunResult Runner::run(Policy& policy, Adapter& adapter, RunObserver* observer,
                      std::optional<std::uint64_t> seed) const {
  using std::chrono::duration;
  const TestGraph& g = g_;
  const RunOptions& o = options_;
  RunResult r;
  r.seed = seed.value_or(o.seed);
  r.edge_visits.assign(g.num_edges(), 0);
  Rng rng(r.seed);
  const Clock::time_point t0 = Clock::now();
  const bool has_budget = o.time_budget.count() > 0;
  const Clock::time_point budget_end = t0 + o.time_budget;
  VertexId v = g.initial();
  std::uint32_t purpose_left = purpose_edge_count_;
  const bool cover = o.purpose.kind == TestPurpose::Kind::cover;
  const bool reach = o.purpose.kind == TestPurpose::Kind::reach;

  auto view = [&]() {
    return RunView{g, v, r.steps, std::span<const std::uint32_t>(r.edge_visits),
                   std::span<const std::uint8_t>(purpose_edges_)};
  };
  auto record = [&](StepKind kind, VertexId from, EdgeId e, VertexId to, std::string_view label) {
    if (!observer && !o.keep_trace) return;
    TraceStep s{r.steps, duration<double, std::milli>(Clock::now() - t0).count(), kind, from, e, to,
                std::string(label)};
    if (observer) observer->on_step(g, s);
    if (o.keep_trace) r.trace.push_back(std::move(s));
  };
  // Follows edge e (taken by either player) and tells the policy.
  auto follow = [&](EdgeId e, StepKind kind, std::string_view label) {
    ++r.steps;
    VertexId from = v;
    v = g.target(e);
    if (r.edge_visits[e.index()]++ == 0 && cover && (purpose_edges_.empty() || purpose_edges_[e.index()]))
      --purpose_left;
    record(kind, from, e, v, label);
    policy.observe(e, view());
  };
  auto purpose_met = [&]() {
    if (reach) return is_goal_[v.index()] != 0;
    if (cover) return purpose_left == 0;
    return false;
  };
  auto fail = [&](std::string observed, std::vector<std::string> allowed, std::string message, StepKind kind) {
    ++r.steps;
    record(kind, v, EdgeId::none(), v, observed);
    r.verdict = Verdict::fail;
    r.fail_vertex = v;
    r.observed = std::move(observed);
    r.allowed = std::move(allowed);
    r.message = std::move(message);
  };
  auto outputs_of = [&](VertexId u) {
    std::vector<std::string> out;
    for (EdgeId e : g.out_edges(u))
      if (!g.is_timeout(e)) out.emplace_back(g.label(e));
    return out;
  };
  auto end_without_failure = [&](std::string why) {
    r.verdict = o.purpose.kind == TestPurpose::Kind::none ? Verdict::pass : Verdict::inconclusive;
    r.message = std::move(why);
  };
  // An output at passive vertex v: follow its edge, or FAIL. Returns false on FAIL.
  auto judge_output = [&](std::string label) {
    EdgeId match = EdgeId::none();
    for (EdgeId e : g.out_edges(v))
      if (!g.is_timeout(e) && g.label(e) == label) match = e;
    if (match.is_none()) {
      auto allowed = outputs_of(v);
      std::string msg = fmt::format("at passive vertex '{}' the system produced '{}'; the model allows {}", g.name(v),
                                    label, allowed_list(allowed));
      fail(std::move(label), std::move(allowed), std::move(msg), StepKind::unexpected);
      return false;
    }
    follow(match, StepKind::observation, label);
    return true;
  };
  // The tester's "observe" choice of ioco graphs (docs/ioco.md): an edge labelled "observe" from an
  // active to a passive vertex is never sent to the system; the runner just waits.
  auto observe_edge_at = [&](VertexId u) {
    auto e = ioco::find_observe_edge(g, u);
    return e && g.is_passive(g.target(*e)) ? *e : EdgeId::none();
  };
  auto is_observe_edge = [&](EdgeId e) {
    return g.label(e) == ioco::observe_label && g.is_active(g.source(e)) && g.is_passive(g.target(e));
  };
  // An output that came while the model is at active vertex v, before the stimulus `before` (if
  // any) was accepted. With an observe edge the output came first: follow observe and judge it
  // there (the race, docs/ioco.md); without one no output is allowed at v: FAIL. False on FAIL.
  auto output_at_active = [&](std::string label, std::string_view before) {
    EdgeId obs = observe_edge_at(v);
    if (obs.is_none()) {
      std::string msg = fmt::format(
          "at active vertex '{}' (where the model waits for a stimulus and allows no output) the system produced "
          "'{}'{}",
          g.name(v), label,
          before.empty() ? std::string() : fmt::format(" before it accepted the stimulus '{}'", before));
      fail(std::move(label), {}, std::move(msg), StepKind::unexpected);
      return false;
    }
    follow(obs, StepKind::wait, g.label(obs));
    return judge_output(std::move(label));
  };

  bool done = false;
  try {
    adapter.start();
    policy.begin_run(view(), rng);
    while (!done) {
      if (purpose_met()) {
        r.verdict = Verdict::pass;
        r.purpose_met = true;
        r.message = reach ? fmt::format("reached goal '{}' in {} steps", g.name(v), r.steps)
                          : fmt::format("covered the purpose's edges in {} steps", r.steps);
        break;
      }
      if (o.max_steps != 0 && r.steps >= o.max_steps) {
        end_without_failure(fmt::format("step budget of {} spent", o.max_steps));
        break;
      }
      if (has_budget && Clock::now() >= budget_end) {
        end_without_failure(fmt::format("time budget of {} ms spent", o.time_budget.count()));
        break;
      }
      if (g.is_passive(v)) {
        if (policy.stop_at_passive(view())) {
          end_without_failure(fmt::format("policy '{}' stopped at vertex '{}' after {} steps", policy.name(),
                                          g.name(v), r.steps));
          break;
        }
        std::chrono::milliseconds t = o.timeout;
        if (!o.vertex_timeouts.empty() && o.vertex_timeouts[v.index()].count() > 0) t = o.vertex_timeouts[v.index()];
        Clock::time_point deadline = Clock::now() + t;
        bool cut_by_budget = false;
        if (has_budget && budget_end < deadline) {
          deadline = budget_end;
          cut_by_budget = true;
        }
        AdapterEvent ev = adapter.next_event(deadline);
        if (ev.kind == AdapterEvent::Kind::output) {
          if (!judge_output(std::move(ev.label))) break;
          continue;
        }
        if (ev.kind == AdapterEvent::Kind::refused)
          throw AdapterError(Diagnostic{{}, "the adapter sent 'refused' while no stimulus was pending", {}});
        if (ev.kind == AdapterEvent::Kind::none && cut_by_budget) {
          end_without_failure(fmt::format("time budget of {} ms spent", o.time_budget.count()));
          break;
        }
        // Silence: the timeout is an observation (seed 001 §1).
        EdgeId te = g.timeout_edge(v);
        if (te.is_none()) {
          auto allowed = outputs_of(v);
          std::string msg = fmt::format(
              "at passive vertex '{}' the system produced nothing {}; the model expects one of {} and has no timeout "
              "edge there",
              g.name(v), ev.kind == AdapterEvent::Kind::quiet ? "(the adapter declared quiescence)"
                                                              : fmt::format("within {} ms", t.count()),
              allowed_list(allowed));
          fail("", std::move(allowed), std::move(msg), StepKind::silence);
          break;
        }
        follow(te, StepKind::timeout, g.label(te));
        continue;
      }
      // Active vertex: an output that is already there is judged before anything is sent.
      AdapterEvent pending = adapter.next_event(Clock::now());
      if (pending.kind == AdapterEvent::Kind::output) {
        if (!output_at_active(std::move(pending.label), {})) break;
        continue;
      }
      Decision d;
      if (g.out_degree(v) == 0) {
        if (!(o.reset_on_dead_end && g.is_resettable())) {
          end_without_failure(fmt::format("dead end at vertex '{}' after {} steps", g.name(v), r.steps));
          break;
        }
        d = Decision::reset();
      } else {
        d = policy.choose(view(), rng);
      }
      switch (d.kind) {
        case Decision::Kind::take: {
          if (d.edge.index() >= g.num_edges() || g.source(d.edge) != v)
            throw std::logic_error(fmt::format("policy '{}' chose an edge that does not leave vertex '{}'",
                                               policy.name(), g.name(v)));
          if (is_observe_edge(d.edge)) {
            follow(d.edge, StepKind::wait, g.label(d.edge));
            break;
          }
          const std::string_view label = g.label(d.edge);
          AdapterEvent early = adapter.stimulate(label);
          if (early.kind == AdapterEvent::Kind::refused) {
            end_without_failure(fmt::format(
                "the system refused the stimulus '{}' at vertex '{}' (not input-enabled there: nothing can be "
                "judged after it) after {} steps",
                label, g.name(v), r.steps));
            done = true;
            break;
          }
          if (early.kind == AdapterEvent::Kind::output) {
            // The output came first (docs/ioco.md, the race): judge it, then apply the input where
            // the model now is, if the model offers it there.
            const std::string came = early.label;
            if (!output_at_active(std::move(early.label), label)) {
              done = true;
              break;
            }
            EdgeId input = EdgeId::none();
            if (g.is_active(v))
              for (EdgeId e : g.out_edges(v))
                if (g.label(e) == label && !is_observe_edge(e)) input = e;
            if (input.is_none()) {
              r.verdict = Verdict::inconclusive;
              r.message = fmt::format(
                  "the system produced '{}' before it accepted the stimulus '{}'; at vertex '{}', where that "
                  "output leads, the model does not offer '{}', so nothing more can be judged",
                  came, label, g.name(v), label);
              done = true;
              break;
            }
            follow(input, StepKind::stimulus, label);
            break;
          }
          follow(d.edge, StepKind::stimulus, label);
          break;
        }
        case Decision::Kind::reset: {
          if (!g.is_resettable())
            throw std::logic_error(fmt::format("policy '{}' asked for a reset, but the graph is not resettable",
                                               policy.name()));
          adapter.reset();
          ++r.steps;
          ++r.resets;
          VertexId from = v;
          v = g.initial();
          record(StepKind::reset, from, EdgeId::none(), v, "");
          policy.begin_run(view(), rng);
          break;
        }
        case Decision::Kind::stop:
          end_without_failure(fmt::format("policy '{}' stopped at vertex '{}' after {} steps", policy.name(),
                                          g.name(v), r.steps));
          done = true;
          break;
      }
    }
  } catch (const AdapterError& e) {
    r.verdict = Verdict::error;
    r.message = e.diagnostic().message;
  }
  adapter.finish();
  r.final_vertex = v;
  r.elapsed_ms = duration<double, std::milli>(Clock::now() - t0).count();
  r.coverage = coverage_of(g, r.edge_visits);
  if (observer) observer->on_end(g, r);
  return r;
}

}  // namespace playtest
