#include "solve/core/choice_model.hpp"

#include <algorithm>

#include "playtest/base/error.hpp"

namespace playtest::detail {

namespace {

// fold[w] for the work vertices: 0 a state, 1 folded into its one active predecessor's edge,
// 2 detached (no predecessor in the work set).
ChoiceModel build(Team& team, const TestGraph& g, std::span<const std::uint8_t> is_goal,
                  std::span<const VertexId> order, ModelCosts form, bool folding) {
  const std::uint32_t nv = g.num_vertices();
  const auto off = g.out_offsets();
  const auto tg = g.targets();
  const auto cost = g.costs();
  const auto prob = g.probabilities();
  const auto src = g.sources();
  const std::uint32_t nw = static_cast<std::uint32_t>(order.size());
  const bool worst = form == ModelCosts::worst_case;
  ChoiceModel m;
  m.folded = folding;

  std::vector<std::uint8_t> fold(nw, 0);
  if (folding) {
    // A self-loop is a predecessor: such a vertex is not folded.
    std::vector<std::uint8_t> in_work(nv, 0);
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
        fold[w] = preds == 0 ? 2 : (preds == 1 && from_active ? 1 : 0);
      }
    });
  }
  m.vertex_index.assign(nv, model_outside);
  std::uint32_t n = 0;
  m.state_vertex.reserve(nw);
  std::vector<VertexId> detached;
  for (std::uint32_t w = 0; w < nw; ++w) {
    const VertexId v = order[w];
    if (fold[w]) {
      m.vertex_index[v.index()] = model_folded;
      if (fold[w] == 2) detached.push_back(v);
    } else {
      m.vertex_index[v.index()] = n++;
      m.state_vertex.push_back(v);
    }
  }
  m.n = n;
  for (std::uint32_t v = 0; v < nv; ++v)
    if (is_goal[v]) m.vertex_index[v] = n;
  std::vector<std::uint8_t>().swap(fold);
  auto is_folded = [&](std::uint32_t t) { return m.vertex_index[t] == model_folded; };
  const std::uint32_t nd = static_cast<std::uint32_t>(detached.size());

  // Choices and entries per group (states, then one group per detached choice), then their places.
  const std::uint32_t groups = n + nd;
  std::vector<std::uint32_t> choices_of(std::size_t{groups} + 1), entries_of(std::size_t{groups} + 1);
  auto group_vertex = [&](std::uint32_t i) { return i < n ? m.state_vertex[i] : detached[i - n]; };
  team.for_parts(groups, [&](std::uint32_t lo, std::uint32_t hi) {
    for (std::uint32_t i = lo; i < hi; ++i) {
      const VertexId v = group_vertex(i);
      std::uint32_t nc = 0, ne = 0;
      if (g.is_passive(v)) {
        nc = 1;
        ne = off[v.index() + 1] - off[v.index()];
      } else {
        for (std::uint32_t e = off[v.index()]; e < off[v.index() + 1]; ++e) {
          const std::uint32_t t = tg[e].index();
          if (m.vertex_index[t] == model_outside) continue;
          ++nc;
          ne += is_folded(t) ? off[t + 1] - off[t] : 1;
        }
      }
      choices_of[i] = nc;
      entries_of[i] = ne;
    }
  });
  std::uint64_t num_choices = 0, num_entries = 0;
  for (std::uint32_t i = 0; i < groups; ++i) {
    const std::uint32_t nc = choices_of[i], ne = entries_of[i];
    choices_of[i] = static_cast<std::uint32_t>(num_choices);
    entries_of[i] = static_cast<std::uint32_t>(num_entries);
    num_choices += nc;
    num_entries += ne;
    if (num_choices >= model_folded || num_entries >= model_folded)
      throw InternalError("build_choice_model: more than 2^32 - 2 choices or entries");
  }
  choices_of[groups] = static_cast<std::uint32_t>(num_choices);
  entries_of[groups] = static_cast<std::uint32_t>(num_entries);
  m.first_choice.assign(choices_of.begin(), choices_of.begin() + n + 1);
  m.choice_state.resize(num_choices);
  m.first_entry.resize(num_choices + 1);
  m.cost.resize(num_choices);
  m.choice_edge.resize(num_choices);
  m.choice_vertex.resize(num_choices);
  m.column.resize(num_entries);
  m.prob.resize(num_entries);
  if (worst) m.entry_cost.resize(num_entries);
  m.passive.resize(n);
  m.first_entry[num_choices] = static_cast<std::uint32_t>(num_entries);

  auto target_index = [&](std::uint32_t t) {
    const std::uint32_t x = m.vertex_index[t];
    if (x == model_outside || x == model_folded)
      throw InternalError(
          "build_choice_model: a passive vertex of the work set leads outside it or into a folded vertex");
    return x;
  };
  std::vector<std::uint32_t> widest(team.size(), 0);
  team.run([&](unsigned part) {
    const auto lo = static_cast<std::uint32_t>(std::uint64_t{groups} * part / team.size());
    const auto hi = static_cast<std::uint32_t>(std::uint64_t{groups} * (part + 1) / team.size());
    std::uint32_t c = lo < hi ? choices_of[lo] : 0, k = lo < hi ? entries_of[lo] : 0, w = 0;
    // The entries of passive vertex j; returns sum p * cost (ModelCosts::expected).
    auto add_passive = [&](std::uint32_t j) {
      double base = 0;
      for (std::uint32_t f = off[j]; f < off[j + 1]; ++f) {
        m.column[k] = target_index(tg[f].index());
        m.prob[k] = prob[f];
        if (worst) m.entry_cost[k] = cost[f];
        ++k;
        base += prob[f] * cost[f];
      }
      w = std::max(w, off[j + 1] - off[j]);
      return base;
    };
    for (std::uint32_t i = lo; i < hi; ++i) {
      // States come in the work set's order, so the graph's rows are read at random: start loading
      // the rows of the states a little ahead.
      if (i + 16 < hi) __builtin_prefetch(&off[group_vertex(i + 16).index()]);
      if (i + 8 < hi) {
        const std::uint32_t u = group_vertex(i + 8).index();
        // A vertex without edges has no first target to look ahead at (tg[off[u]] is past the end).
        if (off[u] < off[u + 1]) {
          __builtin_prefetch(&tg[off[u]]);
          __builtin_prefetch(&m.vertex_index[tg[off[u]].index()]);
        }
      }
      const VertexId v = group_vertex(i);
      const std::uint32_t owner = i < n ? i : n;
      if (g.is_passive(v)) {
        if (i < n) m.passive[i] = 1;
        m.choice_state[c] = owner;
        m.first_entry[c] = k;
        m.choice_edge[c] = EdgeId::none();
        m.choice_vertex[c] = i < n ? VertexId::none() : v;
        const double base = add_passive(v.index());
        m.cost[c] = worst ? 0.0 : base;
        ++c;
        continue;
      }
      for (std::uint32_t e = off[v.index()]; e < off[v.index() + 1]; ++e) {
        const std::uint32_t t = tg[e].index();
        if (m.vertex_index[t] == model_outside) continue;
        m.choice_state[c] = owner;
        m.first_entry[c] = k;
        m.choice_edge[c] = EdgeId{e};
        if (is_folded(t)) {
          const double base = add_passive(t);
          m.cost[c] = worst ? cost[e] : cost[e] + base;
          m.choice_vertex[c] = VertexId{t};
        } else {
          m.cost[c] = cost[e];
          m.column[k] = m.vertex_index[t];
          m.prob[k] = 1.0;
          if (worst) m.entry_cost[k] = 0.0;
          ++k;
          m.choice_vertex[c] = VertexId::none();
          w = std::max(w, 1u);
        }
        ++c;
      }
    }
    widest[part] = w;
  });
  m.max_entries = *std::max_element(widest.begin(), widest.end());
  return m;
}

}  // namespace

bool ChoiceModel::two_move_steps() const {
  for (std::uint32_t i = 0; i < n; ++i)
    if (passive[i]) return false;
  for (std::uint32_t c = 0; c < first_choice[n]; ++c)
    if (choice_vertex[c].is_none()) return false;
  return true;
}

ChoiceModel build_vertex_model(Team& team, const TestGraph& g, std::span<const std::uint8_t> is_goal,
                               std::span<const VertexId> order, ModelCosts costs) {
  return build(team, g, is_goal, order, costs, false);
}

ChoiceModel build_folded_model(Team& team, const TestGraph& g, std::span<const std::uint8_t> is_goal,
                               std::span<const VertexId> order, ModelCosts costs) {
  return build(team, g, is_goal, order, costs, true);
}

ModelReverse reverse_model(const ChoiceModel& m) {
  ModelReverse r;
  const std::uint32_t n = m.n;
  const std::uint32_t owned = m.first_choice[n];
  const std::uint32_t owned_entries = m.first_entry[owned];
  r.off.assign(std::size_t{n} + 2, 0);
  for (std::uint32_t k = 0; k < owned_entries; ++k) ++r.off[m.column[k] + 1];
  for (std::uint32_t i = 0; i <= n; ++i) r.off[i + 1] += r.off[i];
  r.choice.resize(owned_entries);
  std::vector<std::uint32_t> next(r.off.begin(), r.off.end() - 1);
  for (std::uint32_t c = 0; c < owned; ++c)
    for (std::uint32_t k = m.first_entry[c]; k < m.first_entry[c + 1]; ++k) r.choice[next[m.column[k]]++] = c;
  return r;
}

}  // namespace playtest::detail
