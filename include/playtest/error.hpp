// Errors a user can act on. Every user mistake (a bad file, option or model) is a playtest::Error
// carrying a Diagnostic: where (file, line, column and/or JSON pointer), what, and notes.
// Broken preconditions of library calls are std::invalid_argument; broken invariants are asserts.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace playtest {

struct SourceLocation {
  std::string file;     // "" when unknown, "-" for standard input
  std::uint32_t line = 0;    // 1-based, 0 when unknown
  std::uint32_t column = 0;  // 1-based, 0 when unknown
  std::string pointer;  // JSON pointer (RFC 6901) of the offending value, "" when not JSON

  bool has_position() const { return line != 0; }
};

struct Diagnostic {
  SourceLocation where;
  std::string message;
  std::vector<std::string> notes;
};

// "file:line:col: error: message" (GNU form), with " (at /json/pointer)" when a pointer is known,
// followed by one "note: ..." line per note.
std::string format_diagnostic(const Diagnostic& d);

// As format_diagnostic, plus the offending source line and a caret under the column when
// `source` (the whole input text) is given and the location has a line.
std::string format_diagnostic(const Diagnostic& d, std::string_view source);

// As format_diagnostic, showing `line_text` (the text of line d.where.line) with a caret.
std::string format_diagnostic_with_line(const Diagnostic& d, std::string_view line_text);

class Error : public std::runtime_error {
 public:
  explicit Error(Diagnostic d);
  explicit Error(std::string message);
  const Diagnostic& diagnostic() const { return diag_; }

 private:
  Diagnostic diag_;
};

// Malformed input text: JSON syntax, a wrong type, an unknown key.
class ParseError : public Error {
 public:
  using Error::Error;
};

// Well-formed input describing an invalid test graph: dangling ids, bad probabilities, ...
class GraphError : public Error {
 public:
  using Error::Error;
};

// An invalid model program (modelling language or C++ model API).
class ModelError : public Error {
 public:
  using Error::Error;
};

// The adapter or the system under test misbehaved (died, spoke garbage, timed out).
class AdapterError : public Error {
 public:
  using Error::Error;
};

}  // namespace playtest
