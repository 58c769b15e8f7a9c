// Looking up what users name: vertices by id, edges by id or label. One wording for "no such
// vertex" across the library and the tool; the error names the role the name was given in
// ("a goal", "the start vertex") and suggests close names.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/graph/test_graph.hpp"

namespace playtest {

// The index N of a vertex's short name "vN", as report pictures draw vertices with long names (a
// model program's states); nullopt for any other text.
std::optional<std::uint32_t> short_vertex_index(std::string_view name);

// The vertex with id `name`, else, when no vertex has that id, the vertex whose short name it is
// ("v12": index 12, as the report's pictures name it); throws GraphError "no vertex 'NAME' in the graph (given as
// ROLE)" with a note naming up to five vertices whose ids are closest.
VertexId vertex_named(const TestGraph& g, std::string_view name, std::string_view role);

// The edge with id `name` or, when no edge has that id, every edge labelled `name` (id order);
// throws GraphError "no edge with id or label 'NAME' in the graph (given as ROLE)".
std::vector<EdgeId> edges_named(const TestGraph& g, std::string_view name, std::string_view role);

}  // namespace playtest

namespace playtest {

// An edge as people read it, whatever its id: "SOURCE --LABEL--> TARGET" (ids of generated edges,
// e0, e1, ..., say nothing to a reader).
std::string describe_edge(const TestGraph& g, EdgeId e);

// True for the ids the builder gives edges that have none ("e<insertion index>").
bool generated_edge_id(std::string_view id);

// An edge as a step of a walk: "-LABEL->", or "-ID:LABEL->" when the model named the edge with an
// id of its own that differs from the label.
std::string edge_step(const TestGraph& g, EdgeId e);

}  // namespace playtest
