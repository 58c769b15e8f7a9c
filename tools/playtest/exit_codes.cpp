#include "exit_codes.hpp"

#include <array>
#include <iterator>

#include "playtest/run/runner.hpp"

namespace playtest::cli {
namespace {

struct ExitRow {
  Ending ending;
  int code;
  bool plus_signal = false;  // 128 + the stop's signal when it came with one
};

// The one table (a golden test per row in tests/cli/errors).
constexpr ExitRow exit_table[] = {
    {Outcome::done, exit_ok},
    {Outcome::pass, exit_ok},
    {Outcome::fail, exit_fail},
    {Outcome::inconclusive, exit_inconclusive},
    {Outcome::error, exit_error},
    {Outcome::certified, exit_ok},
    {Outcome::uncertified, exit_uncertified},
    {Outcome::conforms, exit_ok},
    {Outcome::does_not_conform, exit_fail},
    {Outcome::reproduced, exit_fail},
    {Outcome::not_reproduced, exit_inconclusive},
    {Outcome::stopped, exit_error},
    {ErrorKind::input, exit_usage},
    {ErrorKind::usage, exit_usage},
    {ErrorKind::adapter, exit_error},
    {ErrorKind::environment, exit_environment},
    {ErrorKind::stop_requested, exit_error, true},
    {ErrorKind::budget_spent, exit_inconclusive},
    {Outside::out_of_memory, exit_environment},
    {Outside::internal_error, exit_internal},
    {Outside::other_exception, exit_internal},
    {Outside::not_an_exception, exit_internal},
};

constexpr std::array all_outcomes{Outcome::done,         Outcome::pass,           Outcome::fail,
                                  Outcome::inconclusive, Outcome::error,          Outcome::certified,
                                  Outcome::uncertified,  Outcome::conforms,       Outcome::does_not_conform,
                                  Outcome::reproduced,   Outcome::not_reproduced, Outcome::stopped};
constexpr std::array all_outside{Outside::internal_error, Outside::out_of_memory, Outside::other_exception,
                                 Outside::not_an_exception};

constexpr bool each_once() {
  auto count = [](Ending e) {
    int n = 0;
    for (const ExitRow& row : exit_table) n += row.ending == e ? 1 : 0;
    return n;
  };
  for (Outcome o : all_outcomes)
    if (count(o) != 1) return false;
  for (ErrorKind k : all_error_kinds)
    if (count(k) != 1) return false;
  for (Outside o : all_outside)
    if (count(o) != 1) return false;
  return std::size(exit_table) == all_outcomes.size() + std::size(all_error_kinds) + all_outside.size();
}
static_assert(each_once(), "exit_table: every Outcome, ErrorKind and Outside exactly once");

const ExitRow& row_of(Ending e) {
  for (const ExitRow& row : exit_table)
    if (row.ending == e) return row;
  return exit_table[std::size(exit_table) - 1];  // not reached: each_once()
}

}  // namespace

int exit_code(Ending e) { return row_of(e).code; }

bool adds_signal(ErrorKind k) { return row_of(k).plus_signal; }

Outcome outcome_of(Verdict v) {
  switch (v) {
    case Verdict::pass:
      return Outcome::pass;
    case Verdict::fail:
      return Outcome::fail;
    case Verdict::inconclusive:
      return Outcome::inconclusive;
    case Verdict::error:
      return Outcome::error;
  }
  return Outcome::error;
}

int exit_code_of(Verdict v) { return exit_code(outcome_of(v)); }

int stopped_exit_code(int signal) { return signal != 0 ? 128 + signal : exit_code(Outcome::stopped); }

}  // namespace playtest::cli
