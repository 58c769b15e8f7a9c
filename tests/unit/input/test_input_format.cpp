// How load_input tells formats apart (input/load.hpp, input_format): the names --format takes, the
// extension, and, for a file whose name says nothing, its content: each bundled example copied to a
// name without an extension is detected as what it is; an explicit format wins over both.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "playtest/base/error.hpp"
#include "playtest/input/load.hpp"
#include "scratch_test.hpp"
#include "test_paths.hpp"

namespace playtest {
namespace {

namespace fs = std::filesystem;

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class InputFormatTest : public playtest::testing::ScratchTest {
 protected:
  // `text` in a file named `name`; the format input_format gives it.
  InputFormat detect(const std::string& name, const std::string& text,
                     std::optional<InputFormat> given = std::nullopt) const {
    const fs::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    std::optional<std::string> read;
    LoadOptions o{.path = p.string()};
    o.format = given;
    return input_format(o, read);
  }
};

TEST(InputFormatNamed, EveryFormatHasItsNameAndAutoIsNone) {
  EXPECT_EQ(input_format_named("graph"), InputFormat::graph);
  EXPECT_EQ(input_format_named("model"), InputFormat::model);
  EXPECT_EQ(input_format_named("aut"), InputFormat::aut);
  EXPECT_EQ(input_format_named("lts"), InputFormat::lts);
  EXPECT_EQ(input_format_named("prism"), InputFormat::prism);
  EXPECT_EQ(input_format_named("graphwalker"), InputFormat::graphwalker);
  EXPECT_EQ(input_format_named("auto"), std::nullopt);
  EXPECT_EQ(input_format_named("json"), std::nullopt);
  EXPECT_EQ(input_format_named(""), std::nullopt);
}

TEST_F(InputFormatTest, AFileWithoutAnExtensionIsKnownByItsContent) {
  const std::string ex = playtest::testing::source_dir() + "/examples/";
  EXPECT_EQ(detect("a", read_text(ex + "graphs/seed000-figure1.json")), InputFormat::graph);
  EXPECT_EQ(detect("b", read_text(ex + "models/counter.ptm")), InputFormat::model);
  EXPECT_EQ(detect("c", read_text(ex + "ioco/candy_spec.aut")), InputFormat::aut);
  EXPECT_EQ(detect("d", read_text(ex + "ioco/candy_spec.lts.json")), InputFormat::lts);
  EXPECT_EQ(detect("e", read_text(ex + "graphwalker/door.json")), InputFormat::graphwalker);
  EXPECT_EQ(detect("f", read_text(ex + "graphwalker/Door.graphml")), InputFormat::graphwalker);
  EXPECT_EQ(detect("g", "3 4 5\n0 0 1 1 go\n0 1 2 0.5 try\n0 1 0 0.5 try\n1 0 1 1 stay\n"), InputFormat::prism);
  // A byte-order mark and leading blanks do not hide what follows.
  EXPECT_EQ(detect("h", "\xEF\xBB\xBF  \n" + read_text(ex + "graphs/seed000-figure1.json")), InputFormat::graph);
}

TEST_F(InputFormatTest, TheExtensionAndAnExplicitFormatComeBeforeTheContent) {
  const std::string graph = read_text(playtest::testing::source_dir() + "/examples/graphs/seed000-figure1.json");
  // A .ptm file is a model program whatever it holds; --format wins over the extension.
  EXPECT_EQ(detect("x.ptm", graph), InputFormat::model);
  EXPECT_EQ(detect("y.json", graph, InputFormat::lts), InputFormat::lts);
  EXPECT_EQ(detect("z.tra", "2 1\n0 1 1\n"), InputFormat::prism);
  EXPECT_EQ(detect("w.aut", "des (0, 1, 2)\n(0, \"a\", 1)\n"), InputFormat::aut);
}

TEST_F(InputFormatTest, EmptyInputsAndFoldersAreInputErrors) {
  std::ofstream(dir_ / "empty") << "";
  EXPECT_THROW(load_input({.path = (dir_ / "empty").string()}), InputError);
  EXPECT_THROW(load_input({.path = dir_.string()}), InputError);
  EXPECT_THROW(load_input({.path = (dir_ / "missing.json").string()}), InputError);
}

}  // namespace
}  // namespace playtest
