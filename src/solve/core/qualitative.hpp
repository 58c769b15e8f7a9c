// Qualitative reachability on a game graph, decided exactly by graph algorithms (as Storm's
// utility/graph.h performProb0A/0E/1A/1E and PRISM's prob0/prob1; Baier & Katoen, Principles of
// Model Checking, §10.6.1): which states reach a target with probability 0 or 1 under some or under
// every scheduler, and within a number of moves. No number is compared: the answers depend only on
// which transitions have a positive probability, so they are the same in double and in rational
// arithmetic, and every qualitative question ("P>=1", "P>0", where Rmin is infinite) is answered here
// once, for every solver: expected cost's almost-sure region, the property engine's precomputations
// at every reward level, and the qualitative verdicts of `solve --property`.
//
// A game is states with choices (a scheduler picks one of a state's choices; a state with one
// choice is random, a state with none is a dead end: it never reaches a target) and per choice its
// entries, each a successor with a positive probability (the QualitativeGame concept below). Every
// state has a status: free (its choices apply), or absorbing with a known value: one (a target),
// zero (lost: off an until's left side), mid (a known value strictly between 0 and 1: a lower
// reward level's constant). Two views satisfy it: GraphGame (a TestGraph: an active vertex's
// choices are its edges, a passive vertex has one choice, its edges) and the property engine's
// level form (src/solve/exact/property.cpp).
#pragma once

#include <concepts>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "playtest/graph/test_graph.hpp"

namespace playtest::detail {

enum class QualStatus : std::uint8_t { free, one, zero, mid };

inline constexpr std::uint32_t no_choice = std::numeric_limits<std::uint32_t>::max();
inline constexpr std::uint64_t unreachable_distance = std::numeric_limits<std::uint64_t>::max();

// choices(s): the range [first, last) of s's choice ids (ids below num_choice_ids()); for_entries
// calls f(successor, entry) per entry of a choice; for_preds calls f(state, choice, entry) once per
// entry into s (every state, absorbing ones included); choice_state(c) is c's state.
template <class G>
concept QualitativeGame = requires(const G& g, std::uint32_t s, std::uint32_t c) {
  { g.num_states() } -> std::convertible_to<std::uint32_t>;
  { g.num_choice_ids() } -> std::convertible_to<std::uint32_t>;
  { g.status(s) } -> std::convertible_to<QualStatus>;
  { g.choices(s) } -> std::convertible_to<std::pair<std::uint32_t, std::uint32_t>>;
  { g.choice_state(c) } -> std::convertible_to<std::uint32_t>;
  g.for_entries(c, [](std::uint32_t, std::uint32_t) {});
  g.for_preds(s, [](std::uint32_t, std::uint32_t, std::uint32_t) {});
};

// A TestGraph as a game. Choice ids: an active vertex's choices are its out-edges (choice id = edge
// id, one entry each), a passive vertex v's one choice is num_edges + v (its edges, entry id = edge
// id). `status` has one entry per vertex.
class GraphGame {
 public:
  GraphGame(const TestGraph& g, std::span<const QualStatus> status)
      : g_(g), status_(status), off_(g.out_offsets()), tg_(g.targets()), src_(g.sources()), ne_(g.num_edges()) {}
  std::uint32_t num_states() const { return g_.num_vertices(); }
  std::uint32_t num_choice_ids() const { return ne_ + g_.num_vertices(); }
  QualStatus status(std::uint32_t s) const { return status_[s]; }
  std::pair<std::uint32_t, std::uint32_t> choices(std::uint32_t s) const {
    if (g_.is_passive(VertexId{s})) return {ne_ + s, ne_ + s + 1};
    return {off_[s], off_[s + 1]};
  }
  std::uint32_t choice_state(std::uint32_t c) const { return c < ne_ ? src_[c].index() : c - ne_; }
  template <class F>
  void for_entries(std::uint32_t c, F&& f) const {
    if (c < ne_) {
      f(tg_[c].index(), c);
      return;
    }
    const std::uint32_t v = c - ne_;
    for (std::uint32_t e = off_[v]; e < off_[v + 1]; ++e) f(tg_[e].index(), e);
  }
  template <class F>
  void for_preds(std::uint32_t s, F&& f) const {
    for (EdgeId e : g_.in_edges(VertexId{s})) {
      const std::uint32_t u = src_[e.index()].index();
      f(u, g_.is_passive(VertexId{u}) ? ne_ + u : e.index(), e.index());
    }
  }

 private:
  const TestGraph& g_;
  std::span<const QualStatus> status_;
  std::span<const std::uint32_t> off_;
  std::span<const VertexId> tg_, src_;
  std::uint32_t ne_;
};

// Per vertex: one for a target, zero for a vertex that is neither a target nor allowed (an until's
// left side; empty `allowed`: every vertex is allowed), else free.
std::vector<QualStatus> graph_status(const TestGraph& g, std::span<const std::uint8_t> is_target,
                                     std::span<const std::uint8_t> is_allowed);

// The states with a positive probability of reaching a one or mid state: under some scheduler
// (every_scheduler false; the complement among free states is Storm's prob0A, Pmax = 0) or under
// every scheduler (true; the complement is prob0E, Pmin = 0). Absorbing states: 1 for one and mid.
// `choice` (optional, per state): some scheduler: the choice through which a free state was
// reached, one step closer to a positive state (an attractor strategy); every scheduler: for a free
// state outside the set, a choice all of whose entries stay outside it (the scheduler keeps the
// probability 0 with it), no_choice elsewhere.
template <QualitativeGame G>
std::vector<std::uint8_t> positive_region(const G& g, bool every_scheduler, std::vector<std::uint32_t>* choice) {
  const std::uint32_t n = g.num_states();
  std::vector<std::uint8_t> in(n, 0), hit(g.num_choice_ids(), 0);
  std::vector<std::uint32_t> left, queue;
  if (every_scheduler) left.assign(n, 0);
  if (choice) choice->assign(n, no_choice);
  queue.reserve(n);
  for (std::uint32_t s = 0; s < n; ++s) {
    const QualStatus st = g.status(s);
    if (st == QualStatus::one || st == QualStatus::mid) {
      in[s] = 1;
      queue.push_back(s);
    } else if (st == QualStatus::free && every_scheduler) {
      const auto [lo, hi] = g.choices(s);
      left[s] = hi - lo;
    }
  }
  for (std::size_t h = 0; h < queue.size(); ++h)
    g.for_preds(queue[h], [&](std::uint32_t u, std::uint32_t c, std::uint32_t) {
      if (in[u] || hit[c] || g.status(u) != QualStatus::free) return;
      hit[c] = 1;
      if (every_scheduler && --left[u] != 0) return;
      in[u] = 1;
      if (choice && !every_scheduler) (*choice)[u] = c;
      queue.push_back(u);
    });
  if (choice && every_scheduler)
    for (std::uint32_t s = 0; s < n; ++s) {
      if (in[s] || g.status(s) != QualStatus::free) continue;
      const auto [lo, hi] = g.choices(s);
      for (std::uint32_t c = lo; c < hi; ++c)
        if (!hit[c]) {
          (*choice)[s] = c;
          break;
        }
    }
  return in;
}

// Storm's prob1E (Pmax = 1): the states from which some scheduler reaches a one state with
// probability 1 (one states included), as the greatest fixed point of the least fixed points
// "some choice stays in the set and moves closer to a target". `attractor` (optional, per state):
// for every free state of the set, such a choice (a strategy that reaches a target almost surely
// from the whole set); `order` (optional): the set's free states in the order the last backward
// search reached them (closest to a target first).
template <QualitativeGame G>
std::vector<std::uint8_t> prob1_exists(const G& g, std::vector<std::uint32_t>* attractor = nullptr,
                                       std::vector<std::uint32_t>* order = nullptr) {
  const std::uint32_t n = g.num_states();
  std::vector<std::uint8_t> u(n, 0), r(n, 0), ok(g.num_choice_ids(), 0);
  std::vector<std::uint32_t> queue, att;
  queue.reserve(n);
  att.assign(attractor ? n : 0, no_choice);
  for (std::uint32_t s = 0; s < n; ++s) {
    const QualStatus st = g.status(s);
    u[s] = st == QualStatus::free || st == QualStatus::one;
  }
  for (;;) {
    // Choices of the set's free states all of whose entries stay in it.
    for (std::uint32_t s = 0; s < n; ++s) {
      if (!u[s] || g.status(s) != QualStatus::free) continue;
      const auto [lo, hi] = g.choices(s);
      for (std::uint32_t c = lo; c < hi; ++c) {
        bool all = true;
        g.for_entries(c, [&](std::uint32_t t, std::uint32_t) { all = all && u[t]; });
        ok[c] = all;
      }
    }
    std::fill(r.begin(), r.end(), 0);
    queue.clear();
    for (std::uint32_t s = 0; s < n; ++s)
      if (g.status(s) == QualStatus::one) {
        r[s] = 1;
        queue.push_back(s);
      }
    const std::size_t num_one = queue.size();
    for (std::size_t h = 0; h < queue.size(); ++h)
      g.for_preds(queue[h], [&](std::uint32_t p, std::uint32_t c, std::uint32_t) {
        if (r[p] || !u[p] || !ok[c] || g.status(p) != QualStatus::free) return;
        r[p] = 1;
        if (attractor) att[p] = c;
        queue.push_back(p);
      });
    if (r == u) {
      if (attractor) *attractor = std::move(att);
      if (order) order->assign(queue.begin() + static_cast<std::ptrdiff_t>(num_one), queue.end());
      return r;
    }
    u.swap(r);
  }
}

// Storm's prob1A (Pmin = 1): the states from which every scheduler reaches a one state with
// probability 1 (one states included): the free states from which no path through free states
// reaches a zero or mid state or a state where some scheduler avoids every one and mid state
// forever (outside positive_region(g, true, ...), given as `positive_every`).
template <QualitativeGame G>
std::vector<std::uint8_t> prob1_every(const G& g, std::span<const std::uint8_t> positive_every) {
  const std::uint32_t n = g.num_states();
  std::vector<std::uint8_t> bad(n, 0);
  std::vector<std::uint32_t> queue;
  for (std::uint32_t s = 0; s < n; ++s) {
    const QualStatus st = g.status(s);
    if (st == QualStatus::zero || st == QualStatus::mid || (st == QualStatus::free && !positive_every[s])) {
      bad[s] = 1;
      queue.push_back(s);
    }
  }
  for (std::size_t h = 0; h < queue.size(); ++h)
    g.for_preds(queue[h], [&](std::uint32_t p, std::uint32_t, std::uint32_t) {
      if (bad[p] || g.status(p) != QualStatus::free) return;
      bad[p] = 1;
      queue.push_back(p);
    });
  std::vector<std::uint8_t> out(n, 0);
  for (std::uint32_t s = 0; s < n; ++s) {
    const QualStatus st = g.status(s);
    out[s] = st == QualStatus::one || (st == QualStatus::free && !bad[s]);
  }
  return out;
}

// Within a bound on the number of entries taken (moves), where no state is mid: the least number
// of moves within which a one state is reached with positive probability (every_entry false) or
// with probability 1 (true), under some scheduler (every_scheduler false) or every one (true);
// unreachable_distance beyond `limit` or never. Over a finite horizon "probability 1" is "surely"
// (each path of bounded length has a positive probability), so a breadth-first search with a
// counter per choice and per state decides all four: P>0 and P=1 within k moves for Pmax and Pmin.
template <QualitativeGame G>
std::vector<std::uint64_t> step_distance(const G& g, bool every_scheduler, bool every_entry, std::uint64_t limit) {
  const std::uint32_t n = g.num_states();
  std::vector<std::uint64_t> dist(n, unreachable_distance);
  std::vector<std::uint32_t> left_choice(g.num_choice_ids(), 0), left_state, queue;
  std::vector<std::uint8_t> done_choice(g.num_choice_ids(), 0);
  if (every_scheduler) left_state.assign(n, 0);
  queue.reserve(n);
  for (std::uint32_t s = 0; s < n; ++s) {
    const QualStatus st = g.status(s);
    if (st == QualStatus::one) {
      dist[s] = 0;
      queue.push_back(s);
    } else if (st == QualStatus::free) {
      const auto [lo, hi] = g.choices(s);
      if (every_scheduler) left_state[s] = hi - lo;
      if (every_entry)
        for (std::uint32_t c = lo; c < hi; ++c)
          g.for_entries(c, [&](std::uint32_t, std::uint32_t) { ++left_choice[c]; });
    }
  }
  // Distances leave the queue in non-decreasing order: a state is settled when its last needed
  // entry is (at distance d), at d + 1.
  for (std::size_t h = 0; h < queue.size(); ++h) {
    const std::uint32_t v = queue[h];
    const std::uint64_t d = dist[v];
    if (d >= limit) break;
    g.for_preds(v, [&](std::uint32_t u, std::uint32_t c, std::uint32_t) {
      if (dist[u] != unreachable_distance || done_choice[c] || g.status(u) != QualStatus::free) return;
      if (every_entry && --left_choice[c] != 0) return;
      done_choice[c] = 1;
      if (every_scheduler && --left_state[u] != 0) return;
      dist[u] = d + 1;
      queue.push_back(u);
    });
  }
  return dist;
}

}  // namespace playtest::detail
