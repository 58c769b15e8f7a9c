// The ioco relation (seed 004 Definition 2.5, with F = the suspension traces of the
// specification): impl ioco spec iff for every suspension trace sigma of spec,
// out(impl after sigma) is a subset of out(spec after sigma). Decided by a breadth-first walk of
// the product of the two suspension automata, so a counterexample is a shortest one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "playtest/ioco/lts.hpp"
#include "playtest/ioco/suspension.hpp"

namespace playtest::ioco {

struct IocoOptions {
  std::uint32_t max_sets = 1'000'000;  // per suspension automaton
};

struct IocoResult {
  bool conforms = true;
  // When not conforming: sigma followed by the unexpected output (or "delta").
  std::vector<std::string> counterexample;
  std::vector<std::string> allowed;      // out(spec after sigma), sorted
  std::vector<std::string> implemented;  // out(impl after sigma), sorted
  std::uint64_t pairs_explored = 0;
};

// Labels are matched by name; a label with different kinds in the two systems is a ModelError.
// An input the specification allows but the implementation refuses (a non-input-enabled
// implementation) ends that branch: impl after sigma·a is empty, so nothing can fail after it.
IocoResult check_ioco(const Lts& impl, const Lts& spec, const IocoOptions& options = {});

// out(lts after trace) as names (with "delta"), or an empty vector when the trace is not a
// suspension trace of `lts`. Throws ModelError for a label unknown to `lts`.
std::vector<std::string> out_after(const Lts& lts, const std::vector<std::string>& trace);

}  // namespace playtest::ioco
