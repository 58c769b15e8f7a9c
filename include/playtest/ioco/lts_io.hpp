// Reading labelled transition systems: the Aldebaran .aut format of CADP, mCRL2 and JTorX, and the
// small JSON form "lts/1" (docs/ioco.md). Inputs and outputs are told apart by `?`/`!` label
// prefixes or by label lists; `tau` and `i` are internal steps. Errors carry file:line:column.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "playtest/ioco/lts.hpp"

namespace playtest::ioco {

struct LtsReadOptions {
  // Labels (without a ?/! prefix) that are inputs, resp. outputs. When only one list is given,
  // every other unprefixed label belongs to the other kind.
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
};

// Parses .aut text; throws ParseError (syntax, numbers, counts) or ModelError (labels that are
// neither inputs nor outputs, a label used with two kinds), each with source_name:line:column.
Lts parse_aut(std::string_view text, const std::string& source_name = "<string>",
              const LtsReadOptions& options = {});

// Parses the JSON form {"playtest": "lts/1", "initial": ..., "transitions": [[from, label, to], ...]}.
Lts parse_lts_json(std::string_view text, const std::string& source_name = "<string>",
                   const LtsReadOptions& options = {});

// True when `head` (the start of a JSON file) declares "playtest": "lts/1".
bool looks_like_lts_json(std::string_view head);

// Reads `path` ("-" = standard input): .aut files as Aldebaran, anything else as lts/1 JSON.
Lts load_lts(const std::string& path, const LtsReadOptions& options = {});

// Writes .aut text with ?/! prefixes on inputs/outputs and "tau" for internal steps.
std::string write_aut(const Lts& lts);

}  // namespace playtest::ioco
