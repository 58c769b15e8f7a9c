#include "playtest/explore/state_space.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "playtest/error.hpp"

namespace playtest {

// Collects what Model::successors reports, copying everything (the model's buffers are transient).
class StateSpace::Collector final : public SuccessorSink {
 public:
  struct Item {
    std::uint32_t label;
    ActionKind kind;
    double cost, weight;
    std::uint32_t trap_begin, trap_end;
  };
  explicit Collector(std::size_t state_size) : state_size_(state_size) {}
  void clear() {
    items.clear();
    traps.clear();
    states.clear();
    any_observable = false;
  }
  void add(const Transition& t, std::span<const std::byte> next) override {
    if (next.size() != state_size_)
      throw InternalError("SuccessorSink::add: successor state of the wrong size");
    const auto tb = static_cast<std::uint32_t>(traps.size());
    traps.insert(traps.end(), t.traps.begin(), t.traps.end());
    items.push_back({t.label, t.kind, t.cost, t.weight, tb, static_cast<std::uint32_t>(traps.size())});
    states.insert(states.end(), next.begin(), next.end());
    any_observable = any_observable || t.kind == ActionKind::observable;
  }
  std::span<const std::byte> state(std::size_t i) const { return {states.data() + i * state_size_, state_size_}; }

  std::vector<Item> items;
  std::vector<std::uint32_t> traps;
  std::vector<std::byte> states;
  bool any_observable = false;

 private:
  std::size_t state_size_;
};

StateSpace::StateSpace(const Model& model, const Projection* projection)
    : model_(model), state_size_(model.state_size()) {
  if (projection)
    projection_ = *projection;
  else
    projection_ = model.projection();
  if (projection_ && !projection_->project) projection_.reset();
  keys_ = StateStore(projection_ ? projection_->size : state_size_);
  key_buf_.resize(keys_.key_size());
}

StateSpace::~StateSpace() = default;
StateSpace::StateSpace(StateSpace&&) noexcept = default;

std::span<const std::byte> StateSpace::state(NodeId n) const {
  const std::uint32_t s = nodes_[n.index()].state;
  if (projection_) return {reps_.data() + static_cast<std::size_t>(s) * state_size_, state_size_};
  return keys_.key(s);
}

NodeId StateSpace::intern(std::span<const std::byte> state) {
  std::span<const std::byte> key = state;
  if (projection_) {
    projection_->project(state, key_buf_);
    key = key_buf_;
  }
  auto [id, added] = keys_.insert(key);
  if (added) {
    if (projection_) reps_.insert(reps_.end(), state.begin(), state.end());
    natural_of_.push_back(NodeId{static_cast<std::uint32_t>(nodes_.size())});
    twin_of_.push_back(NodeId::none());
    nodes_.push_back(Node{id, 0, 0, 0});
  }
  return natural_of_[id];
}

std::optional<NodeId> StateSpace::find(std::span<const std::byte> state) const {
  std::vector<std::byte> key(state.begin(), state.end());
  if (projection_) {
    key.resize(projection_->size);
    projection_->project(state, key);
  }
  const std::uint32_t id = keys_.find(key);
  if (id == UINT32_MAX) return std::nullopt;
  return natural_of_[id];
}

NodeId StateSpace::initial() {
  if (initial_) return *initial_;
  std::vector<std::byte> s(state_size_);
  model_.initial_state(s);
  NodeId n = intern(s);
  expand(n);
  if (is_passive_node(n)) {
    // The initial state is active (seed 001 §1) even when the system could speak there.
    if (twin(n).is_none()) make_twin(n);
    n = twin(n);
  }
  initial_ = n;
  return n;
}

bool StateSpace::is_passive_node(NodeId n) const { return nodes_[n.index()].flags & passive_flag; }

std::span<const SpaceEdge> StateSpace::successors(NodeId n) {
  if (!is_expanded(n)) expand(n);
  const Node& node = nodes_[n.index()];
  return std::span<const SpaceEdge>(edges_).subspan(node.edge_begin, node.edge_end - node.edge_begin);
}

void StateSpace::check(const Collector& c, std::span<const std::byte> state) const {
  for (const auto& it : c.items) {
    auto where = [&] {
      return fmt::format("action {} in state {}", model_.label_text(it.label), model_.state_text(state));
    };
    if (!std::isfinite(it.cost) || it.cost < 0)
      throw ModelError(fmt::format("{} has cost {}; costs must be finite and >= 0", where(), it.cost));
    if (it.kind == ActionKind::observable && !(std::isfinite(it.weight) && it.weight > 0))
      throw ModelError(fmt::format("{} has weight {}; weights must be finite and > 0", where(), it.weight));
  }
}

void StateSpace::append_edges(const Collector& c, ActionKind kind, double weight_sum) {
  // Index lookups of large state spaces miss the cache; let the successors' misses overlap.
  if (!projection_)
    for (std::size_t i = 0; i < c.items.size(); ++i)
      if (c.items[i].kind == kind) keys_.prefetch(c.state(i));
  for (std::size_t i = 0; i < c.items.size(); ++i) {
    const auto& it = c.items[i];
    if (it.kind != kind) continue;
    NodeId t = intern(c.state(i));
    const auto tb = static_cast<std::uint32_t>(edge_traps_.size());
    edge_traps_.insert(edge_traps_.end(), c.traps.begin() + it.trap_begin, c.traps.begin() + it.trap_end);
    edges_.push_back(SpaceEdge{t, it.label, it.kind, false, it.cost,
                               kind == ActionKind::observable ? it.weight / weight_sum : 0.0, tb,
                               static_cast<std::uint32_t>(edge_traps_.size())});
  }
}

void StateSpace::expand(NodeId n) {
  if (is_expanded(n)) return;
  // Copy the state: interning successors may move the arena. expand() does not nest, so one
  // buffer serves every call (no allocation per state).
  cur_.assign(state(n).begin(), state(n).end());
  const std::span<const std::byte> cur = cur_;
  if (!collector_) collector_ = std::make_unique<Collector>(state_size_);
  Collector& c = *collector_;
  c.clear();
  model_.successors(cur, c);
  check(c, cur);
  const bool final_state = model_.is_final(cur);
  if (!c.any_observable) {
    const auto b = static_cast<std::uint32_t>(edges_.size());
    append_edges(c, ActionKind::controllable, 1.0);
    Node& node = nodes_[n.index()];
    node.edge_begin = b;
    node.edge_end = static_cast<std::uint32_t>(edges_.size());
    node.flags |= expanded_flag | (final_state ? goal_flag : 0);
    return;
  }
  bool has_controllable = false;
  double sum = 0;
  for (const auto& it : c.items) {
    if (it.kind == ActionKind::observable) sum += it.weight;
    else has_controllable = true;
  }
  std::optional<TimeoutSpec> to;
  if (has_controllable || final_state) {
    to = model_.timeout(cur);
    if (to && (!std::isfinite(to->cost) || to->cost < 0))
      throw ModelError(fmt::format("the timeout in state {} has cost {}; costs must be finite and >= 0",
                                   model_.state_text(cur), to->cost));
    if (to && !(std::isfinite(to->weight) && to->weight >= 0))
      throw ModelError(fmt::format("the timeout in state {} has weight {}; weights must be finite and >= 0",
                                   model_.state_text(cur), to->weight));
    if (to && to->weight == 0) to.reset();
  }
  if (to) sum += to->weight;
  const auto b = static_cast<std::uint32_t>(edges_.size());
  append_edges(c, ActionKind::observable, sum);
  NodeId tw = NodeId::none();
  if (to) {
    tw = NodeId{static_cast<std::uint32_t>(nodes_.size())};
    nodes_.push_back(Node{nodes_[n.index()].state, static_cast<std::uint8_t>(twin_flag), 0, 0});
    twin_of_[nodes_[n.index()].state] = tw;
    edges_.push_back(SpaceEdge{tw, 0, ActionKind::observable, true, to->cost, to->weight / sum, 0, 0});
  }
  {
    Node& node = nodes_[n.index()];
    node.edge_begin = b;
    node.edge_end = static_cast<std::uint32_t>(edges_.size());
    node.flags |= expanded_flag | passive_flag;
  }
  if (!tw.is_none()) fill_twin(tw, c, final_state);
}

void StateSpace::fill_twin(NodeId tw, const Collector& c, bool final_state) {
  const auto b = static_cast<std::uint32_t>(edges_.size());
  append_edges(c, ActionKind::controllable, 1.0);
  Node& t = nodes_[tw.index()];
  t.edge_begin = b;
  t.edge_end = static_cast<std::uint32_t>(edges_.size());
  t.flags |= expanded_flag | twin_flag | (final_state ? goal_flag : 0);
}

void StateSpace::make_twin(NodeId n) {
  std::vector<std::byte> cur(state(n).begin(), state(n).end());
  Collector& c = *collector_;
  c.clear();
  model_.successors(cur, c);
  const NodeId tw{static_cast<std::uint32_t>(nodes_.size())};
  nodes_.push_back(Node{nodes_[n.index()].state, static_cast<std::uint8_t>(twin_flag), 0, 0});
  twin_of_[nodes_[n.index()].state] = tw;
  fill_twin(tw, c, model_.is_final(cur));
}

std::string StateSpace::state_text(NodeId n) const { return model_.state_text(state(n)); }

std::string StateSpace::edge_label(const SpaceEdge& e) const {
  if (e.timeout) return "?timeout";
  if (e.kind == ActionKind::observable) return "?" + model_.label_text(e.label);
  return model_.label_text(e.label);
}

std::size_t StateSpace::store_bytes() const { return keys_.memory_bytes() + reps_.capacity(); }

std::size_t StateSpace::memory_bytes() const {
  return store_bytes() + nodes_.capacity() * sizeof(Node) + (natural_of_.capacity() + twin_of_.capacity()) * sizeof(NodeId) +
         edges_.capacity() * sizeof(SpaceEdge) + edge_traps_.capacity() * sizeof(std::uint32_t);
}

}  // namespace playtest
