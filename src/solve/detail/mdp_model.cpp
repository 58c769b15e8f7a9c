#include "solve/detail/mdp_model.hpp"

#include <algorithm>

#include "playtest/error.hpp"

namespace playtest::detail {

MdpModel build_mdp(const TestGraph& g, std::span<const std::uint8_t> is_goal, std::span<const VertexId> order) {
  const std::uint32_t nv = g.num_vertices();
  const auto off = g.out_offsets();
  const auto tg = g.targets();
  const auto cost = g.costs();
  const auto prob = g.probabilities();
  MdpModel m;

  // Per vertex: bit 0 in the work set; bits 1-2 the number of predecessors in the work set (capped
  // at 2); bit 3 the last such predecessor is active. One pass over the work set's edges.
  std::vector<std::uint8_t> state(nv, 0);
  for (VertexId v : order) state[v.index()] = 1;
  for (VertexId u : order) {
    const std::uint8_t active = g.is_active(u) ? 8 : 0;
    for (std::uint32_t e = off[u.index()]; e < off[u.index() + 1]; ++e) {
      std::uint8_t& st = state[tg[e].index()];
      const std::uint8_t preds = std::min<std::uint8_t>(((st >> 1) & 3) + 1, 2);
      st = static_cast<std::uint8_t>((st & 1) | (preds << 1) | active);
    }
  }
  // A passive vertex of the work set with exactly one predecessor there, an active one (a
  // self-loop is a predecessor: such a vertex is not folded).
  auto folds = [&](VertexId v) {
    const std::uint8_t st = state[v.index()];
    return g.is_passive(v) && (st & 1) && ((st >> 1) & 3) == 1 && (st & 8);
  };
  m.index.assign(nv, mdp_outside);
  std::uint32_t n = 0;
  m.node_vertex.reserve(order.size());
  for (VertexId v : order) {
    if (folds(v)) {
      m.index[v.index()] = mdp_folded;
    } else {
      m.index[v.index()] = n++;
      m.node_vertex.push_back(v);
    }
  }
  m.n = n;
  for (std::uint32_t v = 0; v < nv; ++v)
    if (is_goal[v]) m.index[v] = n;
  std::vector<std::uint8_t>().swap(state);

  // Sizes first, so that every array is allocated once at its final size.
  std::size_t num_actions = 0, num_trans = 0;
  auto folded = [&](std::uint32_t t) { return m.index[t] == mdp_folded; };
  for (VertexId v : m.node_vertex) {
    if (g.is_passive(v)) {
      ++num_actions;
      num_trans += off[v.index() + 1] - off[v.index()];
      continue;
    }
    for (std::uint32_t e = off[v.index()]; e < off[v.index() + 1]; ++e) {
      const std::uint32_t t = tg[e].index();
      if (m.index[t] == mdp_outside) continue;
      ++num_actions;
      num_trans += folded(t) ? off[t + 1] - off[t] : 1;
    }
  }
  if (num_actions >= mdp_folded || num_trans >= mdp_folded)
    throw InternalError("build_mdp: more than 2^32 - 2 actions or transitions");
  m.first_action.resize(std::size_t{n} + 1);
  m.action_node.resize(num_actions);
  m.first_trans.resize(num_actions + 1);
  m.cost.resize(num_actions);
  m.action_edge.resize(num_actions);
  m.moves.resize(num_actions);
  m.tgt.resize(num_trans);
  m.prob.resize(num_trans);
  m.passive.resize(n);

  std::uint32_t a = 0, k = 0;
  auto target_node = [&](std::uint32_t t) {
    const std::uint32_t x = m.index[t];
    if (x == mdp_outside || x == mdp_folded)
      throw InternalError("build_mdp: a passive vertex of the work set leads outside it or into a folded vertex");
    return x;
  };
  // The transitions of passive vertex j (all into nodes or the goal); returns sum p * cost.
  auto add_passive = [&](std::uint32_t j) {
    double base = 0;
    for (std::uint32_t f = off[j]; f < off[j + 1]; ++f) {
      m.tgt[k] = target_node(tg[f].index());
      m.prob[k] = prob[f];
      ++k;
      base += prob[f] * cost[f];
    }
    return base;
  };
  for (std::uint32_t i = 0; i < n; ++i) {
    const VertexId v = m.node_vertex[i];
    m.first_action[i] = a;
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
      }
      ++a;
    }
  }
  m.first_action[n] = a;
  m.first_trans[a] = k;
  for (std::uint32_t b = 0; b < a; ++b) m.max_trans = std::max(m.max_trans, m.first_trans[b + 1] - m.first_trans[b]);
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
