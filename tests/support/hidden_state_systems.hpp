// Simulated systems whose choices depend on hidden state of any length (issue 31), each with the
// model a new user would write (every outcome allowed, declared uniform) and the system itself as
// a function of the path since the last reset (SimulatedSutOptions::Choice::history):
//   * fifo(k): k workers wait for jobs; a put serves the worker that has waited longest;
//   * round_robin(k): a message goes to the members in turn, whatever the mode it is sent in;
//   * every_kth(k): a request is answered ?b every k-th time, ?a otherwise;
//   * counter(k): ?High once at least k !Inc were sent since the reset, ?Low before.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/graph/graph_builder.hpp"

namespace playtest::testing {

struct HiddenStateSystem {
  std::string name;
  TestGraph model;
  SimulatedSutOptions sut;
};

inline EdgeId edge_labelled(const GameGraph& g, VertexId v, const std::string& label) {
  for (EdgeId e : g.out_edges(v))
    if (g.label(e) == label) return e;
  return EdgeId::none();
}

inline SimulatedSutOptions history_system(
    std::function<std::string(const GameGraph&, VertexId, std::span<const EdgeId>)> answer) {
  SimulatedSutOptions o;
  o.choice = SimulatedSutOptions::Choice::history;
  o.system = [answer](const GameGraph& g, VertexId v, std::span<const EdgeId> path) {
    return edge_labelled(g, v, answer(g, v, path));
  };
  return o;
}

inline HiddenStateSystem fifo(std::uint32_t k) {
  GraphBuilder b;
  const std::uint32_t masks = 1u << k;
  std::vector<VertexId> active(masks), passive(masks);
  for (std::uint32_t m = 0; m < masks; ++m)
    active[m] = b.add_vertex("w" + std::to_string(m), VertexKind::active, false);
  for (std::uint32_t m = 1; m < masks; ++m)
    passive[m] = b.add_vertex("put" + std::to_string(m), VertexKind::passive, false);
  b.set_initial(active[0]);
  b.set_reset_cost(1.0);
  for (std::uint32_t m = 0; m < masks; ++m) {
    for (std::uint32_t i = 0; i < k; ++i)
      if (!(m & (1u << i)))
        b.add_edge({.from = active[m], .to = active[m | (1u << i)], .label = "!Reserve(" + std::to_string(i) + ")"});
    if (m == 0) continue;
    b.add_edge({.from = active[m], .to = passive[m], .label = "!Put"});
    const double p = 1.0 / std::popcount(m);
    for (std::uint32_t i = 0; i < k; ++i)
      if (m & (1u << i))
        b.add_edge({.from = passive[m],
                    .to = active[m & ~(1u << i)],
                    .label = "?Reserved(" + std::to_string(i) + ")",
                    .prob = p});
  }
  return {"fifo(" + std::to_string(k) + ")", b.build(),
          history_system([](const GameGraph& g, VertexId, std::span<const EdgeId> path) {
            std::deque<char> queue;  // the waiting workers, longest first
            for (EdgeId e : path) {
              const std::string_view l = g.label(e);
              if (l.starts_with("!Reserve(")) queue.push_back(l[9]);
              if (l.starts_with("?Reserved(")) queue.erase(std::find(queue.begin(), queue.end(), l[10]));
            }
            return std::string("?Reserved(") + queue.front() + ")";
          })};
}

inline HiddenStateSystem round_robin(std::uint32_t k) {
  GraphBuilder b;
  const VertexId i = b.add_vertex("normal", VertexKind::active, false);
  const VertexId m = b.add_vertex("urgent", VertexKind::active, false);
  const VertexId sa = b.add_vertex("sent", VertexKind::passive, false);
  const VertexId sb = b.add_vertex("sent_urgent", VertexKind::passive, false);
  b.set_initial(i);
  b.set_reset_cost(1.0);
  b.add_edge({.from = i, .to = m, .label = "!Urgent"});
  b.add_edge({.from = m, .to = i, .label = "!Normal"});
  b.add_edge({.from = i, .to = sa, .label = "!Send"});
  b.add_edge({.from = m, .to = sb, .label = "!SendUrgent"});
  for (std::uint32_t r = 0; r < k; ++r) {
    const std::string got = "?Got(" + std::to_string(r) + ")";
    b.add_edge({.from = sa, .to = i, .label = got, .prob = 1.0 / k});
    b.add_edge({.from = sb, .to = m, .label = got, .prob = 1.0 / k});
  }
  return {"round_robin(" + std::to_string(k) + ")", b.build(),
          history_system([k](const GameGraph& g, VertexId, std::span<const EdgeId> path) {
            std::uint32_t sent = 0;
            for (EdgeId e : path) sent += g.label(e).starts_with("?Got(");
            return "?Got(" + std::to_string(sent % k) + ")";
          })};
}

inline HiddenStateSystem every_kth(std::uint32_t k) {
  GraphBuilder b;
  const VertexId i = b.add_vertex("idle", VertexKind::active, false);
  const VertexId p = b.add_vertex("asked", VertexKind::passive, false);
  b.set_initial(i);
  b.set_reset_cost(1.0);
  b.add_edge({.from = i, .to = p, .label = "!Req"});
  b.add_edge({.from = p, .to = i, .label = "?a", .prob = 0.5});
  b.add_edge({.from = p, .to = i, .label = "?b", .prob = 0.5});
  return {"every_kth(" + std::to_string(k) + ")", b.build(),
          history_system([k](const GameGraph& g, VertexId, std::span<const EdgeId> path) {
            std::uint32_t asked = 0;
            for (EdgeId e : path) asked += g.label(e) == "!Req";
            return std::string(asked % k == 0 ? "?b" : "?a");
          })};
}

inline HiddenStateSystem counter(std::uint32_t k) {
  GraphBuilder b;
  const VertexId i = b.add_vertex("idle", VertexKind::active, false);
  const VertexId p = b.add_vertex("asked", VertexKind::passive, false);
  b.set_initial(i);
  b.set_reset_cost(1.0);
  b.add_edge({.from = i, .to = i, .label = "!Inc"});
  b.add_edge({.from = i, .to = p, .label = "!Ask"});
  b.add_edge({.from = p, .to = i, .label = "?Low", .prob = 0.5});
  b.add_edge({.from = p, .to = i, .label = "?High", .prob = 0.5});
  return {"counter(" + std::to_string(k) + ")", b.build(),
          history_system([k](const GameGraph& g, VertexId, std::span<const EdgeId> path) {
            std::uint32_t incs = 0;
            for (EdgeId e : path) incs += g.label(e) == "!Inc";
            return std::string(incs >= k ? "?High" : "?Low");
          })};
}

}  // namespace playtest::testing
