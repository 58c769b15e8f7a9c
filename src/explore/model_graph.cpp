#include "playtest/explore/model_graph.hpp"

#include <fmt/format.h>

#include "playtest/base/error.hpp"

namespace playtest {

ModelGraph::ModelGraph(const Model& model, const Projection* projection)
    : space_(model, projection), reset_cost_(model.reset_cost()) {
  const NodeId n = space_.initial();
  initial_ = VertexId{n.value};
  // initial() expanded the initial state's natural node (and made its twin when it is passive).
  const NodeId natural = space_.natural(n);
  add_edges_of(natural);
  if (natural != n) {
    // The initial state is passive: the tester starts at its twin (seed 001 §1), and the natural
    // node counts only once a run reaches it, as in the explored graph.
    hidden_ = VertexId{natural.value};
    const auto [b, e] = space_.edge_range(natural);
    hidden_edges_ = e - b;
    --expanded_;
  }
}

void ModelGraph::expand_slow(VertexId v) const {
  if (v == hidden_) {  // reached at last
    hidden_ = VertexId::none();
    hidden_edges_ = 0;
    ++expanded_;
    return;
  }
  const NodeId n = node(v);
  (void)space_.successors(n);  // expands n (and gives a passive node its twin)
  add_edges_of(n);
}

void ModelGraph::add_edges_of(NodeId n) const {
  // The edges just added to the space: n's own, then its twin's (made expanded with n).
  // (A state's nodes get their edges in this order: the natural node, its twin, the companion.)
  for (NodeId m : {n, space_.twin(n), space_.companion(n)}) {
    if (m.is_none() || !space_.is_expanded(m)) continue;
    const auto [b, e] = space_.edge_range(m);
    if (b < source_.size()) continue;  // registered before
    if (b != source_.size()) throw InternalError("ModelGraph: edges of the state space out of order");
    ++expanded_;
    const bool passive = space_.kind(m) == VertexKind::passive;
    double sum = 0;
    for (std::uint32_t i = b; i < e; ++i) sum += passive ? space_.edge(i).probability : 0.0;
    for (std::uint32_t i = b; i < e; ++i) {
      const SpaceEdge& se = space_.edge(i);
      source_.push_back(VertexId{m.value});
      label_.push_back(intern_label(se));
      // The explored graph normalizes these shares again (GraphBuilder: weight / sum, in edge order).
      prob_.push_back(passive ? se.probability / sum : 0.0);
    }
    check_testable(m);
  }
}

LabelId ModelGraph::intern_label(const SpaceEdge& e) const {
  const std::uint64_t key = e.timeout   ? ~std::uint64_t{0}
                            : e.observe ? ~std::uint64_t{1}
                                        : (std::uint64_t{e.label} << 1) | static_cast<std::uint64_t>(e.kind);
  auto [it, added] = label_ids_.try_emplace(key, static_cast<std::uint32_t>(label_texts_.size()));
  if (added) label_texts_.push_back(space_.edge_label(e));
  return LabelId{it->second};
}

// The rules of check_online_testable (run/runner.hpp), per vertex as it is expanded.
void ModelGraph::check_testable(NodeId n) const {
  const VertexId v{n.value};
  const auto [b, e] = space_.edge_range(n);
  const bool passive = space_.kind(n) == VertexKind::passive;
  for (std::uint32_t i = b; i < e; ++i) {
    const EdgeId ei{i};
    const std::string_view l = label(ei);
    if (l.find_first_of("\r\n") != std::string_view::npos)
      throw GraphError(fmt::format(
          "edge '{}' has a label with a line break; labels must fit on one line of the adapter protocol", name(ei)));
    if (is_timeout(ei) || is_observe(ei)) continue;  // matched by silence / never sent
    for (std::uint32_t k = b; k < i; ++k) {
      const EdgeId ek{k};
      if (is_timeout(ek) || is_observe(ek) || label_id(ek) != label_id(ei)) continue;
      if (passive)
        throw GraphError(Diagnostic{{},
                                    fmt::format("passive vertex '{}' has two outputs labelled '{}': an observation "
                                                "could not tell which edge the system took, so the model cannot "
                                                "drive an online test",
                                                name(v), l),
                                    {"give the outputs of a passive state distinct labels"}});
      if (target(ek) != target(ei))
        throw GraphError(Diagnostic{{},
                                    fmt::format("active vertex '{}' has two stimuli labelled '{}' leading to "
                                                "different vertices: the system under test sees only the label",
                                                name(v), l),
                                    {"give the stimuli of an active state distinct labels"}});
    }
  }
}

EdgeId ModelGraph::timeout_edge(VertexId v) const {
  for (EdgeId e : out_edges(v))
    if (is_timeout(e)) return e;
  return EdgeId::none();
}

EdgeId ModelGraph::observe_edge(VertexId v) const {
  for (EdgeId e : out_edges(v))
    if (is_observe(e)) return e;
  return EdgeId::none();
}

std::string ModelGraph::name(VertexId v) const {
  std::string s = space_.state_text(node(v));
  if (space_.is_twin(node(v))) s += '\'';
  if (space_.is_companion(node(v))) s += '!';
  return s;
}

std::size_t ModelGraph::memory_bytes() const {
  std::size_t labels = 0;
  for (const std::string& s : label_texts_) labels += sizeof(std::string) + s.capacity();
  return space_.memory_bytes() + source_.capacity() * sizeof(VertexId) + label_.capacity() * sizeof(LabelId) +
         prob_.capacity() * sizeof(double) + labels + label_ids_.size() * 32;
}

}  // namespace playtest
