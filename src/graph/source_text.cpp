#include "playtest/source_text.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "playtest/error.hpp"

namespace playtest {
namespace {

[[noreturn]] void fail(const std::string& path, std::string message, std::string note = {}) {
  Diagnostic d;
  d.where.file = path;
  d.message = std::move(message);
  if (!note.empty()) d.notes.push_back(std::move(note));
  throw InputError(std::move(d));
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd > 2) ::close(fd);
  }
};

}  // namespace

SourceKind source_kind(const std::string& path) {
  struct stat st {};
  const int rc = path == "-" ? ::fstat(0, &st) : ::stat(path.c_str(), &st);
  if (rc != 0) fail(path, fmt::format("cannot open: {}", std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) fail(path, "is a directory, not a model or test graph file");
  return S_ISREG(st.st_mode) ? SourceKind::regular_file : SourceKind::stream;
}

std::string read_source_text(const std::string& path, std::size_t limit) {
  const SourceKind kind = source_kind(path);
  Fd in;
  if (path == "-") {
    in.fd = 0;
  } else {
    in.fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (in.fd < 0) fail(path, fmt::format("cannot open: {}", std::strerror(errno)));
  }
  std::string text;
  if (kind == SourceKind::regular_file) {
    struct stat st {};
    if (::fstat(in.fd, &st) == 0 && st.st_size > 0) text.reserve(static_cast<std::size_t>(st.st_size));
  }
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(in.fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(path, fmt::format("read error: {}", std::strerror(errno)));
    }
    if (kind == SourceKind::stream && text.size() + static_cast<std::size_t>(n) > limit)
      fail(path,
           fmt::format("the input goes on past the limit of {} MiB for standard input, pipes and devices", limit >> 20),
           "write the model to a regular file and give its path");
    text.append(buf, static_cast<std::size_t>(n));
  }
  return text;
}

}  // namespace playtest
