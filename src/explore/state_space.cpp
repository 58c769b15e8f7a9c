#include "playtest/explore/state_space.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "playtest/base/error.hpp"

namespace playtest {

namespace {
constexpr std::uint32_t max_duration_ms = 2147483647;  // as graph/1's timeout_ms and delay_ms
}  // namespace

// Collects what Model::successors reports, copying everything (the model's buffers are transient).
class StateSpace::Collector final : public SuccessorSink {
 public:
  struct Item {
    std::uint32_t label;
    ActionKind kind;
    bool anytime;
    std::uint32_t delay_ms;
    double cost, weight;
    std::uint32_t trap_begin, trap_end;
  };
  explicit Collector(std::size_t state_size) : state_size_(state_size) {}
  void clear() {
    items.clear();
    traps.clear();
    states.clear();
    any_output = any_anytime = any_controllable = false;
  }
  void add(const Transition& t, std::span<const std::byte> next) override {
    if (next.size() != state_size_) throw InternalError("SuccessorSink::add: successor state of the wrong size");
    const auto tb = static_cast<std::uint32_t>(traps.size());
    traps.insert(traps.end(), t.traps.begin(), t.traps.end());
    const bool observable = t.kind == ActionKind::observable;
    items.push_back({t.label, t.kind, observable && t.anytime, observable ? 0 : t.delay_ms, t.cost, t.weight, tb,
                     static_cast<std::uint32_t>(traps.size())});
    states.insert(states.end(), next.begin(), next.end());
    any_output = any_output || (observable && !t.anytime);
    any_anytime = any_anytime || (observable && t.anytime);
    any_controllable = any_controllable || !observable;
  }
  std::span<const std::byte> state(std::size_t i) const { return {states.data() + i * state_size_, state_size_}; }

  std::vector<Item> items;
  std::vector<std::uint32_t> traps;
  std::vector<std::byte> states;
  bool any_output = false;   // an observable action not declared anytime
  bool any_anytime = false;  // an observable action declared anytime
  bool any_controllable = false;

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
    if (it.delay_ms > max_duration_ms)
      throw ModelError(fmt::format("{} has a delay of {} ms; at most {} ms", where(), it.delay_ms, max_duration_ms));
  }
}

void StateSpace::append_edges(const Collector& c, ActionKind kind, double weight_sum, Outputs which) {
  // Index lookups of large state spaces miss the cache; let the successors' misses overlap.
  auto wanted = [&](const Collector::Item& it) { return it.kind == kind && (which == Outputs::all || it.anytime); };
  if (!projection_)
    for (std::size_t i = 0; i < c.items.size(); ++i)
      if (wanted(c.items[i])) keys_.prefetch(c.state(i));
  for (std::size_t i = 0; i < c.items.size(); ++i) {
    const auto& it = c.items[i];
    if (!wanted(it)) continue;
    NodeId t = intern(c.state(i));
    const auto tb = static_cast<std::uint32_t>(edge_traps_.size());
    edge_traps_.insert(edge_traps_.end(), c.traps.begin() + it.trap_begin, c.traps.begin() + it.trap_end);
    edges_.push_back(SpaceEdge{.target = t,
                               .label = it.label,
                               .kind = it.kind,
                               .delay_ms = it.delay_ms,
                               .cost = it.cost,
                               .probability = kind == ActionKind::observable ? it.weight / weight_sum : 0.0,
                               .trap_begin = tb,
                               .trap_end = static_cast<std::uint32_t>(edge_traps_.size())});
  }
}

std::optional<TimeoutSpec> StateSpace::timeout_of(std::span<const std::byte> state) const {
  std::optional<TimeoutSpec> to = model_.timeout(state);
  if (to && (!std::isfinite(to->cost) || to->cost < 0))
    throw ModelError(fmt::format("the timeout in state {} has cost {}; costs must be finite and >= 0",
                                 model_.state_text(state), to->cost));
  if (to && !(std::isfinite(to->weight) && to->weight >= 0))
    throw ModelError(fmt::format("the timeout in state {} has weight {}; weights must be finite and >= 0",
                                 model_.state_text(state), to->weight));
  if (to && to->weight == 0) to.reset();
  return to;
}

// A passive node's own wait for output (Model::timeout_ms), kept per state (only when one is given).
void StateSpace::record_timeout_ms(NodeId n, std::span<const std::byte> state) {
  const std::uint32_t ms = model_.timeout_ms(state);
  if (ms == 0) return;
  if (ms > max_duration_ms)
    throw ModelError(fmt::format("the timeout in state {} lasts {} ms; at most {} ms", model_.state_text(state), ms,
                                 max_duration_ms));
  const std::uint32_t s = nodes_[n.index()].state;
  if (timeout_ms_.size() <= s) timeout_ms_.resize(std::max<std::size_t>(s + 1, keys_.size()), 0);
  timeout_ms_[s] = ms;
}

// A node with the state of `like` (a twin or a companion), not yet expanded.
NodeId StateSpace::add_node(NodeId like, std::uint8_t flags) {
  const NodeId m{static_cast<std::uint32_t>(nodes_.size())};
  nodes_.push_back(Node{nodes_[like.index()].state, flags, 0, 0});
  return m;
}

void StateSpace::add_companion(NodeId active, const Collector& c, const std::optional<TimeoutSpec>& to,
                               std::span<const std::byte> state) {
  const NodeId comp = add_node(active, companion_flag);
  const std::uint32_t s = nodes_[active.index()].state;
  if (companion_of_.size() <= s) companion_of_.resize(std::max<std::size_t>(s + 1, keys_.size()), NodeId::none());
  companion_of_[s] = comp;
  // The observe edge closes the active node's edges: the tester's choice to send nothing and wait.
  edges_.push_back(SpaceEdge{.target = comp, .kind = ActionKind::controllable, .observe = true, .cost = 0.0});
  nodes_[active.index()].edge_end = static_cast<std::uint32_t>(edges_.size());
  double sum = to ? to->weight : 0.0;
  for (const auto& it : c.items)
    if (it.kind == ActionKind::observable && it.anytime) sum += it.weight;
  const auto b = static_cast<std::uint32_t>(edges_.size());
  append_edges(c, ActionKind::observable, sum, Outputs::anytime);
  if (to)
    edges_.push_back(SpaceEdge{.target = active,
                               .kind = ActionKind::observable,
                               .timeout = true,
                               .cost = to->cost,
                               .probability = to->weight / sum});
  Node& node = nodes_[comp.index()];
  node.edge_begin = b;
  node.edge_end = static_cast<std::uint32_t>(edges_.size());
  node.flags |= expanded_flag | passive_flag;
  record_timeout_ms(comp, state);
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
  const bool useful_twin = c.any_controllable || final_state;  // the tester can do something after silence
  if (!c.any_output && (!c.any_anytime || useful_twin)) {
    // Active: the tester acts; with `anytime` outputs, it may also wait for them (observe edge).
    const auto b = static_cast<std::uint32_t>(edges_.size());
    append_edges(c, ActionKind::controllable, 1.0);
    Node& node = nodes_[n.index()];
    node.edge_begin = b;
    node.edge_end = static_cast<std::uint32_t>(edges_.size());
    node.flags |= expanded_flag | (final_state ? goal_flag : 0);
    if (c.any_anytime) add_companion(n, c, timeout_of(cur), cur);
    return;
  }
  double sum = 0;
  for (const auto& it : c.items)
    if (it.kind == ActionKind::observable) sum += it.weight;
  std::optional<TimeoutSpec> to;
  if (useful_twin) to = timeout_of(cur);
  if (to) sum += to->weight;
  const auto b = static_cast<std::uint32_t>(edges_.size());
  append_edges(c, ActionKind::observable, sum);
  NodeId tw = NodeId::none();
  if (to) {
    tw = add_node(n, twin_flag);
    twin_of_[nodes_[n.index()].state] = tw;
    edges_.push_back(SpaceEdge{.target = tw,
                               .kind = ActionKind::observable,
                               .timeout = true,
                               .cost = to->cost,
                               .probability = to->weight / sum});
  }
  {
    Node& node = nodes_[n.index()];
    node.edge_begin = b;
    node.edge_end = static_cast<std::uint32_t>(edges_.size());
    node.flags |= expanded_flag | passive_flag;
  }
  record_timeout_ms(n, cur);
  if (!tw.is_none()) fill_twin(tw, c, final_state, to, cur);
}

void StateSpace::fill_twin(NodeId tw, const Collector& c, bool final_state, const std::optional<TimeoutSpec>& to,
                           std::span<const std::byte> state) {
  const auto b = static_cast<std::uint32_t>(edges_.size());
  append_edges(c, ActionKind::controllable, 1.0);
  Node& t = nodes_[tw.index()];
  t.edge_begin = b;
  t.edge_end = static_cast<std::uint32_t>(edges_.size());
  t.flags |= expanded_flag | twin_flag | (final_state ? goal_flag : 0);
  if (c.any_anytime) add_companion(tw, c, to, state);
}

void StateSpace::make_twin(NodeId n) {
  std::vector<std::byte> cur(state(n).begin(), state(n).end());
  Collector& c = *collector_;
  c.clear();
  model_.successors(cur, c);
  const NodeId tw = add_node(n, twin_flag);
  twin_of_[nodes_[n.index()].state] = tw;
  // (The initial state without a timeout edge: its companion has none either.)
  fill_twin(tw, c, model_.is_final(cur), std::nullopt, cur);
}

std::string StateSpace::state_text(NodeId n) const { return model_.state_text(state(n)); }

std::string StateSpace::edge_label(const SpaceEdge& e) const {
  if (e.timeout) return "?timeout";
  if (e.observe) return "observe";
  if (e.kind == ActionKind::observable) return "?" + model_.label_text(e.label);
  return model_.label_text(e.label);
}

std::size_t StateSpace::store_bytes() const { return keys_.memory_bytes() + reps_.capacity(); }

std::size_t StateSpace::memory_bytes() const {
  return store_bytes() + nodes_.capacity() * sizeof(Node) +
         (natural_of_.capacity() + twin_of_.capacity() + companion_of_.capacity()) * sizeof(NodeId) +
         timeout_ms_.capacity() * sizeof(std::uint32_t) + edges_.capacity() * sizeof(SpaceEdge) +
         edge_traps_.capacity() * sizeof(std::uint32_t);
}

}  // namespace playtest
