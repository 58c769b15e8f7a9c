#include "playtest/campaign/shard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

#include "playtest/base/error.hpp"
#include "playtest/base/numbers.hpp"

namespace playtest {

namespace {

bool parse_number(std::string_view s, std::uint32_t& v) {
  const auto r = read_integer<std::uint32_t>(s);
  v = r.value;
  return r.ok();
}

}  // namespace

Shard parse_shard(std::string_view text) {
  const std::size_t slash = text.find('/');
  Shard s;
  if (slash == std::string_view::npos || !parse_number(text.substr(0, slash), s.index) ||
      !parse_number(text.substr(slash + 1), s.count))
    throw UsageError("shard", fmt::format("expected K/M (shard K of M, e.g. 2/4), got '{}'", text));
  if (s.count == 0 || s.index == 0 || s.index > s.count)
    throw UsageError("shard", fmt::format("shard {} does not exist: K/M needs 1 <= K <= M", text));
  return s;
}

std::string to_string(const Shard& s) { return fmt::format("{}/{}", s.index, s.count); }

MissingRuns runs_missing(const Shard& shard, std::uint32_t runs, const ShardRuns& held, std::size_t listed) {
  std::vector<std::uint32_t> present;
  for (std::uint32_t r : held.present)
    if (r >= 1 && r <= runs && shard.contains(r)) present.push_back(r);
  std::sort(present.begin(), present.end());
  present.erase(std::unique(present.begin(), present.end()), present.end());
  // Runs after `last` may be absent for a stated reason.
  std::uint32_t last = runs;
  if (held.interrupted) last = present.empty() ? 0 : present.back();
  if (held.failed_fast != 0) last = std::min(last, held.failed_fast);
  MissingRuns m;
  const auto upto = std::upper_bound(present.begin(), present.end(), last);
  m.count = shard.runs_of(last) - static_cast<std::uint64_t>(upto - present.begin());
  // The first ones: walk the shard's runs, skipping the present ones (at most |present| + listed steps).
  auto p = present.begin();
  for (std::uint64_t r = shard.index; r <= last && m.first.size() < std::min<std::uint64_t>(listed, m.count);
       r += shard.count) {
    while (p != upto && *p < r) ++p;
    if (p != upto && *p == r) continue;
    m.first.push_back(static_cast<std::uint32_t>(r));
  }
  return m;
}

}  // namespace playtest
