#include "playtest/run/shard.hpp"

#include <fmt/format.h>

#include <charconv>

#include "playtest/error.hpp"

namespace playtest {

namespace {

bool parse_number(std::string_view s, std::uint32_t& v) {
  if (s.empty() || s.front() == '+' || s.front() == '-') return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size();
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

}  // namespace playtest
