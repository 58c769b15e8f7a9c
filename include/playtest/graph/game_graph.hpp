// GameGraph: what a test run plays on (seed 001 §1's game board seen from the runner): active and
// passive vertices, labelled edges with costs and, out of passive vertices, probabilities. Two
// graphs implement it: TestGraph (explored, immutable) and ModelGraph (a model program explored on
// the fly, vertices expanded when first asked for). The runner, the campaign, the simulated system,
// the trace writers and the strategies that need no whole graph are written once against it.
//
// A virtual view rather than a concept with templates: every step of a run costs an adapter round
// trip (microseconds to seconds), next to which a virtual call is free, and one instantiation halves
// what the run area compiles (docs/design.md "One graph interface"). Both implementations are
// `final`, so code that holds the concrete type (the solvers on a TestGraph) calls the accessors
// directly, inlined as before.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "playtest/graph/ids.hpp"

namespace playtest {

enum class VertexKind : std::uint8_t { active = 0, passive = 1 };

class TestGraph;

class GameGraph {
 public:
  virtual ~GameGraph() = default;

  // What exists (explored) or has been discovered so far (on the fly: grows as runs go).
  virtual std::uint32_t num_vertices() const = 0;
  virtual std::uint32_t num_edges() const = 0;
  virtual std::uint32_t num_labels() const = 0;
  virtual VertexId initial() const = 0;

  // Vertices. On the fly these expand the vertex (its kind, goal flag and out-edges) when first asked.
  virtual IdRange<EdgeId> out_edges(VertexId v) const = 0;
  virtual bool is_passive(VertexId v) const = 0;
  virtual bool is_goal(VertexId v) const = 0;
  // The edge a passive vertex follows when the system stays silent (seed 001 §1), or none.
  virtual EdgeId timeout_edge(VertexId v) const = 0;
  // An ioco graph's "observe" edge out of an active vertex (docs/ioco.md), or a model's edge to the
  // passive companion of a state with `anytime` outputs; none.
  virtual EdgeId observe_edge(VertexId v) const = 0;
  // The wait for an output at passive vertex v in ms (graph/1 "timeout_ms", a model's `timeout
  // after E`); 0: the graph does not say.
  virtual std::uint32_t timeout_ms(VertexId v) const = 0;

  // Edges.
  virtual VertexId source(EdgeId e) const = 0;
  virtual VertexId target(EdgeId e) const = 0;
  virtual double cost(EdgeId e) const = 0;
  virtual double probability(EdgeId e) const = 0;  // 0 out of active vertices
  virtual LabelId label_id(EdgeId e) const = 0;
  virtual std::string_view label(EdgeId e) const = 0;
  virtual std::string_view label_name(LabelId l) const = 0;
  virtual bool is_timeout(EdgeId e) const = 0;
  virtual bool is_observe(EdgeId e) const = 0;
  // A delay edge's wait in ms (the tester waits, sends nothing); 0 for every other edge.
  virtual std::uint32_t delay_ms(EdgeId e) const = 0;

  // Names as users see them (a TestGraph's ids; on the fly the state's text and e<id>).
  virtual std::string vertex_name(VertexId v) const = 0;
  virtual std::string edge_name(EdgeId e) const = 0;

  // Resets (seed 002 §3.2): the cost of a reset when the system can be reset.
  virtual std::optional<double> reset_cost() const = 0;

  // The whole explored graph when this is one (the strategies computed before the run need it);
  // nullptr on the fly.
  virtual const TestGraph* explored() const = 0;

  // The edges coverage counts: every edge of an explored graph; on the fly the out-edges of the
  // vertices a run can have reached (ModelGraph::num_reached_edges).
  virtual std::uint32_t num_coverable_edges() const { return num_edges(); }
  virtual bool is_coverable(EdgeId e) const {
    (void)e;
    return true;
  }

  // Vertices whose kind and out-edges are known: every vertex of an explored graph; on the fly the
  // vertices expanded so far.
  virtual std::uint32_t num_expanded() const { return num_vertices(); }

  bool is_active(VertexId v) const { return !is_passive(v); }
  VertexKind kind(VertexId v) const { return is_passive(v) ? VertexKind::passive : VertexKind::active; }
  std::uint32_t out_degree(VertexId v) const { return static_cast<std::uint32_t>(out_edges(v).size()); }
  bool is_resettable() const { return reset_cost().has_value(); }
  bool is_explored() const { return explored() != nullptr; }
  IdRange<VertexId> vertices() const { return {0, num_vertices()}; }
  IdRange<EdgeId> edges() const { return {0, num_edges()}; }

 protected:
  GameGraph() = default;
  GameGraph(const GameGraph&) = default;
  GameGraph(GameGraph&&) = default;
  GameGraph& operator=(const GameGraph&) = default;
  GameGraph& operator=(GameGraph&&) = default;
};

}  // namespace playtest
