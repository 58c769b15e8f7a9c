// GraphBuilder collects vertices and edges, validates everything and freezes a TestGraph.
// Vertices may be referenced by name before they are declared (a streaming loader sees edges
// before vertices when a file lists them in that order); build() rejects names never declared.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/graph/test_graph.hpp"

namespace playtest {

struct EdgeSpec {
  VertexId from;
  VertexId to;
  std::string_view label;
  double cost = 1.0;
  std::optional<double> prob;            // required out of passive vertices (or weight), forbidden elsewhere
  std::optional<double> weight;          // alternative to prob: positive, normalized per passive vertex
  std::optional<std::string_view> name;  // default "e<insertion index>"
  bool timeout = false;                  // the passive vertex's timeout edge
  bool observe = false;                  // an "observe" edge: active -> passive, nothing is sent (ioco)
  std::uint32_t delay_ms = 0;            // a delay edge (out of an active vertex): the tester waits, sends nothing
};

// What a build error is about, so that a loader can point at the offending place in its input.
struct ElementRef {
  enum class Kind : std::uint8_t { graph, vertex, edge, initial, reset } kind = Kind::graph;
  std::uint32_t index = 0;  // insertion index of the vertex declaration or of the edge
};

struct BuildOptions {
  // Maps an element to its place in the input; may be empty.
  std::function<SourceLocation(ElementRef)> locate;
  double probability_tolerance = 1e-9;
};

class GraphBuilder {
 public:
  GraphBuilder() = default;
  void reserve(std::size_t vertices, std::size_t edges);

  // A reference to the vertex called `name`, declared or not yet.
  VertexId vertex_ref(std::string_view name) { return vertex_ref(name, StringPool::hash(name)); }
  // The same, given StringPool::hash(name): for loaders that prefetch (see StringPool::prefetch).
  VertexId vertex_ref(std::string_view name, std::uint32_t hash);
  // A hint that vertex_ref(name, hash) or add_vertex(name, ..., hash) follows soon.
  void prefetch_vertex(std::uint32_t hash) const { names_.prefetch(hash); }
  // Declares a vertex. A second declaration of the same name is an error at build().
  VertexId add_vertex(std::string_view name, VertexKind kind, bool goal = false) {
    return add_vertex(name, kind, goal, StringPool::hash(name));
  }
  VertexId add_vertex(std::string_view name, VertexKind kind, bool goal, std::uint32_t hash);
  // Declares a vertex under a name that no other vertex of this builder has or will get (through
  // any of these functions): the name is not looked up now but indexed by build() together with
  // the others, which is much cheaper for millions of generated names (the explorer's). A name
  // given twice is still reported by build() as a duplicate vertex id.
  VertexId add_unique_vertex(std::string_view name, VertexKind kind, bool goal = false);
  // The caller guarantees that the names given to add_unique_vertex are distinct (an importer
  // whose names are made from distinct numbers): build() does not check them, and the graph
  // indexes its vertex names only when one is first looked up.
  void names_are_distinct() { distinct_names_ = true; }
  // Returns the edge's insertion index.
  std::uint32_t add_edge(const EdgeSpec& e);
  // The wait for an output at passive vertex v, in ms (> 0; TestGraph::timeout_ms). Checked at build():
  // only passive vertices have one.
  void set_timeout_ms(VertexId v, std::uint32_t ms) { vertex_timeouts_.emplace_back(v.value, ms); }
  void set_initial(VertexId v) { initial_ = v; }
  void set_initial(std::string_view name) { initial_ = vertex_ref(name); }
  void set_reset_cost(std::optional<double> cost) { reset_cost_ = cost; }
  // The input's top-level "meta" value as compact JSON text, kept opaque (TestGraph::meta_json).
  void set_meta_json(std::string json) { meta_json_ = std::move(json); }

  std::uint32_t num_vertex_refs() const { return names_.size(); }
  std::uint32_t num_edges() const { return static_cast<std::uint32_t>(to_.size()); }

  // Validates and freezes; throws GraphError naming the offending vertex or edge. When
  // `edge_of_insertion` is given it receives, for each insertion index, the EdgeId in the graph.
  // The builder is left empty.
  TestGraph build(const BuildOptions& options = {}, std::vector<EdgeId>* edge_of_insertion = nullptr);

 private:
  [[noreturn]] void fail(const BuildOptions& o, ElementRef where, std::string message) const;
  // build(), step by step: each check throws GraphError for the first offending element.
  std::string vertex_name(VertexId v) const;
  std::string edge_name(std::uint32_t insertion) const;
  void check_vertices(const BuildOptions& o);
  void check_edges(const BuildOptions& o) const;
  void check_timing(const BuildOptions& o) const;
  // Edge ids grouped by source (stable counting sort): g's out_offsets, and perm (insertion index
  // -> edge id) with its inverse.
  void group_by_source(TestGraph& g, std::vector<std::uint32_t>& perm, std::vector<std::uint32_t>& inv) const;
  void check_passive_vertices(const BuildOptions& o, const TestGraph& g, const std::vector<std::uint32_t>& inv);
  // Names the edges without one "e<index>" (default_names_); returns the number of explicit names.
  std::uint32_t name_default_edges(const BuildOptions& o);
  void freeze_vertices(TestGraph& g) const;
  void freeze_edges(TestGraph& g, const std::vector<std::uint32_t>& perm, std::uint32_t explicit_names);

  StringPool names_;
  std::vector<std::uint8_t> vstate_;  // 0 referenced only, else 1 + flags
  // Declaration index per vertex (for error locations); empty, meaning the identity, until a
  // declaration's index differs from its vertex id (generated inputs never do that).
  std::vector<std::uint32_t> vdecl_;
  bool decl_listed_ = false;
  std::uint32_t decl_of(std::uint32_t v) const { return decl_listed_ ? vdecl_[v] : v; }
  void set_decl(std::uint32_t v, std::uint32_t decl);
  std::uint32_t num_decls_ = 0;
  bool distinct_names_ = false;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> duplicate_decls_;  // (vertex, decl index)
  bool unindexed_names_ = false;  // add_unique_vertex was used: build() indexes names_

  std::vector<VertexId> from_, to_;
  std::vector<double> cost_, prob_;  // prob_ holds the probability or the weight
  std::vector<std::uint8_t> eflags_;
  std::vector<LabelId> label_;
  std::vector<std::uint32_t> name_;  // pool id of an explicit name, or none
  // Timing, rarely given: (vertex, ms) and (insertion index, ms), materialized by build().
  std::vector<std::pair<std::uint32_t, std::uint32_t>> vertex_timeouts_, edge_delays_;
  StringPool labels_, edge_names_;
  std::string default_names_;  // "e0e1e2...", see TestGraph
  VertexId initial_;
  std::optional<double> reset_cost_;
  std::string meta_json_;
};

}  // namespace playtest
