// Reading inputs: the stream size limit, directories and missing files, and the UTF-8 check that
// lets every file playtest writes be read back.
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

#include "playtest/base/error.hpp"
#include "playtest/base/source_text.hpp"

using namespace playtest;

namespace {

TEST(SourceText, ReadsARegularFileWhole) {
  const auto path = std::filesystem::temp_directory_path() / ("pt_source_" + std::to_string(::getpid()));
  std::ofstream(path, std::ios::binary) << std::string(200000, 'x') << "end";
  EXPECT_EQ(source_kind(path.string()), SourceKind::regular_file);
  // The stream limit does not apply to regular files: their size is known.
  const std::string text = read_source_text(path.string(), 10);
  EXPECT_EQ(text.size(), 200003u);
  EXPECT_EQ(text.substr(text.size() - 3), "end");
  std::filesystem::remove(path);
}

TEST(SourceText, DirectoriesAndMissingFilesAreInputErrors) {
  const std::string dir = std::filesystem::temp_directory_path().string();
  try {
    read_source_text(dir);
    ADD_FAILURE() << "a directory was read";
  } catch (const InputError& e) {
    EXPECT_EQ(e.diagnostic().where.file, dir);
    EXPECT_EQ(e.diagnostic().message, "is a directory, not a model or test graph file");
  }
  try {
    read_source_text("/no/such/file.ptm");
    ADD_FAILURE() << "a missing file was read";
  } catch (const InputError& e) {
    EXPECT_EQ(e.diagnostic().message, "cannot open: No such file or directory");
  }
}

TEST(SourceText, AStreamStopsAtTheLimit) {
  std::signal(SIGPIPE, SIG_IGN);  // the endless writer ends with EPIPE once the reader is gone
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  // A writer that never stops (as `yes` or /dev/zero would).
  std::thread writer([fd = fds[1]] {
    const std::string chunk(4096, 'y');
    while (::write(fd, chunk.data(), chunk.size()) > 0) {
    }
    ::close(fd);
  });
  const std::string path = "/proc/self/fd/" + std::to_string(fds[0]);
  EXPECT_EQ(source_kind(path), SourceKind::stream);
  try {
    read_source_text(path, 1 << 20);
    ADD_FAILURE() << "an endless stream was read to its end";
  } catch (const InputError& e) {
    EXPECT_EQ(e.diagnostic().message,
              "the input goes on past the limit of 1 MiB for standard input, pipes and devices");
  }
  ::close(fds[0]);
  writer.join();
}

TEST(SourceText, Utf8Validation) {
  EXPECT_EQ(find_invalid_utf8(""), std::string_view::npos);
  EXPECT_EQ(find_invalid_utf8("plain ascii"), std::string_view::npos);
  EXPECT_EQ(find_invalid_utf8("gr\xC3\xBC\xC3\x9F \xE2\x82\xAC \xF0\x9F\x98\x80"), std::string_view::npos);
  EXPECT_EQ(find_invalid_utf8("ab\xFF"), 2u);            // never in UTF-8
  EXPECT_EQ(find_invalid_utf8("a\xC0\xAF"), 1u);         // overlong '/'
  EXPECT_EQ(find_invalid_utf8("a\xE0\x80\xAF"), 1u);     // overlong
  EXPECT_EQ(find_invalid_utf8("\xED\xA0\x80"), 0u);      // a surrogate
  EXPECT_EQ(find_invalid_utf8("\xF4\x90\x80\x80"), 0u);  // above U+10FFFF
  EXPECT_EQ(find_invalid_utf8("ok\xE2\x82"), 2u);        // truncated at the end
  EXPECT_EQ(find_invalid_utf8("\xE2\x28\xA1"), 0u);      // bad continuation
  EXPECT_EQ(find_invalid_utf8("x\x80"), 1u);             // a lone continuation byte
}

TEST(SourceText, RequireUtf8IsALocatedParseError) {
  try {
    require_utf8("line one\nab\xFE", "m.ptm");
    ADD_FAILURE();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.diagnostic().where.line, 2u);
    EXPECT_EQ(e.diagnostic().where.column, 3u);
    EXPECT_EQ(e.diagnostic().message, "invalid UTF-8 byte 0xFE: text inputs must be UTF-8");
  }
  EXPECT_NO_THROW(require_utf8("caf\xC3\xA9", "m.ptm"));
}

}  // namespace
