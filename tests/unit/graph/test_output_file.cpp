// OutputFile: a file written whole or not at all (the previous content stays until commit(), a
// discarded or destroyed one leaves no temporary file), and what a second signal releases.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "playtest/base/error.hpp"
#include "playtest/base/exit_cleanup.hpp"
#include "playtest/base/output_file.hpp"

namespace playtest {
namespace {

namespace fs = std::filesystem;

struct Dir {
  fs::path path = fs::temp_directory_path() / ("playtest_output_file_" + std::to_string(::getpid()));
  Dir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~Dir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string file(const std::string& name) const { return (path / name).string(); }
  std::size_t entries() const {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(path), fs::directory_iterator()));
  }
};

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

TEST(OutputFile, ThePreviousContentStaysUntilCommit) {
  Dir d;
  write(d.file("r.html"), "OLD");
  {
    OutputFile out(d.file("r.html"));
    out.stream() << "NEW";
    out.stream().flush();
    EXPECT_EQ(read(d.file("r.html")), "OLD");
    EXPECT_EQ(d.entries(), 2u);  // the target and the temporary file beside it
    out.commit();
  }
  EXPECT_EQ(read(d.file("r.html")), "NEW");
  EXPECT_EQ(d.entries(), 1u);
}

TEST(OutputFile, DiscardedOrDestroyedLeavesThePreviousFileAndNoTemporary) {
  Dir d;
  write(d.file("r.html"), "OLD");
  {
    OutputFile out(d.file("r.html"));
    out.stream() << "HALF";
    out.discard();
  }
  {
    OutputFile out(d.file("r.html"));
    out.stream() << "HALF";
  }  // (an exception on the way: never committed)
  EXPECT_EQ(read(d.file("r.html")), "OLD");
  EXPECT_EQ(d.entries(), 1u);
  {
    OutputFile out(d.file("fresh.xml"));
    out.stream() << "x";
  }
  EXPECT_FALSE(fs::exists(d.file("fresh.xml")));
}

TEST(OutputFile, ASymbolicLinkStaysOne) {
  Dir d;
  write(d.file("real.html"), "OLD");
  fs::create_symlink(d.file("real.html"), d.file("link.html"));
  OutputFile out(d.file("link.html"));
  out.stream() << "NEW";
  out.commit();
  EXPECT_TRUE(fs::is_symlink(d.file("link.html")));
  EXPECT_EQ(read(d.file("real.html")), "NEW");
}

TEST(OutputFile, DevicesAreWrittenDirectly) {
  OutputFile out("/dev/null");
  out.stream() << "anything";
  EXPECT_NO_THROW(out.commit());
}

TEST(OutputFile, UnwritableTargetsFailAtOnceAndAFullDiskAtCommit) {
  Dir d;
  // playtest's environment (exit 6), naming the path and the errno.
  try {
    OutputFile missing(d.file("no/such/dir/r.html"));
    ADD_FAILURE() << "no error for a file in a missing directory";
  } catch (const EnvironmentError& e) {
    EXPECT_EQ(e.path(), d.file("no/such/dir/r.html"));
    EXPECT_EQ(e.error_number(), ENOENT);
  }
  try {
    OutputFile directory(d.path.string());
    ADD_FAILURE() << "no error for a directory";
  } catch (const EnvironmentError& e) {
    EXPECT_EQ(e.error_number(), EISDIR);
  }
  if (fs::exists("/dev/full")) {
    OutputFile full("/dev/full");
    full.stream() << std::string(1 << 16, 'x');
    EXPECT_THROW(full.commit(), EnvironmentError);
  }
}

// What a second signal's handler does before _exit: the temporary file goes, the target stays.
TEST(OutputFile, ReleaseTrackedRemovesTheTemporaryFile) {
  Dir d;
  write(d.file("r.html"), "OLD");
  OutputFile out(d.file("r.html"));
  out.stream() << "HALF";
  out.stream().flush();
  ASSERT_EQ(d.entries(), 2u);
  release_tracked();
  EXPECT_EQ(d.entries(), 1u);
  EXPECT_EQ(read(d.file("r.html")), "OLD");
  out.discard();
}

}  // namespace
}  // namespace playtest
