#include "solve/core/reach_sweep.hpp"

#include <algorithm>
#include <thread>
#include <type_traits>

#include "playtest/base/error.hpp"

namespace playtest::detail {

namespace {
constexpr std::uint32_t min_states_per_thread = 1u << 15;
constexpr std::uint32_t prefetch_distance = 64;  // entries: successors' values are loaded this far ahead
}  // namespace

template <class Order>
ReachSweeper<Order>::ReachSweeper(const ChoiceModel& m, std::uint32_t num_vertices, Order order, ReachSweep sweep,
                                  unsigned threads, bool frontier_stats)
    : m_(m),
      order_(order),
      sweep_(sweep),
      two_move_(m.two_move_steps()),
      costs_(std::any_of(m.entry_cost.begin(), m.entry_cost.end(), [](double c) { return c != 0; })),
      stats_(frontier_stats),
      num_vertices_(num_vertices) {
  if (!two_move_ && m.folded)
    throw InternalError("ReachSweeper: a folded model whose steps are not all two moves is solved per vertex");
  set_threads(threads);
  init();
}

template <class Order>
void ReachSweeper<Order>::set_threads(unsigned threads) {
  team_ = std::make_unique<Team>(
      std::min<unsigned>(resolve_threads(threads), std::max<std::uint32_t>(1, m_.n / min_states_per_thread)));
  parts_.resize(team_->size());
}

template <class Order>
void ReachSweeper<Order>::init() {
  const std::uint32_t n = m_.n;
  k_ = 0;
  val_.assign(std::size_t{n} + 1, ReachValue{});
  val_[n] = {1.0, 0.0};
  next_ = val_;
  if (two_move_) jval_.assign(m_.num_choices(), ReachValue{});
  jval_fresh_ = true;
  last_dense_ = true;
  replaced_.clear();
  slot_.assign(n, 0);
  last_change_.assign(n, 0);
  stamp_.assign(n, 0);
  changed_.clear();
  log_.reset(num_vertices_);
  num_changes_ = 0;
  frontier_.clear();
}

template <class Order>
ChangeLog ReachSweeper<Order>::take_log() {
  log_.finish_appending();
  ChangeLog out = std::move(log_);
  log_ = ChangeLog();
  return out;
}

template <class Order>
void ReachSweeper<Order>::log_change(std::uint32_t u, std::uint32_t k, std::uint32_t slot) {
  slot_[u] = slot;
  const std::uint64_t slots = m_.first_choice[u + 1] - m_.first_choice[u] + 1;
  log_.append(m_.state_vertex[u].index(), static_cast<std::uint64_t>(k - last_change_[u] - 1) * slots + slot);
  last_change_[u] = k;
  ++num_changes_;
}

// (sum p Pr, max(entry cost + C)) over choice c's entries, from the values r.
template <class Order>
template <bool TwoMove, bool Costs>
[[gnu::always_inline]] inline ReachValue ReachSweeper<Order>::combine(std::uint32_t c, const ReachValue* r) const {
  const std::uint32_t* col = m_.column.data();
  const double* prob = m_.prob.data();
  const double* ec = m_.entry_cost.data();
  double p = 0, cmax = 0;
  for (std::uint32_t k = m_.first_entry[c]; k < m_.first_entry[c + 1]; ++k) {
    const ReachValue& y = r[col[k]];
    p += prob[k] * y.prob;
    cmax = std::max(cmax, (Costs ? ec[k] : 0.0) + y.cost);
  }
  return {p, cmax};
}

// State u's value from r and its choice (slot: 0 null, j + 1 its j-th choice); on the two-move
// model also the folded choices' new values (jchanges counts those that changed).
template <class Order>
template <bool TwoMove, bool Costs, bool Track>
[[gnu::always_inline]] inline ReachValue ReachSweeper<Order>::compute(std::uint32_t u, const ReachValue* r,
                                                                      std::uint32_t& slot, std::uint32_t& jchanges,
                                                                      std::vector<ReachValue>& options) {
  const std::uint32_t c0 = m_.first_choice[u], deg = m_.first_choice[u + 1] - c0;
  if constexpr (!TwoMove) {
    if (m_.passive[u]) {
      slot = 0;
      return combine<TwoMove, Costs>(c0, r);
    }
    // Per vertex, an active state's choices are its edges: one entry each, in a row, with
    // probability 1 and no entry cost, so an option is (Pr(t), c + C(t)) (what combine gives, bit
    // for bit). Selected on the fly, starting from the current choice's new value.
    const std::uint32_t* col = m_.column.data() + m_.first_entry[c0];
    const double* cost = m_.cost.data() + c0;
    const std::uint32_t cur = slot_[u];
    std::uint32_t best_slot = cur;
    ReachValue best{};
    if constexpr (must_choose_v<Order>) best_slot = cur == 0 && deg > 0 ? 1 : cur;
    if (best_slot != 0) {
      const ReachValue& y = r[col[best_slot - 1]];
      best = {y.prob, cost[best_slot - 1] + y.cost};
    }
    for (std::uint32_t j = 0; j < deg; ++j) {
      const ReachValue& y = r[col[j]];
      const ReachValue x{y.prob, cost[j] + y.cost};
      const bool take = order_.better(x, best);
      best.prob = take ? x.prob : best.prob;
      best.cost = take ? x.cost : best.cost;
      best_slot = take ? j + 1 : best_slot;
    }
    if (!must_choose_v<Order> && best_slot != 0 && order_.better(ReachValue{}, best)) {
      best = ReachValue{};
      best_slot = 0;
    }
    slot = best_slot;
    (void)jchanges;
    (void)options;
    return best;
  }
  if constexpr (!std::is_same_v<Order, ReachPreorderRef>) {
    // The built-in orders are strict weak orders (no value is NaN), so the scan below from the
    // current choice's option ends on the first option of the best class when that class is
    // strictly better than the current option, else on the current choice: found here in the
    // loop that computes the options, with no buffer.
    const std::uint32_t cur = slot_[u];
    ReachValue top{}, at_cur{};
    std::uint32_t top_slot = 0;
    for (std::uint32_t j = 0; j < deg; ++j) {
      const ReachValue y = combine<TwoMove, Costs>(c0 + j, r);
      if constexpr (Track) {  // (without statistics, only sparse passes keep the choices' values)
        if (stats_) jchanges += y != jval_[c0 + j];
        jval_[c0 + j] = y;
      }
      const ReachValue x{y.prob, m_.cost[c0 + j] + y.cost};
      const bool take = j == 0 || order_.better(x, top);
      top.prob = take ? x.prob : top.prob;
      top.cost = take ? x.cost : top.cost;
      top_slot = take ? j + 1 : top_slot;
      if (j + 1 == cur) at_cur = x;
    }
    ReachValue best = at_cur;
    std::uint32_t best_slot = cur;
    if (deg > 0 && ((must_choose_v<Order> && cur == 0) || order_.better(top, best))) {
      best = top;
      best_slot = top_slot;
    }
    if (!must_choose_v<Order> && best_slot != 0 && order_.better(ReachValue{}, best)) {
      best = ReachValue{};
      best_slot = 0;
    }
    slot = best_slot;
    (void)options;
    return best;
  }
  // The options in a buffer kept across calls (an array on the stack would be zeroed every call).
  if (options.size() < deg) options.resize(deg);
  ReachValue* x = options.data();
  for (std::uint32_t j = 0; j < deg; ++j) {
    const ReachValue y = combine<TwoMove, Costs>(c0 + j, r);
    if constexpr (Track) {  // (without statistics, only sparse passes keep the choices' values)
      if (stats_) jchanges += y != jval_[c0 + j];
      jval_[c0 + j] = y;
    }
    x[j] = {y.prob, m_.cost[c0 + j] + y.cost};
  }
  // Keep the current choice unless an option is strictly better (the first such one wins ties).
  const std::uint32_t cur = slot_[u];
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

template <class Order>
template <bool TwoMove, bool Costs, bool Track>
void ReachSweeper<Order>::dense_range(std::uint32_t lo, std::uint32_t hi, std::vector<std::uint32_t>& changed,
                                      std::vector<std::pair<std::uint32_t, std::uint32_t>>& slots,
                                      std::uint32_t& jchanges, std::vector<ReachValue>& options) {
  const ReachValue* r = val_.data();
  ReachValue* w = next_.data();
  const std::uint32_t* col = m_.column.data();
  const std::uint32_t num_entries = m_.first_entry[m_.first_choice[m_.n]];
  std::uint32_t pf = m_.first_entry[m_.first_choice[lo]];
  for (std::uint32_t u = lo; u < hi; ++u) {
    // The sweep reads the successors' values at random; prefetching them a few dozen entries
    // ahead overlaps the cache misses that otherwise dominate the pass.
    const std::uint32_t to = std::min(m_.first_entry[m_.first_choice[u + 1]] + prefetch_distance, num_entries);
    for (; pf < to; ++pf) __builtin_prefetch(&r[col[pf]]);
    // Per vertex only passive states read their entries' probabilities and costs, a pattern the
    // hardware prefetcher misses.
    if (!TwoMove && to > 0) {
      __builtin_prefetch(&m_.prob[to - 1]);
      if constexpr (Costs) __builtin_prefetch(&m_.entry_cost[to - 1]);
    }
    std::uint32_t s;
    const ReachValue v = compute<TwoMove, Costs, Track>(u, r, s, jchanges, options);
    w[u] = v;
    if (s != slot_[u]) slots.emplace_back(u, s);
    if (v != r[u]) changed.push_back(u);
  }
}

// The detached choices (two-move model) from the current values, or (half) every choice; returns
// how many changed.
template <class Order>
template <bool Costs>
std::uint32_t ReachSweeper<Order>::detached_and_half(std::uint32_t from_choice) {
  std::uint32_t count = 0;
  for (std::uint32_t c = from_choice; c < m_.num_choices(); ++c) {
    const ReachValue y = combine<true, Costs>(c, val_.data());
    count += y != jval_[c];
    jval_[c] = y;
  }
  return count;
}

template <class Order>
template <bool TwoMove, bool Costs>
void ReachSweeper<Order>::run_pass() {
  const std::uint32_t n = m_.n;
  const std::uint32_t next_k = k_ + (TwoMove ? 2 : 1);
  const bool dense =
      k_ == 0 || sweep_ == ReachSweep::dense || (sweep_ == ReachSweep::automatic && changed_.size() > n / 16);
  std::uint32_t jchanges = 0;
  // The detached choices (no state reads them) at k + 1, from the states at k.
  if constexpr (TwoMove) jchanges += detached_and_half<Costs>(m_.first_choice[n]);
  // Without statistics no pass reads the attached choices' values: they are left stale and
  // computed once when the caller asks (refresh_choice_values).
  const bool track = !TwoMove || stats_;
  if (dense) {
    changed_.clear();
    const unsigned t = team_->size();
    const auto range = [&](std::uint32_t lo, std::uint32_t hi, std::vector<std::uint32_t>& changed,
                           std::vector<std::pair<std::uint32_t, std::uint32_t>>& slots, std::uint32_t& jc,
                           std::vector<ReachValue>& options) {
      if (track)
        dense_range<TwoMove, Costs, true>(lo, hi, changed, slots, jc, options);
      else
        dense_range<TwoMove, Costs, false>(lo, hi, changed, slots, jc, options);
    };
    if constexpr (TwoMove) jval_fresh_ = track;
    last_dense_ = true;
    if (t <= 1) {
      parts_[0].slots.clear();
      range(0, n, changed_, parts_[0].slots, jchanges, options_);
      for (auto [u, s] : parts_[0].slots) log_change(u, next_k, s);
    } else {
      team_->run([&](unsigned i) {
        Part& p = parts_[i];
        p.changed.clear();
        p.slots.clear();
        p.jchanges = 0;
        const auto lo = static_cast<std::uint32_t>(std::uint64_t{n} * i / t);
        const auto hi = static_cast<std::uint32_t>(std::uint64_t{n} * (i + 1) / t);
        range(lo, hi, p.changed, p.slots, p.jchanges, p.options);
      });
      // Choice changes logged, changed states listed, part by part in state order, as one thread would.
      for (Part& p : parts_) {
        for (auto [u, s] : p.slots) log_change(u, next_k, s);
        changed_.insert(changed_.end(), p.changed.begin(), p.changed.end());
        jchanges += p.jchanges;
      }
    }
    val_.swap(next_);
    val_[n] = {1.0, 0.0};
  } else {
    if constexpr (TwoMove) jval_fresh_ = track;
    last_dense_ = false;
    replaced_.clear();
    if (!have_reverse_) {
      reverse_ = reverse_model(m_);
      have_reverse_ = true;
    }
    cand_.clear();
    for (std::uint32_t t : changed_)
      for (std::uint32_t r = reverse_.off[t]; r < reverse_.off[t + 1]; ++r) {
        const std::uint32_t u = m_.choice_state[reverse_.choice[r]];
        if (stamp_[u] == next_k) continue;
        stamp_[u] = next_k;
        cand_.push_back(u);
      }
    cand_value_.resize(cand_.size());
    cand_slot_.resize(cand_.size());
    for (std::size_t i = 0; i < cand_.size(); ++i)
      cand_value_[i] = track ? compute<TwoMove, Costs, true>(cand_[i], val_.data(), cand_slot_[i], jchanges, options_)
                             : compute<TwoMove, Costs, false>(cand_[i], val_.data(), cand_slot_[i], jchanges, options_);
    changed_.clear();
    for (std::size_t i = 0; i < cand_.size(); ++i) {
      const std::uint32_t u = cand_[i];
      if (cand_value_[i] != val_[u]) {
        if (!track) replaced_.push_back(val_[u]);
        val_[u] = cand_value_[i];
        changed_.push_back(u);
      }
      if (cand_slot_[i] != slot_[u]) log_change(u, next_k, cand_slot_[i]);
    }
  }
  if (stats_) {
    if constexpr (TwoMove) frontier_.push_back(jchanges);  // the folded vertices at k + 1
    frontier_.push_back(static_cast<std::uint32_t>(changed_.size()));
  }
  k_ = next_k;
}

template <class Order>
void ReachSweeper<Order>::pass() {
  if (two_move_) {
    if (costs_)
      run_pass<true, true>();
    else
      run_pass<true, false>();
  } else {
    if (costs_)
      run_pass<false, true>();
    else
      run_pass<false, false>();
  }
}

template <class Order>
void ReachSweeper<Order>::half_pass() {
  const std::uint32_t count = costs_ ? detached_and_half<true>(0) : detached_and_half<false>(0);
  if (stats_) frontier_.push_back(count);
  jval_fresh_ = true;
  changed_.clear();
  k_ += 1;
}

template <class Order>
void ReachSweeper<Order>::refresh_choice_values() {
  if (jval_fresh_) return;
  // Each attached choice's value at k - 1 is its combination of the states' values at k - 2, by
  // the same operations as in a pass (the same bits). After a dense pass those values are in
  // next_; after a sparse one they are the current ones with the states it changed put back.
  const ReachValue* back = next_.data();
  if (!last_dense_) {
    for (std::size_t i = 0; i < changed_.size(); ++i) std::swap(val_[changed_[i]], replaced_[i]);
    back = val_.data();
  }
  const std::uint32_t attached = m_.first_choice[m_.n];
  const auto refresh = [&](std::uint32_t lo, std::uint32_t hi) {
    for (std::uint32_t c = lo; c < hi; ++c)
      jval_[c] = costs_ ? combine<true, true>(c, back) : combine<true, false>(c, back);
  };
  const unsigned t = team_->size();
  if (t <= 1)
    refresh(0, attached);
  else
    team_->run([&](unsigned i) {
      refresh(static_cast<std::uint32_t>(std::uint64_t{attached} * i / t),
              static_cast<std::uint32_t>(std::uint64_t{attached} * (i + 1) / t));
    });
  if (!last_dense_)
    for (std::size_t i = 0; i < changed_.size(); ++i) std::swap(val_[changed_[i]], replaced_[i]);
  jval_fresh_ = true;
}

template class ReachSweeper<LexicographicOrder>;
template class ReachSweeper<ProbabilityOrder>;
template class ReachSweeper<MinProbabilityOrder>;
template class ReachSweeper<ReachPreorderRef>;

}  // namespace playtest::detail
