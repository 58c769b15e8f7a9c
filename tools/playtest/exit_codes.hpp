// playtest's exit codes (docs/testing.md "Verdicts and exit codes") and the one table every command
// takes its code from: what its work came to (Outcome, returned by the commands) and what it threw
// (ErrorKind and what lies outside the error vocabulary, caught in main.cpp). Each of them has one
// row; a check at compile time keeps it so. A signal that stopped the work adds 128 + N instead.
#pragma once

#include <cstdint>
#include <variant>

#include "playtest/base/error.hpp"

namespace playtest {
enum class Verdict : std::uint8_t;  // run/runner.hpp
}

namespace playtest::cli {

// Never reuse one for two meanings.
enum ExitCode : int {
  exit_ok = 0,            // success; test verdict PASS
  exit_fail = 1,          // test verdict FAIL (nonconformance)
  exit_usage = 2,         // usage or input error (bad options, bad files, bad models)
  exit_error = 3,         // test verdict ERROR: the adapter or the system's environment broke
  exit_inconclusive = 4,  // test verdict INCONCLUSIVE
  exit_uncertified = 5,   // solve: an answer was computed but could not be certified (error bound, limits)
  exit_environment = 6,   // playtest's own environment: a file not written, standard output, a pipe, fds, memory
  exit_internal = 7,      // a bug in playtest (an invariant that does not hold; anything the table does not name)
};
// 128 + N: stopped by signal N (run, replay, shrink, report: docs/testing.md "Interrupted runs").

// What a command's work came to.
enum class Outcome : std::uint8_t {
  done,  // it did what was asked (convert, info, report, ...)
  pass,  // test verdicts (run, replay, merge)
  fail,
  inconclusive,
  error,
  certified,         // solve, analyze: every number proved within its stated bound
  uncertified,       // ... or not
  conforms,          // ioco: the implementation conforms to the specification
  does_not_conform,  // ... or not
  reproduced,        // shrink: the minimal failure fails again
  not_reproduced,    // ... or no failure was reproduced
  stopped,           // stopped without a signal (a budget, a stop request): ERROR
};

// What reached main: an Error of one kind, or something outside the vocabulary.
enum class Outside : std::uint8_t { internal_error, out_of_memory, other_exception, not_an_exception };

// Anything with an exit code.
using Ending = std::variant<Outcome, ErrorKind, Outside>;

// The code of `e` from the table.
int exit_code(Ending e);
// The outcome of a test verdict.
Outcome outcome_of(Verdict v);
// A test verdict's code (exit_code(outcome_of(v))).
int exit_code_of(Verdict v);
// Stopped by signal `signal` (128 + signal), or by a request without one (`stopped`, ERROR).
int stopped_exit_code(int signal);
// Whether a thrown kind takes 128 + the stop's signal when it has one (a StopRequested).
bool adds_signal(ErrorKind k);

}  // namespace playtest::cli
