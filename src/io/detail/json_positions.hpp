// Where JSON values start, for messages located at line:column: the graph/1 reader and the
// GraphWalker reader feed the text to nlohmann's SAX parser one character at a time through these,
// and ask where the value the parser just reported began (a string's quote, '{', '[', the first
// character of a number or literal). Inline: the graph/1 reader takes every byte of files of
// hundreds of megabytes through take().
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>

namespace playtest::detail {

class JsonPositions {
 public:
  // One character of JSON text.
  void take(char c) {
    if (in_string_) {
      if (escape_)
        escape_ = false;
      else if (c == '\\')
        escape_ = true;
      else if (c == '"')
        in_string_ = false;
    } else {
      if (c == '"') {
        in_string_ = true;
        mark();
      } else if (c == '{' || c == '[') {
        mark();
      } else if (sep_ && (c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n')) {
        mark();
      }
      sep_ = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == ':' || c == '[' || c == '{';
    }
    count(c);
  }
  // One character that is no JSON (a comment's): only its line and column count.
  void count(char c) {
    if (c == '\n') {
      ++line_;
      col_ = 0;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++col_;  // characters, not UTF-8 continuation bytes
    }
  }
  bool in_string() const { return in_string_; }
  // The last character taken (column 0: a line's end) and the start of the last value.
  std::uint32_t line() const { return line_; }
  std::uint32_t column() const { return col_; }
  std::uint32_t value_line() const { return start_line_; }
  std::uint32_t value_column() const { return start_col_; }

 private:
  void mark() {
    start_line_ = line_;
    start_col_ = col_ + 1;
  }
  bool in_string_ = false, escape_ = false, sep_ = true;
  std::uint32_t line_ = 1, col_ = 0, start_line_ = 1, start_col_ = 1;
};

// An input iterator over a character source S (at_end(), peek(), advance()) for nlohmann's SAX
// parser; compared only against the default-constructed end iterator.
template <class S>
class CharSourceIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = char;
  CharSourceIterator() = default;
  explicit CharSourceIterator(S* s) : s_(s) {}
  char operator*() const { return s_->peek(); }
  CharSourceIterator& operator++() {
    s_->advance();
    return *this;
  }
  CharSourceIterator operator++(int) {
    auto t = *this;
    s_->advance();
    return t;
  }
  bool operator==(const CharSourceIterator& o) const { return is_end() == o.is_end(); }
  bool operator!=(const CharSourceIterator& o) const { return !(*this == o); }

 private:
  bool is_end() const { return s_ == nullptr || s_->at_end(); }
  S* s_ = nullptr;
};

}  // namespace playtest::detail
