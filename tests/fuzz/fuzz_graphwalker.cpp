// libFuzzer target for the GraphWalker/AltWalker reader (io/graphwalker.hpp) and its compilation
// into a model program (lang/graphwalker_model.hpp): any input either compiles or throws a
// playtest::Error (never crashes, hangs or throws anything else); a compiled model is explored a
// little (run-time model errors are Errors too), and its generator, when it has one, is parsed.
// An input holding a second '{"models"' is also read as two files from there on
// (parse_graphwalker_files: a model spread over several files).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/io/graphwalker.hpp"
#include "playtest/lang/graphwalker_generator.hpp"
#include "playtest/lang/graphwalker_model.hpp"

namespace {

void compile_and_play(const playtest::GwDocument& doc) {
  const playtest::GraphWalkerImport imp = playtest::compile_graphwalker(doc);
  (void)playtest::explore(*imp.model, {.max_states = 200, .max_depth = 20, .naming = playtest::VertexNaming::numbered});
  if (imp.generator) (void)playtest::plan_generator(playtest::parse_generator(*imp.generator, "fuzz.json"), &imp);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    compile_and_play(playtest::parse_graphwalker(text, "fuzz.json"));
  } catch (const playtest::Error&) {
  }
  const std::size_t first = text.find("{\"models\"");
  const std::size_t second = first == std::string_view::npos ? first : text.find("{\"models\"", first + 1);
  if (second != std::string_view::npos) {
    try {
      const std::vector<playtest::GwFile> files{{text.substr(0, second), "a.json"}, {text.substr(second), "b.json"}};
      compile_and_play(playtest::parse_graphwalker_files(files));
    } catch (const playtest::Error&) {
    }
  }
  return 0;
}
