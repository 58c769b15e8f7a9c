// libFuzzer target for the PRISM property reader of `solve --property`, the .props file reader
// (with its constants evaluated and every property parsed), and the exact decimal reader
// (exact_rational.hpp): any input parses or throws a located ParseError (or, for constants, a
// UsageError), never crashes, recurses without bound (nesting is limited), overflows a bound or
// allocates for a huge exponent ("1e999999999").
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "playtest/base/error.hpp"
#include "playtest/io/prism_property.hpp"
#include "playtest/solve/exact_rational.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const playtest::PrismProperty p = playtest::parse_prism_property(text);
    if (p.text != text) __builtin_trap();
  } catch (const playtest::ParseError& e) {
    if (e.diagnostic().where.line == 0 || e.diagnostic().where.column == 0) __builtin_trap();
  }
  try {
    const playtest::PrismPropsFile f = playtest::parse_prism_props(text, "f.props");
    const playtest::PrismConstants c = playtest::prism_constants(&f, {});
    for (const auto& p : f.properties) {
      if (p.line == 0 || p.column == 0) __builtin_trap();
      try {
        playtest::parse_prism_property(p.text, c, {"f.props", p.line, p.column});
      } catch (const playtest::ParseError& e) {
        if (e.diagnostic().where.line < p.line || e.diagnostic().where.file != "f.props") __builtin_trap();
      }
    }
  } catch (const playtest::ParseError& e) {
    if (e.diagnostic().where.line == 0 || e.diagnostic().where.column == 0) __builtin_trap();
  }
  if (size < 4096) {
    if (auto q = playtest::exact::parse_number(text)) {
      // A value that reads back: its fraction parses to itself.
      if (playtest::exact::parse_number(playtest::exact::fraction_string(*q)) != *q) __builtin_trap();
    }
  }
  return 0;
}
