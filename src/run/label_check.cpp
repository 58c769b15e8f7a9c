#include "playtest/run/label_check.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace playtest {

namespace {

// Edit distance, giving up (returning `limit` + 1) once every entry of a row exceeds `limit`.
std::size_t distance(std::string_view a, std::string_view b, std::size_t limit) {
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    std::size_t row_min = cur[0];
    for (std::size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0u : 1u)});
      row_min = std::min(row_min, cur[j]);
    }
    if (row_min > limit) return limit + 1;
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::vector<std::string> nearest_labels(std::string_view label, std::span<const std::string_view> pool,
                                        std::size_t keep) {
  constexpr std::size_t max_scanned = 20000;  // a hint must not take seconds on a huge model
  const std::size_t limit = std::max<std::size_t>(3, label.size() / 2);
  std::vector<std::pair<std::size_t, std::string_view>> scored;
  const bool output = label.starts_with('?');
  for (std::size_t i = 0; i < pool.size() && i < max_scanned; ++i) {
    const std::string_view l = pool[i];
    if (l.starts_with('?') != output || l == "?timeout" || l == label) continue;
    if (l.size() > label.size() + limit || label.size() > l.size() + limit) continue;
    if (const std::size_t d = distance(label, l, limit); d <= limit) scored.emplace_back(d, l);
  }
  std::sort(scored.begin(), scored.end());
  scored.erase(std::unique(scored.begin(), scored.end()), scored.end());
  std::vector<std::string> out;
  for (std::size_t i = 0; i < scored.size() && out.size() < keep; ++i) out.emplace_back(scored[i].second);
  return out;
}

std::optional<std::string> foreign_label_note(std::string_view label, std::span<const std::string_view> known,
                                              bool known_complete, const ModelValues* values,
                                              std::span<const std::string_view> nearest_pool) {
  bool foreign = false;
  const bool output = label.starts_with('?');
  if (values) {
    const ActionShape* a = values->action(label_action(label));
    if (!a || a->observable != output)
      foreign = true;
    else if (!values->has_values())
      foreign = !values->is_label(label);
  } else if (known_complete) {
    foreign = std::find(known.begin(), known.end(), label) == known.end();
  }
  if (!foreign) return std::nullopt;
  std::string note = fmt::format("'{}' is not a label of the model at all (adapter and model disagree?)", label);
  const std::vector<std::string> near = nearest_labels(label, nearest_pool.empty() ? known : nearest_pool);
  if (!near.empty()) {
    std::string list;
    for (const std::string& n : near) list += (list.empty() ? "'" : ", '") + n + "'";
    note += fmt::format("; the nearest labels of the model are {}", list);
  } else if (values) {
    std::string names;
    for (const ActionShape& s : values->actions())
      if (s.observable == output) names += (names.empty() ? "" : ", ") + std::string(output ? "?" : "") + s.name;
    if (!names.empty()) note += fmt::format("; the model's {} are {}", output ? "outputs" : "stimuli", names);
  }
  return note;
}

}  // namespace playtest
