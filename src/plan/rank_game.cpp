#include "playtest/plan/rank_game.hpp"

#include <algorithm>
#include <stdexcept>

#include "playtest/base/error.hpp"

namespace playtest {

std::uint32_t RankGame::add_vertex(bool marked) {
  if (marked && started_) throw InternalError("RankGame::add_vertex: marked vertices only before the first query");
  auto v = static_cast<std::uint32_t>(r_.size());
  r_.push_back(marked || started_ ? unreachable : 1);
  ptr_.push_back(0);
  marked_.push_back(marked ? 1 : 0);
  dirty_.push_back(0);
  inc_.emplace_back();
  in_tail_.emplace_back();
  if (started_) set_rank(v, 1);
  return v;
}

void RankGame::set_rank(std::uint32_t v, std::uint32_t r) {
  const std::uint32_t old = r_[v];
  if (old == r) return;
  if (old != unreachable) --count_[old];
  if (r != unreachable) {
    if (r >= count_.size()) count_.resize(r + 1, 0);
    ++count_[r];
  }
  r_[v] = r;
}

std::uint32_t RankGame::add_edge(std::uint32_t head, std::span<const std::uint32_t> tail) {
  if (head >= r_.size() || tail.empty()) throw InternalError("RankGame::add_edge: bad head or empty tail");
  if (started_ && marked_[head]) throw InternalError("RankGame::add_edge: head already marked");
  auto h = static_cast<std::uint32_t>(head_.size());
  std::size_t begin = tails_.size();
  tails_.insert(tails_.end(), tail.begin(), tail.end());
  std::sort(tails_.begin() + static_cast<std::ptrdiff_t>(begin), tails_.end());
  tails_.erase(std::unique(tails_.begin() + static_cast<std::ptrdiff_t>(begin), tails_.end()), tails_.end());
  std::uint32_t er = 0;
  for (std::size_t i = begin; i < tails_.size(); ++i) {
    std::uint32_t t = tails_[i];
    if (t >= r_.size()) throw InternalError("RankGame::add_edge: tail vertex out of range");
    in_tail_[t].push_back(h);
    er = std::max(er, r_[t]);
  }
  tail_begin_.push_back(static_cast<std::uint32_t>(tails_.size()));
  head_.push_back(head);
  erank_.push_back(er);
  inc_[head].push_back(h);
  return h;
}

void RankGame::mark(std::uint32_t v) {
  if (marked_[v]) throw InternalError("RankGame::mark: vertex already marked");
  marked_[v] = 1;
  if (!started_) return;  // init() computes everything from scratch
  ptr_[v] = 0;
  push(v);
}

void RankGame::init() {
  started_ = true;
  std::vector<std::uint32_t> r = ranks_from_scratch();
  count_.assign(1, 0);
  for (std::uint32_t v = 0; v < r_.size(); ++v) {
    r_[v] = unreachable;
    set_rank(v, r[v]);
  }
  for (std::uint32_t h = 0; h < head_.size(); ++h) {
    std::uint32_t er = 0;
    for (std::uint32_t t : tail(h)) er = std::max(er, r_[t]);
    erank_[h] = er;
  }
  for (std::uint32_t v = 0; v < r_.size(); ++v) {
    ptr_[v] = 0;
    if (!marked_[v] || r_[v] == unreachable) continue;
    while (erank_[inc_[v][ptr_[v]]] > r_[v] - 1) ++ptr_[v];
  }
}

std::vector<std::uint32_t> RankGame::ranks_from_scratch() const {
  // Level-order (Knuth's generalisation of breadth-first search to AND-OR graphs): an edge becomes
  // known when its last tail vertex is settled, at that vertex's rank, the maximum.
  const std::uint32_t n = num_vertices();
  std::vector<std::uint32_t> r(n, unreachable), pending(num_edges());
  for (std::uint32_t h = 0; h < num_edges(); ++h) pending[h] = tail_begin_[h + 1] - tail_begin_[h];
  std::vector<std::uint32_t> level, next;
  for (std::uint32_t v = 0; v < n; ++v)
    if (!marked_[v]) r[v] = 1, level.push_back(v);
  for (std::uint32_t k = 1; !level.empty(); ++k) {
    next.clear();
    for (std::uint32_t v : level)
      for (std::uint32_t h : in_tail_[v])
        if (--pending[h] == 0 && r[head_[h]] == unreachable) {
          r[head_[h]] = k + 1;
          next.push_back(head_[h]);
        }
    level.swap(next);
  }
  return r;
}

void RankGame::push(std::uint32_t v) {
  std::uint32_t L = r_[v];
  if (L == unreachable) return;
  if (L >= buckets_.size()) buckets_.resize(L + 1);
  buckets_[L].push_back(v);
  dirty_[v] = 1;
  if (L < min_level_) min_level_ = L;
}

void RankGame::advance_min() {
  while (min_level_ < buckets_.size() && buckets_[min_level_].empty()) ++min_level_;
  if (min_level_ >= buckets_.size()) min_level_ = unreachable;
}

bool RankGame::gap_at_min() const {
  // Reachable ranks are contiguous from 1 (a rank-k vertex's best edge has a tail vertex of rank
  // k - 1). Below min_level_ every stored rank is exact, so no vertex of rank min_level_ - 1 means
  // nothing at min_level_ or above is reachable.
  return min_level_ >= 2 && min_level_ != unreachable &&
         (min_level_ - 1 >= count_.size() || count_[min_level_ - 1] == 0);
}

void RankGame::process(std::uint32_t w) {
  // Even-Shiloach step: look for an edge of rank r - 1 from the scan pointer on; earlier edges were
  // already seen above r - 1 and ranks never fall. None left: raise the rank by one, rescan later.
  dirty_[w] = 0;
  const auto& inc = inc_[w];
  const std::uint32_t need = r_[w] - 1;
  for (std::uint32_t i = ptr_[w]; i < inc.size(); ++i) {
    ++work_;
    if (erank_[inc[i]] <= need) {
      ptr_[w] = i;
      return;
    }
  }
  set_rank(w, r_[w] + 1);
  ptr_[w] = 0;
  for (std::uint32_t h : in_tail_[w]) {
    ++work_;
    if (r_[w] <= erank_[h]) continue;
    erank_[h] = r_[w];
    std::uint32_t u = head_[h];
    if (marked_[u] && !dirty_[u] && r_[u] != unreachable && ptr_[u] < inc_[u].size() && inc_[u][ptr_[u]] == h) push(u);
  }
  push(w);
}

std::uint32_t RankGame::rank(std::uint32_t v) {
  if (!started_) init();
  advance_min();
  while (min_level_ != unreachable && min_level_ <= r_[v]) {
    if (gap_at_min()) return unreachable;
    auto& b = buckets_[min_level_];
    std::uint32_t w = b.back();
    b.pop_back();
    if (dirty_[w] && r_[w] == min_level_) process(w);
    advance_min();
  }
  return r_[v];
}

void RankGame::best_edges(std::uint32_t v, std::vector<std::uint32_t>& out) {
  out.clear();
  std::uint32_t rv = rank(v);
  if (rv == unreachable || !marked_[v]) return;
  for (std::uint32_t h : inc_[v])
    if (erank_[h] == rv - 1) out.push_back(h);
}

void RankGame::settle_all() {
  if (!started_) init();
  advance_min();
  while (min_level_ != unreachable) {
    if (gap_at_min()) {
      const std::uint32_t L = min_level_;
      for (std::uint32_t v = 0; v < r_.size(); ++v) {
        dirty_[v] = 0;
        if (r_[v] != unreachable && r_[v] >= L) set_rank(v, unreachable);
      }
      for (auto& b : buckets_) b.clear();
      min_level_ = unreachable;
      for (std::uint32_t h = 0; h < head_.size(); ++h) {
        std::uint32_t er = 0;
        for (std::uint32_t t : tail(h)) er = std::max(er, r_[t]);
        erank_[h] = er;
      }
      break;
    }
    auto& b = buckets_[min_level_];
    std::uint32_t w = b.back();
    b.pop_back();
    if (dirty_[w] && r_[w] == min_level_) process(w);
    advance_min();
  }
}

}  // namespace playtest
