#include "playtest/ioco/torx_analysis.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "playtest/base/error.hpp"
#include "playtest/graph/random.hpp"
#include "playtest/ioco/ioco_graph.hpp"
#include "playtest/ioco/suspension.hpp"

namespace playtest::ioco {

std::string canonical_label(const std::string& label) { return label == "null" ? std::string("delta") : label; }

namespace {

constexpr ActionId no_action = ~ActionId{0};

// spec action -> impl action by name (no_action when absent).
std::vector<ActionId> map_actions(const Lts& from, const Lts& to) {
  std::vector<ActionId> m(from.num_actions(), no_action);
  m[Lts::tau] = Lts::tau;
  m[Lts::delta] = Lts::delta;
  for (ActionId a = 2; a < from.num_actions(); ++a) {
    auto b = to.find_action(from.action_name(a));
    if (b && to.kind(*b) != from.kind(a))
      throw ModelError(fmt::format("label '{}' is an {} of the specification but an {} of the implementation",
                                   from.action_name(a), to_string(from.kind(a)), to_string(to.kind(*b))));
    if (b) m[a] = *b;
  }
  return m;
}

// The choice probabilities at a set: (input share, observe share), stop being the rest.
struct Shares {
  double input = 0.0, observe = 0.0;
};
Shares shares_at(bool has_input, std::uint32_t length, const TorxOptions& o) {
  if (o.max_length != 0 && length >= o.max_length) return {};  // the run ends, also at a passive vertex
  if (!has_input) return {0.0, 1.0};  // a passive vertex: the runner waits for the output, no choice
  const double total = o.p_stop + o.p_input + o.p_observe;
  return {o.p_input / total, o.p_observe / total};
}

// The label of an action of `impl` in `spec`'s terms, for a trace.
ActionId find_in(const Lts& l, const std::string& label) {
  auto a = l.find_action(canonical_label(label));
  return a ? *a : no_action;
}

}  // namespace

double torx_trace_probability(const Lts& spec, const Lts& impl, const std::vector<std::string>& trace,
                              const TorxOptions& options) {
  validate(options);
  SuspensionAutomaton ss(spec), si(impl);
  SetId q = ss.initial(), r = si.initial();
  double p = 1.0;
  for (std::uint32_t k = 0; k < trace.size(); ++k) {
    if (q == no_set || r == no_set) return 0.0;  // after a FAIL or a refused input
    const ActionId a = find_in(spec, trace[k]);
    const ActionId b = find_in(impl, trace[k]);
    if (a == no_action && b == no_action)
      throw ModelError(fmt::format("trace label '{}' is an action of neither system", trace[k]));
    const bool is_input = a != no_action ? spec.is_input(a) : impl.is_input(b);
    const Shares sh = shares_at(ss.has_input(q), k, options);
    if (is_input) {
      const auto ins = ss.inputs(q);
      if (a == no_action || std::find(ins.begin(), ins.end(), a) == ins.end()) return 0.0;
      p *= sh.input / static_cast<double>(ins.size());
      q = ss.after(q, a);
      r = b == no_action ? no_set : si.after(r, b);
    } else {
      const auto outs = si.outputs(r);
      if (b == no_action || std::find(outs.begin(), outs.end(), b) == outs.end()) return 0.0;
      p *= sh.observe / static_cast<double>(outs.size());
      q = a == no_action ? no_set : ss.after(q, a);  // no_set: FAIL, the run ends here
      r = si.after(r, b);
    }
  }
  return p;
}

std::vector<LabelledTrace> fail_traces(const Lts& spec, const Lts& impl, std::uint32_t max_length,
                                       const TorxOptions& options) {
  const std::vector<ActionId> s2i = map_actions(spec, impl);
  const std::vector<ActionId> i2s = map_actions(impl, spec);
  SuspensionAutomaton ss(spec), si(impl);
  std::vector<LabelledTrace> out;
  std::vector<std::string> trace;
  std::uint32_t n_in = 0, n_out = 0;
  auto rec = [&](auto&& self, SetId q, SetId r) -> void {
    if (trace.size() >= max_length) return;
    // Outputs of the implementation, in action-id order of the implementation.
    for (ActionId b : si.outputs(r)) {
      const ActionId a = i2s[b];
      const SetId q2 = a == no_action ? no_set : ss.after(q, a);
      trace.emplace_back(impl.action_name(b));
      ++n_out;
      if (q2 == no_set) {
        out.push_back({trace, n_in, n_out, torx_trace_probability(spec, impl, trace, options)});
      } else {
        self(self, q2, si.after(r, b));
      }
      --n_out;
      trace.pop_back();
    }
    for (ActionId a : ss.inputs(q)) {
      const ActionId b = s2i[a];
      const SetId r2 = b == no_action ? no_set : si.after(r, b);
      if (r2 == no_set) continue;
      trace.emplace_back(spec.action_name(a));
      ++n_in;
      self(self, ss.after(q, a), r2);
      --n_in;
      trace.pop_back();
    }
  };
  rec(rec, ss.initial(), si.initial());
  return out;
}

TorxOutcome torx_exact(const Lts& spec, const Lts& impl, const TorxOptions& options, const TorxExactOptions& exact) {
  validate(options);
  const std::vector<ActionId> s2i = map_actions(spec, impl);
  const std::vector<ActionId> i2s = map_actions(impl, spec);
  SuspensionAutomaton ss(spec, {.max_sets = exact.max_sets}), si(impl, {.max_sets = exact.max_sets});
  auto key = [](SetId q, SetId r) { return (std::uint64_t{q} << 32) | r; };
  std::unordered_map<std::uint64_t, double> level{{key(ss.initial(), si.initial()), 1.0}}, next;
  TorxOutcome res;
  std::uint32_t length = 0;
  for (; !level.empty(); ++length) {
    if (length >= exact.max_levels) break;
    double running = 0.0;
    for (auto& [k, mass] : level) running += mass;
    if (running < exact.epsilon && length > 0) break;
    next.clear();
    for (const auto& [k, mass] : level) {
      const SetId q = static_cast<SetId>(k >> 32), r = static_cast<SetId>(k & 0xffffffffu);
      const Shares sh = shares_at(ss.has_input(q), length, options);
      res.pass_stop += mass * (1.0 - sh.input - sh.observe);
      if (sh.input > 0.0) {
        const auto ins = ss.inputs(q);
        const double each = mass * sh.input / static_cast<double>(ins.size());
        for (ActionId a : ins) {
          const SetId r2 = s2i[a] == no_action ? no_set : si.after(r, s2i[a]);
          if (r2 == no_set) res.pass_refused += each;
          else next[key(ss.after(q, a), r2)] += each;
        }
      }
      if (sh.observe > 0.0) {
        const auto outs = si.outputs(r);
        const double each = mass * sh.observe / static_cast<double>(outs.size());
        for (ActionId b : outs) {
          const SetId q2 = i2s[b] == no_action ? no_set : ss.after(q, i2s[b]);
          if (q2 == no_set) res.fail += each;
          else next[key(q2, si.after(r, b))] += each;
        }
      }
    }
    std::swap(level, next);
  }
  for (const auto& [k, mass] : level) res.unresolved += mass;
  res.levels = length;
  return res;
}

TorxSimulation simulate_torx(const Lts& spec, const Lts& impl, const TorxOptions& options, std::uint64_t runs,
                             std::uint64_t seed, const std::vector<std::string>& watch, std::uint64_t max_steps) {
  const IocoGraph ig = build_ioco_graph(spec);
  const TestGraph& g = ig.graph;
  SuspensionAutomaton si(impl);
  TorxPolicy policy(options);
  Rng rng(seed);
  std::vector<std::uint32_t> visits(g.num_edges(), 0);
  std::vector<EdgeId> touched;
  std::vector<std::string> canon_watch;
  for (const auto& w : watch) canon_watch.push_back(canonical_label(w));
  std::map<std::string, std::uint64_t> fail_counts;
  TorxSimulation sim;
  std::vector<std::string> trace;
  for (std::uint64_t run = 0; run < runs; ++run) {
    for (EdgeId e : touched) visits[e.index()] = 0;
    touched.clear();
    trace.clear();
    VertexId v = g.initial();
    SetId r = si.initial();
    std::uint64_t step = 0;
    auto view = [&] { return RunView{.graph = g, .current = v, .step = step, .edge_visits = visits, .purpose_edges = {}}; };
    auto take = [&](EdgeId e) {
      if (visits[e.index()]++ == 0) touched.push_back(e);
      v = g.target(e);
      ++step;
      policy.observe(e, view());
    };
    policy.begin_run(view(), rng);
    enum class End { stop, fail, refused } end = End::stop;
    while (step < max_steps) {
      if (g.is_active(v)) {
        const Decision d = policy.choose(view(), rng);
        if (d.kind != Decision::Kind::take) break;
        const std::string_view label = g.label(d.edge);
        if (!g.is_observe(d.edge)) {
          auto b = impl.find_action(label);
          const SetId r2 = b ? si.after(r, *b) : no_set;
          trace.emplace_back(label);
          if (r2 == no_set) {
            end = End::refused;
            break;
          }
          r = r2;
        }
        take(d.edge);
        continue;
      }
      // Passive: the run ends when the length bound is reached (as at an active vertex); otherwise
      // the implementation picks one of its outputs uniformly.
      if (options.max_length != 0 && policy.trace_length() >= options.max_length) break;
      const std::vector<ActionId> outs = si.outputs(r);
      const ActionId b = outs[rng.below(outs.size())];
      trace.emplace_back(impl.action_name(b));
      auto e = find_out_edge(g, v, impl.action_name(b));
      if (!e) {
        end = End::fail;
        break;
      }
      r = si.after(r, b);
      take(*e);
    }
    ++sim.runs;
    switch (end) {
      case End::stop: ++sim.pass_stop; break;
      case End::refused: ++sim.pass_refused; break;
      case End::fail: {
        ++sim.fails;
        std::string t;
        for (const auto& l : trace) t += (t.empty() ? "" : " ") + l;
        ++fail_counts[t];
        break;
      }
    }
    if (!canon_watch.empty() && trace.size() >= canon_watch.size() &&
        std::equal(canon_watch.begin(), canon_watch.end(), trace.begin()))
      ++sim.watch_hits;
  }
  sim.fail_trace_counts.assign(fail_counts.begin(), fail_counts.end());
  return sim;
}

}  // namespace playtest::ioco
