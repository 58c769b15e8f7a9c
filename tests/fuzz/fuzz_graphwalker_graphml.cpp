// libFuzzer target for GraphWalker's GraphML (yEd) reader (io/graphwalker.hpp
// parse_graphwalker_graphml: expat, then the labels' grammar) and its compilation into a model
// program: any input either compiles or throws a playtest::Error (never crashes, hangs or throws
// anything else); a compiled model is explored a little (run-time model errors are Errors too).
// An input holding a second "<graphml" is also read as two files from there on
// (parse_graphwalker_files: a model spread over several files).
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/io/graphwalker.hpp"
#include "playtest/lang/graphwalker_model.hpp"

namespace {

void compile_and_explore(const playtest::GwDocument& doc) {
  const playtest::GraphWalkerImport imp = playtest::compile_graphwalker(doc);
  (void)playtest::explore(*imp.model, {.max_states = 200, .max_depth = 20, .naming = playtest::VertexNaming::numbered});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    compile_and_explore(playtest::parse_graphwalker_graphml(text, "fuzz.graphml"));
  } catch (const playtest::Error&) {
  }
  const std::size_t second = text.find("<graphml", text.find("<graphml") + 1);
  if (second != std::string_view::npos && text.find("<graphml") != std::string_view::npos) {
    try {
      const std::vector<playtest::GwFile> files{{text.substr(0, second), "A.graphml"},
                                                {text.substr(second), "B.graphml"}};
      compile_and_explore(playtest::parse_graphwalker_files(files));
    } catch (const playtest::Error&) {
    }
  }
  return 0;
}
