#include "playtest/diagnose/mutant_analysis.hpp"

#include <fmt/format.h>

#include <deque>
#include <limits>
#include <unordered_map>

#include "playtest/base/error.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/solve/exact/property.hpp"

namespace playtest {

namespace {

constexpr std::uint32_t none = std::numeric_limits<std::uint32_t>::max();

// A node of the product: the runner at model vertex m, the simulated system at mutant vertex u;
// phase 0: m passive (waiting for an output), or m active before the runner's poll; phase 1: m
// active after the poll (the tester chooses). Node 0 is FAIL.
struct Key {
  std::uint32_t phase, m, u;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  std::size_t operator()(const Key& k) const {
    return (std::size_t{k.m} * 0x9E3779B97F4A7C15ull) ^ (std::size_t{k.u} * 0xC2B2AE3D27D4EB4Full) ^ k.phase;
  }
};

struct ProductEdge {
  std::uint32_t to;
  double prob;  // < 0: the tester's choice
  std::string what;
};

class Product {
 public:
  Product(const TestGraph& model, const TestGraph& mutant, std::uint32_t max_states)
      : g_(model), h_(mutant), max_(max_states) {
    nodes_.push_back({});  // FAIL
    keys_.push_back({9, 0, 0});
    parent_.push_back({none, ""});
  }

  // Explores breadth first from the initial pair; false when the state limit was hit.
  bool explore() {
    const std::uint32_t u0 = h_.initial().value;
    root_ = node({0, g_.initial().value, u0}, none, "");
    while (!queue_.empty()) {
      const std::uint32_t x = queue_.front();
      queue_.pop_front();
      expand(x);
      if (nodes_.size() > max_) return false;
    }
    return true;
  }

  bool fail_reachable() const { return fail_parent_ != none; }
  std::uint32_t size() const { return static_cast<std::uint32_t>(nodes_.size()); }

  MutantWitness witness() const {
    MutantWitness w;
    std::vector<std::string> rev;
    double p = 1;
    // The failing edge, then back along the BFS parents.
    rev.push_back(fail_what_);
    p *= fail_prob_ < 0 ? 1 : fail_prob_;
    for (std::uint32_t x = fail_parent_; x != root_ && x != none; x = parent_[x].first) {
      const std::uint32_t px = parent_[x].first;
      rev.push_back(parent_[x].second);
      for (const ProductEdge& e : nodes_[px])
        if (e.to == x && e.what == parent_[x].second) {
          if (e.prob >= 0) p *= e.prob;
          break;
        }
    }
    w.failure = rev.front();
    for (auto it = rev.rbegin(); it != rev.rend(); ++it) {
      if (it + 1 == rev.rend()) break;  // the failure itself
      if (!it->empty()) w.steps.push_back(*it);
      if (it->rfind("send '", 0) == 0) w.stimuli.push_back(it->substr(6, it->size() - 7));
    }
    w.path_probability = p;
    return w;
  }

  // The product as a test graph (FAIL a goal) for the kill probability.
  TestGraph graph() const {
    GraphBuilder b;
    b.reserve(nodes_.size(), 0);
    for (std::uint32_t x = 0; x < nodes_.size(); ++x) {
      const bool passive = !nodes_[x].empty() && nodes_[x].front().prob >= 0;
      b.add_vertex(fmt::format("n{}", x), passive ? VertexKind::passive : VertexKind::active, x == 0);
    }
    b.set_initial(VertexId{root_});
    for (std::uint32_t x = 0; x < nodes_.size(); ++x)
      for (const ProductEdge& e : nodes_[x]) {
        EdgeSpec s{.from = VertexId{x}, .to = VertexId{e.to}, .label = "x", .cost = 0};
        if (e.prob >= 0) s.weight = e.prob;
        b.add_edge(s);
      }
    return b.build();
  }

 private:
  std::uint32_t node(Key k, std::uint32_t from, std::string what) {
    auto [it, fresh] = index_.try_emplace(k, static_cast<std::uint32_t>(nodes_.size()));
    if (fresh) {
      nodes_.push_back({});
      keys_.push_back(k);
      parent_.push_back({from, std::move(what)});
      queue_.push_back(it->second);
    }
    return it->second;
  }
  void add(std::uint32_t x, std::uint32_t to, double prob, std::string what) {
    if (to == 0 && fail_parent_ == none) {
      fail_parent_ = x;
      fail_what_ = what;
      fail_prob_ = prob;
    }
    nodes_[x].push_back({to, prob, std::move(what)});
  }
  // The next node after the model moved to m and the mutant to u (phase 0 at m).
  std::uint32_t at(std::uint32_t m, std::uint32_t u, std::uint32_t from, const std::string& what) {
    return node({0, m, u}, from, what);
  }
  // The last edge of model vertex m with label l (the runner's judge_output), or none.
  std::uint32_t model_match(std::uint32_t m, std::string_view l) const {
    std::uint32_t match = none;
    for (EdgeId e : g_.out_edges(VertexId{m}))
      if (!g_.is_timeout(e) && g_.label(e) == l) match = e.value;
    return match;
  }
  std::string fail_output(std::uint32_t m, std::string_view l) const {
    std::string allowed;
    for (EdgeId e : g_.out_edges(VertexId{m}))
      if (!g_.is_timeout(e)) allowed += fmt::format("{}'{}'", allowed.empty() ? "" : ", ", g_.label(e));
    return fmt::format("the mutant produces '{}' where the model (at '{}') allows {}", l, g_.name(VertexId{m}),
                       allowed.empty() ? "no output" : allowed);
  }
  void expand(std::uint32_t x) {
    const Key k = keys_[x];
    const VertexId m{k.m};
    VertexId u{k.u};
    // The simulated system moves along an observe edge before it answers a poll or a wait.
    auto after_observe = [&](VertexId v) {
      const EdgeId o = h_.observe_edge(v);
      return o.is_none() ? v : h_.target(o);
    };
    if (g_.is_active(m) && k.phase == 0) {
      // The runner polls before it sends anything: an output of a passive mutant comes now.
      const VertexId uo = after_observe(u);
      if (!h_.is_passive(uo) || h_.out_degree(uo) == 0) {
        // Quiet: the tester chooses at once (the choice node stands for this one).
        const std::uint32_t c = node({1, k.m, uo.value}, x, "");
        add(x, c, 1.0, "");
        return;
      }
      for (EdgeId e : h_.out_edges(uo)) {
        const double p = h_.probability(e);
        if (!(p > 0)) continue;  // never picked
        const VertexId ut = h_.target(e);
        if (h_.is_timeout(e)) {
          add(x, node({1, k.m, ut.value}, x, "silence"), p, "silence");
          continue;
        }
        const std::string_view l = h_.label(e);
        const EdgeId obs = g_.observe_edge(m);
        if (obs.is_none()) {
          add(x, 0, p,
              fmt::format("the mutant produces '{}' at model vertex '{}', where the model waits for a stimulus", l,
                          g_.name(m)));
          continue;
        }
        const std::uint32_t match = model_match(g_.target(obs).value, l);
        if (match == none)
          add(x, 0, p, fail_output(g_.target(obs).value, l));
        else
          add(x, at(g_.target(EdgeId{match}).value, ut.value, x, fmt::format("see '{}'", l)), p,
              fmt::format("see '{}'", l));
      }
      return;
    }
    if (g_.is_active(m)) {
      // The tester's choice: any edge of the model (an observe edge sends nothing).
      for (EdgeId e : g_.out_edges(m)) {
        VertexId ut = u;
        std::string what;
        if (g_.is_observe(e)) {
          what = "wait";
        } else {
          what = fmt::format("send '{}'", g_.label(e));
          if (h_.is_active(u))
            for (EdgeId f : h_.out_edges(u))
              if (h_.label(f) == g_.label(e) && !h_.is_observe(f)) {
                ut = h_.target(f);
                break;
              }
        }
        add(x, at(g_.target(e).value, ut.value, x, what), -1, what);
      }
      return;
    }
    // m passive: the runner waits for the system's output or silence.
    const VertexId uo = after_observe(u);
    auto silence = [&](VertexId ut, double p) {
      const EdgeId te = g_.timeout_edge(m);
      if (te.is_none())
        add(x, 0, p,
            fmt::format("the mutant stays silent at model vertex '{}', which has no timeout edge", g_.name(m)));
      else
        add(x, at(g_.target(te).value, ut.value, x, "silence"), p, "silence");
    };
    if (!h_.is_passive(uo) || h_.out_degree(uo) == 0) {
      silence(uo, 1.0);
      return;
    }
    for (EdgeId e : h_.out_edges(uo)) {
      const double p = h_.probability(e);
      if (!(p > 0)) continue;
      if (h_.is_timeout(e)) {
        silence(h_.target(e), p);
        continue;
      }
      const std::string_view l = h_.label(e);
      const std::uint32_t match = model_match(k.m, l);
      if (match == none)
        add(x, 0, p, fail_output(k.m, l));
      else
        add(x, at(g_.target(EdgeId{match}).value, h_.target(e).value, x, fmt::format("see '{}'", l)), p,
            fmt::format("see '{}'", l));
    }
  }

  const TestGraph& g_;
  const TestGraph& h_;
  std::uint32_t max_;
  std::vector<std::vector<ProductEdge>> nodes_;
  std::vector<Key> keys_;
  std::vector<std::pair<std::uint32_t, std::string>> parent_;
  std::unordered_map<Key, std::uint32_t, KeyHash> index_;
  std::deque<std::uint32_t> queue_;
  std::uint32_t root_ = none, fail_parent_ = none;
  std::string fail_what_;
  double fail_prob_ = 0;
};

}  // namespace

MutantAnalysis analyze_mutant(const TestGraph& model, const TestGraph& mutant, const MutantAnalysisOptions& o) {
  if (model.num_vertices() == 0 || mutant.num_vertices() == 0)
    throw UsageError("mutant", "analyze_mutant: an empty graph");
  MutantAnalysis a;
  Product p(model, mutant, o.max_product_states);
  a.complete = p.explore();
  a.product_states = p.size();
  a.distinguishable = p.fail_reachable();
  if (a.distinguishable) {
    MutantWitness w = p.witness();
    if (a.complete) {
      const TestGraph pg = p.graph();
      const PropertyResult r = solve_property(
          pg, {.kind = PropertyKind::probability, .direction = PropertyDirection::max, .targets = {VertexId{0}}},
          {.exact_check_vertices = 2000, .check_seconds = 5});
      w.kill_probability = r.value[pg.initial().index()];
    } else {
      w.kill_probability = w.path_probability;  // at least this path's
    }
    a.witness = std::move(w);
  }
  return a;
}

}  // namespace playtest
