// Test purposes as traps (seed 002 §3.3-3.4): a set of edges the test must visit at least once.
// Traps are chosen by spec strings: "all", an edge id, a label, or a glob over ids and labels
// ("*" and "?"), with optional "id:" / "label:" prefixes to say which one is meant; or declared in
// the model, in a "traps" array inside the graph's top-level "meta" object (graph/1 allows
// any key inside meta), selected with the spec "model".
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

// True when `text` matches the glob `pattern` ("*": any run of characters, "?": one character).
bool glob_match(std::string_view pattern, std::string_view text);

// The edges selected by `specs` (union, sorted by id, no duplicates). `declared` are the specs
// declared in the model (meta.traps), used for the spec "model". Throws GraphError naming a spec
// that selects nothing (an unknown id, label or an empty pattern match, or "model" when the model
// declares none).
std::vector<EdgeId> select_traps(const TestGraph& g, std::span<const std::string> specs,
                                 std::span<const std::string> declared = {});

// The trap specs the model declares in its top-level meta.traps array (TestGraph::meta_json;
// empty if absent). Throws ParseError (JSON pointer /meta/traps) when meta.traps is present but is
// not an array of strings.
std::vector<std::string> declared_traps(const TestGraph& g);

// Per-edge flags (1 = trap) for `traps`; all ones when `traps` is empty.
std::vector<std::uint8_t> trap_flags(const TestGraph& g, std::span<const EdgeId> traps);

}  // namespace playtest
