#include "playtest/graph/graph_builder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "playtest/base/error.hpp"

namespace playtest {

namespace {
constexpr std::uint8_t flag_has_prob = 1, flag_has_weight = 2, flag_timeout = 4, flag_named_default = 8,
                       flag_observe = 16;
constexpr std::uint32_t no_name = 0xFFFFFFFFu;
constexpr std::uint8_t declared = 1, decl_passive = 2, decl_goal = 4;

// Whether `s` is "e<index>", the name an edge gets when it has none.
bool is_default_edge_name(std::string_view s, std::uint32_t index) {
  char buf[16];
  char* p = buf + sizeof buf;
  do *--p = static_cast<char>('0' + index % 10);
  while ((index /= 10) != 0);
  *--p = 'e';
  return s == std::string_view(p, static_cast<std::size_t>(buf + sizeof buf - p));
}

std::string describe_number(double x) {
  if (std::isnan(x)) return "NaN";
  if (std::isinf(x)) return x > 0 ? "infinity" : "-infinity";
  return fmt::format("{}", x);
}
}  // namespace

void GraphBuilder::reserve(std::size_t vertices, std::size_t edges) {
  names_.reserve(vertices, vertices * 8);
  vstate_.reserve(vertices);
  from_.reserve(edges);
  to_.reserve(edges);
  cost_.reserve(edges);
  prob_.reserve(edges);
  eflags_.reserve(edges);
  label_.reserve(edges);
  name_.reserve(edges);
}

VertexId GraphBuilder::vertex_ref(std::string_view name, std::uint32_t hash) {
  std::uint32_t id = names_.intern(name, hash);
  if (id == vstate_.size()) {
    vstate_.push_back(0);
    if (decl_listed_) vdecl_.push_back(0);
  }
  return VertexId{id};
}

VertexId GraphBuilder::add_vertex(std::string_view name, VertexKind kind, bool goal, std::uint32_t hash) {
  VertexId v = vertex_ref(name, hash);
  std::uint32_t decl = num_decls_++;
  if (vstate_[v.index()] & declared) {
    duplicate_decls_.emplace_back(v.value, decl);
    return v;
  }
  vstate_[v.index()] =
      static_cast<std::uint8_t>(declared | (kind == VertexKind::passive ? decl_passive : 0) | (goal ? decl_goal : 0));
  set_decl(v.index(), decl);
  return v;
}

// vdecl_ is materialized only when a declaration's index differs from its vertex's id.
void GraphBuilder::set_decl(std::uint32_t v, std::uint32_t decl) {
  if (!decl_listed_) {
    if (decl == v) return;
    vdecl_.resize(vstate_.size());
    for (std::uint32_t u = 0; u < vdecl_.size(); ++u) vdecl_[u] = u;
    decl_listed_ = true;
  }
  vdecl_[v] = decl;
}

VertexId GraphBuilder::add_unique_vertex(std::string_view name, VertexKind kind, bool goal) {
  const VertexId v{names_.append(name)};
  vstate_.push_back(
      static_cast<std::uint8_t>(declared | (kind == VertexKind::passive ? decl_passive : 0) | (goal ? decl_goal : 0)));
  if (decl_listed_) vdecl_.push_back(0);
  set_decl(v.value, num_decls_++);
  unindexed_names_ = true;
  return v;
}

std::uint32_t GraphBuilder::add_edge(const EdgeSpec& e) {
  if (e.from.index() >= vstate_.size() || e.to.index() >= vstate_.size())
    throw InternalError("GraphBuilder::add_edge: vertex id was not obtained from this builder");
  std::uint32_t index = num_edges();
  from_.push_back(e.from);
  to_.push_back(e.to);
  cost_.push_back(e.cost);
  std::uint8_t flags = static_cast<std::uint8_t>((e.timeout ? flag_timeout : 0) | (e.observe ? flag_observe : 0));
  double p = 0.0;
  if (e.prob) {
    flags |= flag_has_prob;
    p = *e.prob;
  }
  if (e.weight) {
    if (e.prob) throw InternalError("GraphBuilder::add_edge: give prob or weight, not both");
    flags |= flag_has_weight;
    p = *e.weight;
  }
  prob_.push_back(p);
  eflags_.push_back(flags);
  if (e.delay_ms != 0) edge_delays_.emplace_back(index, e.delay_ms);
  label_.push_back(LabelId{labels_.intern(e.label)});
  if (e.name && is_default_edge_name(*e.name, index)) {
    // Named as it would be by default (generated files name every edge so): no need to index
    // the name, which for millions of edges is most of the loading time spent on names.
    eflags_.back() |= flag_named_default;
    name_.push_back(no_name);
  } else if (e.name) {
    std::uint32_t before = edge_names_.size();
    std::uint32_t id = edge_names_.intern(*e.name);
    // A repeated name is recorded as no_name - 1 - id: reported at build().
    name_.push_back(id < before ? no_name - 1 - id : id);
  } else {
    name_.push_back(no_name);
  }
  return index;
}

void GraphBuilder::fail(const BuildOptions& o, ElementRef where, std::string message) const {
  Diagnostic d;
  if (o.locate) d.where = o.locate(where);
  d.message = std::move(message);
  throw GraphError(std::move(d));
}

std::string GraphBuilder::vertex_name(VertexId v) const { return std::string(names_.view(v.value)); }

std::string GraphBuilder::edge_name(std::uint32_t i) const {
  std::uint32_t id = name_[i];
  if (id == no_name) return fmt::format("e{}", i);
  if (id > no_name / 2) id = no_name - 1 - id;
  return std::string(edge_names_.view(id));
}

TestGraph GraphBuilder::build(const BuildOptions& o, std::vector<EdgeId>* edge_of_insertion) {
  check_vertices(o);
  check_edges(o);
  check_timing(o);
  TestGraph g;
  std::vector<std::uint32_t> perm, inv;
  group_by_source(g, perm, inv);
  check_passive_vertices(o, g, inv);
  std::vector<std::uint32_t>().swap(inv);
  const std::uint32_t explicit_names = name_default_edges(o);
  freeze_vertices(g);
  freeze_edges(g, perm, explicit_names);
  if (edge_of_insertion) {
    *edge_of_insertion = g.edge_of_insertion_;
    if (perm.empty()) {
      edge_of_insertion->resize(g.num_edges());
      for (std::uint32_t i = 0; i < g.num_edges(); ++i) (*edge_of_insertion)[i] = EdgeId{i};
    }
  }
  g.vertex_names_ = std::move(names_);
  g.edge_names_ = std::move(edge_names_);
  g.labels_ = std::move(labels_);
  *this = GraphBuilder();
  return g;
}

void GraphBuilder::check_vertices(const BuildOptions& o) {
  using K = ElementRef::Kind;
  const std::uint32_t n = names_.size();
  if (num_decls_ == 0) fail(o, {K::graph, 0}, "the graph has no vertices");
  if (unindexed_names_) {
    if (distinct_names_) {
      names_.index_lazily();
    } else if (auto dup = names_.index_all()) {
      fail(o, {K::vertex, decl_of(*dup)}, fmt::format("duplicate vertex id '{}'", names_.view(*dup)));
    }
    unindexed_names_ = false;
  }
  if (!duplicate_decls_.empty()) {
    auto [v, decl] = duplicate_decls_.front();
    fail(o, {K::vertex, decl}, fmt::format("duplicate vertex id '{}'", names_.view(v)));
  }
  if (initial_.is_none()) fail(o, {K::initial, 0}, "no initial vertex is given");
  if (initial_.index() >= n || !(vstate_[initial_.index()] & declared))
    fail(o, {K::initial, 0},
         fmt::format("the initial vertex '{}' is not a declared vertex",
                     initial_.index() < n ? vertex_name(initial_) : std::string("?")));
  if (reset_cost_ && !(std::isfinite(*reset_cost_) && *reset_cost_ >= 0))
    fail(o, {K::reset, 0}, fmt::format("reset cost must be finite and >= 0, got {}", describe_number(*reset_cost_)));
}

void GraphBuilder::check_edges(const BuildOptions& o) const {
  using K = ElementRef::Kind;
  const std::uint32_t m = num_edges();
  auto vname = [&](VertexId v) { return vertex_name(v); };
  auto ename = [&](std::uint32_t i) { return edge_name(i); };
  // Costs are added along paths and tours: their total must stay inside double's range, or a
  // solver's sums would overflow to infinity (refused here rather than reported as a value).
  long double total_cost = 0;
  for (std::uint32_t i = 0; i < m; ++i) {
    for (VertexId end : {from_[i], to_[i]}) {
      if (!(vstate_[end.index()] & declared))
        fail(o, {K::edge, i},
             fmt::format("edge '{}' {} unknown vertex '{}'", ename(i), end == from_[i] ? "starts at" : "goes to",
                         vname(end)));
    }
    if (name_[i] != no_name && name_[i] > no_name / 2)
      fail(o, {K::edge, i}, fmt::format("duplicate edge id '{}'", ename(i)));
    if (!std::isfinite(cost_[i]) || cost_[i] < 0)
      fail(o, {K::edge, i},
           fmt::format("edge '{}' has cost {}; costs must be finite and >= 0", ename(i), describe_number(cost_[i])));
    total_cost += cost_[i];
    if (total_cost > static_cast<long double>(std::numeric_limits<double>::max()) / 4)
      fail(o, {K::edge, i},
           fmt::format("edge '{}' has cost {}; with the costs before it the total exceeds a quarter of the largest "
                       "double ({:.3g}), and solvers' sums would overflow; scale the costs down",
                       ename(i), describe_number(cost_[i]), std::numeric_limits<double>::max() / 4));
    const bool passive = (vstate_[from_[i].index()] & decl_passive) != 0;
    const std::uint8_t f = eflags_[i];
    if ((f & flag_observe) && (passive || !(vstate_[to_[i].index()] & decl_passive)))
      fail(o, {K::edge, i},
           fmt::format("edge '{}' is an observe edge and must lead from an active vertex to a "
                       "passive one ('{}' -> '{}')",
                       ename(i), vname(from_[i]), vname(to_[i])));
    if (!passive) {
      if (f & flag_has_prob)
        fail(o, {K::edge, i},
             fmt::format("edge '{}' leaves active vertex '{}' and must not have a probability (the tester chooses "
                         "there)",
                         ename(i), vname(from_[i])));
      if (f & flag_has_weight)
        fail(o, {K::edge, i},
             fmt::format("edge '{}' leaves active vertex '{}' and must not have a weight", ename(i), vname(from_[i])));
      if (f & flag_timeout)
        fail(o, {K::edge, i},
             fmt::format("edge '{}' is a timeout edge but leaves active vertex '{}'; timeouts "
                         "belong to passive vertices",
                         ename(i), vname(from_[i])));
    } else {
      if (!(f & (flag_has_prob | flag_has_weight)))
        fail(o, {K::edge, i},
             fmt::format("edge '{}' leaves passive vertex '{}' and needs a probability \"prob\" "
                         "(or a \"weight\")",
                         ename(i), vname(from_[i])));
      const double p = prob_[i];
      if ((f & flag_has_prob) && !(p > 0 && p <= 1))
        fail(o, {K::edge, i},
             fmt::format("edge '{}' has probability {}; probabilities must lie in (0, 1]", ename(i),
                         describe_number(p)));
      if ((f & flag_has_weight) && !(std::isfinite(p) && p > 0))
        fail(o, {K::edge, i},
             fmt::format("edge '{}' has weight {}; weights must be finite and > 0", ename(i), describe_number(p)));
    }
  }
}

// Delays leave active vertices and are ordinary stimuli otherwise; vertex timeouts belong to passive
// vertices (the wait for an output happens there).
void GraphBuilder::check_timing(const BuildOptions& o) const {
  using K = ElementRef::Kind;
  for (const auto& [i, ms] : edge_delays_) {
    if ((vstate_[from_[i].index()] & decl_passive) || (eflags_[i] & (flag_observe | flag_timeout)))
      fail(o, {K::edge, i},
           fmt::format("edge '{}' has a delay but is {}; a delay is the tester's move of waiting, out of an "
                       "active vertex",
                       edge_name(i),
                       (eflags_[i] & flag_timeout)   ? "a timeout edge"
                       : (eflags_[i] & flag_observe) ? "an observe edge"
                                                     : "out of passive vertex '" + vertex_name(from_[i]) + "'"));
  }
  for (const auto& [v, ms] : vertex_timeouts_) {
    if (ms == 0) throw InternalError("GraphBuilder::set_timeout_ms: the timeout must be positive");
    if (v >= vstate_.size())
      throw InternalError("GraphBuilder::set_timeout_ms: vertex id was not obtained from this builder");
    if ((vstate_[v] & declared) && !(vstate_[v] & decl_passive))
      fail(o, {K::vertex, decl_of(v)},
           fmt::format("active vertex '{}' has a timeout; the wait for an output (\"timeout_ms\") belongs to passive "
                       "vertices",
                       names_.view(v)));
  }
}

void GraphBuilder::group_by_source(TestGraph& g, std::vector<std::uint32_t>& perm,
                                   std::vector<std::uint32_t>& inv) const {
  const std::uint32_t n = names_.size();
  const std::uint32_t m = num_edges();
  g.out_offsets_.assign(n + 1, 0);
  for (std::uint32_t i = 0; i < m; ++i) ++g.out_offsets_[from_[i].index() + 1];
  for (std::uint32_t v = 0; v < n; ++v) g.out_offsets_[v + 1] += g.out_offsets_[v];
  // Loaders that add edges grouped by source (the PRISM importer) need no permutation: then perm
  // and inv stay empty (the identity) and the arrays are moved, not copied (less time, a lower peak).
  perm.clear();
  inv.clear();
  if (std::is_sorted(from_.begin(), from_.end())) return;
  perm.resize(m);  // insertion index -> edge id
  std::vector<std::uint32_t> next(g.out_offsets_.begin(), g.out_offsets_.end() - 1);
  for (std::uint32_t i = 0; i < m; ++i) perm[i] = next[from_[i].index()]++;
  inv.resize(m);  // edge id -> insertion index
  for (std::uint32_t i = 0; i < m; ++i) inv[perm[i]] = i;
}

// Passive vertices need edges, consistent prob/weight, probabilities summing to 1, one timeout.
void GraphBuilder::check_passive_vertices(const BuildOptions& o, const TestGraph& g,
                                          const std::vector<std::uint32_t>& inv) {
  using K = ElementRef::Kind;
  const std::uint32_t n = names_.size();
  auto ename = [&](std::uint32_t i) { return edge_name(i); };
  for (std::uint32_t v = 0; v < n; ++v) {
    if (!(vstate_[v] & decl_passive)) continue;
    const std::uint32_t b = g.out_offsets_[v], e = g.out_offsets_[v + 1];
    if (b == e)
      fail(o, {K::vertex, decl_of(v)},
           fmt::format("passive vertex '{}' has no outgoing edges; the system under test must have a move there",
                       names_.view(v)));
    std::uint8_t kinds = 0;
    std::uint32_t timeouts = 0;
    double sum = 0;
    for (std::uint32_t k = b; k < e; ++k) {
      const std::uint32_t i = inv.empty() ? k : inv[k];
      kinds |= eflags_[i] & (flag_has_prob | flag_has_weight);
      if (eflags_[i] & flag_timeout) {
        if (++timeouts > 1)
          fail(o, {K::edge, i},
               fmt::format("passive vertex '{}' has a second timeout edge '{}'; at most one is "
                           "allowed",
                           names_.view(v), ename(i)));
      }
      sum += prob_[i];
    }
    if (kinds == (flag_has_prob | flag_has_weight))
      fail(o, {K::vertex, decl_of(v)},
           fmt::format("passive vertex '{}' mixes \"prob\" and \"weight\" on its edges; "
                       "use one of them",
                       names_.view(v)));
    if (kinds == flag_has_weight) {
      for (std::uint32_t k = b; k < e; ++k) prob_[inv.empty() ? k : inv[k]] /= sum;
    } else if (std::abs(sum - 1.0) > o.probability_tolerance) {
      fail(o, {K::vertex, decl_of(v)},
           fmt::format("the probabilities of the edges leaving passive vertex '{}' sum to {:.12g}, not 1",
                       names_.view(v), sum));
    }
  }
}

std::uint32_t GraphBuilder::name_default_edges(const BuildOptions& o) {
  using K = ElementRef::Kind;
  const std::uint32_t m = num_edges();
  // Edge names: explicit ones were interned (indexed) at add_edge. The others are "e<index>",
  // appended without indexing (TestGraph::find_edge parses them); an explicit name of that form
  // on another edge would make two edges share a name.
  const std::uint32_t explicit_names = edge_names_.size();
  for (std::uint32_t id = 0; id < explicit_names; ++id) {
    std::string_view s = edge_names_.view(id);
    if (s.size() < 2 || s.size() > 11 || s[0] != 'e' || (s[1] == '0' && s.size() > 2)) continue;
    std::uint64_t k = 0;
    bool digits = true;
    for (char c : s.substr(1)) {
      if (c < '0' || c > '9') {
        digits = false;
        break;
      }
      k = k * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (digits && k < m && name_[k] == no_name) {
      if (eflags_[k] & flag_named_default) {
        // Both edges name themselves s: report the later one, as for any repeated name.
        std::uint32_t other = 0;
        while (name_[other] != id) ++other;
        fail(o, {K::edge, std::max(other, static_cast<std::uint32_t>(k))}, fmt::format("duplicate edge id '{}'", s));
      }
      fail(o, {K::edge, static_cast<std::uint32_t>(k)},
           fmt::format("duplicate edge id '{}' (this edge has no \"id\", so it defaults to '{}', which another "
                       "edge uses)",
                       s, s));
    }
  }
  // The others are "e<index>": not stored one by one but as one string "e0e1e2..." (TestGraph's
  // default_edge_names_), and name_[i] = explicit_names + i.
  if (std::uint64_t{explicit_names} + m >= no_name / 2) fail(o, {K::graph, 0}, "too many edges");
  bool any_default = false;
  for (std::uint32_t i = 0; i < m; ++i)
    if (name_[i] == no_name) {
      name_[i] = explicit_names + i;
      any_default = true;
    }
  default_names_.clear();
  if (any_default) {
    // By hand: millions of edges make a formatting call per edge show in profiles. Reserved first
    // (an 'e' and the digits of every index): growing by doubling would hold two buffers at once.
    std::uint64_t chars = m;
    for (std::uint64_t lo = 0, hi = 10, d = 1; lo < m; lo = hi, hi *= 10, ++d)
      chars += (std::min<std::uint64_t>(hi, m) - lo) * d;
    default_names_.reserve(chars);
    char buf[16];
    for (std::uint32_t i = 0; i < m; ++i) {
      char* p = buf + sizeof buf;
      std::uint32_t k = i;
      do *--p = static_cast<char>('0' + k % 10);
      while ((k /= 10) != 0);
      *--p = 'e';
      default_names_.append(p, static_cast<std::size_t>(buf + sizeof buf - p));
    }
  }
  return explicit_names;
}

void GraphBuilder::freeze_vertices(TestGraph& g) const {
  const std::uint32_t n = names_.size();
  g.vflags_.resize(n);
  for (std::uint32_t v = 0; v < n; ++v) {
    std::uint8_t f = 0;
    if (vstate_[v] & decl_passive) {
      f |= TestGraph::vertex_passive;
      ++g.num_passive_;
    }
    if (vstate_[v] & decl_goal) {
      f |= TestGraph::vertex_goal;
      ++g.num_goals_;
    }
    g.vflags_[v] = f;
  }
  if (!vertex_timeouts_.empty()) {
    g.vtimeout_ms_.assign(n, 0);
    for (const auto& [v, ms] : vertex_timeouts_) g.vtimeout_ms_[v] = ms;
  }
  g.initial_ = initial_;
  g.reset_cost_ = reset_cost_;
  g.meta_json_ = meta_json_;
}

// Edge data, permuted one array at a time to keep the peak low; then the in-edges.
void GraphBuilder::freeze_edges(TestGraph& g, const std::vector<std::uint32_t>& perm, std::uint32_t explicit_names) {
  const std::uint32_t n = names_.size();
  const std::uint32_t m = num_edges();
  const bool grouped = perm.empty();
  auto at = [&](std::uint32_t i) { return grouped ? i : perm[i]; };
  auto permute = [&](auto& src, auto& dst) {
    using T = typename std::decay_t<decltype(src)>::value_type;
    if (grouped) {
      // Move when the builder was reserved to size; else copy, so the graph holds no slack.
      if (src.capacity() - src.size() <= src.size() / 16)
        dst = std::move(src);
      else
        dst.assign(src.begin(), src.end());
      std::decay_t<decltype(src)>().swap(src);
      return;
    }
    dst.resize(m);
    for (std::uint32_t i = 0; i < m; ++i) dst[perm[i]] = static_cast<T>(src[i]);
    std::decay_t<decltype(src)>().swap(src);
  };
  permute(from_, g.source_);
  permute(to_, g.target_);
  permute(cost_, g.cost_);
  permute(prob_, g.prob_);
  permute(label_, g.label_);
  permute(name_, g.edge_name_);
  g.default_edge_names_ = std::move(default_names_);
  g.eflags_.resize(m);
  for (std::uint32_t i = 0; i < m; ++i)
    g.eflags_[at(i)] = static_cast<std::uint8_t>(((eflags_[i] & flag_timeout) ? TestGraph::edge_timeout : 0) |
                                                 ((eflags_[i] & flag_observe) ? TestGraph::edge_observe : 0));
  std::vector<std::uint8_t>().swap(eflags_);
  if (!edge_delays_.empty()) {
    g.edelay_ms_.assign(m, 0);
    for (const auto& [i, ms] : edge_delays_) g.edelay_ms_[at(i)] = ms;
  }
  for (std::uint32_t k = 0; k < m; ++k)
    if (!(g.vflags_[g.source_[k].index()] & TestGraph::vertex_passive)) g.prob_[k] = 0.0;
  g.edge_of_explicit_name_.resize(explicit_names);
  if (explicit_names == 0 && grouped) {
    // Every edge named by default and ids equal to insertion indices: name() needs no table.
    std::vector<std::uint32_t>().swap(g.edge_name_);
  } else {
    for (std::uint32_t k = 0; k < m; ++k)
      if (g.edge_name_[k] < explicit_names) g.edge_of_explicit_name_[g.edge_name_[k]] = EdgeId{k};
  }
  if (!grouped) {  // empty: the identity (TestGraph::find_edge)
    g.edge_of_insertion_.resize(m);
    for (std::uint32_t i = 0; i < m; ++i) g.edge_of_insertion_[i] = EdgeId{perm[i]};
  }

  // In-edges.
  g.in_offsets_.assign(n + 1, 0);
  for (std::uint32_t k = 0; k < m; ++k) ++g.in_offsets_[g.target_[k].index() + 1];
  for (std::uint32_t v = 0; v < n; ++v) g.in_offsets_[v + 1] += g.in_offsets_[v];
  g.in_edges_.resize(m);
  {
    std::vector<std::uint32_t> next(g.in_offsets_.begin(), g.in_offsets_.end() - 1);
    for (std::uint32_t k = 0; k < m; ++k) g.in_edges_[next[g.target_[k].index()]++] = EdgeId{k};
  }
}

}  // namespace playtest
