#include "playtest/adapt/adaptive_policy.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include "playtest/adapt/context_product.hpp"
#include "playtest/solve/bounded_reachability.hpp"
#include "playtest/solve/expected_cost.hpp"
#include "playtest/strategy/claims.hpp"
#include "playtest/strategy/evidence.hpp"
#include "playtest/strategy/history_model.hpp"

namespace playtest {

namespace {

// A plan on the context product: what to do at each product vertex.
struct Plan {
  ContextProduct product;
  std::vector<EdgeId> strategy;                     // coverage, expected: per product vertex
  std::shared_ptr<const BoundedReachResult> reach;  // reach
  std::uint32_t bound = 0;
};

class AdaptivePolicy final : public Policy {
 public:
  AdaptivePolicy(Replanning mode, const TestGraph& g, std::vector<VertexId> goals, std::unique_ptr<Policy> inner,
                 std::shared_ptr<const AdaptOptions> o)
      : mode_(mode),
        g_(g),
        goals_(std::move(goals)),
        inner_(std::move(inner)),
        keep_options_(std::move(o)),
        o_(*keep_options_) {}

  std::string_view name() const override { return inner_->name(); }

  void begin_run(const RunView& view, Rng& rng) override {
    inner_->begin_run(view, rng);
    history_.clear();
    path_.clear();
    for (auto& m : memory_state_) m.clear();  // a fresh system: its memories start empty
    if (view.step == 0) {                     // a new run (not a reset within one): what is wanted starts again
      run_count_.assign(g_.num_edges(), 0);
      run_visits_.assign(g_.num_vertices(), 0);
      wanted_.clear();
      plan_.reset();
      since_plan_ = 0;
      moves_in_plan_ = 0;
    }
    due_ = true;  // the evidence may have grown since the last run, and a reset changes the history
  }

  Decision choose(const RunView& view, Rng& rng) override {
    ++since_plan_;
    if (due_ && may_plan()) replan(view);
    // A plan whose target was just taken would lead back to it: until the next plan the wrapped
    // strategy (which knows what it has covered) plays.
    if (plan_ && !stale_) {
      const VertexId x = plan_->product.locate(view.current, history_, memory_state_);
      if (!x.is_none()) {
        const EdgeId f = planned_edge(x);
        if (!f.is_none()) {
          if (o_.stats) ++o_.stats->steered;
          if (plan_->product.is_reset(f)) return Decision::reset();
          const EdgeId e = plan_->product.model_edge(f);
          if (g_.source(e) == view.current) return Decision::take(e);
        }
      }
    }
    return inner_->choose(view, rng);
  }

  void observe(EdgeId taken, const RunView& view) override {
    inner_->observe(taken, view);
    // What the plan expected of the system here: an outcome it gave less than even odds is news.
    bool unexpected = false;
    if (plan_ && g_.is_passive(g_.source(taken))) {
      const VertexId x = plan_->product.locate(g_.source(taken), history_, memory_state_);
      if (!x.is_none())
        for (EdgeId f : plan_->product.graph().out_edges(x))
          if (!plan_->product.is_reset(f) && plan_->product.model_edge(f) == taken)
            unexpected = plan_->product.graph().probability(f) < 0.5;
    }
    if (history_.size() == max_history) history_.erase(history_.begin());
    history_.push_back(taken);
    path_.push_back(taken);
    const LabelId label = g_.label_id(taken);
    for (std::size_t i = 0; i < memory_state_.size(); ++i) {
      const Memory& m = history_model_.memories[i];
      if (!m.watches(label)) continue;
      memory_state_[i].push_back(label);
      if (memory_state_[i].size() > m.length) memory_state_[i].erase(memory_state_[i].begin());
    }
    ++moves_in_plan_;
    const VertexId from = g_.source(taken);
    if (g_.is_passive(from) && taken.index() < run_count_.size()) {
      ++run_count_[taken.index()];
      ++run_visits_[from.index()];
    }
    const bool target_taken = plan_ && mode_ == Replanning::coverage && is_wanted(taken);
    if (target_taken) stale_ = true;
    if (view.evidence == nullptr || !g_.is_passive(from)) {
      if (target_taken) due_ = true;
      return;
    }
    // The system chose at `from`. The plan is re-made when that says something new: an outcome
    // seen for the first time in its history at a vertex the plan learns per history (a history
    // tried, or a new way to get an outcome), or a change of what is wanted. Outcomes seen there
    // before in the same history only confirm the plan's estimate. Whether the frequencies depart
    // from the model is tested again at every power of two of a vertex's visits (a logarithmic
    // number of tests, however long the campaign).
    bool surprise = unexpected;
    if (!surprise && interesting(from)) {
      const std::size_t k = std::min<std::size_t>(keep_[from.index()], history_.size() - 1);
      const std::span<const EdgeId> context(history_.data() + history_.size() - 1 - k, k);
      surprise = view.evidence->count(from, context, taken) <= 1;
    }
    const std::uint64_t visits = view.evidence->visits(from);
    const bool retest = visits >= 8 && (visits & (visits - 1)) == 0;
    if (changes_what_is_wanted(from, view) || target_taken || surprise || retest) due_ = true;
  }

  bool stop_at_passive(const RunView& view) override { return inner_->stop_at_passive(view); }
  std::string stop_reason() const override { return inner_->stop_reason(); }

 private:
  static constexpr std::size_t max_history = 8;
  // Building the product and setting up its solve costs about as much per product vertex and edge
  // as this many sweeps (measured on examples/models/redis_queue.ptm: docs/testing.md).
  static constexpr std::uint64_t build_units = 64;

  // A stale plan (its target taken) would hand the run to the wrapped strategy: re-made at once
  // when it is cheap (AdaptOptions::free_plan_work; at most once per purpose edge taken).
  bool may_plan() const {
    return since_plan_ * o_.work_per_step >= last_work_ || (stale_ && last_work_ <= o_.free_plan_work);
  }

  // A purpose edge not taken in this run (coverage), as RunView counts them.
  bool uncovered(EdgeId e, const RunView& view) const {
    return view.edge_visits[e.index()] == 0 && (view.purpose_edges.empty() || view.purpose_edges[e.index()] != 0);
  }
  bool is_wanted(EdgeId e) const { return e.index() < wanted_.size() && wanted_[e.index()] != 0; }
  bool interesting(VertexId v) const { return v.index() < keep_.size() && keep_[v.index()] > 0; }

  // Re-evaluates the outcomes of v; true when the set of withheld (or departing) ones changed.
  bool changes_what_is_wanted(VertexId v, const RunView& view) {
    if (wanted_.empty()) wanted_.assign(g_.num_edges(), 0);
    bool changed = false;
    for (EdgeId e : g_.out_edges(v)) {
      const bool want = wants(v, e, view);
      if (want != (wanted_[e.index()] != 0)) {
        wanted_[e.index()] = want ? 1 : 0;
        changed = true;
      }
    }
    return changed;
  }

  // coverage: an uncovered purpose outcome the system withholds, not yet starved. reach, expected:
  // any withheld outcome (the plan should know the system does not toss that coin).
  bool wants(VertexId v, EdgeId e, const RunView& view) const {
    const Evidence& ev = *view.evidence;
    if (!is_withheld(g_, ev, v, e, o_.learning) && !withheld_in_this_run(v, e)) return false;
    if (mode_ != Replanning::coverage) return true;
    return uncovered(e, view) && !is_futile(g_, ev, v, e, view.edge_visits, o_.claims);
  }

  // coverage: an outcome this run has not seen at v after as many visits as the campaign's would
  // take to suspect it. Earlier runs may have seen it (a round-robin broker shows every outcome over
  // a run, in an order the model's coins do not say): what this run still wants comes from this
  // run, or a later run of a campaign would play the bare tour, which loops where the system is
  // not the coin.
  bool withheld_in_this_run(VertexId v, EdgeId e) const {
    if (mode_ != Replanning::coverage || e.index() >= run_count_.size() || run_count_[e.index()] != 0) return false;
    return run_visits_[v.index()] >= suspicion_visits(g_.probability(e), o_.learning.withheld_confidence);
  }

  EdgeId planned_edge(VertexId x) const {
    if (mode_ == Replanning::reach) {
      const std::uint32_t k =
          plan_->bound > moves_in_plan_ ? plan_->bound - static_cast<std::uint32_t>(moves_in_plan_) : 1;
      return plan_->reach->choice(x, std::min(k, plan_->reach->bound()));
    }
    return x.index() < plan_->strategy.size() ? plan_->strategy[x.index()] : EdgeId::none();
  }

  void replan(const RunView& view) {
    due_ = false;
    stale_ = false;
    const auto t0 = std::chrono::steady_clock::now();
    if (view.evidence == nullptr) return;
    const Evidence& ev = *view.evidence;
    // What is wanted, from the whole evidence (the campaign's earlier runs included).
    wanted_.assign(g_.num_edges(), 0);
    keep_.assign(g_.num_vertices(), 0);
    bool any = false;
    for (VertexId v : ev.vertices()) {
      if (v.index() >= g_.num_vertices() || !g_.is_passive(v)) continue;
      for (EdgeId e : g_.out_edges(v))
        if (wants(v, e, view)) {
          wanted_[e.index()] = 1;
          any = true;
        }
    }
    // Frequencies a goodness-of-fit test rejects (the system's coin is not the model's, or it is
    // decided by history) make the model's probabilities wrong for every plan.
    if (!any && !departing_vertices(g_, ev, o_.learning).empty()) any = true;
    // What the choices depend on beyond the last edges (strategy/history_model.hpp): a vertex a
    // learned memory explains is planned per memory state instead of per window. A choice that
    // depends on history is a departure from the model even where every outcome has been seen and
    // the frequencies at the vertex match the declared coin (a round-robin broker after an earlier
    // run of the campaign showed it every outcome: the tour alone then loops for ever).
    std::uint64_t learning_work = 0;
    history_model_ = {};
    if (o_.max_memory > 0 && !ev.empty()) {  // (anything wanted or departing comes from evidence)
      history_model_ = learn_history(g_, ev, {.max_length = o_.max_memory});
      learning_work = history_model_.work;
      if (!history_model_.choices.empty()) any = true;
    }
    // Once the system departs from the model anywhere, every choice of it may depend on history:
    // the plan learns every passive vertex with a choice per history (a vertex whose choice does
    // not depend on history looks the same in every history, at the price of a larger product).
    if (any) {
      // coverage: the model's coins no longer say where the wrapped strategy's plan leads, so the
      // plan aims at every purpose edge left (but the futile ones).
      if (mode_ == Replanning::coverage)
        for (EdgeId e : g_.edges())
          if (uncovered(e, view) &&
              !(g_.is_passive(g_.source(e)) && is_futile(g_, ev, g_.source(e), e, view.edge_visits, o_.claims)))
            wanted_[e.index()] = 1;
      for (VertexId v : g_.vertices())
        if (g_.is_passive(v) && g_.out_degree(v) > 1) keep_[v.index()] = o_.max_context;
      for (const LearnedChoice& c : history_model_.choices) keep_[c.vertex.index()] = 0;
    }
    memory_state_.assign(history_model_.memories.size(), {});
    for (std::size_t i = 0; i < memory_state_.size(); ++i)
      memory_state_[i] = history_model_.memories[i].state_after(g_, path_);
    plan_.reset();
    since_plan_ = 0;
    moves_in_plan_ = 0;
    if (!any) {  // the evidence agrees with the model: the wrapped strategy plays
      last_work_ = learning_work;
      return;
    }
    bool with_memory = !history_model_.memories.empty();
    const ContextProduct::LearnedWithMemory learned = [&](VertexId v, std::span<const EdgeId> w,
                                                          std::span<const std::vector<LabelId>> memory,
                                                          std::span<double> probs) {
      const auto out = g_.out_edges(v);
      const LearnedChoice* c = with_memory ? history_model_.at(v) : nullptr;
      const LearnedChoice::State* state =
          c != nullptr && c->memory < memory.size() ? c->find(memory[c->memory]) : nullptr;
      double sum = 0;
      for (std::size_t i = 0; i < out.size(); ++i) {
        if (c != nullptr) {  // per memory state, the declared probabilities as the prior
          const double n = state ? static_cast<double>(state->visits) : 0.0;
          const double k = state ? static_cast<double>(state->count(out[i])) : 0.0;
          probs[i] = (k + o_.learning.prior_weight * g_.probability(out[i])) / (n + o_.learning.prior_weight);
        } else {
          probs[i] = learned_probability(g_, ev, v, w, out[i], o_.learning);
        }
        sum += probs[i];
      }
      for (double& p : probs) p /= sum;
    };
    std::optional<ContextProduct> product;
    // Memories as many as (or more than) those whose product was too large at every history
    // length before: straight to the plan without them (each given-up build costs as much as a
    // product at the size limit; on the MQTT broker's later runs they took most of the time).
    if (with_memory && history_model_.memories.size() >= too_many_memories_) {
      with_memory = false;
      history_model_ = {};
      memory_state_.clear();
    }
    // Shorter histories when the product would be too large, then no memories.
    for (;;) {
      for (std::uint32_t k = o_.max_context;; --k) {
        std::vector<std::uint32_t> keep = keep_;
        for (auto& x : keep) x = std::min(x, k);
        product = ContextProduct::build(
            g_, keep, learned,
            {.to_target = mode_ == Replanning::coverage ? std::span<const std::uint8_t>(wanted_)
                                                        : std::span<const std::uint8_t>(),
             .unit_costs = mode_ != Replanning::expected,
             .goals = goals_,
             .max_vertices = o_.max_product_vertices,
             .memories = with_memory ? std::span<const Memory>(history_model_.memories) : std::span<const Memory>()});
        if (product || k == 0) break;
      }
      if (product || !with_memory) break;
      too_many_memories_ = history_model_.memories.size();
      with_memory = false;
      history_model_ = {};
      memory_state_.clear();
    }
    if (!product) {
      last_work_ = learning_work;
      return;
    }
    Plan plan{.product = std::move(*product)};
    const TestGraph& pg = plan.product.graph();
    std::uint64_t sweeps = 1;
    if (mode_ == Replanning::reach) {
      std::vector<VertexId> goals;
      for (VertexId x : pg.vertices())
        if (pg.is_goal(x)) goals.push_back(x);
      plan.bound = o_.reach_bound ? o_.reach_bound : 2 * g_.num_vertices() + 2;
      plan.reach = std::make_shared<const BoundedReachResult>(
          solve_bounded_reachability(pg, goals, BoundedReachOptions{.bound = plan.bound}));
      sweeps = plan.bound;
    } else {
      std::vector<VertexId> goals;
      if (mode_ == Replanning::coverage)
        goals.push_back(plan.product.target());
      else
        for (VertexId x : pg.vertices())
          if (pg.is_goal(x)) goals.push_back(x);
      if (!goals.empty() && !goals.front().is_none()) {
        ExpectedCostResult r = solve_expected_cost(
            pg, goals,
            {.method = ExpectedCostMethod::value_iteration, .epsilon = 1e-6, .max_iterations = 10000, .threads = 1});
        plan.strategy = std::move(r.strategy);
        sweeps = std::max<std::uint64_t>(1, r.iterations);
      }
    }
    last_work_ = (std::uint64_t{pg.num_vertices()} + pg.num_edges()) * (sweeps + build_units) + learning_work;
    plan_ = std::move(plan);
    if (o_.stats) {
      ++o_.stats->plans;
      o_.stats->plan_work += last_work_;
      o_.stats->plan_ns += static_cast<std::uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
    }
  }

  const Replanning mode_;
  const TestGraph& g_;
  const std::vector<VertexId> goals_;
  std::unique_ptr<Policy> inner_;
  std::shared_ptr<const AdaptOptions> keep_options_;
  const AdaptOptions& o_;
  std::vector<EdgeId> history_;                     // the last edges since the run began or the last reset
  std::vector<EdgeId> path_;                        // every edge since the run began or the last reset
  HistoryModel history_model_;                      // what the plan learned the choices to depend on
  std::vector<std::vector<LabelId>> memory_state_;  // per memory of history_model_: its state now
  std::vector<std::uint8_t> wanted_;                // per model edge: an outcome the plan aims at
  std::size_t too_many_memories_ = static_cast<std::size_t>(-1);  // (see replan)
  std::vector<std::uint32_t> run_count_;                          // per model edge: the system chose it in this run
  std::vector<std::uint32_t> run_visits_;                         // per passive vertex: its choices in this run
  std::vector<std::uint32_t> keep_;                               // per model vertex: history its plan keeps
  std::optional<Plan> plan_;
  bool due_ = true;
  bool stale_ = false;  // coverage: a target of the plan was taken since it was made
  std::uint64_t since_plan_ = 0, moves_in_plan_ = 0, last_work_ = 0;
};

}  // namespace

PolicyMaker adaptive_maker(Replanning mode, const TestGraph& g, const TestPurpose& purpose, PolicyMaker inner,
                           const AdaptOptions& options) {
  if (mode == Replanning::none) return inner;
  std::vector<VertexId> goals = purpose.goals.empty() ? g.goals() : purpose.goals;
  auto o = std::make_shared<const AdaptOptions>(options);
  return [mode, &g, goals, inner = std::move(inner), o](const GameGraph& graph) -> std::unique_ptr<Policy> {
    return std::make_unique<AdaptivePolicy>(mode, g, goals, inner(graph), o);
  };
}

}  // namespace playtest
