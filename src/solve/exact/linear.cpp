#include "playtest/solve/exact/linear.hpp"

#include <algorithm>
#include <set>

namespace playtest::exact {

namespace {

using Row = std::vector<std::pair<std::uint32_t, Rational>>;

const Rational* find(const Row& row, std::uint32_t col) {
  auto it = std::lower_bound(row.begin(), row.end(), col, [](const auto& e, std::uint32_t c) { return e.first < c; });
  return it != row.end() && it->first == col ? &it->second : nullptr;
}

std::uint64_t bits(const Rational& q) {
  return std::max(mpz_sizeinbase(q.get_num_mpz_t(), 2), mpz_sizeinbase(q.get_den_mpz_t(), 2));
}

}  // namespace

void SparseSystem::add(std::uint32_t row, std::uint32_t col, const Rational& value) {
  rows_[row].emplace_back(col, value);
}

// Minimum-degree elimination: the variable with the smallest (off-diagonal entries of its row) x
// (off-diagonal entries of its column among the rows not yet eliminated) goes next, which keeps
// the fill-in (and the size of the numbers) small on the sparse systems of strategies.
struct Eliminator {
  std::vector<Row> rows;
  std::vector<Rational> rhs;
  std::vector<std::vector<std::uint32_t>> col_rows;  // rows that had an entry in the column (stale ones too)
  std::vector<std::uint32_t> col_count;              // live off-diagonal entries of the column in live rows
  std::vector<std::uint8_t> eliminated;
  std::vector<std::uint64_t> key;
  std::set<std::pair<std::uint64_t, std::uint32_t>> queue;
  LinearSolveStats stats;

  explicit Eliminator(SparseSystem& s) : rows(std::move(s.rows_)), rhs(std::move(s.rhs_)) {}

  std::uint64_t off_diagonal(std::uint32_t v) const { return rows[v].size() - (find(rows[v], v) != nullptr ? 1 : 0); }
  std::uint64_t degree(std::uint32_t v) const { return off_diagonal(v) * col_count[v]; }
  void requeue(std::uint32_t v) {
    if (eliminated[v]) return;
    queue.erase({key[v], v});
    key[v] = degree(v);
    queue.insert({key[v], v});
  }

  LinearSolution::Status run(std::vector<Rational>& x, const std::function<bool()>& cancelled) {
    const auto n = static_cast<std::uint32_t>(rows.size());
    col_rows.assign(n, {});
    col_count.assign(n, 0);
    eliminated.assign(n, 0);
    key.assign(n, 0);
    for (std::uint32_t i = 0; i < n; ++i) {
      Row& r = rows[i];
      std::sort(r.begin(), r.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      Row merged;
      for (auto& [c, x] : r) {
        x.canonicalize();  // GMP's arithmetic needs canonical operands
        if (!merged.empty() && merged.back().first == c)
          merged.back().second += x;
        else
          merged.emplace_back(c, std::move(x));
      }
      std::erase_if(merged, [](const auto& e) { return e.second == 0; });
      r = std::move(merged);
      rhs[i].canonicalize();
      for (const auto& [c, x] : r) {
        stats.max_bits = std::max(stats.max_bits, bits(x));
        if (c != i) {
          col_rows[c].push_back(i);
          ++col_count[c];
        }
      }
    }
    for (std::uint32_t v = 0; v < n; ++v) {
      key[v] = degree(v);
      queue.insert({key[v], v});
    }
    std::vector<std::uint32_t> order;
    order.reserve(n);
    std::vector<std::uint32_t> stamp(n, 0);
    std::uint32_t round = 0;
    Row merged;
    while (!queue.empty()) {
      const std::uint32_t k = queue.begin()->second;
      queue.erase(queue.begin());
      const Rational* diag = find(rows[k], k);
      if (diag == nullptr) return LinearSolution::Status::singular;
      if ((order.size() & 63) == 63 && cancelled && cancelled()) return LinearSolution::Status::cancelled;
      const Rational d = *diag;
      eliminated[k] = 1;
      order.push_back(k);
      const Row& pivot = rows[k];
      stats.max_row_size = std::max<std::uint64_t>(stats.max_row_size, pivot.size());
      // Row k leaves the active rows: its columns lose an entry.
      for (const auto& [c, x] : pivot)
        if (c != k) --col_count[c];
      ++round;
      std::vector<std::uint32_t> touched;
      for (std::uint32_t i : col_rows[k]) {
        if (eliminated[i] || stamp[i] == round) continue;
        stamp[i] = round;
        const Rational* aik = find(rows[i], k);
        if (aik == nullptr) continue;
        const Rational f = *aik / d;
        // rows[i] -= f * pivot, dropping column k (it becomes 0 exactly).
        merged.clear();
        const Row& ri = rows[i];
        std::size_t a = 0, b = 0;
        while (a < ri.size() || b < pivot.size()) {
          const std::uint32_t ca = a < ri.size() ? ri[a].first : UINT32_MAX;
          const std::uint32_t cb = b < pivot.size() ? pivot[b].first : UINT32_MAX;
          if (ca < cb) {
            if (ca != k) merged.push_back(ri[a]);
            ++a;
          } else if (cb < ca) {
            if (cb != k) {
              merged.emplace_back(cb, -f * pivot[b].second);
              ++stats.fill_in;
              if (cb != i) {
                col_rows[cb].push_back(i);
                ++col_count[cb];
                touched.push_back(cb);
              }
            }
            ++b;
          } else {
            if (ca != k) {
              Rational y = ri[a].second - f * pivot[b].second;
              if (y == 0) {
                if (ca != i) {
                  --col_count[ca];
                  touched.push_back(ca);
                }
              } else {
                stats.max_bits = std::max(stats.max_bits, bits(y));
                merged.emplace_back(ca, std::move(y));
              }
            }
            ++a;
            ++b;
          }
        }
        rows[i].swap(merged);
        rhs[i] -= f * rhs[k];
        touched.push_back(i);
      }
      for (const auto& [c, x] : pivot)
        if (c != k) touched.push_back(c);
      std::sort(touched.begin(), touched.end());
      touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
      for (std::uint32_t v : touched) requeue(v);
      std::vector<std::uint32_t>().swap(col_rows[k]);
    }
    x.assign(n, Rational());
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const std::uint32_t k = *it;
      Rational s = rhs[k];
      Rational d;
      for (const auto& [c, a] : rows[k]) {
        if (c == k)
          d = a;
        else
          s -= a * x[c];
      }
      x[k] = s / d;
      stats.max_bits = std::max(stats.max_bits, bits(x[k]));
    }
    return LinearSolution::Status::solved;
  }
};

LinearSolution solve(SparseSystem system, const std::function<bool()>& cancelled) {
  Eliminator e(system);
  LinearSolution s;
  s.status = e.run(s.x, cancelled);
  if (s.status != LinearSolution::Status::solved) s.x.clear();
  s.stats = e.stats;
  return s;
}

}  // namespace playtest::exact
