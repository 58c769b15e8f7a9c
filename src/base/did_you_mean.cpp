#include "playtest/base/did_you_mean.hpp"

#include <algorithm>
#include <cctype>
#include <numeric>

namespace playtest {

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Optimal string alignment distance (Damerau-Levenshtein without repeated edits of a substring).
std::size_t distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::size_t> prev2(m + 1), prev(m + 1), cur(m + 1);
  std::iota(prev.begin(), prev.end(), 0);
  for (std::size_t i = 1; i <= n; ++i) {
    cur[0] = i;
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        cur[j] = std::min(cur[j], prev2[j - 2] + 1);
    }
    prev2.swap(prev);
    prev.swap(cur);
  }
  return prev[m];
}

}  // namespace

std::vector<std::string> closest_names(std::string_view name, std::span<const std::string> known, std::size_t limit) {
  const std::size_t max_distance = std::max<std::size_t>(1, name.size() / 3);
  std::vector<std::pair<std::size_t, std::size_t>> hits;  // (distance, index)
  for (std::size_t i = 0; i < known.size(); ++i) {
    // Cheap bound first: the lengths alone differ by more than the budget.
    const std::size_t gap =
        known[i].size() > name.size() ? known[i].size() - name.size() : name.size() - known[i].size();
    if (gap > max_distance) continue;
    const std::size_t d = distance(name, known[i]);
    if (d <= max_distance) hits.emplace_back(d, i);
  }
  std::stable_sort(hits.begin(), hits.end());
  std::vector<std::string> out;
  for (std::size_t k = 0; k < hits.size() && out.size() < limit; ++k) out.push_back(known[hits[k].second]);
  return out;
}

std::string did_you_mean(std::string_view name, std::span<const std::string> known) {
  const std::vector<std::string> close = closest_names(name, known);
  if (close.empty()) return {};
  std::string s = " (did you mean '" + close[0] + "'";
  for (std::size_t i = 1; i < close.size(); ++i) s += (i + 1 == close.size() ? " or '" : ", '") + close[i] + "'";
  return s + "?)";
}

}  // namespace playtest
