#include "playtest/input/property_request.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "playtest/base/error.hpp"
#include "playtest/solve/exact_rational.hpp"

namespace playtest {
namespace {

// The vertices where a label formula holds. PRISM exports: the .lab file's labels (an MDP's choice
// vertices s.c take the labels of their state s); other inputs: "goal", "init", "deadlock", or a
// vertex id. `states_only`: only states (an MDP's choice vertices never hold).
class LabelResolver {
 public:
  LabelResolver(const TestGraph& g, const PrismLabels* prism) : g_(g), prism_(prism), owner_(g.num_vertices()) {
    for (VertexId v : g.vertices()) owner_[v.index()] = v;
    if (prism_ != nullptr && !prism_->dtmc) {
      states_ = 0;
      for (VertexId v : g.vertices()) {
        if (!g.is_active(v)) continue;
        ++states_;
        for (EdgeId e : g.out_edges(v))
          if (g.is_passive(g.target(e))) owner_[g.target(e).index()] = v;
      }
    } else {
      states_ = g.num_vertices();
    }
  }
  std::uint32_t num_states() const { return states_; }
  bool is_state(VertexId v) const { return owner_[v.index()] == v; }
  std::vector<std::uint8_t> eval(const LabelFormula& f) const {
    const std::uint32_t n = g_.num_vertices();
    std::vector<std::uint8_t> out(n, 0);
    switch (f.kind) {
      case LabelFormula::Kind::constant:
        std::fill(out.begin(), out.end(), f.value ? 1 : 0);
        break;
      case LabelFormula::Kind::label: {
        const std::vector<std::uint8_t> st = label(f.label);
        for (std::uint32_t v = 0; v < n; ++v) out[v] = st[owner_[v].index()];
        break;
      }
      case LabelFormula::Kind::negation: {
        out = eval(f.operands[0]);
        for (auto& x : out) x = !x;
        break;
      }
      case LabelFormula::Kind::conjunction:
      case LabelFormula::Kind::disjunction: {
        const bool all = f.kind == LabelFormula::Kind::conjunction;
        std::fill(out.begin(), out.end(), all ? 1 : 0);
        for (const auto& op : f.operands) {
          const auto x = eval(op);
          for (std::uint32_t v = 0; v < n; ++v) out[v] = all ? (out[v] && x[v]) : (out[v] || x[v]);
        }
        break;
      }
    }
    return out;
  }
  std::vector<VertexId> states(const LabelFormula& f) const {
    const auto x = eval(f);
    std::vector<VertexId> out;
    for (VertexId v : g_.vertices())
      if (x[v.index()] && is_state(v)) out.push_back(v);
    return out;
  }
  std::vector<VertexId> initial() const {
    if (prism_ != nullptr) return prism_->initial;
    return {g_.initial()};
  }

 private:
  std::vector<std::uint8_t> label(const std::string& name) const {
    std::vector<std::uint8_t> x(g_.num_vertices(), 0);
    if (prism_ != nullptr) {
      for (std::size_t k = 0; k < prism_->names.size(); ++k)
        if (prism_->names[k] == name) {
          for (VertexId v : prism_->vertices[k]) x[v.index()] = 1;
          return x;
        }
      if (name == "init") {
        for (VertexId v : prism_->initial) x[v.index()] = 1;
        return x;
      }
      std::string names;
      for (const auto& n : prism_->names) names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", n);
      throw InputError(fmt::format("property: the model has no label \"{}\" (its labels: {})", name, names));
    }
    if (name == "goal") {
      for (VertexId v : g_.goals()) x[v.index()] = 1;
    } else if (name == "init") {
      x[g_.initial().index()] = 1;
    } else if (name == "deadlock") {
      for (VertexId v : g_.vertices()) x[v.index()] = g_.is_active(v) && g_.out_degree(v) == 0 && !g_.is_goal(v);
    } else if (auto v = g_.find_vertex(name)) {
      x[v->index()] = 1;
    } else {
      throw InputError(
          fmt::format("property: \"{}\" is neither a label (goal, init, deadlock) nor a vertex id of the graph", name));
    }
    return x;
  }
  const TestGraph& g_;
  const PrismLabels* prism_;
  std::vector<VertexId> owner_;
  std::uint32_t states_ = 0;
};

bool has_choice(const TestGraph& g) {
  for (VertexId v : g.vertices())
    if (g.is_active(v) && g.out_degree(v) > 1) return true;
  return false;
}

// !(f)
LabelFormula negation(const LabelFormula& f) {
  LabelFormula n;
  n.kind = LabelFormula::Kind::negation;
  n.operands.push_back(f);
  n.text = "!(" + f.text + ")";
  return n;
}

// The vertices (states and choices) where f holds.
std::vector<VertexId> allowed_where(const TestGraph& g, const LabelResolver& res, const LabelFormula& f) {
  const auto a = res.eval(f);
  std::vector<VertexId> allowed;
  for (VertexId v : g.vertices())
    if (a[v.index()]) allowed.push_back(v);
  return allowed;
}

// The path formula as the query's targets, the vertices allowed before them and whether the answer
// is the complement (G, W and R by their duals), or a reward's measure.
void path_query(const PrismProperty& p, const LabelResolver& res, const LoadedInput& in, PropertyRequest& req) {
  using Path = PrismProperty::Path;
  const TestGraph& g = *in.graph;
  const bool prism = in.format == InputFormat::prism;
  const PrismLabels& labels = in.labels;
  PropertyQuery& q = req.query;
  switch (p.path) {
    case Path::eventually:
    case Path::next:
      q.targets = res.states(p.target);
      break;
    case Path::until:
      q.targets = res.states(p.target);
      q.allowed = allowed_where(g, res, *p.left);
      break;
    case Path::globally:  // G s = !(F !s)
      q.complement = true;
      q.targets = res.states(negation(p.target));
      break;
    case Path::weak_until: {  // a W b = !((!b) U (!a & !b))
      q.complement = true;
      LabelFormula both;
      both.kind = LabelFormula::Kind::conjunction;
      both.operands = {negation(*p.left), negation(p.target)};
      q.targets = res.states(both);
      q.allowed = allowed_where(g, res, negation(p.target));
      break;
    }
    case Path::release:  // a R b = !((!a) U (!b))
      q.complement = true;
      q.targets = res.states(negation(p.target));
      q.allowed = allowed_where(g, res, negation(*p.left));
      break;
    case Path::cumulative:
      q.measure = RewardMeasure::cumulative;
      break;
    case Path::instantaneous:
      q.measure = RewardMeasure::instantaneous;
      if (prism && labels.state_reward.empty())
        req.note = "(the reward structure has no state rewards: I=k is 0 everywhere, as PRISM answers)";
      if (!prism) throw UsageError("property", "I=k reads state rewards, which only a PRISM export (.srew) has");
      break;
    case Path::long_run:
      q.measure = RewardMeasure::long_run;
      break;
  }
}

// Over which schedulers: min or max as the property says; a comparison without them quantifies over
// all schedulers (the worst decides); a plain query of a model with choices is refused.
void scheduler_direction(const PrismProperty& p, const TestGraph& g, PropertyRequest& req) {
  using Path = PrismProperty::Path;
  PropertyQuery& q = req.query;
  if (p.optimum == PrismProperty::Optimum::none) {
    // A comparison without min/max quantifies over all schedulers: the worst one decides.
    if (req.comparison == PropertyComparison::ge || req.comparison == PropertyComparison::gt)
      q.direction = PropertyDirection::min;
    else if (req.comparison != PropertyComparison::query)
      q.direction = PropertyDirection::max;
    else if (p.quantity != PrismProperty::Quantity::steady_state && p.path != Path::long_run && has_choice(g))
      throw UsageError("property", fmt::format("the model has choices (an MDP): say {}min or {}max",
                                               p.quantity == PrismProperty::Quantity::reward ? "R" : "P",
                                               p.quantity == PrismProperty::Quantity::reward ? "R" : "P"));
  } else {
    q.direction = p.optimum == PrismProperty::Optimum::max ? PropertyDirection::max : PropertyDirection::min;
  }
}

}  // namespace

LoadOptions property_load_options(const PrismProperty& p, LoadOptions in) {
  // Only what the property needs is read: the reward structure of R{"r"} or of a reward bound.
  const std::string reward = p.quantity == PrismProperty::Quantity::reward ? p.reward : p.bound_reward;
  in.prism_property = true;
  in.all_labels = true;
  if (!reward.empty()) {
    if (!in.reward.empty() && in.reward != reward)
      throw UsageError("reward", fmt::format("the property names reward structure \"{}\"", reward));
    in.reward = reward;
  } else if (p.quantity != PrismProperty::Quantity::reward && !p.reward_bound) {
    in.prism_no_rewards = in.reward.empty();
  }
  return in;
}

PropertyRequest property_request(const PrismProperty& p, const LoadedInput& in, const PropertyOptions& options) {
  const TestGraph& g = *in.graph;
  const bool prism = in.format == InputFormat::prism;
  const PrismLabels& labels = in.labels;
  const LabelResolver res(g, prism ? &labels : nullptr);
  PropertyRequest req;
  req.text = p.text;
  PropertyQuery& q = req.query;
  const bool mdp_steps = prism && !labels.dtmc;
  auto moves = [&](std::uint64_t k) {
    if (mdp_steps && k > (std::uint64_t{1} << 62))
      throw UsageError("property", fmt::format("step bound {} is too large", k));
    if (mdp_steps) req.note = "(a PRISM MDP step is two moves of the imported graph: state -> choice -> state)";
    return mdp_steps ? 2 * k : k;
  };
  switch (p.quantity) {
    case PrismProperty::Quantity::probability:
      q.kind = PropertyKind::probability;
      break;
    case PrismProperty::Quantity::reward:
      q.kind = PropertyKind::reward;
      break;
    case PrismProperty::Quantity::steady_state:
      q.kind = PropertyKind::steady_state;
      break;
  }
  path_query(p, res, in, req);
  if (p.quantity == PrismProperty::Quantity::steady_state) q.targets = res.states(p.target);
  if (prism && !labels.state_reward.empty()) {
    q.state_reward = labels.state_reward;
    q.state_reward.resize(g.num_vertices(), 0.0);
  }
  if (p.step_bound) q.step_bound = moves(*p.step_bound);
  if (p.step_lower) q.step_lower = moves(*p.step_lower);
  q.reward_bound = p.reward_bound;
  switch (p.comparison) {
    case PrismProperty::Comparison::query:
      req.comparison = PropertyComparison::query;
      break;
    case PrismProperty::Comparison::ge:
      req.comparison = PropertyComparison::ge;
      break;
    case PrismProperty::Comparison::gt:
      req.comparison = PropertyComparison::gt;
      break;
    case PrismProperty::Comparison::le:
      req.comparison = PropertyComparison::le;
      break;
    case PrismProperty::Comparison::lt:
      req.comparison = PropertyComparison::lt;
      break;
  }
  if (req.comparison != PropertyComparison::query) {
    auto t = exact::parse_decimal(p.threshold);
    if (!t) throw UsageError("property", fmt::format("the bound '{}' is not a number", p.threshold));
    req.threshold = *t;
    req.threshold_text = p.threshold;
  }
  scheduler_direction(p, g, req);
  switch (p.filter) {
    case PrismProperty::Filter::none:
      req.filter = PropertyFilter::none;
      break;
    case PrismProperty::Filter::max:
      req.filter = PropertyFilter::max;
      break;
    case PrismProperty::Filter::min:
      req.filter = PropertyFilter::min;
      break;
    case PrismProperty::Filter::avg:
      req.filter = PropertyFilter::avg;
      break;
    case PrismProperty::Filter::sum:
      req.filter = PropertyFilter::sum;
      break;
    case PrismProperty::Filter::forall:
      req.filter = PropertyFilter::forall;
      break;
    case PrismProperty::Filter::exists:
      req.filter = PropertyFilter::exists;
      break;
    case PrismProperty::Filter::first:
      req.filter = PropertyFilter::first;
      break;
  }
  req.states = p.filter_states ? res.states(*p.filter_states) : res.initial();
  if (req.states.empty()) throw InputError(fmt::format("property: no state satisfies the filter's states formula"));
  req.options = options;
  return req;
}

PropertyRequest exact_objective_request(const SolveRequest& q, double exact_seconds) {
  PropertyRequest req;
  req.states = {q.from};
  req.query.targets = q.goals;
  req.options.exact = true;
  req.options.exact_seconds = exact_seconds;
  req.objective = std::string(objective_name(q.objective));
  if (q.objective == SolveObjective::expected) {
    req.query.kind = PropertyKind::reward;
    req.query.direction = PropertyDirection::min;
    req.text = "least expected cost to a goal (--objective expected --exact; PRISM: Rmin=? [ F \"goal\" ])";
  } else {
    req.query.kind = PropertyKind::probability;
    req.query.direction = PropertyDirection::max;
    req.query.step_bound = q.bound;
    req.text = fmt::format("greatest probability of a goal within {} moves (--objective reach --exact)", q.bound);
  }
  return req;
}

}  // namespace playtest
