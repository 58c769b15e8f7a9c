#include "solve/detail/mdp_model.hpp"

#include <algorithm>

#include "playtest/error.hpp"

namespace playtest::detail {

MdpModel build_mdp(Team& team, const TestGraph& g, std::span<const std::uint8_t> is_goal,
                   std::span<const VertexId> order) {
  const std::uint32_t nv = g.num_vertices();
  const auto off = g.out_offsets();
  const auto tg = g.targets();
  const auto cost = g.costs();
  const auto prob = g.probabilities();
  const auto src = g.sources();
  const std::uint32_t nw = static_cast<std::uint32_t>(order.size());
  MdpModel m;

  // Folded: a passive vertex of the work set with exactly one predecessor there, an active one (a
  // self-loop is a predecessor: such a vertex is not folded).
  std::vector<std::uint8_t> in_work(nv, 0), fold(nw, 0);
  for (VertexId v : order) in_work[v.index()] = 1;
  team.for_parts(nw, [&](std::uint32_t lo, std::uint32_t hi) {
    for (std::uint32_t w = lo; w < hi; ++w) {
      const VertexId v = order[w];
      if (!g.is_passive(v)) continue;
      std::uint32_t preds = 0;
      bool from_active = false;
      for (EdgeId e : g.in_edges(v)) {
        const VertexId u = src[e.index()];
        if (!in_work[u.index()]) continue;
        from_active = g.is_active(u);
        if (++preds > 1) break;
      }
      fold[w] = preds == 1 && from_active;
    }
  });
  std::vector<std::uint8_t>().swap(in_work);
  m.index.assign(nv, mdp_outside);
  std::uint32_t n = 0;
  m.node_vertex.reserve(nw);
  for (std::uint32_t w = 0; w < nw; ++w) {
    const VertexId v = order[w];
    if (fold[w]) {
      m.index[v.index()] = mdp_folded;
    } else {
      m.index[v.index()] = n++;
      m.node_vertex.push_back(v);
    }
  }
  m.n = n;
  for (std::uint32_t v = 0; v < nv; ++v)
    if (is_goal[v]) m.index[v] = n;
  std::vector<std::uint8_t>().swap(fold);
  auto folded = [&](std::uint32_t t) { return m.index[t] == mdp_folded; };

  // Actions and transitions per node, then their places, then the arrays, node ranges in parallel.
  std::vector<std::uint32_t> trans_of(std::size_t{n} + 1);
  m.first_action.resize(std::size_t{n} + 1);
  team.for_parts(n, [&](std::uint32_t lo, std::uint32_t hi) {
    for (std::uint32_t i = lo; i < hi; ++i) {
      const VertexId v = m.node_vertex[i];
      std::uint32_t na = 0, nt = 0;
      if (g.is_passive(v)) {
        na = 1;
        nt = off[v.index() + 1] - off[v.index()];
      } else {
        for (std::uint32_t e = off[v.index()]; e < off[v.index() + 1]; ++e) {
          const std::uint32_t t = tg[e].index();
          if (m.index[t] == mdp_outside) continue;
          ++na;
          nt += folded(t) ? off[t + 1] - off[t] : 1;
        }
      }
      m.first_action[i] = na;
      trans_of[i] = nt;
    }
  });
  std::uint64_t num_actions = 0, num_trans = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::uint32_t na = m.first_action[i], nt = trans_of[i];
    m.first_action[i] = static_cast<std::uint32_t>(num_actions);
    trans_of[i] = static_cast<std::uint32_t>(num_trans);
    num_actions += na;
    num_trans += nt;
    if (num_actions >= mdp_folded || num_trans >= mdp_folded)
      throw InternalError("build_mdp: more than 2^32 - 2 actions or transitions");
  }
  m.first_action[n] = static_cast<std::uint32_t>(num_actions);
  trans_of[n] = static_cast<std::uint32_t>(num_trans);
  m.action_node.resize(num_actions);
  m.first_trans.resize(num_actions + 1);
  m.cost.resize(num_actions);
  m.action_edge.resize(num_actions);
  m.moves.resize(num_actions);
  m.tgt.resize(num_trans);
  m.prob.resize(num_trans);
  m.passive.resize(n);
  m.first_trans[num_actions] = static_cast<std::uint32_t>(num_trans);

  auto target_node = [&](std::uint32_t t) {
    const std::uint32_t x = m.index[t];
    if (x == mdp_outside || x == mdp_folded)
      throw InternalError("build_mdp: a passive vertex of the work set leads outside it or into a folded vertex");
    return x;
  };
  std::vector<std::uint32_t> widest(team.size(), 0);
  team.run([&](unsigned part) {
    const auto lo = static_cast<std::uint32_t>(std::uint64_t{n} * part / team.size());
    const auto hi = static_cast<std::uint32_t>(std::uint64_t{n} * (part + 1) / team.size());
    std::uint32_t a = lo < hi ? m.first_action[lo] : 0, k = lo < hi ? trans_of[lo] : 0, w = 0;
    // The transitions of passive vertex j (all into nodes or the goal); returns sum p * cost.
    auto add_passive = [&](std::uint32_t j) {
      double base = 0;
      for (std::uint32_t f = off[j]; f < off[j + 1]; ++f) {
        m.tgt[k] = target_node(tg[f].index());
        m.prob[k] = prob[f];
        ++k;
        base += prob[f] * cost[f];
      }
      w = std::max(w, off[j + 1] - off[j]);
      return base;
    };
    for (std::uint32_t i = lo; i < hi; ++i) {
      // Nodes come in search order, so the graph's rows are read at random: start loading the
      // rows of the nodes a little ahead.
      if (i + 16 < hi) __builtin_prefetch(&off[m.node_vertex[i + 16].index()]);
      if (i + 8 < hi) {
        const std::uint32_t u = m.node_vertex[i + 8].index();
        __builtin_prefetch(&tg[off[u]]);
        __builtin_prefetch(&m.index[tg[off[u]].index()]);
      }
      const VertexId v = m.node_vertex[i];
      if (g.is_passive(v)) {
        m.passive[i] = 1;
        m.action_node[a] = i;
        m.first_trans[a] = k;
        m.cost[a] = add_passive(v.index());
        m.action_edge[a] = EdgeId::none();
        m.moves[a] = 1;
        ++a;
        continue;
      }
      for (std::uint32_t e = off[v.index()]; e < off[v.index() + 1]; ++e) {
        const std::uint32_t t = tg[e].index();
        if (m.index[t] == mdp_outside) continue;
        m.action_node[a] = i;
        m.first_trans[a] = k;
        m.action_edge[a] = EdgeId{e};
        if (folded(t)) {
          m.cost[a] = cost[e] + add_passive(t);
          m.moves[a] = 2;
        } else {
          m.cost[a] = cost[e];
          m.tgt[k] = m.index[t];
          m.prob[k] = 1.0;
          ++k;
          m.moves[a] = 1;
          w = std::max(w, 1u);
        }
        ++a;
      }
    }
    widest[part] = w;
  });
  m.max_trans = *std::max_element(widest.begin(), widest.end());
  return m;
}

MdpReverse reverse_mdp(const MdpModel& m) {
  MdpReverse r;
  const std::uint32_t n = m.n;
  r.rev_off.assign(std::size_t{n} + 2, 0);
  for (std::uint32_t t : m.tgt) ++r.rev_off[t + 1];
  for (std::uint32_t i = 0; i <= n; ++i) r.rev_off[i + 1] += r.rev_off[i];
  r.rev_action.resize(m.tgt.size());
  std::vector<std::uint32_t> next(r.rev_off.begin(), r.rev_off.end() - 1);
  for (std::uint32_t a = 0; a < m.num_actions(); ++a)
    for (std::uint32_t k = m.first_trans[a]; k < m.first_trans[a + 1]; ++k) r.rev_action[next[m.tgt[k]]++] = a;
  return r;
}

}  // namespace playtest::detail
