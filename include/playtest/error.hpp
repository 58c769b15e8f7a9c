// The library's one error vocabulary (docs/design.md "Errors"). Five kinds, each with one exit code
// in the tool (tools/playtest/main.cpp maps them once):
//   InputError   a bad input file, model or text, located (file:line:column, JSON pointer)  exit 2
//   UsageError   a parameter value a function cannot work with; names the parameter in the
//                library's terms (an option struct's field), never a command-line flag        exit 2
//   AdapterError the adapter or the system under test's environment broke (the test's ERROR)  exit 3
//   EnvironmentError playtest's own environment ran out or broke (file descriptors, memory for
//                a stated size, a full disk): names the limit and what to do              exit 3
//   InternalError a bug: an invariant of playtest itself does not hold                         exit 3
// Verdicts about the system under test (FAIL, INCONCLUSIVE) are results, not exceptions.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace playtest {

struct SourceLocation {
  std::string file;          // "" when unknown, "-" for standard input
  std::uint32_t line = 0;    // 1-based, 0 when unknown
  std::uint32_t column = 0;  // 1-based, 0 when unknown
  std::string pointer;       // JSON pointer (RFC 6901) of the offending value, "" when not JSON

  bool has_position() const { return line != 0; }
};

struct Diagnostic {
  SourceLocation where;
  std::string message;
  std::vector<std::string> notes;
};

// A diagnostic built out of line: GCC 12 at -O3 reports -Wmaybe-uninitialized for some nested
// aggregate initializations of Diagnostic inlined into large functions (a false positive).
Diagnostic make_diagnostic(std::string file, std::uint32_t line, std::uint32_t column, std::string pointer,
                           std::string message, std::vector<std::string> notes = {});

// "file:line:col: error: message" (GNU form), with " (at /json/pointer)" when a pointer is known,
// followed by one "note: ..." line per note.
std::string format_diagnostic(const Diagnostic& d);

// As format_diagnostic, plus the offending source line and a caret under the column when
// `source` (the whole input text) is given and the location has a line.
std::string format_diagnostic(const Diagnostic& d, std::string_view source);

// As format_diagnostic, showing `line_text` (the text of line d.where.line) with a caret.
std::string format_diagnostic_with_line(const Diagnostic& d, std::string_view line_text);

// Base of every error a user can act on (input, usage, adapter).
class Error : public std::runtime_error {
 public:
  explicit Error(Diagnostic d);
  explicit Error(std::string message);
  const Diagnostic& diagnostic() const { return diag_; }

 private:
  Diagnostic diag_;
};

// A bad input: a file, a model, standard input, or a name in it (exit 2).
class InputError : public Error {
 public:
  using Error::Error;
};

// Malformed input text: JSON syntax, a wrong type, an unknown key.
class ParseError : public InputError {
 public:
  using InputError::InputError;
};

// Well-formed input describing an invalid test graph: dangling ids, bad probabilities, ...
// Also a name that does not resolve in a graph (no such vertex, edge or label).
class GraphError : public InputError {
 public:
  using InputError::InputError;
};

// An invalid model program (modelling language or C++ model API).
class ModelError : public InputError {
 public:
  using InputError::InputError;
};

// A parameter value a library function cannot work with (epsilon 0, a probability above 1, a goal
// list that does not fit the graph). `parameter` is the library's name of the value (the option
// struct's field, e.g. "epsilon", "torx.p_stop"); the tool translates it into the flag the user wrote.
class UsageError : public Error {
 public:
  UsageError(std::string parameter, std::string message);
  // With notes (Diagnostic::notes: what to do instead).
  UsageError(std::string parameter, Diagnostic d);
  const std::string& parameter() const { return parameter_; }

 private:
  std::string parameter_;
};

// The adapter or the system under test's environment misbehaved (died, spoke garbage, timed out).
class AdapterError : public Error {
 public:
  using Error::Error;
};

// playtest's own environment cannot do what was asked: a limit of the machine or the process
// (file descriptors, processes, memory a stated size would need, a full disk). Not a bug in
// playtest and not a fault of the system under test; the message names the limit and the fix.
class EnvironmentError : public Error {
 public:
  using Error::Error;
};

// A bug in playtest: an invariant that should hold does not (exit 3, "internal error").
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

}  // namespace playtest
