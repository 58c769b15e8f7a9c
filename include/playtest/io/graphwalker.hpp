// GraphWalker 4 and AltWalker models (JSON: "models" of vertices and edges, with JavaScript guards
// and actions, shared states, requirements, weights, dependencies, generators): the document as
// read, every element located (file:line:column and JSON pointer), ids resolved and checked. The
// guards and actions stay text here; lang/graphwalker_model.hpp compiles them into a model program
// (docs/graphwalker.md). graphwalker_json writes a test graph as such a document.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/graph/test_graph.hpp"

namespace playtest {

// Where a value stands in the file.
struct GwWhere {
  std::uint32_t line = 0, column = 0;  // of the value's first character
  std::string pointer;                 // its JSON pointer
  std::string file;                    // the file it is in; "" for the document's (GwDocument::file)
};

// A JavaScript snippet (a guard, an action, a generator): its text and where each of its bytes
// stands in the file (strings in JSON have no raw line breaks, so one line; escapes shift columns;
// a GraphML label may span lines).
struct GwScript {
  std::string text;
  GwWhere where;
  std::vector<std::uint32_t> columns;  // columns[i]: column of text byte i; one more for the end
  std::vector<std::uint32_t> lines;    // lines[i]: line of text byte i, one more; empty: all on where.line
  // The column of byte `offset` of the text (the end for an offset past it).
  std::uint32_t column_of(std::size_t offset) const {
    if (columns.empty()) return where.column;
    return columns[offset < columns.size() ? offset : columns.size() - 1];
  }
  // The line of byte `offset` of the text.
  std::uint32_t line_of(std::size_t offset) const {
    if (lines.empty()) return where.line;
    return lines[offset < lines.size() ? offset : lines.size() - 1];
  }
};

struct GwVertex {
  std::string id, name;  // name "" when the vertex has none (GraphWalker calls no method for it)
  std::string shared_state;
  std::vector<std::string> requirements;
  std::vector<GwScript> actions;
  GwWhere where;
};

struct GwEdge {
  std::string id, name;
  std::optional<std::uint32_t> source;  // vertex index in its model; none: a start edge
  std::uint32_t target = 0;
  std::optional<GwScript> guard;
  std::vector<GwScript> actions;
  std::optional<double> weight;  // in [0, 1]
  std::optional<std::int64_t> dependency;
  std::vector<std::string> requirements;
  GwWhere where;
};

struct GwModel {
  std::string name;  // the model's name ("Model<N>", N from 1, when the file gives none)
  std::string id;
  std::optional<GwScript> generator;
  std::vector<GwScript> actions;  // run once, before the first step
  std::vector<GwVertex> vertices;
  std::vector<GwEdge> edges;
  // The start element when its id names an element of this model.
  enum class StartKind : std::uint8_t { none, vertex, edge };
  StartKind start_kind = StartKind::none;
  std::uint32_t start = 0;
  std::vector<std::uint32_t> predefined_path;  // edge indexes (predefinedPathEdgeIds)
  GwWhere where;
  GwWhere start_where;  // where the start is given: startElementId, the GraphML node labelled Start
};

struct GwDocument {
  std::string file;  // the (first) file read; the models of other files name theirs in GwWhere::file
  std::vector<GwModel> models;
  std::optional<std::int64_t> seed;
  std::uint32_t start_model = 0;  // the first model with a start element (GraphWalker starts there)
};

// Reads a GraphWalker/AltWalker JSON document, or a GraphWalker GraphML (yEd) file when the text
// starts with '<' (parse_graphwalker_graphml). Throws ParseError (JSON syntax, a malformed element,
// with file:line:column and JSON pointer) or GraphError (a dangling vertex id, a duplicate id, a
// start element that does not exist, no start element at all).
// With GwStart::optional a file without a start element (no startElementId naming an element, no
// vertex labelled Start) is read, every model's start_kind none: one of several files read together.
enum class GwStart : std::uint8_t { required, optional };
GwDocument parse_graphwalker(std::string_view text, const std::string& file, GwStart start = GwStart::required);

// One of several files read together.
struct GwFile {
  std::string_view text;
  std::string file;
};

// Several GraphWalker files (JSON or GraphML, in any mix) read as one document, as GraphWalker loads
// the models given with several -m (docs/graphwalker.md "Several files"): their models in the order
// given, each element located in its own file (GwWhere::file). Exactly one file gives the start (a
// vertex labelled Start, a startElementId; a JSON file's first model with one); shared states join
// the models as within a file. Throws as parse_graphwalker, and GraphError located in the file
// concerned for: no file with a start, a second file with one, two models of the same name, a
// shared state no other file has, a file that has neither a start nor a shared state.
GwDocument parse_graphwalker_files(const std::vector<GwFile>& files);

// Reads GraphWalker's GraphML (yEd) file: one model named after the file (its base name), a vertex
// per node (group nodes' members, not the groups), an edge per edge, the vertex labelled "Start"
// and its edge the start element, labels in GraphWalker's grammar (name, [guard], / actions;,
// SHARED:, INIT:, REQTAG:, BLOCKED, weight=, dependency=); BLOCKED elements are left out as
// GraphWalker's default does (docs/graphwalker.md). Throws ParseError (XML, a malformed label, with
// file:line:column) or GraphError (a dangling node id, a duplicate id, no Start vertex).
GwDocument parse_graphwalker_graphml(std::string_view text, const std::string& file, GwStart start = GwStart::required);

// Whether the start of a text looks like a GraphML document (an XML element <graphml>).
bool looks_like_graphml(std::string_view head);

// Whether the start of a JSON text looks like a GraphWalker document: an object whose first key
// is "models" (or "name" followed by "models", as GraphWalker Studio writes it).
bool looks_like_graphwalker_json(std::string_view head);

// The test graph as one GraphWalker model: a vertex per vertex, an edge per edge named by its label
// (GraphWalker names are method names: other characters become '_'), the initial vertex the start
// element, weights of passive vertices' edges as weights, requirements none.
std::string graphwalker_json(const TestGraph& g, const std::string& model_name = "playtest");

}  // namespace playtest
