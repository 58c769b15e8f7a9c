// libFuzzer target for GraphWalker's GraphML (yEd) reader (io/graphwalker.hpp
// parse_graphwalker_graphml: expat, then the labels' grammar) and its compilation into a model
// program: any input either compiles or throws a playtest::Error (never crashes, hangs or throws
// anything else); a compiled model is explored a little (run-time model errors are Errors too).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "playtest/error.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/io/graphwalker.hpp"
#include "playtest/lang/graphwalker_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const playtest::GwDocument doc = playtest::parse_graphwalker_graphml(text, "fuzz.graphml");
    const playtest::GraphWalkerImport imp = playtest::compile_graphwalker(doc);
    (void)playtest::explore(*imp.model,
                            {.max_states = 200, .max_depth = 20, .naming = playtest::VertexNaming::numbered});
  } catch (const playtest::Error&) {
  }
  return 0;
}
