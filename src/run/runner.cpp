#include "playtest/run/runner.hpp"

#include <fmt/format.h>
#include <poll.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <thread>

#include "playtest/base/error.hpp"
#include "playtest/base/numbers.hpp"
#include "playtest/explore/model_graph.hpp"
#include "playtest/graph/names.hpp"
#include "playtest/run/label_check.hpp"
#include "playtest/run/run_values.hpp"

namespace playtest {

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::pass:
      return "PASS";
    case Verdict::fail:
      return "FAIL";
    case Verdict::inconclusive:
      return "INCONCLUSIVE";
    case Verdict::error:
      return "ERROR";
  }
  return "?";
}

Verdict combine(Verdict a, Verdict b) {
  auto rank = [](Verdict v) {
    switch (v) {
      case Verdict::fail:
        return 3;
      case Verdict::error:
        return 2;
      case Verdict::inconclusive:
        return 1;
      case Verdict::pass:
        return 0;
    }
    return 0;
  };
  return rank(a) >= rank(b) ? a : b;
}

std::string_view to_string(StepKind k) {
  switch (k) {
    case StepKind::stimulus:
      return "stimulus";
    case StepKind::observation:
      return "observation";
    case StepKind::timeout:
      return "timeout";
    case StepKind::reset:
      return "reset";
    case StepKind::unexpected:
      return "unexpected";
    case StepKind::silence:
      return "silence";
    case StepKind::wait:
      return "wait";
  }
  return "?";
}

Coverage coverage_of(const GameGraph& g, std::span<const std::uint32_t> edge_visits) {
  Coverage c;
  c.edges_total = g.num_coverable_edges();
  std::vector<std::uint8_t> used(g.num_labels(), 0), seen(g.num_labels(), 0);
  for (EdgeId e : g.edges()) {
    if (!g.is_coverable(e)) continue;  // on the fly: the hidden vertex is not reached yet
    const std::uint32_t l = g.label_id(e).value;
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

std::vector<std::chrono::milliseconds> vertex_timeouts_from_specs(const TestGraph& g,
                                                                  std::span<const std::string> specs) {
  std::vector<std::chrono::milliseconds> out;
  if (specs.empty()) return out;
  out.assign(g.num_vertices(), std::chrono::milliseconds(0));
  for (const std::string& spec : specs) {
    const auto eq = spec.rfind('=');
    if (eq == std::string::npos) throw UsageError("vertex_timeout", fmt::format("'{}': expected VERTEX=MS", spec));
    const VertexId v = vertex_named(g, std::string_view(spec).substr(0, eq), "a vertex with its own timeout");
    const std::string_view ms = std::string_view(spec).substr(eq + 1);
    const auto value = read_integer<std::uint32_t>(ms);
    if (!value.ok())
      throw UsageError("vertex_timeout",
                       fmt::format("'{}': '{}' is not a number of milliseconds{}", spec, ms, why_not(value, ms)));
    out[v.index()] = std::chrono::milliseconds(value.value);
  }
  return out;
}

void check_online_testable(const TestGraph& g) {
  std::vector<std::uint32_t> last_seen(g.num_labels(), ~0u);
  std::vector<EdgeId> first_edge(g.num_labels());
  for (VertexId v : g.vertices()) {
    for (EdgeId e : g.out_edges(v)) {
      std::string_view l = g.label(e);
      if (l.find_first_of("\r\n") != std::string_view::npos)
        throw GraphError(
            fmt::format("edge '{}' has a label with a line break; labels must fit on one line "
                        "of the adapter protocol",
                        g.name(e)));
      if (g.is_timeout(e) || g.is_observe(e)) continue;  // matched by silence / never sent
      std::uint32_t id = g.label_id(e).value;
      if (last_seen[id] == v.value) {
        EdgeId other = first_edge[id];
        if (g.is_passive(v))
          throw GraphError(
              Diagnostic{{},
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

Runner::Runner(const GameGraph& g, RunOptions options) : g_(g), options_(std::move(options)) {
  const TestPurpose& p = options_.purpose;
  if (!g_.is_explored()) {
    // Checked vertex by vertex as the runs expand it (ModelGraph::expand).
    if (!p.goals.empty())
      throw UsageError("goals", "a model explored on the fly has no vertex ids yet: its goals are its final states");
    if (!p.edges.empty())
      throw UsageError("edges", "a model explored on the fly has no edge ids yet: its cover purpose is every edge");
    if (!options_.vertex_timeouts.empty())
      throw UsageError("vertex_timeout", "a model explored on the fly has no vertex ids yet");
    if (p.by_label || p.threshold < 1)
      throw UsageError("purpose",
                       "a share of the edges or the labels needs the model's totals, and a model explored on the fly "
                       "has none");
    return;
  } else {
    if (g_.num_vertices() == 0) throw GraphError("the graph has no vertices");
    check_online_testable(*g_.explored());
    if (!options_.vertex_timeouts.empty() && options_.vertex_timeouts.size() != g_.num_vertices())
      throw InternalError("Runner: vertex_timeouts must be empty or have one entry per vertex");
    if (const ValueContext* vc = options_.values.get();
        vc && vc->model && vc->model->values() && vc->model->values()->has_values() &&
        vc->states.size() != std::size_t{g_.num_vertices()} * vc->state_size)
      throw InternalError("Runner: RunOptions::values must hold the model state of every vertex");
    if (p.kind == TestPurpose::Kind::reach) {
      goals_ = p.goals.empty() ? g_.explored()->goals() : p.goals;
      if (goals_.empty()) throw GraphError("the test purpose is to reach a goal, but the graph has no goal vertex");
      is_goal_.assign(g_.num_vertices(), 0);
      for (VertexId v : goals_) {
        if (v.index() >= g_.num_vertices()) throw InternalError("Runner: goal vertex out of range");
        is_goal_[v.index()] = 1;
      }
    } else if (p.kind == TestPurpose::Kind::cover) {
      if (!p.edges.empty()) {
        purpose_edges_.assign(g_.num_edges(), 0);
        for (EdgeId e : p.edges) {
          if (e.index() >= g_.num_edges()) throw InternalError("Runner: purpose edge out of range");
          purpose_edges_[e.index()] = 1;
        }
        purpose_edge_count_ = static_cast<std::uint32_t>(std::count(purpose_edges_.begin(), purpose_edges_.end(), 1));
      } else {
        purpose_edge_count_ = g_.num_edges();
      }
      if (!(p.threshold > 0 && p.threshold <= 1))
        throw UsageError("purpose",
                         fmt::format("the cover threshold must be above 0 and at most 1, got {}", p.threshold));
      purpose_needed_ = playtest::purpose_needed(p.threshold, purpose_edge_count_);
      if (p.by_label) {
        purpose_labels_.assign(g_.num_labels(), 0);
        for (EdgeId e : g_.edges())
          if (purpose_edges_.empty() || purpose_edges_[e.index()]) purpose_labels_[g_.label_id(e).index()] = 1;
        purpose_label_count_ =
            static_cast<std::uint32_t>(std::count(purpose_labels_.begin(), purpose_labels_.end(), 1));
        purpose_needed_ = playtest::purpose_needed(p.threshold, purpose_label_count_);
      }
    }
  }
}

std::uint32_t Runner::purpose_edge_count() const {
  if (!g_.is_explored()) return options_.purpose.kind == TestPurpose::Kind::cover ? g_.num_coverable_edges() : 0;
  return purpose_edge_count_;
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

namespace {

// One test run, step by step (seed 001 §1's game loop): each member is one named part of the
// loop, so that the loop itself reads as the protocol does. On a graph explored on the fly
// (`on_the_fly_`) a vertex is expanded when the run arrives at it, the per-edge counts grow
// with the edges discovered, goals are the model's final states and the cover purpose is met when
// every discovered edge is covered (then no edge is left undiscovered: every covered edge's target
// was reached, hence expanded, so the reached part is closed under successors).
class RunSession {
 public:
  RunSession(const Runner& runner, const std::vector<std::uint8_t>& purpose_edges,
             const std::vector<std::uint8_t>& is_goal, std::uint32_t purpose_edge_count, Policy& policy,
             Adapter& adapter, RunObserver* observer, std::uint64_t seed, const Evidence* prior)
      : runner_(runner),
        g_(runner.graph()),
        on_the_fly_(!g_.is_explored()),
        o_(runner.options()),
        purpose_edges_(purpose_edges),
        is_goal_(is_goal),
        policy_(policy),
        adapter_(adapter),
        observer_(observer),
        rng_(seed),
        t0_(Clock::now()),
        budget_end_(t0_ + o_.time_budget),
        v_(g_.initial()),
        purpose_left_(purpose_edge_count),
        evidence_(std::make_shared<Evidence>(std::min(o_.evidence_context, Evidence::max_context_limit), prior)) {
    if (o_.values && o_.values->model && o_.values->model->values() && o_.values->model->values()->has_values())
      values_.emplace(*o_.values->model->values());
    r_.seed = seed;
    r_.edge_visits.assign(g_.num_edges(), 0);
    if (o_.purpose.by_label) labels_seen_.assign(g_.num_labels(), 0);
    arrived();
  }

  RunResult run() {
    try {
      // The budget holds while the adapter waits too (a slow "ready" or "ack"): BudgetSpent below.
      adapter_.set_run_deadline(has_budget() ? budget_end_ : Clock::time_point::max());
      adapter_.start();
      if (values_) values_->clear();
      policy_.begin_run(view(), rng_);
      while (!budget_or_purpose_ends_run()) {
        const Next next = g_.is_passive(v_) ? wait_for_output() : play_active();
        if (next == Next::stop) break;
      }
    } catch (const StopRequested&) {
      interrupted();
    } catch (const BudgetSpent& e) {
      // In the middle of a step: what the system would have done is unknown, so never a PASS.
      r_.verdict = Verdict::inconclusive;
      r_.message = fmt::format("time budget of {} ms spent after {} step{}: {}; {}", o_.time_budget.count(), r_.steps,
                               r_.steps == 1 ? "" : "s", e.diagnostic().message,
                               r_.steps == 0 ? "no step was taken, so nothing was tested" : "the step did not finish");
    } catch (const ModelError& e) {
      r_.verdict = Verdict::error;
      r_.model_error = e.diagnostic();
      r_.message = fmt::format("the model failed after {} step{} (nothing is claimed about the system under test): {}",
                               r_.steps, r_.steps == 1 ? "" : "s", format_diagnostic(e.diagnostic()));
    } catch (const AdapterError& e) {
      if (stop_requested()) {  // the adapter broke because playtest is being stopped
        interrupted();
      } else {
        r_.verdict = Verdict::error;
        r_.message = e.diagnostic().message;
      }
    }
    adapter_.finish();
    r_.final_vertex = v_;
    r_.elapsed_ms = ms_since_start();
    if (on_the_fly_) r_.edge_visits.resize(g_.num_edges(), 0);
    r_.coverage = coverage_of(g_, r_.edge_visits);
    // The run's own share (without the campaign's prior, which the campaign already has).
    auto own = std::make_shared<Evidence>(evidence_->max_context());
    own->merge_own(*evidence_);
    r_.evidence = std::move(own);
    if (observer_) observer_->on_end(g_, r_);
    return std::move(r_);
  }

 private:
  enum class Next { go_on, stop };

  bool has_budget() const { return o_.time_budget.count() > 0; }
  double ms_since_start() const { return std::chrono::duration<double, std::milli>(Clock::now() - t0_).count(); }
  RunView view() const {
    return RunView{g_,
                   v_,
                   r_.steps,
                   std::span<const std::uint32_t>(r_.edge_visits),
                   std::span<const std::uint8_t>(purpose_edges_),
                   evidence_.get()};
  }
  // The model is now at v_: on the fly, expand it and count its edges (its kind and out-edges are
  // asked for next, and the cover purpose needs its edges before it is judged).
  void arrived() {
    if (on_the_fly_) {
      (void)g_.out_edges(v_);  // expands v_
      if (r_.edge_visits.size() < g_.num_edges()) r_.edge_visits.resize(g_.num_edges(), 0);
    }
  }

  // --- ending the run ---------------------------------------------------------------------------
  bool purpose_met() const {
    if (on_the_fly_) {
      if (o_.purpose.kind == TestPurpose::Kind::reach) return g_.is_goal(v_);
      if (o_.purpose.kind == TestPurpose::Kind::cover) return covered_ == g_.num_coverable_edges();
    } else {
      if (o_.purpose.kind == TestPurpose::Kind::reach) return is_goal_[v_.index()] != 0;
      if (o_.purpose.kind == TestPurpose::Kind::cover)
        return o_.purpose.by_label ? labels_covered_ >= runner_.purpose_needed()
                                   : runner_.purpose_edge_count() - purpose_left_ >= runner_.purpose_needed();
    }
    return false;
  }
  // What a met cover purpose was, for the run's message.
  std::string covered_what() const {
    const TestPurpose& p = o_.purpose;
    if (p.by_label)
      return p.threshold < 1 ? fmt::format("{} of the purpose's {} labels ({:g}% asked for)", labels_covered_,
                                           runner_.purpose_label_count(), p.threshold * 100)
                             : "every label of the purpose";
    return p.threshold < 1 ? fmt::format("{} of the purpose's {} edges ({:g}% asked for)",
                                         runner_.purpose_edge_count() - purpose_left_, runner_.purpose_edge_count(),
                                         p.threshold * 100)
                           : "the purpose's edges";
  }
  bool stop_requested() const { return o_.stop != nullptr && o_.stop->requested(); }
  // Stopped from outside: ERROR, because the test did not finish and nothing can be said about the
  // system (docs/testing.md "Interrupted runs").
  void interrupted() {
    r_.verdict = Verdict::error;
    r_.interrupted = true;
    r_.signal = o_.stop->signal();
    r_.message = fmt::format(
        "interrupted by {} after {} step{}: the run did not finish, so there is no verdict on the "
        "system under test",
        r_.signal != 0 ? signal_name(r_.signal) : "a stop request", r_.steps, r_.steps == 1 ? "" : "s");
  }
  // PASS when the purpose is met; INCONCLUSIVE (PASS without a purpose, after at least one step)
  // when a budget is spent.
  bool budget_or_purpose_ends_run() {
    if (stop_requested()) {
      interrupted();
      return true;
    }
    if (purpose_met()) {
      r_.verdict = Verdict::pass;
      r_.purpose_met = true;
      r_.message = o_.purpose.kind == TestPurpose::Kind::reach
                       ? fmt::format("reached goal '{}' in {} steps", g_.vertex_name(v_), r_.steps)
                       : fmt::format("covered {} in {} steps", covered_what(), r_.steps);
      return true;
    }
    if (futility_check_due_ && only_futile_left()) return true;
    if (o_.max_steps != 0 && r_.steps >= o_.max_steps) {
      end_without_failure(fmt::format("step budget of {} spent{}", o_.max_steps, no_progress_note()));
      return true;
    }
    if (has_budget() && Clock::now() >= budget_end_) {
      end_without_failure(fmt::format("time budget of {} ms spent{}", o_.time_budget.count(), no_progress_note()));
      return true;
    }
    return false;
  }
  // A run whose budget ran out long after its last new edge says so (issue 36: a walk held in a
  // closed loop of the model said only "step budget of 1000 spent").
  std::string no_progress_note() const {
    constexpr std::uint64_t worth_saying = 100;
    const std::uint64_t since = r_.steps - last_new_edge_step_;
    if (since < worth_saying) return {};
    return fmt::format(
        "; no new edge in the last {} steps{}", since,
        g_.is_resettable() ? std::string() : " (the model has no reset: a walk that enters a closed part stays there)");
  }
  // Without a purpose a run that ends without a failure passes, but only when it tested something:
  // a run that took no step (its time budget spent while the adapter started, its first stimulus
  // refused) is INCONCLUSIVE, never a PASS.
  Next end_without_failure(std::string why) {
    r_.verdict = Verdict::inconclusive;
    r_.message = std::move(why);
    if (o_.purpose.kind == TestPurpose::Kind::none) {
      if (r_.steps > 0)
        r_.verdict = Verdict::pass;
      else
        r_.message += "; no step was taken, so nothing was tested";
    }
    return Next::stop;
  }
  Next fail(std::string observed, std::vector<std::string> allowed, std::string message, StepKind kind) {
    ++r_.steps;
    record(kind, v_, EdgeId::none(), v_, observed);
    r_.verdict = Verdict::fail;
    r_.fail_vertex = v_;
    r_.observed = std::move(observed);
    r_.allowed = std::move(allowed);
    r_.message = std::move(message);
    return Next::stop;
  }

  // --- moving on the model ----------------------------------------------------------------------
  void record(StepKind kind, VertexId from, EdgeId e, VertexId to, std::string_view label,
              std::string_view concrete = {}) {
    if (!observer_ && !o_.keep_trace) return;
    TraceStep s{r_.steps,
                ms_since_start(),
                kind,
                from,
                e,
                to,
                std::string(label),
                concrete == label ? std::string() : std::string(concrete)};
    if (observer_) observer_->on_step(g_, s);
    if (o_.keep_trace) r_.trace.push_back(std::move(s));
  }
  // Follows edge e (taken by either player) and tells the policy. `concrete`: the label with the
  // values the system saw or gave, when the model's labels hold values.
  void follow(EdgeId e, StepKind kind, std::string_view label, std::string_view concrete = {}) {
    ++r_.steps;
    const VertexId from = v_;
    if (kind == StepKind::stimulus) {
      last_stimulus_ = concrete.empty() ? label : concrete;
      last_stimulus_step_ = r_.steps;
    }
    if (kind == StepKind::observation || kind == StepKind::timeout) learn(from, e);
    remember(e);
    v_ = g_.target(e);
    if (r_.edge_visits[e.index()] == 0) last_new_edge_step_ = r_.steps;
    if (on_the_fly_) {
      if (r_.edge_visits[e.index()]++ == 0) ++covered_;
      record(kind, from, e, v_, label, concrete);  // before expanding the target: the step happened even if that fails
      arrived();
    } else {
      if (r_.edge_visits[e.index()]++ == 0 && o_.purpose.kind == TestPurpose::Kind::cover &&
          (purpose_edges_.empty() || purpose_edges_[e.index()])) {
        --purpose_left_;
        if (o_.purpose.by_label && labels_seen_[g_.label_id(e).index()] == 0) {
          labels_seen_[g_.label_id(e).index()] = 1;
          ++labels_covered_;
        }
        if (any_futile_) futility_check_due_ = true;  // what is left changed
      }
      record(kind, from, e, v_, label, concrete);
    }
    policy_.observe(e, view());
  }
  std::vector<std::string> outputs_of(VertexId u) const {
    std::vector<std::string> out;
    for (EdgeId e : g_.out_edges(u))
      if (!g_.is_timeout(e)) out.emplace_back(g_.label(e));
    return out;
  }

  // --- judging the system's outputs -------------------------------------------------------------
  // An output at passive vertex v: follow its edge, or FAIL.
  Next judge_output(std::string label) {
    if (values_) return judge_output_by_value(std::move(label));
    EdgeId match = EdgeId::none();
    for (EdgeId e : g_.out_edges(v_))
      if (!g_.is_timeout(e) && g_.label(e) == label) match = e;
    if (match.is_none()) return unexpected_output(std::move(label), {});
    follow(match, StepKind::observation, label);
    return Next::go_on;
  }
  // The same when the labels hold values (run/run_values.hpp): a value outside its type or a
  // run-time guard is a FAIL that names them.
  Next judge_output_by_value(std::string label) {
    std::vector<EdgeId> edges;
    std::vector<std::string_view> labels;
    for (EdgeId e : g_.out_edges(v_))
      if (!g_.is_timeout(e)) edges.push_back(e), labels.push_back(g_.label(e));
    const RunValues::OutputMatch m = values_->match_output(state_of(v_), labels, label);
    if (!m.candidate) return unexpected_output(std::move(label), m.broken);
    const EdgeId e = edges[*m.candidate];
    follow(e, StepKind::observation, g_.label(e), label);
    return Next::go_on;
  }
  // An output the model does not allow at passive vertex v: FAIL, saying why when a value broke a
  // type or guard, or when the label is no label of the model at all.
  Next unexpected_output(std::string label, std::string_view broken) {
    auto allowed = outputs_of(v_);
    std::string msg = fmt::format("at passive vertex '{}' the system produced '{}'", g_.vertex_name(v_), label);
    if (!broken.empty())
      msg += fmt::format(": {}; the model allows {}", broken, allowed_list(allowed));
    else if (const auto note = foreign_note(label))
      msg += fmt::format("; {}; the model allows {} here", *note, allowed_list(allowed));
    else if (const auto where = where_enabled(label))
      msg += fmt::format("; the model allows {} here; {}", allowed_list(allowed), *where);
    else
      msg += fmt::format("; the model allows {}", allowed_list(allowed));
    msg += late_note();
    return fail(std::move(label), std::move(allowed), std::move(msg), StepKind::unexpected);
  }
  // (label_check.hpp) Whether `label` is no label of the model at all.
  std::optional<std::string> foreign_note(std::string_view label) const {
    std::vector<std::string_view> known;
    known.reserve(g_.num_labels());
    for (std::uint32_t l = 0; l < g_.num_labels(); ++l) known.push_back(g_.label_name(LabelId{l}));
    const ModelValues* mv = o_.values ? o_.values->model->values() : nullptr;
    std::vector<std::string_view> outputs;  // the nearest are sought among the outputs
    if (on_the_fly_) {
      if (!mv) mv = static_cast<const ModelGraph&>(g_).model().values();
    } else {
      std::vector<std::uint8_t> seen(g_.num_labels(), 0);
      for (EdgeId e : g_.edges())
        if (g_.is_passive(g_.source(e)) && !g_.is_timeout(e) && !seen[g_.label_id(e).value]++)
          outputs.push_back(g_.label(e));
    }
    return foreign_label_note(label, known, !on_the_fly_, mv, outputs);
  }
  // For a label of the model (not foreign_note's) that is not allowed here: where the model allows
  // it, or that no reachable state does (a model program's action instance that exploration never
  // enabled). Not when labels hold values (the graph's labels are then patterns) or on the fly.
  std::optional<std::string> where_enabled(std::string_view label) const {
    if (values_ || on_the_fly_) return std::nullopt;
    std::vector<VertexId> at;
    for (EdgeId e : g_.edges())
      if (!g_.is_timeout(e) && !g_.is_observe(e) && g_.label(e) == label && (at.empty() || at.back() != g_.source(e)))
        at.push_back(g_.source(e));
    std::sort(at.begin(), at.end(), [](VertexId a, VertexId b) { return a.value < b.value; });
    at.erase(std::unique(at.begin(), at.end()), at.end());
    if (at.empty()) {
      const ModelValues* mv = o_.values && o_.values->model ? o_.values->model->values() : nullptr;
      if (!mv) return std::nullopt;  // a graph: foreign_note has said it is no label of it
      return fmt::format("'{}' is a label of the model, but no reachable state enables it (the model never allows it)",
                         label);
    }
    constexpr std::size_t shown = 3;
    std::string list;
    for (std::size_t i = 0; i < at.size() && i < shown; ++i)
      list += (i == 0 ? "'" : ", '") + std::string(g_.vertex_name(at[i])) + "'";
    if (at.size() > shown) list += fmt::format(" and {} more", at.size() - shown);
    return fmt::format("the model allows '{}' only at {} {}", label, at.size() == 1 ? "vertex" : "vertices", list);
  }
  // The model state of vertex v (for values).
  std::span<const std::byte> state_of(VertexId v) const {
    if (on_the_fly_) return static_cast<const ModelGraph&>(g_).state(v);
    return o_.values->state(v.value);
  }
  // An output that came while the model is at active vertex v, before the stimulus `before` (if
  // any) was accepted. With an observe edge (ioco graphs, docs/ioco.md: never sent, the tester
  // waits) the output came first: follow it and judge the output there (the race); without one no
  // output is allowed at v: FAIL.
  Next output_at_active(std::string label, std::string_view before) {
    const EdgeId obs = g_.observe_edge(v_);
    if (obs.is_none()) {
      std::string msg = fmt::format(
          "at active vertex '{}' (where the model waits for a stimulus and allows no output) the system produced "
          "'{}'{}",
          g_.vertex_name(v_), label,
          before.empty() ? std::string() : fmt::format(" before it accepted the stimulus '{}'", before));
      if (const auto note = foreign_note(label))
        msg += "; " + *note;
      else if (const auto where = where_enabled(label))
        msg += "; " + *where;
      msg += late_note();
      return fail(std::move(label), {}, std::move(msg), StepKind::unexpected);
    }
    follow(obs, StepKind::wait, g_.label(obs));
    return judge_output(std::move(label));
  }

  // --- the system's move: a passive vertex ------------------------------------------------------
  Next wait_for_output() {
    if (policy_.stop_at_passive(view())) {
      const std::string why = policy_.stop_reason();
      return end_without_failure(fmt::format("policy '{}' stopped at vertex '{}' after {} steps{}", policy_.name(),
                                             g_.vertex_name(v_), r_.steps, why.empty() ? "" : ": " + why));
    }
    const std::chrono::milliseconds t = wait_at(v_);
    Clock::time_point deadline = Clock::now() + t;
    bool cut_by_budget = false;
    if (has_budget() && budget_end_ < deadline) {
      deadline = budget_end_;
      cut_by_budget = true;
    }
    AdapterEvent ev = adapter_.next_event(deadline);
    if (ev.kind == AdapterEvent::Kind::output) return judge_output(std::move(ev.label));
    if (ev.kind == AdapterEvent::Kind::refused)
      throw AdapterError(Diagnostic{{}, "the adapter sent 'refused' while no stimulus was pending", {}});
    if (ev.kind == AdapterEvent::Kind::none && cut_by_budget)
      return end_without_failure(fmt::format("time budget of {} ms spent", o_.time_budget.count()));
    return silence(ev.kind, t);
  }
  // The wait for an output at passive vertex v (seed 001 §1: the timeout is state-dependent):
  // --vertex-timeout, else the graph's own (graph/1 "timeout_ms", a model's `timeout after`), else
  // --timeout-ms.
  std::chrono::milliseconds wait_at(VertexId v) const {
    if (!on_the_fly_)
      if (!o_.vertex_timeouts.empty() && o_.vertex_timeouts[v.index()].count() > 0)
        return o_.vertex_timeouts[v.index()];
    if (const std::uint32_t ms = g_.timeout_ms(v); ms != 0) return std::chrono::milliseconds(ms);
    return o_.timeout;
  }
  // Silence: the timeout edge is an observation (seed 001 §1); without one, a FAIL.
  // `how`: none (the wait ran out), quiet (the adapter declared quiescence) or done (it said the
  // outputs of the last stimulus are complete).
  Next silence(AdapterEvent::Kind how, std::chrono::milliseconds waited) {
    const std::string why = how == AdapterEvent::Kind::quiet  ? std::string("(the adapter declared quiescence)")
                            : how == AdapterEvent::Kind::done ? "(" + outputs_done_text() + ")"
                                                              : fmt::format("within {} ms", waited.count());
    const EdgeId te = g_.timeout_edge(v_);
    if (te.is_none()) {
      auto allowed = outputs_of(v_);
      std::string msg = fmt::format(
          "at passive vertex '{}' the system produced nothing {}; the model expects one of {} and has no timeout "
          "edge there",
          g_.vertex_name(v_), why, allowed_list(allowed));
      return fail("", std::move(allowed), std::move(msg), StepKind::silence);
    }
    follow(te, StepKind::timeout, g_.label(te));
    outputs_complete(how == AdapterEvent::Kind::done ? outputs_done_text()
                                                     : fmt::format("silence {} at step {}", why, r_.steps));
    return Next::go_on;
  }
  std::string outputs_done_text() const {
    return last_stimulus_.empty()
               ? std::string("the adapter said 'done'")
               : fmt::format("the adapter said 'done': the outputs of '{}' were complete", last_stimulus_);
  }

  // --- late outputs: naming the stimulus that caused them ---------------------------------------
  // The outputs of the last stimulus were judged complete (`how`: a silence, or the adapter's `done`).
  void outputs_complete(std::string how) {
    if (last_stimulus_.empty() || (!completed_.empty() && completed_.back().step == last_stimulus_step_)) return;
    std::string short_how = how.starts_with("the adapter said 'done'") ? std::string("'done'")
                            : how.starts_with("silence (the adapter declared")
                                ? std::string("'quiet'")
                                : "silence at step " + std::to_string(r_.steps);
    completed_.push_back({last_stimulus_, last_stimulus_step_, std::move(how), std::move(short_how), r_.steps});
    if (completed_.size() > 3) completed_.erase(completed_.begin());
  }
  // For the FAIL of an output that came after that: the stimuli it may answer late (those whose
  // outputs were judged complete in the last 20 steps, most recent first).
  std::string late_note() const {
    constexpr std::uint64_t recent = 20;
    std::vector<const CompletedStimulus*> c;
    for (auto it = completed_.rbegin(); it != completed_.rend(); ++it)
      if (r_.steps - it->judged_at <= recent) c.push_back(&*it);
    if (c.empty()) return {};
    const char* advice =
        "(a longer timeout there, or an adapter that says 'done' only after its outputs, docs/adapter-protocol.md)";
    if (c.size() == 1)
      return fmt::format(
          "; it came after the outputs of the stimulus '{}' (step {}) were judged complete ({}): a late answer to "
          "'{}'? {}",
          c[0]->stimulus, c[0]->step, c[0]->how, c[0]->stimulus, advice);
    std::string list;
    for (std::size_t i = 0; i < c.size(); ++i)
      list += fmt::format("{}'{}' (step {}: {})",
                          i == 0              ? ""
                          : i + 1 == c.size() ? " and "
                                              : ", ",
                          c[i]->stimulus, c[i]->step, c[i]->short_how);
    return fmt::format(
        "; it came after the outputs of the stimuli {} were judged complete: a late answer to one of "
        "them? {}",
        list, advice);
  }

  // --- the tester's move: an active vertex ------------------------------------------------------
  Next play_active() {
    // An output that is already there is judged before anything is sent (a `done` is read past:
    // what follows it is judged too; `quiet` ends the poll, and a simulated system says it at every
    // active vertex).
    AdapterEvent pending = adapter_.next_event(poll_only);
    for (int n = 0; pending.kind == AdapterEvent::Kind::done && n < 64; ++n) {  // (an adapter that floods them)
      outputs_complete(outputs_done_text());
      pending = adapter_.next_event(poll_only);
    }
    if (pending.kind == AdapterEvent::Kind::output) return output_at_active(std::move(pending.label), {});
    if (g_.out_degree(v_) == 0) {
      if (!(o_.reset_on_dead_end && g_.is_resettable()))
        return end_without_failure(fmt::format("dead end at vertex '{}' after {} steps", g_.vertex_name(v_), r_.steps));
      return reset();
    }
    const Decision d = policy_.choose(view(), rng_);
    switch (d.kind) {
      case Decision::Kind::take:
        return take(d.edge);
      case Decision::Kind::reset:
        return reset();
      case Decision::Kind::stop: {
        const std::string why = policy_.stop_reason();
        return end_without_failure(fmt::format("policy '{}' stopped at vertex '{}' after {} steps{}", policy_.name(),
                                               g_.vertex_name(v_), r_.steps, why.empty() ? "" : ": " + why));
      }
    }
    throw InternalError("RunSession: unknown decision");
  }
  Next take(EdgeId e) {
    if (e.index() >= g_.num_edges() || g_.source(e) != v_)
      throw InternalError(
          fmt::format("policy '{}' chose an edge that does not leave vertex '{}'", policy_.name(), g_.vertex_name(v_)));
    if (g_.is_observe(e)) {  // the tester waits; nothing is sent
      follow(e, StepKind::wait, g_.label(e));
      return Next::go_on;
    }
    if (const std::uint32_t ms = g_.delay_ms(e); ms != 0) return delay(e, std::chrono::milliseconds(ms));
    const std::string_view label = g_.label(e);
    const std::string concrete = values_ ? values_->concrete(label) : std::string();
    const std::string_view sent = values_ ? std::string_view(concrete) : label;
    AdapterEvent early = adapter_.stimulate(sent);
    if (early.kind == AdapterEvent::Kind::refused) {
      r_.refused = std::string(label);
      return end_without_failure(
          fmt::format("the system refused the stimulus '{}' at vertex '{}' (not input-enabled there: nothing can be "
                      "judged after it) after {} steps",
                      sent, g_.vertex_name(v_), r_.steps));
    }
    if (early.kind == AdapterEvent::Kind::output) return output_raced_stimulus(std::move(early.label), label, sent);
    follow(e, StepKind::stimulus, label, sent);
    return Next::go_on;
  }
  // A delay edge (docs/language.md "Time"): the tester waits `d` itself and sends nothing; the
  // system runs on, and what it says meanwhile is judged at the edge's target.
  Next delay(EdgeId e, std::chrono::milliseconds d) {
    const std::string_view label = g_.label(e);
    if (!adapter_.simulate_delay(label)) {
      Clock::time_point until = Clock::now() + d;
      const bool cut_by_budget = has_budget() && budget_end_ < until;
      if (cut_by_budget) until = budget_end_;
      sleep_until(until);
      if (cut_by_budget) return end_without_failure(fmt::format("time budget of {} ms spent", o_.time_budget.count()));
    }
    follow(e, StepKind::wait, label);
    return Next::go_on;
  }
  // Sleeps until `until`, or until a stop is requested (then throws StopRequested).
  void sleep_until(Clock::time_point until) const {
    if (o_.stop == nullptr) {
      std::this_thread::sleep_until(until);
      return;
    }
    pollfd p{o_.stop->fd(), POLLIN, 0};
    for (;;) {
      if (o_.stop->requested()) throw StopRequested("stopped during a delay", o_.stop->signal());
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(until - Clock::now()).count();
      if (left <= 0) return;
      (void)::poll(&p, 1, static_cast<int>(std::min<std::int64_t>(left, 1 << 30)));
    }
  }
  // The output came before the stimulus was accepted (docs/ioco.md, the race): judge it, then apply
  // the input where the model now is, if the model offers it there.
  Next output_raced_stimulus(std::string came, std::string_view label, std::string_view sent) {
    const std::string output = came;
    if (output_at_active(std::move(came), sent) == Next::stop) return Next::stop;
    EdgeId input = EdgeId::none();
    if (g_.is_active(v_))
      for (EdgeId e : g_.out_edges(v_))
        if (g_.label(e) == label && !g_.is_observe(e)) input = e;
    if (input.is_none()) {
      r_.verdict = Verdict::inconclusive;
      r_.message = fmt::format(
          "the system produced '{}' before it accepted the stimulus '{}'; at vertex '{}', where that output leads, "
          "the model does not offer '{}', so nothing more can be judged",
          output, sent, g_.vertex_name(v_), label);
      return Next::stop;
    }
    follow(input, StepKind::stimulus, label, sent);
    return Next::go_on;
  }
  Next reset() {
    if (!g_.is_resettable())
      throw InternalError(
          fmt::format("policy '{}' asked for a reset, but the graph is not resettable", policy_.name()));
    adapter_.reset();
    if (values_) values_->clear();
    ++r_.steps;
    ++r_.resets;
    last_stimulus_.clear();
    completed_.clear();
    const VertexId from = v_;
    v_ = g_.initial();
    window_.clear();  // a fresh system: its history starts again
    evidence_->cut();
    arrived();
    record(StepKind::reset, from, EdgeId::none(), v_, "");
    policy_.begin_run(view(), rng_);
    return Next::go_on;
  }

  // --- what the system shows (strategy/evidence.hpp, strategy/claims.hpp) -------------------
  // The last edges taken since the run began or the system was reset, most recent last.
  void remember(EdgeId e) {
    evidence_->extend(e);
    const std::size_t k = evidence_->max_context();
    if (k == 0) return;
    if (window_.size() == k) window_.erase(window_.begin());
    window_.push_back(e);
  }
  // The system chose `e` at passive vertex `v`.
  void learn(VertexId v, EdgeId e) {
    evidence_->record(v, window_, e);
    if (!o_.stop_when_futile || on_the_fly_ || o_.purpose.kind == TestPurpose::Kind::none) return;
    if (futile_.empty()) futile_.assign(g_.num_edges(), 0);
    futile_[e.index()] = 0;  // seen: never futile again
    for (EdgeId out : g_.out_edges(v))
      if (!futile_[out.index()] && is_futile(g_, *evidence_, v, out, r_.edge_visits, o_.claims)) {
        futile_[out.index()] = 1;
        any_futile_ = futility_check_due_ = true;
      }
  }
  // What the purpose still wants, per edge: uncovered purpose edges (cover), edges into a goal (reach).
  std::vector<std::uint8_t> wanted_edges() const {
    std::vector<std::uint8_t> wanted(g_.num_edges(), 0);
    for (EdgeId e : g_.edges()) {
      if (o_.purpose.kind == TestPurpose::Kind::cover)
        wanted[e.index()] =
            r_.edge_visits[e.index()] == 0 && (purpose_edges_.empty() || purpose_edges_[e.index()]) ? 1 : 0;
      else if (o_.purpose.kind == TestPurpose::Kind::reach)
        wanted[e.index()] = is_goal_[g_.target(e).index()];
    }
    return wanted;
  }
  // Ends the run INCONCLUSIVE, naming the futile outcomes and what the evidence proves of them, when
  // nothing the purpose wants can be reached any more without one of them (the budget would be
  // spent for nothing).
  bool only_futile_left() {
    futility_check_due_ = false;
    FutilityVerdict v = check_futility(g_, *evidence_, v_, futile_, wanted_edges(), o_.claims);
    if (!v.only_futile_left) return false;
    // Short, naming the outcomes: the claims themselves are said once per campaign (text, report)
    // and in full in --json's "stopped_by".
    std::string outcomes;
    for (std::size_t i = 0; i < v.futile.size() && i < 3; ++i)
      outcomes += fmt::format("{}'{}' at '{}'", i ? ", " : "", g_.label(v.futile[i].outcome),
                              g_.vertex_name(v.futile[i].vertex));
    if (v.futile.size() > 3) outcomes += fmt::format(" and {} more", v.futile.size() - 3);
    std::string msg = fmt::format(
        "stopped after {} step{}, continuing was futile: what the purpose still asks for ({} edge{}) lies only "
        "behind outcomes never seen ({}), each ruled out above --rare-rate {:g} in every history this run could offer",
        r_.steps, r_.steps == 1 ? "" : "s", v.untestable, v.untestable == 1 ? "" : "s", outcomes, o_.claims.rare_rate);
    r_.verdict = Verdict::inconclusive;
    r_.message = std::move(msg);
    r_.stopped_by = std::move(v.futile);
    r_.untestable_edges = v.untestable;
    return true;
  }

  const Runner& runner_;
  const GameGraph& g_;
  const bool on_the_fly_;
  const RunOptions& o_;
  const std::vector<std::uint8_t>& purpose_edges_;
  const std::vector<std::uint8_t>& is_goal_;
  Policy& policy_;
  Adapter& adapter_;
  RunObserver* observer_;
  Rng rng_;
  const Clock::time_point t0_, budget_end_;
  RunResult r_;
  VertexId v_;
  std::uint32_t purpose_left_;
  std::uint32_t covered_ = 0;              // on the fly: edges taken at least once
  std::vector<std::uint8_t> labels_seen_;  // by label: per LabelId, taken at least once
  std::uint32_t labels_covered_ = 0;
  std::optional<RunValues> values_;  // the run's slot bindings, when the model's labels hold values
  std::shared_ptr<Evidence> evidence_;
  std::vector<EdgeId> window_;        // the last edges (RunOptions::evidence_context of them)
  std::vector<std::uint8_t> futile_;  // per edge: a futile outcome (is_futile)
  bool any_futile_ = false, futility_check_due_ = false;
  std::string last_stimulus_;  // the last stimulus sent since the start or a reset (as sent)
  std::uint64_t last_stimulus_step_ = 0;
  struct CompletedStimulus {
    std::string stimulus;     // as sent
    std::uint64_t step = 0;   // its step
    std::string how;          // how its outputs were judged complete
    std::string short_how;    // the same in a word or three, for a list
    std::uint64_t judged_at;  // the step when
  };
  std::vector<CompletedStimulus> completed_;  // the last 3, most recent last
  std::uint64_t last_new_edge_step_ = 0;      // the step that took an edge for the first time in the run
};

}  // namespace

RunResult Runner::run(Policy& policy, Adapter& adapter, RunObserver* observer, std::optional<std::uint64_t> seed,
                      const Evidence* prior) const {
  if (prior != nullptr && prior->max_context() != std::min(options_.evidence_context, Evidence::max_context_limit))
    throw InternalError("Runner::run: the prior evidence records histories of another length");
  return RunSession(*this, purpose_edges_, is_goal_, purpose_edge_count_, policy, adapter, observer,
                    seed.value_or(options_.seed), prior)
      .run();
}

}  // namespace playtest
