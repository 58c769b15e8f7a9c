// The graph/1 file format (docs/formats.md): reading with streaming (SAX) parsers, and writing.
// Reading never builds a DOM of the file. It takes two passes only when needed: a fast one
// (RapidJSON, no positions) that decides every input it accepts, and, when that one finds
// anything wrong, a position-tracking one (nlohmann) that reports line:column for every error.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

// Reads a graph/1 file; `path` "-" reads standard input. Throws ParseError (malformed JSON, wrong
// types, unknown keys) or GraphError (an invalid graph), each with file, line, column, JSON pointer.
TestGraph load_graph(const std::string& path);

// Reads graph/1 text held in memory; `source_name` is used in error messages.
TestGraph parse_graph(std::string_view text, const std::string& source_name = "<string>");

namespace detail {
// Reads with the position-tracking pass alone. For tests and the fuzzer, which check that the
// fast pass accepts nothing that this one rejects and builds the same graph.
TestGraph parse_graph_tracking_only(std::string_view text, const std::string& source_name);
}  // namespace detail

// Writes graph/1: one vertex or edge per line, edge ids omitted where they equal the default.
void write_graph(const TestGraph& g, std::ostream& out);
std::string graph_to_json(const TestGraph& g);

}  // namespace playtest
