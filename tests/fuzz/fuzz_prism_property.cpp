// libFuzzer target for the PRISM property reader of `solve --property` and for the exact decimal
// reader (exact_rational.hpp): any input parses or throws a located ParseError, never crashes,
// recurses without bound (nesting is limited) or allocates for a huge exponent ("1e999999999").
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "playtest/error.hpp"
#include "playtest/io/prism_property.hpp"
#include "playtest/solve/exact_rational.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const playtest::PrismProperty p = playtest::parse_prism_property(text);
    if (p.text != text) __builtin_trap();
  } catch (const playtest::ParseError& e) {
    if (e.diagnostic().where.line != 1 || e.diagnostic().where.column == 0) __builtin_trap();
  }
  if (size < 4096) {
    if (auto q = playtest::exact::parse_number(text)) {
      // A value that reads back: its fraction parses to itself.
      if (playtest::exact::parse_number(playtest::exact::fraction_string(*q)) != *q) __builtin_trap();
    }
  }
  return 0;
}
