// libFuzzer target for the modelling language: lexing, parsing and checking arbitrary text must
// either compile or throw playtest::Error (never crash, hang or throw anything else); a compiled
// model is explored a little, where run-time model errors are Errors too.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "playtest/base/error.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/lang/model_program.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    auto model = playtest::compile_model(text, "fuzz.ptm");
    (void)playtest::explore(*model, {.max_states = 200, .max_depth = 20, .naming = playtest::VertexNaming::numbered});
  } catch (const playtest::Error&) {
  }
  return 0;
}
