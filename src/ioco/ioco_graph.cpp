#include "playtest/ioco/ioco_graph.hpp"

#include <fmt/format.h>

#include "playtest/base/error.hpp"
#include "playtest/graph/graph_builder.hpp"

namespace playtest::ioco {

namespace {
std::string set_name(const Lts& lts, std::span<const StateId> states) {
  std::string s = "{";
  for (std::size_t i = 0; i < states.size(); ++i) {
    if (i) s += ",";
    s += lts.state_name(states[i]);
  }
  return s + "}";
}
}  // namespace

IocoGraph build_ioco_graph(const Lts& spec, const IocoGraphOptions& options) {
  if (spec.find_action(observe_label))
    throw ModelError(fmt::format("the model uses the label '{}', which the test graph reserves for the tester's "
                                 "choice to observe; rename it", observe_label));
  SuspensionAutomaton sa(spec, {.max_sets = options.max_sets});
  sa.expand_all();
  const std::uint32_t n = sa.num_sets();
  IocoGraph r;
  r.active_of_set.assign(n, VertexId::none());
  r.passive_of_set.assign(n, VertexId::none());
  GraphBuilder b;
  // Vertex names: the set, and "<set>!" for the passive vertex of a set that also has an active one.
  for (SetId q = 0; q < n; ++q) {
    const std::string name = set_name(spec, sa.states(q));
    if (sa.has_input(q)) {
      r.active_of_set[q] = b.add_vertex(name, VertexKind::active);
      r.passive_of_set[q] = b.add_vertex(name + "!", VertexKind::passive);
    } else {
      r.passive_of_set[q] = b.add_vertex(name, VertexKind::passive);
    }
  }
  auto entry = [&](SetId q) { return r.active_of_set[q].is_none() ? r.passive_of_set[q] : r.active_of_set[q]; };
  for (SetId q = 0; q < n; ++q) {
    auto acts = sa.actions(q);
    auto tgts = sa.targets(q);
    if (!r.active_of_set[q].is_none()) {
      for (std::size_t k = 0; k < acts.size(); ++k)
        if (spec.is_input(acts[k]))
          b.add_edge({.from = r.active_of_set[q], .to = entry(tgts[k]), .label = spec.action_name(acts[k]),
                      .cost = options.input_cost});
      b.add_edge({.from = r.active_of_set[q], .to = r.passive_of_set[q], .label = observe_label,
                  .cost = options.observe_cost, .observe = true});
    }
    std::uint32_t outs = 0;
    for (ActionId a : acts) outs += spec.is_input(a) ? 0 : 1;
    for (std::size_t k = 0; k < acts.size(); ++k)
      if (!spec.is_input(acts[k]))
        b.add_edge({.from = r.passive_of_set[q], .to = entry(tgts[k]), .label = spec.action_name(acts[k]),
                    .cost = options.output_cost, .prob = 1.0 / outs, .timeout = acts[k] == Lts::delta});
  }
  b.set_initial(entry(sa.initial()));
  r.graph = b.build();
  r.set_of_vertex.assign(r.graph.num_vertices(), no_set);
  for (SetId q = 0; q < n; ++q) {
    if (!r.active_of_set[q].is_none()) r.set_of_vertex[r.active_of_set[q].index()] = q;
    r.set_of_vertex[r.passive_of_set[q].index()] = q;
  }
  return r;
}

std::optional<EdgeId> find_out_edge(const TestGraph& g, VertexId v, std::string_view label) {
  for (EdgeId e : g.out_edges(v))
    if (g.label(e) == label) return e;
  return std::nullopt;
}

std::optional<EdgeId> find_observe_edge(const TestGraph& g, VertexId v) {
  EdgeId e = g.observe_edge(v);
  return e.is_none() ? std::nullopt : std::optional<EdgeId>(e);
}

}  // namespace playtest::ioco
