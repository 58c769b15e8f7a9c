// libFuzzer target for the GraphWalker/AltWalker reader (io/graphwalker.hpp) and its compilation
// into a model program (lang/graphwalker_model.hpp): any input either compiles or throws a
// playtest::Error (never crashes, hangs or throws anything else); a compiled model is explored a
// little (run-time model errors are Errors too), and its generator, when it has one, is parsed.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "playtest/error.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/lang/graphwalker_generator.hpp"
#include "playtest/lang/graphwalker_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const playtest::GraphWalkerImport imp = playtest::load_graphwalker(text, "fuzz.json");
    (void)playtest::explore(*imp.model,
                            {.max_states = 200, .max_depth = 20, .naming = playtest::VertexNaming::numbered});
    if (imp.generator) (void)playtest::plan_generator(playtest::parse_generator(*imp.generator, "fuzz.json"), &imp);
  } catch (const playtest::Error&) {
  }
  return 0;
}
