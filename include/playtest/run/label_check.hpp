// Outputs that are no label of the model at all (docs/adapter-protocol.md "How outputs are
// judged"): still a FAIL, but the message says so and names the nearest labels of the model, since
// adapter and model more likely disagree on a label's spelling than the system misbehaves.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/explore/model_values.hpp"

namespace playtest {

// When `label` (an output as the adapter wrote it) is no label of the model, the sentence saying so
// with the nearest model labels: "'?Reserved(0,\"a\")' is not a label of the model at all (adapter
// and model disagree?); the nearest labels of the model are '?Reserved(0, \"a\")', ...". Else
// nullopt (the label exists somewhere, or that cannot be told).
//
// `known`: the labels of the model known here (every label of an explored graph, or those
// discovered so far on the fly: `known_complete` tells); `values`: the model's shapes, when it is a
// model program (then the action name, and for closed labels the whole label, decide).
// `nearest_pool`: where to look for the nearest labels (the model's outputs; empty: `known`).
std::optional<std::string> foreign_label_note(std::string_view label, std::span<const std::string_view> known,
                                              bool known_complete, const ModelValues* values,
                                              std::span<const std::string_view> nearest_pool = {});

// The labels among `pool` nearest to `label` by edit distance (at most `keep`, closest first;
// only those close enough to be a misspelling, and of the same kind: outputs with '?').
std::vector<std::string> nearest_labels(std::string_view label, std::span<const std::string_view> pool,
                                        std::size_t keep = 3);

}  // namespace playtest
