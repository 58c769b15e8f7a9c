// The graph/1 file format (docs/formats.md): reading with a streaming (SAX) parser that keeps
// line:column positions for every error, and writing. Reading never builds a DOM of the file.
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

// Writes graph/1: one vertex or edge per line, edge ids omitted where they equal the default.
void write_graph(const TestGraph& g, std::ostream& out);
std::string graph_to_json(const TestGraph& g);

}  // namespace playtest
