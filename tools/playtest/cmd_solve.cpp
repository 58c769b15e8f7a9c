// playtest solve FILE --objective reach|win|expected: the tester's optimal strategy and what it
// achieves from every vertex (library: playtest/solve/solve_report.hpp). Text table or --json;
// --dot draws the strategy.
#include <fmt/format.h>

#include <iostream>

#include "command.hpp"
#include "common.hpp"
#include "option_checks.hpp"
#include "playtest/error.hpp"
#include "playtest/graph/names.hpp"
#include "playtest/io/dot.hpp"
#include "playtest/io/prism_property.hpp"
#include "playtest/solve/bound_limits.hpp"
#include "playtest/solve/exact_fallback.hpp"
#include "playtest/solve/property_report.hpp"
#include "playtest/solve/solve_report.hpp"
#include "progress.hpp"

namespace playtest::cli {
namespace {

struct Options {
  InputOptions input;
  std::string objective = "expected", method = "certified", from, dot;
  std::vector<std::string> goals;
  SolveRequest request;
  bool json = false;
  std::uint32_t limit = 50;
  std::string property;        // --property: a PRISM/Storm formula
  bool exact = false;          // --exact: rational arithmetic
  double exact_seconds = 120;  // budget of --exact
  double check_seconds = 10;   // budget of exact checks and fallbacks
  bool bound_given = false;
};

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

int finish_property(const Options& o, const TestGraph& g, const PropertyRequest& req) {
  const PropertyReport r = solve_property_report(g, req);
  if (o.json)
    write_property_json(std::cout, g, r, o.input.path);
  else
    write_property_text(std::cout, g, r, o.limit);
  std::cout.flush();
  if (!o.dot.empty()) {
    Output out(o.dot);
    DotOptions d{.title = fmt::format("{} ({})", o.input.path, req.text),
                 .highlight_edge = [&](EdgeId e) { return r.result.strategy[g.source(e).index()] == e; },
                 .vertex_note = [&](VertexId v) { return fmt::format("{:.6g}", r.result.value[v.index()]); },
                 .dim_vertex = [&](VertexId v) { return r.result.value[v.index()] == 0; }};
    write_dot(g, out.stream(), d);
    out.close();
  }
  return r.certified ? exit_ok : exit_uncertified;
}

int run_property(Options& o) {
  const PrismProperty p = parse_prism_property(o.property);
  if (!o.goals.empty() || !o.from.empty())
    throw UsageError("property", "names its targets and states itself; --goal and --from do not apply");
  // Only what the property needs is read: the reward structure of R{"r"} or of a reward bound.
  const std::string reward = p.quantity == PrismProperty::Quantity::reward ? p.reward : p.bound_reward;
  InputOptions in = o.input;
  in.prism_property = true;
  if (!reward.empty()) {
    if (!in.reward.empty() && in.reward != reward)
      throw UsageError("reward", fmt::format("the property names reward structure \"{}\"", reward));
    in.reward = reward;
  } else if (p.quantity == PrismProperty::Quantity::probability && !p.reward_bound) {
    in.prism_no_rewards = in.reward.empty();
  }
  InputFormat format{};
  PrismLabels labels;
  const TestGraph g = load_input(in, &format, &labels);
  const bool prism = format == InputFormat::prism;
  const LabelResolver res(g, prism ? &labels : nullptr);
  PropertyRequest req;
  req.text = p.text;
  PropertyQuery& q = req.query;
  q.kind = p.quantity == PrismProperty::Quantity::reward ? PropertyKind::reward : PropertyKind::probability;
  q.targets = res.states(p.target);
  if (p.left) {
    const auto a = res.eval(*p.left);
    std::vector<VertexId> allowed;
    for (VertexId v : g.vertices())
      if (a[v.index()]) allowed.push_back(v);
    q.allowed = std::move(allowed);
  }
  const bool mdp_steps = prism && !labels.dtmc;
  if (p.step_bound) {
    if (mdp_steps && *p.step_bound > (std::uint64_t{1} << 62))
      throw UsageError("property", fmt::format("step bound {} is too large", *p.step_bound));
    q.step_bound = mdp_steps ? 2 * *p.step_bound : *p.step_bound;
    if (mdp_steps) req.note = "(a PRISM MDP step is two moves of the imported graph: state -> choice -> state)";
  }
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
  if (p.optimum == PrismProperty::Optimum::none) {
    // A comparison without min/max quantifies over all schedulers: the worst one decides.
    if (req.comparison == PropertyComparison::ge || req.comparison == PropertyComparison::gt)
      q.direction = PropertyDirection::min;
    else if (req.comparison != PropertyComparison::query)
      q.direction = PropertyDirection::max;
    else if (has_choice(g))
      throw UsageError("property", fmt::format("the model has choices (an MDP): say {}min or {}max",
                                               p.quantity == PrismProperty::Quantity::reward ? "R" : "P",
                                               p.quantity == PrismProperty::Quantity::reward ? "R" : "P"));
  } else {
    q.direction = p.optimum == PrismProperty::Optimum::max ? PropertyDirection::max : PropertyDirection::min;
  }
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
  req.options.exact = o.exact;
  req.options.exact_seconds = o.exact_seconds;
  req.options.check_seconds = o.check_seconds;
  return finish_property(o, g, req);
}

// --exact without --property: expected is Rmin to the goals, reach is Pmax within --bound moves.
int run_exact(Options& o, const TestGraph& g, const SolveRequest& q) {
  PropertyRequest req;
  req.states = {q.from};
  req.query.targets = q.goals;
  req.options.exact = true;
  req.options.exact_seconds = o.exact_seconds;
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
  return finish_property(o, g, req);
}

int run(Options& o) {
  if (!o.property.empty()) {
    if (o.objective != "expected" || o.bound_given)
      throw UsageError("property", "takes the place of --objective and --bound");
    return run_property(o);
  }
  if (o.exact && o.objective == "win")
    throw UsageError("exact", "applies to --objective expected and reach (win has no probabilities to be exact about)");
  const TestGraph g = load_input(o.input);
  SolveRequest& q = o.request;
  for (const auto& name : o.goals) q.goals.push_back(vertex_named(g, name, "a goal"));
  if (q.goals.empty()) q.goals = g.goals();
  if (q.goals.empty())
    throw InputError(
        fmt::format("{}: the graph has no goal vertices; mark some as goals or give --goal ID", o.input.path));
  q.from = o.from.empty() ? g.initial() : vertex_named(g, o.from, "the vertex to report (--from)");
  q.objective = o.objective == "reach" ? SolveObjective::reach
                : o.objective == "win" ? SolveObjective::win
                                       : SolveObjective::expected;
  if (q.objective == SolveObjective::reach) check_reach_bound(g, q.bound, 0);
  if (o.exact) return run_exact(o, g, q);
  for (auto m : {ExpectedCostMethod::certified, ExpectedCostMethod::value_iteration,
                 ExpectedCostMethod::policy_iteration, ExpectedCostMethod::linear_programming})
    if (method_name(m) == o.method) q.method = m;
  ProgressLine progress(q.objective == SolveObjective::reach ? "solve reach" : "solve expected: value iteration",
                        q.objective == SolveObjective::reach ? "steps of the bound" : "sweeps");
  if (progress.shown() && q.objective != SolveObjective::win)
    q.progress = [&](std::uint64_t done, std::uint64_t total) { progress.update(done, total); };
  SolveReport r = solve(g, q);
  progress.finish();
  // Small models: the answer checked in rational arithmetic, and replaced by the exact optimum
  // when it was not certified or the check refutes it (docs/transforms.md, "Exact answers").
  ExactFallbackOutcome fallback;
  if (o.method == "certified") fallback = apply_exact_fallback(g, r, {.seconds = o.check_seconds});
  if (o.json) {
    write_solve_json(std::cout, g, r, o.input.path);
  } else {
    write_solve_text(std::cout, g, r, o.limit);
    if (fallback.replaced)
      std::cout << fmt::format(
          "exact fallback: the floating-point answer ({}) was replaced by the exact optimum "
          "(rational arithmetic; --exact prints the fractions)\n",
          fallback.reason);
    else if (fallback.checked)
      std::cout << "exact check: the strategy was evaluated in rational arithmetic and is optimal\n";
  }
  std::cout.flush();
  if (!o.dot.empty()) {
    Output out(o.dot);
    DotOptions d{.title = fmt::format("{} ({})", o.input.path, o.objective),
                 .highlight_edge = [&](EdgeId e) { return r.edge(g.source(e)) == e; },
                 .vertex_note = [&](VertexId v) { return r.note(v); },
                 .dim_vertex = [&](VertexId v) { return r.lost(v); }};
    write_dot(g, out.stream(), d);
    out.close();
  }
  return r.certified ? exit_ok : exit_uncertified;
}

const Registration reg{
    "solve", 40, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* sub = app.add_subcommand("solve", "Compute an optimal tester strategy (reach, win or expected cost)");
      add_input_options(sub, o->input);
      sub->add_option("--objective", o->objective,
                      "reach: bounded reachability (seed 000 §3); win: sure winning at least worst-case cost (§4); "
                      "expected: least expected cost to a goal (seed 001)")
          ->check(CLI::IsMember({"reach", "win", "expected"}))
          ->default_val("expected");
      sub->add_option("--bound", o->request.bound, "reach: the bound n on the number of moves")
          ->default_val(100)
          ->each([o](const std::string&) { o->bound_given = true; });
      sub->add_option("--property", o->property,
                      "A PRISM/Storm property to answer instead of --objective: Pmax=? [ F \"l\" ], Pmin, P=? "
                      "(DTMC), F<=k, F{\"r\"}<=B, \"a\" U \"b\", R{\"r\"}min=? [ F \"l\" ], Rmax, R=?, P>=1 [ ... ], "
                      "filter(max, ..., \"init\") (docs/formats.md)");
      sub->add_flag("--exact", o->exact,
                    "expected, reach, --property: exact rational values and strategies (fractions; --json: "
                    "value_exact)");
      sub->add_option("--exact-seconds", o->exact_seconds, "The wall-clock budget of --exact (exit 2 when exceeded)")
          ->default_val(120)
          ->check(positive_finite());
      sub->add_option("--check-seconds", o->check_seconds,
                      "The wall-clock budget of the exact check of a floating-point answer, and of the exact fallback "
                      "(when exceeded: not certified, exit 5)")
          ->default_val(10)
          ->check(positive_finite());
      sub->add_option("--threads", o->request.threads,
                      "reach, expected: threads for the solver (0: the machine's hardware threads, at most 8); "
                      "the result is the same for every count")
          ->default_val(0);
      sub->add_option("--goal", o->goals, "A goal vertex id (repeatable; default: the file's goal vertices)");
      sub->add_option("--method", o->method,
                      "expected: certified (value iteration then policy iteration, checked optimal), vi, pi, lp")
          ->check(CLI::IsMember({"certified", "vi", "pi", "lp"}))
          ->default_val("certified");
      sub->add_option("--epsilon", o->request.epsilon,
                      "expected, vi: stop when the largest relative change is below this")
          ->default_val(1e-9)
          ->check(positive_finite());
      sub->add_option("--from", o->from, "The vertex whose value the summary reports (default: the initial vertex)");
      sub->add_option("--iterates", o->request.iterates,
                      "expected: also print the first K value-iteration iterates M^n at --from (§3)")
          ->default_val(0);
      sub->add_flag("--json", o->json, "Print one JSON object: objective, summary, vertices");
      sub->add_option("--dot", o->dot, "Also write a Graphviz picture with the strategy highlighted to this file");
      sub->add_option("--limit", o->limit, "Text output: at most this many table rows")->default_val(50);
      sub->footer(
          "Exit codes: 0 solved (expected: certified), 2 bad input or options, 5 an answer that is not "
          "certified (method vi, pi or lp, an error bound above the tolerance, an iteration limit, overflow).");
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
