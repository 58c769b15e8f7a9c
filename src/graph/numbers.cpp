#include "playtest/graph/numbers.hpp"

#include <charconv>
#include <cmath>

namespace playtest {

std::optional<std::uint64_t> parse_unsigned(std::string_view text) {
  std::uint64_t v = 0;
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || p != end) return std::nullopt;
  return v;
}

std::optional<double> parse_finite(std::string_view text) {
  double v = 0;
  const char* end = text.data() + text.size();
  const auto [p, ec] = std::from_chars(text.data(), end, v, std::chars_format::general);
  if (text.empty() || ec != std::errc() || p != end || !std::isfinite(v)) return std::nullopt;
  return v;
}

}  // namespace playtest
