// The library's one error vocabulary (docs/design.md "Errors"), closed: the base `Error` is
// abstract, every exception playtest throws is one of the kinds below, and the tool maps each kind to
// one exit code in one table (tools/playtest/main.cpp; docs/testing.md "Verdicts and exit codes"):
//   InputError       a bad input file, model or text, located (file:line:column, JSON pointer)  exit 2
//   UsageError       a parameter value a function cannot work with; names the parameter in the
//                    library's terms (an option struct's field), never a command-line flag      exit 2
//   AdapterError     the adapter or the system under test's environment broke (the test's ERROR) exit 3
//   EnvironmentError playtest's own environment refused it something: a file or directory that
//                    cannot be written, a pipe, a process or thread, file descriptors; a path
//                    and an errno                                                                exit 6
//   StopRequested    a stop asked for from outside (a signal, --fail-fast) ended a wait     128 + signal
//   BudgetSpent      the run's time budget ended in the middle of a wait (INCONCLUSIVE)         exit 4
//   InternalError    a bug: an invariant of playtest itself does not hold (not an Error)        exit 7
// Verdicts about the system under test (FAIL, INCONCLUSIVE) are results, not exceptions.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
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

// The concrete kinds of Error, one exit code each (the tool's table covers each exactly once).
enum class ErrorKind : unsigned char { input, usage, adapter, environment, stop_requested, budget_spent };
inline constexpr ErrorKind all_error_kinds[] = {ErrorKind::input,          ErrorKind::usage,
                                                ErrorKind::adapter,        ErrorKind::environment,
                                                ErrorKind::stop_requested, ErrorKind::budget_spent};
// The class's name: "InputError", "UsageError", ...
const char* error_kind_name(ErrorKind kind) noexcept;

// Base of every error a user can act on. Abstract (kind() is pure): throw one of the kinds below,
// each of which has its own exit code; a catch of `Error` catches them all.
class Error : public std::runtime_error {
 public:
  const Diagnostic& diagnostic() const { return diag_; }
  virtual ErrorKind kind() const noexcept = 0;

 protected:
  explicit Error(Diagnostic d);
  explicit Error(std::string message);

 private:
  Diagnostic diag_;
};

// A bad input: a file, a model, standard input, or a name in it (exit 2).
class InputError : public Error {
 public:
  explicit InputError(Diagnostic d) : Error(std::move(d)) {}
  explicit InputError(std::string message) : Error(std::move(message)) {}
  ErrorKind kind() const noexcept override { return ErrorKind::input; }
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
  ErrorKind kind() const noexcept override { return ErrorKind::usage; }

 private:
  std::string parameter_;
};

// The adapter or the system under test's environment misbehaved (died, spoke garbage, timed out).
class AdapterError : public Error {
 public:
  explicit AdapterError(Diagnostic d) : Error(std::move(d)) {}
  explicit AdapterError(std::string message) : Error(std::move(message)) {}
  ErrorKind kind() const noexcept override { return ErrorKind::adapter; }
};

// The operating system refused playtest something it needs on its own behalf: a file or directory
// that cannot be created or written (a missing directory, no permission, a full disk), standard
// output that cannot be written, a pipe, a process or thread, file descriptors. Not a bug in
// playtest, not bad input and not a fault of the system under test. `path` names the file,
// directory or command ("" when there is none, e.g. a pipe); `error_number` is the errno (0 when
// the operating system gave none, e.g. a stream's write error). The message is `what`, then
// ": strerror(error_number)" when there is one; `notes` say what to do (run/stop_signal.hpp
// environment_error names the limit for EMFILE, ENFILE, EAGAIN).
class EnvironmentError : public Error {
 public:
  EnvironmentError(std::string path, int error_number, std::string what, std::vector<std::string> notes = {});
  const std::string& path() const { return diagnostic().where.file; }
  int error_number() const noexcept { return errno_; }
  ErrorKind kind() const noexcept override { return ErrorKind::environment; }

 private:
  int errno_ = 0;
};

// A stop asked for from outside (SIGINT, SIGTERM, SIGHUP; another job's --fail-fast) that ended a
// wait (run/stop_signal.hpp): not a fault of the adapter, the system or the input, so not an
// AdapterError. The runner ends the run it cut short as ERROR ("interrupted", docs/testing.md
// "Interrupted runs"); one that reaches the tool exits with 128 + `signal` (3, the ERROR verdict's
// code, when the stop came without a signal).
class StopRequested : public Error {
 public:
  explicit StopRequested(std::string message, int signal = 0) : Error(std::move(message)), signal_(signal) {}
  int signal() const noexcept { return signal_; }
  ErrorKind kind() const noexcept override { return ErrorKind::stop_requested; }

 private:
  int signal_ = 0;
};

// The run's deadline (Adapter::set_run_deadline) ended a wait (for "ready", an "ack", the rest of a
// line) in the middle of a step: the runner reports the run INCONCLUSIVE ("time budget spent while
// ..."), never a verdict on the system; one that reaches the tool exits 4 (INCONCLUSIVE).
class BudgetSpent : public Error {
 public:
  explicit BudgetSpent(std::string message) : Error(std::move(message)) {}
  ErrorKind kind() const noexcept override { return ErrorKind::budget_spent; }
};

// A bug in playtest: an invariant that should hold does not (exit 7, "internal error"). Not an
// `Error`: nothing a user did causes it, and no `catch (const Error&)` may turn it into one.
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

}  // namespace playtest
