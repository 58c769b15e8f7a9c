#include "playtest/base/source_text.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <optional>

#include "playtest/base/error.hpp"

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

namespace {
std::string read_text(const std::string& path, std::size_t limit);
}  // namespace

std::string read_source_text(const std::string& path, std::size_t limit) {
  if (path != "-") return read_text(path, limit);
  // Standard input can be read once; what it held is kept for a second reader (a command that looks
  // at the input's format before it loads it).
  static std::mutex mutex;
  static std::optional<std::string> stdin_text;
  const std::lock_guard lock(mutex);
  if (!stdin_text) stdin_text = read_text(path, limit);
  return *stdin_text;
}

namespace {

std::string read_text(const std::string& path, std::size_t limit) {
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

}  // namespace

std::size_t find_invalid_utf8(std::string_view t) {
  const auto* s = reinterpret_cast<const unsigned char*>(t.data());
  const std::size_t n = t.size();
  std::size_t i = 0;
  while (i < n) {
    const unsigned char c = s[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len = 0;
    unsigned lo = 0x80, hi = 0xBF;  // the allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;  // no overlong forms
      if (c == 0xED) hi = 0x9F;  // no surrogates
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
    } else {
      return i;
    }
    if (i + len > n) return i;
    if (s[i + 1] < lo || s[i + 1] > hi) return i;
    for (std::size_t k = 2; k < len; ++k)
      if ((s[i + k] & 0xC0) != 0x80) return i;
    i += len;
  }
  return std::string_view::npos;
}

std::string terminal_text(std::string_view t) {
  // Fast path: nothing to escape.
  bool plain = true;
  for (unsigned char c : t)
    if ((c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f) {
      plain = false;
      break;
    }
  if (plain) return std::string(t);
  std::string out;
  out.reserve(t.size() + 16);
  for (std::size_t i = 0; i < t.size();) {
    const auto c = static_cast<unsigned char>(t[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
        out += fmt::format("\\u{:04x}", c);
      else
        out += static_cast<char>(c);
      ++i;
      continue;
    }
    const std::size_t bad = find_invalid_utf8(t.substr(i, 4));
    const std::size_t len = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (len == 0 || i + len > t.size() || (bad != std::string_view::npos && bad < len)) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
      continue;
    }
    if (len == 2 && c == 0xc2 && static_cast<unsigned char>(t[i + 1]) < 0xa0)  // C1: U+0080..U+009F
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(t[i + 1]));
    else
      out.append(t.substr(i, len));
    i += len;
  }
  return out;
}

std::pair<std::uint32_t, std::uint32_t> line_column_of(std::string_view text, std::size_t offset) {
  std::uint32_t line = 1, col = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  return {line, col};
}

void require_utf8(std::string_view text, const std::string& source_name) {
  const std::size_t bad = find_invalid_utf8(text);
  if (bad == std::string_view::npos) return;
  const auto [line, col] = line_column_of(text, bad);
  throw ParseError(make_diagnostic(
      source_name, line, col, "",
      fmt::format("invalid UTF-8 byte 0x{:02X}: text inputs must be UTF-8", static_cast<unsigned char>(text[bad])),
      {"convert the file to UTF-8 (e.g. iconv -f latin1 -t utf-8)"}));
}

}  // namespace playtest
