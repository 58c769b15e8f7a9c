// Bounded reachability (seed 000 §3) on the solver core: the per-vertex or the folded choice model
// (ModelCosts::worst_case) and ReachSweeper's passes (solve/core/reach_sweep.hpp).
#include "playtest/solve/bounded_reachability.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "playtest/base/error.hpp"
#include "solve/core/choice_model.hpp"
#include "solve/core/reach_sweep.hpp"
#include "solve/detail/change_log.hpp"

namespace playtest {

namespace detail {

struct ReachResultAccess {
  static BoundedReachResult& self(BoundedReachResult& r) { return r; }
  static std::uint32_t& bound(BoundedReachResult& r) { return r.bound_; }
  static std::vector<ReachValue>& value(BoundedReachResult& r) { return r.value_; }
  static std::vector<EdgeId>& choice_at_bound(BoundedReachResult& r) { return r.choice_at_bound_; }
  static std::vector<std::uint32_t>& first_edge(BoundedReachResult& r) { return r.first_edge_; }
  static std::shared_ptr<const ChangeLog>& changes(BoundedReachResult& r) { return r.changes_; }
  static std::size_t& num_changes(BoundedReachResult& r) { return r.num_changes_; }
  static std::vector<VertexId>& record_vertices(BoundedReachResult& r) { return r.record_vertices_; }
  static std::vector<ReachValue>& record_values(BoundedReachResult& r) { return r.record_values_; }
  static std::vector<std::uint32_t>& frontier(BoundedReachResult& r) { return r.frontier_sizes_; }
  static double& prob_error_bound(BoundedReachResult& r) { return r.prob_error_bound_; }
  static const ChangeLog* log(const BoundedReachResult& r) { return r.changes_.get(); }
  static const std::vector<std::uint32_t>& first_edge(const BoundedReachResult& r) { return r.first_edge_; }
};

namespace {

using A = ReachResultAccess;

std::vector<std::uint8_t> goal_flags(const TestGraph& g, std::span<const VertexId> goals) {
  std::vector<std::uint8_t> goal(g.num_vertices(), 0);
  for (VertexId v : goals) {
    if (v.is_none() || v.index() >= g.num_vertices())
      throw UsageError("goals", "solve_bounded_reachability: goal vertex id out of range");
    goal[v.index()] = 1;
  }
  return goal;
}

std::vector<VertexId> non_goals(const TestGraph& g, std::span<const std::uint8_t> goal) {
  std::vector<VertexId> order;
  order.reserve(g.num_vertices());
  for (std::uint32_t v = 0; v < g.num_vertices(); ++v)
    if (!goal[v]) order.push_back(VertexId{v});
  return order;
}

// Whether the folded model would take two moves at every step (ChoiceModel::two_move_steps): every
// edge of a non-goal active vertex leads to a passive non-goal vertex whose only predecessor among
// the non-goal vertices is that active vertex. Checked before building the folded model, so that
// other graphs (where the first active vertex usually settles it) do not pay for the build.
bool two_move_shape(const TestGraph& g, std::span<const std::uint8_t> goal) {
  const auto src = g.sources();
  for (VertexId v : g.vertices()) {
    if (goal[v.index()] || g.is_passive(v)) continue;
    for (EdgeId e : g.out_edges(v)) {
      const VertexId t = g.target(e);
      if (goal[t.index()] || g.is_active(t)) return false;
      std::uint32_t preds = 0;
      for (EdgeId f : g.in_edges(t))
        if (!goal[src[f.index()].index()] && ++preds > 1) return false;
    }
  }
  return true;
}

// A priori bound on the rounding error of the probabilities after n moves (see
// BoundedReachResult::prob_error_bound): each move one sum of at most d products.
double prob_error_bound(const ChoiceModel& m, std::uint32_t n) {
  if (n == 0) return 0;
  const long double u = std::numeric_limits<double>::epsilon() / 2;
  const long double d = static_cast<long double>(m.max_entries) + 1;
  if (d * u >= 0.5L) return std::numeric_limits<double>::infinity();
  const long double gamma = d * u / (1 - d * u);
  long double smax = 1;
  for (std::uint32_t c = 0; c < m.num_choices(); ++c) {
    long double s = 0;
    for (std::uint32_t k = m.first_entry[c]; k < m.first_entry[c + 1]; ++k) s += m.prob[k];
    smax = std::max(smax, s * (1 + 4 * std::numeric_limits<long double>::epsilon() * (d + 1)));
  }
  const long double grow = std::pow(smax, static_cast<long double>(n));
  const long double bound = static_cast<long double>(n) * gamma * grow * (1 + 1e-6L);
  return bound > std::numeric_limits<double>::max() ? std::numeric_limits<double>::infinity()
                                                    : static_cast<double>(bound);
}

// The recorded vertices' values at the sweeper's current k (goals (1, 0), states their value).
class Recorder {
 public:
  Recorder(const TestGraph& g, std::vector<VertexId> vertices, std::uint32_t bound) : vertices_(std::move(vertices)) {
    for (VertexId v : vertices_)
      if (v.is_none() || v.index() >= g.num_vertices())
        throw UsageError("record", "solve_bounded_reachability: recorded vertex id out of range");
    std::sort(vertices_.begin(), vertices_.end());
    vertices_.erase(std::unique(vertices_.begin(), vertices_.end()), vertices_.end());
    values_.reserve(vertices_.size() * (static_cast<std::size_t>(bound) + 1));
  }
  std::span<const VertexId> vertices() const { return vertices_; }
  void capture(const ChoiceModel& m, std::span<const ReachValue> state_values) {
    for (VertexId v : vertices_) {
      const std::uint32_t i = m.vertex_index[v.index()];
      values_.push_back(i == m.n ? ReachValue{1.0, 0.0} : state_values[i]);
    }
  }
  void attach(BoundedReachResult& r) {
    A::record_vertices(r) = std::move(vertices_);
    A::record_values(r) = std::move(values_);
  }

 private:
  std::vector<VertexId> vertices_;
  std::vector<ReachValue> values_;  // k-major
};

template <class Order>
BoundedReachResult finish(const TestGraph& g, const ChoiceModel& m, ReachSweeper<Order>& s) {
  BoundedReachResult r;
  const std::uint32_t nv = g.num_vertices();
  A::bound(r) = s.k();
  const auto offsets = g.out_offsets();
  A::first_edge(r).assign(offsets.begin(), offsets.begin() + nv + 1);
  A::changes(r) = std::make_shared<const ChangeLog>(s.take_log());
  A::num_changes(r) = s.num_changes();
  auto& value = A::value(r);
  auto& choice = A::choice_at_bound(r);
  value.assign(nv, ReachValue{});
  choice.assign(nv, EdgeId::none());
  const auto vals = s.values();
  for (std::uint32_t v = 0; v < nv; ++v) {
    const std::uint32_t i = m.vertex_index[v];
    if (i == m.n) {
      value[v] = {1.0, 0.0};
    } else if (i < m.n) {
      value[v] = vals[i];
      if (s.slot(i) != 0) choice[v] = EdgeId{offsets[v] + s.slot(i) - 1};
    }
  }
  if (s.two_move()) {
    const auto jv = s.choice_values();
    for (std::uint32_t c = 0; c < m.num_choices(); ++c) value[m.choice_vertex[c].index()] = jv[c];
  }
  A::frontier(r).assign(s.frontier_sizes().begin(), s.frontier_sizes().end());
  A::prob_error_bound(r) = prob_error_bound(m, s.k());
  return r;
}

template <class Order>
BoundedReachResult run(const TestGraph& g, const ChoiceModel& m, const BoundedReachOptions& o, Order order) {
  Recorder rec(g, o.record, o.bound);
  ReachSweeper<Order> s(m, g.num_vertices(), order, o.sweep, o.threads, o.frontier_statistics);
  const std::uint32_t n = o.bound;
  const bool recording = !rec.vertices().empty();
  if (recording) rec.capture(m, s.values());
  if (!s.two_move()) {
    for (std::uint32_t k = 0; k < n; ++k) {
      s.pass();
      if (recording) rec.capture(m, s.values());
      if (o.on_step) o.on_step(k + 1, n);
    }
  } else {
    for (std::uint32_t k = 0; k + 2 <= n; k += 2) {
      if (recording) rec.capture(m, s.values());  // k + 1: the states keep their value at k
      s.pass();
      if (recording) rec.capture(m, s.values());
      if (o.on_step) {
        o.on_step(k + 1, n);
        o.on_step(k + 2, n);
      }
    }
    if (n % 2 == 1) {
      s.half_pass();
      if (recording) rec.capture(m, s.values());
      if (o.on_step) o.on_step(n, n);
    }
  }
  BoundedReachResult r = finish(g, m, s);
  rec.attach(r);
  return r;
}

}  // namespace

class ReachStepper {
 public:
  ReachStepper(const TestGraph& g, std::span<const VertexId> goals, ReachPreorderRef order, ReachSweep sweep)
      : g_(&g),
        goal_(goal_flags(g, goals)),
        team_(1),
        m_(build_vertex_model(team_, g, goal_, non_goals(g, goal_), ModelCosts::worst_case)),
        sweeper_(m_, g.num_vertices(), order, sweep, 1) {
    init();
  }
  void init() {
    sweeper_.init();
    changed_.clear();
    for (std::uint32_t v = 0; v < g_->num_vertices(); ++v)
      if (goal_[v]) changed_.push_back(VertexId{v});
  }
  void step() {
    sweeper_.pass();
    changed_.clear();
    for (std::uint32_t i : sweeper_.changed()) changed_.push_back(m_.state_vertex[i]);
  }
  const TestGraph* g_;
  std::vector<std::uint8_t> goal_;
  Team team_;
  ChoiceModel m_;
  ReachSweeper<ReachPreorderRef> sweeper_;
  std::vector<VertexId> changed_;
};

void ReachStepperDeleter::operator()(ReachStepper* p) const { delete p; }

ReachStepperPtr make_reach_stepper(const TestGraph& g, std::span<const VertexId> goals, ReachPreorderRef order,
                                   ReachSweep sweep) {
  return ReachStepperPtr(new ReachStepper(g, goals, order, sweep));
}
void stepper_init(ReachStepper& s) { s.init(); }
void stepper_step(ReachStepper& s) { s.step(); }
void stepper_threads(ReachStepper& s, unsigned t) { s.sweeper_.set_threads(t); }
std::uint32_t stepper_k(const ReachStepper& s) { return s.sweeper_.k(); }
ReachValue stepper_value(const ReachStepper& s, VertexId v) {
  const std::uint32_t i = s.m_.vertex_index.at(v.index());
  return i == s.m_.n ? ReachValue{1.0, 0.0} : s.sweeper_.values()[i];
}
EdgeId stepper_choice(const ReachStepper& s, VertexId v) {
  const std::uint32_t i = s.m_.vertex_index.at(v.index());
  if (i == s.m_.n || s.sweeper_.slot(i) == 0) return EdgeId::none();
  return EdgeId{s.g_->out_offsets()[v.index()] + s.sweeper_.slot(i) - 1};
}
bool stepper_is_goal(const ReachStepper& s, VertexId v) { return s.goal_.at(v.index()) != 0; }
std::span<const VertexId> stepper_changed(const ReachStepper& s) { return s.changed_; }
std::size_t stepper_num_changes(const ReachStepper& s) { return s.sweeper_.num_changes(); }
BoundedReachResult stepper_take(ReachStepper& s) {
  BoundedReachResult r = finish(*s.g_, s.m_, s.sweeper_);
  s.init();
  return r;
}

BoundedReachResult solve_bounded_reachability_with(const TestGraph& g, std::span<const VertexId> goals,
                                                   const BoundedReachOptions& options, ReachPreorderRef order) {
  const auto goal = goal_flags(g, goals);
  Team team(1);
  const ChoiceModel m = build_vertex_model(team, g, goal, non_goals(g, goal), ModelCosts::worst_case);
  return run(g, m, options, order);
}

}  // namespace detail

BoundedReachResult::BoundedReachResult() = default;
BoundedReachResult::~BoundedReachResult() = default;
BoundedReachResult::BoundedReachResult(const BoundedReachResult&) = default;
BoundedReachResult::BoundedReachResult(BoundedReachResult&&) noexcept = default;
BoundedReachResult& BoundedReachResult::operator=(const BoundedReachResult&) = default;
BoundedReachResult& BoundedReachResult::operator=(BoundedReachResult&&) noexcept = default;

namespace {

// Calls f(k, edge) for v's change points in increasing k until f returns false.
template <class F>
void for_each_change(const BoundedReachResult& r, std::uint32_t v, F f) {
  const detail::ChangeLog* log = detail::ReachResultAccess::log(r);
  if (!log) return;
  const auto& first_edge = detail::ReachResultAccess::first_edge(r);
  const std::uint32_t first = first_edge[v], slots = first_edge[v + 1] - first + 1;
  std::uint64_t k = 0;
  log->for_each(v, [&](std::uint64_t x) {
    k += x / slots + 1;
    const auto slot = static_cast<std::uint32_t>(x % slots);
    return f(static_cast<std::uint32_t>(k), slot == 0 ? EdgeId::none() : EdgeId{first + slot - 1});
  });
}

}  // namespace

EdgeId BoundedReachResult::choice(VertexId v, std::uint32_t k) const {
  if (v.index() >= value_.size()) throw UsageError("v", "BoundedReachResult::choice: vertex id out of range");
  if (k > bound_)
    throw UsageError(
        "k", "BoundedReachResult::choice: k = " + std::to_string(k) + " exceeds the bound " + std::to_string(bound_));
  if (k == bound_) return choice_at_bound_[v.index()];
  EdgeId e = EdgeId::none();  // the edge of the last change point with cp.k <= k
  for_each_change(*this, v.value, [&](std::uint32_t cp_k, EdgeId cp_edge) {
    if (cp_k > k) return false;
    e = cp_edge;
    return true;
  });
  return e;
}

EdgeId BoundedReachResult::choice(VertexId v) const {
  if (v.index() >= value_.size()) throw UsageError("v", "BoundedReachResult::choice: vertex id out of range");
  return choice_at_bound_[v.index()];
}

std::vector<ReachChangePoint> BoundedReachResult::change_points(VertexId v) const {
  if (v.index() >= value_.size()) throw UsageError("v", "BoundedReachResult::change_points: vertex id out of range");
  std::vector<ReachChangePoint> cps;
  for_each_change(*this, v.value, [&](std::uint32_t k, EdgeId e) {
    cps.push_back({k, e});
    return true;
  });
  return cps;
}

std::size_t BoundedReachResult::change_point_bytes() const { return changes_ ? changes_->memory_bytes() : 0; }

bool BoundedReachResult::is_recorded(VertexId v) const {
  return std::binary_search(record_vertices_.begin(), record_vertices_.end(), v);
}

ReachValue BoundedReachResult::recorded(VertexId v, std::uint32_t k) const {
  auto it = std::lower_bound(record_vertices_.begin(), record_vertices_.end(), v);
  if (it == record_vertices_.end() || *it != v)
    throw UsageError("record", "BoundedReachResult::prob/cost(v, k): vertex " + std::to_string(v.value) +
                                   " was not recorded (BoundedReachOptions::record)");
  if (k > bound_)
    throw UsageError("k", "BoundedReachResult::prob/cost(v, k): k = " + std::to_string(k) + " exceeds the bound " +
                              std::to_string(bound_));
  return record_values_[static_cast<std::size_t>(k) * record_vertices_.size() +
                        static_cast<std::size_t>(it - record_vertices_.begin())];
}

namespace detail {
namespace {

// The choice model the sweeps run on: folded when every pass is one MDP step and every recorded
// vertex keeps a state (see BoundedReachOptions::fold_choices), else per vertex.
ChoiceModel reach_model(const TestGraph& g, std::span<const std::uint8_t> goal, const BoundedReachOptions& options) {
  const std::uint32_t nv = g.num_vertices();
  for (VertexId v : options.record)
    if (v.is_none() || v.index() >= nv)
      throw UsageError("record", "solve_bounded_reachability: recorded vertex id out of range");
  const std::vector<VertexId> order = non_goals(g, goal);
  const bool large = nv >= 65536;
  Team team(large ? resolve_threads(options.threads) : 1);
  if ((options.fold_choices == ChoiceFolding::always || (options.fold_choices == ChoiceFolding::automatic && large)) &&
      two_move_shape(g, goal)) {
    ChoiceModel f = build_folded_model(team, g, goal, order, ModelCosts::worst_case);
    bool ok = f.two_move_steps();
    for (VertexId v : options.record) ok = ok && f.vertex_index[v.index()] != model_folded;
    if (ok) return f;
  }
  return build_vertex_model(team, g, goal, order, ModelCosts::worst_case);
}

}  // namespace

BoundedReachResult solve_bounded_probability(const TestGraph& g, std::span<const VertexId> goals, bool maximize,
                                             std::span<const std::uint8_t> zero, const BoundedReachOptions& options) {
  const auto goal = goal_flags(g, goals);
  if (!zero.empty() && zero.size() != g.num_vertices())
    throw UsageError("zero", "solve_bounded_probability: one flag per vertex");
  const bool any_zero = std::any_of(zero.begin(), zero.end(), [](std::uint8_t z) { return z != 0; });
  BoundedReachOptions o = options;
  if (any_zero) o.fold_choices = ChoiceFolding::never;  // a zero vertex must keep a state of its own
  ChoiceModel model = reach_model(g, goal, o);
  if (any_zero)
    // Every entry of a zero state's choices leads back to it: its value stays (0, 0) at every bound
    // (no option is worth more than nothing for Pmax; the only option, nothing, for Pmin), and the
    // model keeps its shape (one choice per edge: the strategy and change log still name edges).
    for (std::uint32_t i = 0; i < model.n; ++i)
      if (zero[model.state_vertex[i].index()])
        for (std::uint32_t c = model.first_choice[i]; c < model.first_choice[i + 1]; ++c)
          for (std::uint32_t k = model.first_entry[c]; k < model.first_entry[c + 1]; ++k) model.column[k] = i;
  if (maximize) return run(g, model, o, ProbabilityOrder{});
  return run(g, model, o, MinProbabilityOrder{});
}

}  // namespace detail

BoundedReachResult solve_bounded_reachability(const TestGraph& g, std::span<const VertexId> goals,
                                              const BoundedReachOptions& options) {
  const auto goal = detail::goal_flags(g, goals);
  const detail::ChoiceModel model = detail::reach_model(g, goal, options);
  switch (options.order) {
    case ReachOrder::probability:
      return detail::run(g, model, options, ProbabilityOrder{});
    case ReachOrder::lexicographic:
      break;
  }
  return detail::run(g, model, options, LexicographicOrder{});
}

}  // namespace playtest
