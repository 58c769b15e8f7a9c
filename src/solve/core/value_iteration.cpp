#include "solve/core/value_iteration.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "solve/detail/scc_csr.hpp"

namespace playtest::detail {

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr std::uint32_t none32 = std::numeric_limits<std::uint32_t>::max();

// The fast sweep's own copy of the model: costs and probabilities as float, and, when every choice
// has at most 4 entries and padding does not more than double them, every choice padded to the
// same number of entries (into the goal slot with probability 0), so that the inner loop has no
// data-dependent branch. The values read at random are prefetched a few dozen entries ahead.
//
// The sweep is Gauss-Seidel in state order cut into the blocks of a BlockPipeline (team.hpp): an
// entry into a neighbouring block reads the value from before the sweep. Values live in one buffer
// [x | snapshot], and such an entry's column is stored as n + 1 + t, so the inner loop tests nothing.
struct SweepModel {
  std::uint32_t width = 0;  // entries per choice when padded; 0: not padded (first_entry)
  std::vector<float> cost, prob;
  std::vector<std::uint32_t> column;  // into [x | snapshot]
};

SweepModel sweep_model(const ChoiceModel& m, const BlockPipeline& pipe) {
  SweepModel s;
  const std::uint32_t n = m.n;
  const std::uint32_t na = m.first_choice[n];
  const std::size_t nt = m.first_entry[na];
  s.cost.assign(m.cost.begin(), m.cost.begin() + na);
  auto encode = [&](std::uint32_t a, std::uint32_t t) {
    return t != n && pipe.stale(m.choice_state[a], t) ? n + 1 + t : t;
  };
  const std::uint32_t w = std::max<std::uint32_t>(1, m.max_entries);
  if (w <= 4 && std::size_t{na} * w <= 2 * nt) {
    s.width = w;
    s.prob.assign(std::size_t{na} * w, 0.0f);
    s.column.assign(std::size_t{na} * w, n);
    for (std::uint32_t a = 0; a < na; ++a)
      for (std::uint32_t k = m.first_entry[a], j = 0; k < m.first_entry[a + 1]; ++k, ++j) {
        s.prob[std::size_t{a} * w + j] = static_cast<float>(m.prob[k]);
        s.column[std::size_t{a} * w + j] = encode(a, m.column[k]);
      }
  } else {
    s.prob.assign(m.prob.begin(), m.prob.begin() + static_cast<std::ptrdiff_t>(nt));
    s.column.resize(nt);
    for (std::uint32_t a = 0; a < na; ++a)
      for (std::uint32_t k = m.first_entry[a]; k < m.first_entry[a + 1]; ++k) s.column[k] = encode(a, m.column[k]);
  }
  return s;
}

constexpr std::uint32_t prefetch_distance = 64;  // entries

// The fast sweep over states [lo, hi) (one block); returns the largest relative change.
template <std::uint32_t W>
double sweep_block(const ChoiceModel& m, const SweepModel& s, double* x, std::uint32_t lo, std::uint32_t hi) {
  const std::uint32_t* fa = m.first_choice.data();
  const std::uint32_t* ft = m.first_entry.data();
  const std::uint32_t* col = s.column.data();
  const float* prob = s.prob.data();
  const float* cost = s.cost.data();
  const std::uint32_t slots = static_cast<std::uint32_t>(s.column.size());
  std::uint32_t pf = W != 0 ? fa[lo] * W : ft[fa[lo]];
  double delta = 0;
  for (std::uint32_t i = lo; i < hi; ++i) {
    const std::uint32_t end = W != 0 ? fa[i + 1] * W : ft[fa[i + 1]];
    for (const std::uint32_t ahead = std::min(end + prefetch_distance, slots); pf < ahead; ++pf)
      __builtin_prefetch(&x[col[pf]]);
    double best = inf;
    for (std::uint32_t a = fa[i]; a < fa[i + 1]; ++a) {
      double q = cost[a];
      if constexpr (W != 0) {
        for (std::uint32_t j = 0; j < W; ++j) q += static_cast<double>(prob[a * W + j]) * x[col[a * W + j]];
      } else {
        for (std::uint32_t k = ft[a]; k < ft[a + 1]; ++k) q += static_cast<double>(prob[k]) * x[col[k]];
      }
      best = std::min(best, q);
    }
    delta = std::max(delta, std::abs(best - x[i]) / std::max(1.0, std::abs(best)));
    x[i] = best;
  }
  return delta;
}

ValueIterationOutcome fast_iteration(Team& team, const ChoiceModel& m, const ValueIterationRequest& r,
                                     std::vector<double>& x) {
  const std::uint32_t n = m.n;
  ValueIterationOutcome out;
  x.assign(std::size_t{n} + 1, 0.0);
  if (r.max_sweeps == 0 || n == 0) return out;
  BlockPipeline pipe(n);
  const SweepModel s = sweep_model(m, pipe);
  std::vector<double> buf(2 * (std::size_t{n} + 1), 0.0);  // [x | snapshot]
  double* xs = buf.data();
  std::vector<double> block_delta(pipe.blocks());
  auto block = [&](std::uint32_t lo, std::uint32_t hi) {
    double d;
    switch (s.width) {
      case 1:
        d = sweep_block<1>(m, s, xs, lo, hi);
        break;
      case 2:
        d = sweep_block<2>(m, s, xs, lo, hi);
        break;
      case 3:
        d = sweep_block<3>(m, s, xs, lo, hi);
        break;
      case 4:
        d = sweep_block<4>(m, s, xs, lo, hi);
        break;
      default:
        d = sweep_block<0>(m, s, xs, lo, hi);
        break;
    }
    block_delta[pipe.block_of(lo)] = d;
  };
  while (out.sweeps < r.max_sweeps) {
    team.for_parts(n, [&](std::uint32_t lo, std::uint32_t hi) { std::copy(xs + lo, xs + hi, xs + n + 1 + lo); });
    pipe.run(team, block);
    ++out.sweeps;
    if (r.on_sweep) r.on_sweep(out.sweeps);
    if (*std::max_element(block_delta.begin(), block_delta.end()) <= r.epsilon) {
      out.converged = true;
      break;
    }
  }
  std::copy(xs, xs + n, x.begin());
  return out;
}

// Double precision, one thread, with the zero-cost end components collapsed.
ValueIterationOutcome reference_iteration(const ChoiceModel& m, const ValueIterationRequest& r,
                                          std::span<const std::uint32_t> mec, std::uint32_t num_mec,
                                          std::vector<double>& x) {
  const std::uint32_t n = m.n;
  ValueIterationOutcome out;
  out.zero_cost_components = num_mec;
  // Units in sweep order: a state, or a whole zero-cost component at its first member's place.
  std::vector<std::uint32_t> unit_off, unit_member;
  std::vector<std::uint8_t> unit_is_mec;
  if (num_mec > 0) {
    std::vector<std::uint32_t> moff(num_mec + 1, 0), mmem(n);
    for (std::uint32_t i = 0; i < n; ++i)
      if (mec[i] != none32) ++moff[mec[i] + 1];
    for (std::uint32_t k = 0; k < num_mec; ++k) moff[k + 1] += moff[k];
    {
      std::vector<std::uint32_t> next(moff.begin(), moff.end() - 1);
      for (std::uint32_t i = 0; i < n; ++i)
        if (mec[i] != none32) mmem[next[mec[i]]++] = i;
    }
    std::vector<std::uint8_t> seen(num_mec, 0);
    unit_off.push_back(0);
    for (std::uint32_t i = 0; i < n; ++i) {
      if (mec[i] == none32) {
        unit_member.push_back(i);
        unit_is_mec.push_back(0);
      } else if (!seen[mec[i]]) {
        seen[mec[i]] = 1;
        for (std::uint32_t j = moff[mec[i]]; j < moff[mec[i] + 1]; ++j) unit_member.push_back(mmem[j]);
        unit_is_mec.push_back(1);
      } else {
        continue;
      }
      unit_off.push_back(static_cast<std::uint32_t>(unit_member.size()));
    }
  }
  x.assign(std::size_t{n} + 1, 0.0);
  std::vector<double> y;  // Jacobi: the new iterate
  if (r.jacobi) y.assign(std::size_t{n} + 1, 0.0);
  const std::uint32_t* col = m.column.data();
  const double* prob = m.prob.data();
  auto q = [&](std::uint32_t a, const double* src) {
    double s = m.cost[a];
    for (std::uint32_t k = m.first_entry[a]; k < m.first_entry[a + 1]; ++k) s += prob[k] * src[col[k]];
    return s;
  };
  auto state_update = [&](std::uint32_t i, const double* src) {
    double s = inf;
    for (std::uint32_t a = m.first_choice[i]; a < m.first_choice[i + 1]; ++a) s = std::min(s, q(a, src));
    return s;
  };
  // A choice that costs 0 and stays in the component is a free move inside it, not an exit.
  auto inside = [&](std::uint32_t a, std::uint32_t id) {
    if (m.cost[a] != 0) return false;
    for (std::uint32_t k = m.first_entry[a]; k < m.first_entry[a + 1]; ++k)
      if (col[k] == n || mec[col[k]] != id) return false;
    return true;
  };
  while (out.sweeps < r.max_sweeps) {
    const double* src = x.data();
    double* dst = r.jacobi ? y.data() : x.data();
    double delta = 0;
    if (num_mec == 0) {
      for (std::uint32_t i = 0; i < n; ++i) {
        const double s = state_update(i, src);
        delta = std::max(delta, std::abs(s - x[i]) / std::max(1.0, std::abs(s)));
        dst[i] = s;
      }
    } else {
      const std::uint32_t units = static_cast<std::uint32_t>(unit_is_mec.size());
      for (std::uint32_t u = 0; u < units; ++u) {
        const std::uint32_t b = unit_off[u], e = unit_off[u + 1];
        double s;
        if (!unit_is_mec[u]) {
          s = state_update(unit_member[b], src);
        } else {
          const std::uint32_t id = mec[unit_member[b]];
          s = inf;
          for (std::uint32_t j = b; j < e; ++j) {
            const std::uint32_t i = unit_member[j];
            for (std::uint32_t a = m.first_choice[i]; a < m.first_choice[i + 1]; ++a)
              if (!inside(a, id)) s = std::min(s, q(a, src));
          }
        }
        for (std::uint32_t j = b; j < e; ++j) {
          const std::uint32_t i = unit_member[j];
          delta = std::max(delta, std::abs(s - x[i]) / std::max(1.0, std::abs(s)));
          dst[i] = s;
        }
      }
    }
    if (r.jacobi) x.swap(y);
    ++out.sweeps;
    if (r.after_sweep) r.after_sweep(out.sweeps, x);
    if (r.on_sweep) r.on_sweep(out.sweeps);
    if (delta <= r.epsilon) {
      out.converged = true;
      break;
    }
  }
  return out;
}

}  // namespace

std::uint32_t zero_cost_end_components(const ChoiceModel& m, std::vector<std::uint32_t>& mec) {
  const std::uint32_t n = m.n;
  mec.assign(n, none32);
  // Every end component holds an active state with a zero-cost choice that stays among the states
  // (passive states alone would be a trap, which the work set excludes).
  bool any_zero = false;
  for (std::uint32_t i = 0; i < n && !any_zero; ++i) {
    if (m.passive[i]) continue;
    for (std::uint32_t a = m.first_choice[i]; a < m.first_choice[i + 1] && !any_zero; ++a) {
      if (m.cost[a] != 0) continue;
      bool stays = true;
      for (std::uint32_t k = m.first_entry[a]; k < m.first_entry[a + 1] && stays; ++k) stays = m.column[k] != n;
      any_zero = stays;
    }
  }
  if (!any_zero) return 0;
  const std::uint32_t na = m.first_choice[n];
  std::vector<std::uint8_t> cand(n, 1), alive(na, 0);
  for (std::uint32_t a = 0; a < na; ++a) alive[a] = m.cost[a] == 0;
  std::vector<std::uint32_t> off(std::size_t{n} + 1), adj, comp(n, none32);
  auto drop_dead_states = [&]() {
    bool changed = false;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!cand[i]) continue;
      bool any = false;
      for (std::uint32_t a = m.first_choice[i]; a < m.first_choice[i + 1] && !any; ++a) any = alive[a] != 0;
      if (!any) {
        cand[i] = 0;
        changed = true;
      }
    }
    return changed;
  };
  for (;;) {
    bool changed = false;
    // Choices that leave the candidates die; then states without a live choice.
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!cand[i]) continue;
      for (std::uint32_t a = m.first_choice[i]; a < m.first_choice[i + 1]; ++a) {
        if (!alive[a]) continue;
        for (std::uint32_t k = m.first_entry[a]; k < m.first_entry[a + 1]; ++k)
          if (m.column[k] == n || !cand[m.column[k]]) {
            alive[a] = 0;
            changed = true;
            break;
          }
      }
    }
    changed = drop_dead_states() || changed;
    adj.clear();
    off[0] = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (cand[i])
        for (std::uint32_t a = m.first_choice[i]; a < m.first_choice[i + 1]; ++a)
          if (alive[a])
            for (std::uint32_t k = m.first_entry[a]; k < m.first_entry[a + 1]; ++k) adj.push_back(m.column[k]);
      off[i + 1] = static_cast<std::uint32_t>(adj.size());
    }
    scc_csr(off, adj, comp);
    // Choices that leave their state's component die.
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!cand[i]) continue;
      for (std::uint32_t a = m.first_choice[i]; a < m.first_choice[i + 1]; ++a) {
        if (!alive[a]) continue;
        for (std::uint32_t k = m.first_entry[a]; k < m.first_entry[a + 1]; ++k)
          if (comp[m.column[k]] != comp[i]) {
            alive[a] = 0;
            changed = true;
            break;
          }
      }
    }
    changed = drop_dead_states() || changed;
    if (!changed) break;
  }
  // Number the remaining components densely.
  std::vector<std::uint32_t> renum;
  std::uint32_t count = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (!cand[i]) continue;
    const std::uint32_t k = comp[i];
    if (k >= renum.size()) renum.resize(k + 1, none32);
    if (renum[k] == none32) renum[k] = count++;
    mec[i] = renum[k];
  }
  return count;
}

ValueIterationOutcome value_iteration(Team& team, const ChoiceModel& m, const ValueIterationRequest& r,
                                      std::vector<double>& x) {
  std::vector<std::uint32_t> mec;
  const std::uint32_t num_mec = zero_cost_end_components(m, mec);
  if (r.fast && num_mec == 0 && !r.jacobi && !r.after_sweep) return fast_iteration(team, m, r, x);
  return reference_iteration(m, r, mec, num_mec, x);
}

}  // namespace playtest::detail
