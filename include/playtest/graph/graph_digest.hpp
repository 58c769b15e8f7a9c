// A fingerprint of a test graph: what a campaign's outputs record so that `playtest merge` can tell
// shards played on different models apart (a label renamed, an edge added, a probability changed).
// Covers the names, kinds, goals, the initial vertex, the reset, and every edge's ends, label, cost,
// probability, name and flags, in id order; not the "meta" value (a learned model's counts).
#pragma once

#include <string>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

// 16 hexadecimal digits (64-bit FNV-1a over a canonical serialization): equal graphs give equal
// digests; different ones differ but by an accident of probability 2^-64. Not a security hash.
std::string graph_digest(const TestGraph& g);

}  // namespace playtest
