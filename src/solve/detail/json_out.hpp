// Writing a large JSON document without building it in memory: the reports' vertex arrays (millions
// of entries) are streamed as text in the form nlohmann writes, after the rest of the document
// (built with nlohmann, whose keys sort "vertices" last) minus its closing brace.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>

namespace playtest::detail {

// Appends JSON text to a buffer and hands it to the stream in large blocks.
class JsonOut {
 public:
  explicit JsonOut(std::ostream& out) : out_(out) { buf_.reserve(block + 256); }
  ~JsonOut() { flush(); }
  void raw(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= block) flush();
  }
  // A JSON string as nlohmann writes it (escapes only what it must; UTF-8 passes through).
  void string(std::string_view s) {
    bool plain = true;
    for (unsigned char c : s) plain = plain && c >= 0x20 && c != '"' && c != '\\' && c < 0x80;
    if (plain) {
      buf_.push_back('"');
      buf_.append(s);
      buf_.push_back('"');
    } else {
      buf_.append(nlohmann::json(std::string(s)).dump());
    }
  }
  // A double as nlohmann writes it (shortest round-trip form, ".0" on integers); null when not finite.
  void number(double x) {
    if (!std::isfinite(x)) {
      buf_.append("null");
      return;
    }
    char tmp[64];
    char* end = nlohmann::detail::to_chars(tmp, tmp + sizeof tmp, x);
    buf_.append(tmp, static_cast<std::size_t>(end - tmp));
  }
  // The document `j` (an object whose keys all sort before "vertices") followed by the key
  // "vertices": an array of n entries, entry i written by write_vertex(i) as nlohmann's dump(1)
  // writes an object at that depth ("  {\n   \"key\": ...\n  }").
  template <class WriteVertex>
  void document_with_vertices(const nlohmann::json& j, std::uint32_t n, WriteVertex&& write_vertex) {
    std::string head = j.dump(1);
    head.resize(head.size() - 2);  // "\n}"
    raw(head);
    raw(",\n \"vertices\": ");
    if (n == 0) {
      raw("[]\n}\n");
      return;
    }
    raw("[\n");
    for (std::uint32_t i = 0; i < n; ++i) {
      if (i > 0) raw(",\n");
      write_vertex(i);
    }
    raw("\n ]\n}\n");
  }
  void flush() {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }

 private:
  static constexpr std::size_t block = std::size_t{1} << 20;
  std::ostream& out_;
  std::string buf_;
};

}  // namespace playtest::detail
