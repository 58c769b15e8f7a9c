#include "solve/detail/bounded_reach_folded.hpp"

#include <algorithm>
#include <limits>
#include <type_traits>
#include <vector>

#include "playtest/error.hpp"
#include "solve/detail/team.hpp"

namespace playtest::detail {

namespace {

constexpr std::uint32_t none32 = std::numeric_limits<std::uint32_t>::max();

// A state's values at an even step and at the odd step after it, side by side.
struct alignas(32) Pair {
  ReachValue e, o;
};

struct FoldedModel {
  std::vector<std::uint32_t> state_of;      // per vertex: its state (active vertices and goals), else none
  std::vector<std::uint32_t> computed;      // the non-goal active vertices, ascending
  std::vector<std::uint32_t> first_act;     // per computed vertex + 1: its actions (= its edges, in order)
  std::vector<std::uint32_t> state_choice;  // per computed vertex + 1: its first choice
  std::vector<std::uint32_t> act_choice;    // per action: its choice, none for an edge to a goal
  std::vector<double> act_cost;             // per action: the edge's cost
  std::vector<std::uint32_t> first_trans;   // per choice + 1
  std::vector<std::uint32_t> tgt;           // per transition: the target's state
  std::vector<double> prob, cost;           // per transition (cost empty when all are 0)
  std::vector<VertexId> choice_vertex;      // per choice; the owned ones in action order, then the loose ones
  std::uint32_t owned = 0;
  std::uint32_t states = 0;  // the state `states` is a dummy with value (0, 0) at every step
  std::uint32_t max_degree = 0;
  // When every choice has at most 4 transitions and padding costs at most twice their number, each
  // choice gets `width` transitions (the last ones into the dummy with probability 0, which adds
  // +0 to the sum and 0 to the maximum, exactly): the loop over them has no data-dependent branch.
  std::uint32_t width = 0;
};

void pad(FoldedModel& m) {
  const std::uint32_t nch = static_cast<std::uint32_t>(m.choice_vertex.size());
  std::uint32_t w = 1;
  for (std::uint32_t j = 0; j < nch; ++j) w = std::max(w, m.first_trans[j + 1] - m.first_trans[j]);
  if (w > 4 || std::size_t{nch} * w > 2 * m.tgt.size()) return;
  std::vector<std::uint32_t> tgt(std::size_t{nch} * w, m.states);
  std::vector<double> prob(std::size_t{nch} * w, 0.0), cost(m.cost.empty() ? 0 : std::size_t{nch} * w, 0.0);
  for (std::uint32_t j = 0; j < nch; ++j)
    for (std::uint32_t k = m.first_trans[j], i = j * w; k < m.first_trans[j + 1]; ++k, ++i) {
      tgt[i] = m.tgt[k];
      prob[i] = m.prob[k];
      if (!cost.empty()) cost[i] = m.cost[k];
    }
  for (std::uint32_t j = 0; j <= nch; ++j) m.first_trans[j] = j * w;
  m.tgt = std::move(tgt);
  m.prob = std::move(prob);
  m.cost = std::move(cost);
  m.width = w;
}

// Builds the model, or returns false when g does not have the folded shape.
bool build(const TestGraph& g, const std::vector<std::uint8_t>& goal, FoldedModel& m) {
  const std::uint32_t nv = g.num_vertices();
  const auto off = g.out_offsets();
  const auto tg = g.targets();
  const auto src = g.sources();
  // 1: owned choice (one predecessor, a non-goal active vertex); 2: loose (only goals lead to it).
  std::vector<std::uint8_t> kind(nv, 0);
  for (std::uint32_t v = 0; v < nv; ++v) {
    if (goal[v] || g.is_active(VertexId{v})) continue;
    std::uint32_t preds = 0, from_goals = 0;
    bool from_active = false;
    for (EdgeId e : g.in_edges(VertexId{v})) {
      const std::uint32_t u = src[e.index()].index();
      ++preds;
      if (goal[u])
        ++from_goals;
      else
        from_active = g.is_active(VertexId{u});
    }
    if (from_goals == preds)
      kind[v] = 2;
    else if (preds == 1 && from_active)
      kind[v] = 1;
    else
      return false;
  }
  m.state_of.assign(nv, none32);
  std::uint32_t states = 0;
  for (std::uint32_t v = 0; v < nv; ++v)
    if (goal[v] || g.is_active(VertexId{v})) m.state_of[v] = states++;
  m.states = states;
  std::size_t actions = 0, trans = 0;
  for (std::uint32_t v = 0; v < nv; ++v) {
    if (goal[v] || !g.is_active(VertexId{v})) continue;
    m.computed.push_back(v);
    m.max_degree = std::max(m.max_degree, off[v + 1] - off[v]);
    for (std::uint32_t e = off[v]; e < off[v + 1]; ++e) {
      const std::uint32_t t = tg[e].index();
      ++actions;
      if (goal[t]) continue;
      if (kind[t] != 1) return false;  // an edge to an active vertex, or to a choice of another's
      trans += off[t + 1] - off[t];
    }
  }
  if (actions >= none32 || trans >= none32) return false;
  m.first_act.reserve(m.computed.size() + 1);
  m.act_choice.reserve(actions);
  m.act_cost.reserve(actions);
  m.tgt.reserve(trans);
  m.prob.reserve(trans);
  m.first_trans.push_back(0);
  const auto cost = g.costs();
  const auto prob = g.probabilities();
  bool costs = false;
  auto add_choice = [&](std::uint32_t j) {
    for (std::uint32_t f = off[j]; f < off[j + 1]; ++f) {
      const std::uint32_t t = m.state_of[tg[f].index()];
      if (t == none32) return false;  // leads to a passive vertex that is not a goal
      m.tgt.push_back(t);
      m.prob.push_back(prob[f]);
      costs = costs || cost[f] != 0;
    }
    m.first_trans.push_back(static_cast<std::uint32_t>(m.tgt.size()));
    m.choice_vertex.push_back(VertexId{j});
    return true;
  };
  for (std::uint32_t v : m.computed) {
    m.first_act.push_back(static_cast<std::uint32_t>(m.act_cost.size()));
    m.state_choice.push_back(static_cast<std::uint32_t>(m.choice_vertex.size()));
    for (std::uint32_t e = off[v]; e < off[v + 1]; ++e) {
      const std::uint32_t t = tg[e].index();
      m.act_cost.push_back(cost[e]);
      if (goal[t]) {
        m.act_choice.push_back(none32);
        continue;
      }
      m.act_choice.push_back(static_cast<std::uint32_t>(m.choice_vertex.size()));
      if (!add_choice(t)) return false;
    }
  }
  m.first_act.push_back(static_cast<std::uint32_t>(m.act_cost.size()));
  m.state_choice.push_back(static_cast<std::uint32_t>(m.choice_vertex.size()));
  m.owned = static_cast<std::uint32_t>(m.choice_vertex.size());
  for (std::uint32_t v = 0; v < nv; ++v)
    if (kind[v] == 2 && !add_choice(v)) return false;
  if (costs) {
    m.cost.reserve(m.tgt.size());
    for (VertexId j : m.choice_vertex)
      for (std::uint32_t f = off[j.index()]; f < off[j.index() + 1]; ++f) m.cost.push_back(cost[f]);
  }
  pad(m);
  return true;
}

// What one thread's share of a pass produces besides values.
struct PartOut {
  ChangeLog log;
  std::uint64_t changes = 0;
  std::uint64_t active_e = 0, active_o = 0;     // states changed at 2s and 2s + 1
  std::uint64_t choice_prev = 0, choice_e = 0;  // choice vertices changed at 2s - 1 and 2s
  std::vector<ReachValue> xe, xo;               // options of a vertex with many edges
};

// W: transitions per choice when padded, 0 when not.
template <class Order, bool Costs, std::uint32_t W>
class Pass {
 public:
  Pass(const FoldedModel& m, Order order, std::vector<ReachValue>& pstore, std::vector<std::uint32_t>& slot,
       std::vector<std::uint32_t>& last)
      : m_(m), order_(order), pstore_(pstore), slot_(slot), last_(last) {}

  // The choice vertex j at 2s - 1 and 2s from R; counts its changes; keeps the value at 2s.
  void choice(const Pair* r, std::uint32_t j, ReachValue& pe, ReachValue& po, PartOut& out) const {
    double ep = 0, ec = 0, op = 0, oc = 0;
    const std::uint32_t k0 = W != 0 ? j * W : m_.first_trans[j];
    const std::uint32_t k1 = W != 0 ? k0 + W : m_.first_trans[j + 1];
    for (std::uint32_t k = k0; k < k1; ++k) {
      const Pair& y = r[m_.tgt[k]];
      const double p = m_.prob[k];
      const double c = Costs ? m_.cost[k] : 0.0;
      ep += p * y.e.prob;
      ec = std::max(ec, c + y.e.cost);
      op += p * y.o.prob;
      oc = std::max(oc, c + y.o.cost);
    }
    pe = {ep, ec};
    po = {op, oc};
    out.choice_prev += pe != pstore_[j];
    out.choice_e += po != pe;
    pstore_[j] = po;
  }

  // BoundedReachSolver::compute's choice among the options x (slot s = option s - 1), keeping
  // `cur` unless an option is strictly better.
  ReachValue select(const ReachValue* x, std::uint32_t deg, std::uint32_t cur, std::uint32_t& slot) const {
    std::uint32_t best_slot = cur;
    ReachValue best{};
    if (cur != 0) best = x[cur - 1];
    for (std::uint32_t j = 0; j < deg; ++j) {
      const bool take = order_.better(x[j], best);
      best.prob = take ? x[j].prob : best.prob;
      best.cost = take ? x[j].cost : best.cost;
      best_slot = take ? j + 1 : best_slot;
    }
    if (best_slot != 0 && order_.better(ReachValue{}, best)) {
      best = ReachValue{};
      best_slot = 0;
    }
    slot = best_slot;
    return best;
  }

  void log(PartOut& out, std::uint32_t c, std::uint32_t k, std::uint32_t s) const {
    const std::uint32_t v = m_.computed[c];
    const std::uint64_t slots = m_.first_act[c + 1] - m_.first_act[c] + 1;
    out.log.append(v, static_cast<std::uint64_t>(k - last_[c] - 1) * slots + s);
    last_[c] = k;
    ++out.changes;
  }

  // Step 1 from the values at 0 (choice vertices (0, 0)), in place (it reads no state).
  void first(Pair* r, std::uint32_t lo, std::uint32_t hi, PartOut& out) const {
    for (std::uint32_t c = lo; c < hi; ++c) {
      const std::uint32_t a0 = m_.first_act[c], deg = m_.first_act[c + 1] - a0;
      out.xe.resize(deg);
      for (std::uint32_t j = 0; j < deg; ++j) {
        const double y = m_.act_choice[a0 + j] == none32 ? 1.0 : 0.0;
        out.xe[j] = {y, m_.act_cost[a0 + j] + 0.0};
      }
      std::uint32_t s;
      Pair& p = r[m_.state_of[m_.computed[c]]];
      const ReachValue v = select(out.xe.data(), deg, 0, s);
      if (s != 0) log(out, c, 1, s);
      out.active_o += v != p.e;
      p.o = v;
      slot_[c] = s;
    }
  }

  // Steps 2s and (with `odd`) 2s + 1 for the computed vertices [lo, hi), from R into W.
  void step(const Pair* r, Pair* w, std::uint32_t k, bool odd, std::uint32_t lo, std::uint32_t hi, PartOut& out) const {
    constexpr std::uint32_t ahead = 128;  // transitions: successors' values are loaded this far ahead
    constexpr std::uint32_t small = 16;   // options kept on the stack
    ReachValue xe_small[small], xo_small[small];
    const std::uint32_t num_trans = static_cast<std::uint32_t>(m_.tgt.size());
    std::uint32_t pf = trans_of(m_.state_choice[lo]);
    for (std::uint32_t c = lo; c < hi; ++c) {
      const std::uint32_t a0 = m_.first_act[c], deg = m_.first_act[c + 1] - a0;
      for (const std::uint32_t to = std::min(trans_of(m_.state_choice[c + 1]) + ahead, num_trans); pf < to; ++pf)
        __builtin_prefetch(&r[m_.tgt[pf]]);
      ReachValue* xe = xe_small;
      ReachValue* xo = xo_small;
      if (deg > small) {
        out.xe.resize(deg);
        out.xo.resize(deg);
        xe = out.xe.data();
        xo = out.xo.data();
      }
      for (std::uint32_t j = 0; j < deg; ++j) {
        const double cost = m_.act_cost[a0 + j];
        const std::uint32_t ch = m_.act_choice[a0 + j];
        if (ch == none32) {
          xe[j] = xo[j] = {1.0, cost + 0.0};
          continue;
        }
        ReachValue pe, po;
        choice(r, ch, pe, po, out);
        xe[j] = {pe.prob, cost + pe.cost};
        xo[j] = {po.prob, cost + po.cost};
      }
      const std::uint32_t state = m_.state_of[m_.computed[c]];
      const std::uint32_t cur = slot_[c];
      std::uint32_t se, so;
      const ReachValue ve = select(xe, deg, cur, se);
      if (se != cur) log(out, c, k, se);
      out.active_e += ve != r[state].o;
      w[state].e = ve;
      if (odd) {
        const ReachValue vo = select(xo, deg, se, so);
        if (so != se) log(out, c, k + 1, so);
        out.active_o += vo != ve;
        w[state].o = vo;
        slot_[c] = so;
      } else {
        slot_[c] = se;
      }
    }
  }

  // The loose choice vertices (no state reads them) at 2s - 1 and 2s.
  void loose(const Pair* r, PartOut& out) const {
    ReachValue pe, po;
    for (std::uint32_t j = m_.owned; j < m_.choice_vertex.size(); ++j) choice(r, j, pe, po, out);
  }

  // Every choice vertex at the odd bound n from the values at n - 1 (R's even half).
  void last(const Pair* r, std::uint32_t lo, std::uint32_t hi, PartOut& out) const {
    for (std::uint32_t j = lo; j < hi; ++j) {
      double p = 0, cmax = 0;
      for (std::uint32_t k = trans_of(j); k < trans_of(j + 1); ++k) {
        const ReachValue& y = r[m_.tgt[k]].e;
        p += m_.prob[k] * y.prob;
        cmax = std::max(cmax, (Costs ? m_.cost[k] : 0.0) + y.cost);
      }
      const ReachValue v{p, cmax};
      out.choice_prev += v != pstore_[j];
      pstore_[j] = v;
    }
  }

 private:
  std::uint32_t trans_of(std::uint32_t j) const { return W != 0 ? j * W : m_.first_trans[j]; }

  const FoldedModel& m_;
  Order order_;
  std::vector<ReachValue>& pstore_;
  std::vector<std::uint32_t>& slot_;
  std::vector<std::uint32_t>& last_;
};

template <class Order, bool Costs, std::uint32_t W>
void run(const TestGraph& g, const FoldedModel& m, const std::vector<std::uint8_t>& goal, const BoundedReachOptions& o,
         Order order, ChangeLog& log, std::vector<ReachValue>& value, std::vector<EdgeId>& choice_at_bound,
         std::vector<std::uint32_t>& frontier, std::size_t& num_changes) {
  const std::uint32_t nv = g.num_vertices();
  const std::uint32_t n = o.bound;
  const std::uint32_t nc = static_cast<std::uint32_t>(m.computed.size());
  // States and the dummy (value (0, 0) at every step), read at random: on huge pages.
  std::vector<Pair, HugePageAllocator<Pair>> rbuf(std::size_t{m.states} + 1), wbuf(std::size_t{m.states} + 1);
  for (std::uint32_t v = 0; v < nv; ++v)
    if (goal[v]) rbuf[m.state_of[v]] = wbuf[m.state_of[v]] = Pair{{1.0, 0.0}, {1.0, 0.0}};
  std::vector<ReachValue> pstore(m.choice_vertex.size());
  std::vector<std::uint32_t> slot(nc, 0), last(nc, 0);
  Pass<Order, Costs, W> pass(m, order, pstore, slot, last);
  Team team(nc >= 65536 ? resolve_threads(o.threads) : 1);
  std::vector<PartOut> parts(team.size());
  for (auto& p : parts) p.log.reset(nv);
  frontier.assign(n, 0);
  auto part_range = [&](unsigned t, std::uint32_t count) {
    return std::pair<std::uint32_t, std::uint32_t>(
        static_cast<std::uint32_t>(std::uint64_t{count} * t / team.size()),
        static_cast<std::uint32_t>(std::uint64_t{count} * (t + 1) / team.size()));
  };
  auto collect = [&](std::uint32_t k_prev, std::uint32_t k_e, std::uint32_t k_o) {
    for (auto& p : parts) {
      if (k_prev >= 1 && k_prev <= n) frontier[k_prev - 1] += static_cast<std::uint32_t>(p.choice_prev);
      if (k_e >= 1 && k_e <= n) frontier[k_e - 1] += static_cast<std::uint32_t>(p.choice_e + p.active_e);
      if (k_o >= 1 && k_o <= n) frontier[k_o - 1] += static_cast<std::uint32_t>(p.active_o);
      p.choice_prev = p.choice_e = p.active_e = p.active_o = 0;
    }
  };
  Pair* cur = rbuf.data();
  Pair* next = wbuf.data();
  if (n >= 1) {
    team.run([&](unsigned t) {
      const auto [lo, hi] = part_range(t, nc);
      pass.first(cur, lo, hi, parts[t]);
    });
    collect(0, 0, 1);
    if (o.on_step) o.on_step(1, n);
  }
  for (std::uint32_t s = 1; 2 * s <= n; ++s) {
    const bool odd = 2 * s + 1 <= n;
    team.run([&](unsigned t) {
      const auto [lo, hi] = part_range(t, nc);
      pass.step(cur, next, 2 * s, odd, lo, hi, parts[t]);
      if (t == 0) pass.loose(cur, parts[t]);
    });
    collect(2 * s - 1, 2 * s, odd ? 2 * s + 1 : 0);
    std::swap(cur, next);
    if (o.on_step) {
      o.on_step(2 * s, n);
      if (odd) o.on_step(2 * s + 1, n);
    }
  }
  if (n % 2 == 1) {
    const std::uint32_t nch = static_cast<std::uint32_t>(m.choice_vertex.size());
    team.run([&](unsigned t) {
      const auto [lo, hi] = part_range(t, nch);
      pass.last(cur, lo, hi, parts[t]);
    });
    collect(n, 0, 0);
  }
  // The result, per vertex.
  num_changes = 0;
  for (auto& p : parts) {
    num_changes += p.changes;
    if (&p == &parts[0])
      log = std::move(p.log);
    else
      log.merge(std::move(p.log));
  }
  const auto off = g.out_offsets();
  value.assign(nv, ReachValue{});
  choice_at_bound.assign(nv, EdgeId::none());
  for (std::uint32_t v = 0; v < nv; ++v)
    if (goal[v]) value[v] = {1.0, 0.0};
  if (n >= 1) {
    for (std::uint32_t c = 0; c < nc; ++c) {
      const std::uint32_t v = m.computed[c];
      const Pair& p = cur[m.state_of[v]];
      value[v] = n % 2 == 1 ? p.o : p.e;
      if (slot[c] != 0) choice_at_bound[v] = EdgeId{off[v] + slot[c] - 1};
    }
    for (std::uint32_t j = 0; j < m.choice_vertex.size(); ++j) value[m.choice_vertex[j].index()] = pstore[j];
  }
}

}  // namespace

template <class Order>
bool BoundedReachFolded::solve(const TestGraph& g, std::span<const VertexId> goals, const BoundedReachOptions& o,
                               Order order, BoundedReachResult& r) {
  const std::uint32_t nv = g.num_vertices();
  std::vector<std::uint8_t> goal(nv, 0);
  for (VertexId v : goals) {
    if (v.index() >= nv) throw UsageError("goals", "BoundedReachSolver: goal vertex id out of range");
    goal[v.index()] = 1;
  }
  FoldedModel m;
  if (!build(g, goal, m)) return false;
  BoundedReachResult out;
  out.bound_ = o.bound;
  const auto offsets = g.out_offsets();
  out.first_edge_.assign(offsets.begin(), offsets.begin() + nv + 1);
  auto go = [&](auto costs, auto width) {
    run<Order, decltype(costs)::value, decltype(width)::value>(
        g, m, goal, o, order, out.changes_, out.value_, out.choice_at_bound_, out.frontier_sizes_, out.num_changes_);
  };
  auto by_width = [&](auto costs) {
    switch (m.width) {
      case 1:
        go(costs, std::integral_constant<std::uint32_t, 1>{});
        break;
      case 2:
        go(costs, std::integral_constant<std::uint32_t, 2>{});
        break;
      case 3:
        go(costs, std::integral_constant<std::uint32_t, 3>{});
        break;
      case 4:
        go(costs, std::integral_constant<std::uint32_t, 4>{});
        break;
      default:
        go(costs, std::integral_constant<std::uint32_t, 0>{});
        break;
    }
  };
  if (m.cost.empty())
    by_width(std::false_type{});
  else
    by_width(std::true_type{});
  out.changes_.finish_appending();
  r = std::move(out);
  return true;
}

template bool BoundedReachFolded::solve<LexicographicOrder>(const TestGraph&, std::span<const VertexId>,
                                                            const BoundedReachOptions&, LexicographicOrder,
                                                            BoundedReachResult&);
template bool BoundedReachFolded::solve<ProbabilityOrder>(const TestGraph&, std::span<const VertexId>,
                                                          const BoundedReachOptions&, ProbabilityOrder,
                                                          BoundedReachResult&);

}  // namespace playtest::detail
