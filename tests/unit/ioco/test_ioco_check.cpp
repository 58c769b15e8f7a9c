// ioco verdicts: the candy machine (seed 004 §2) with correct and faulty implementations, and on
// thousands of random LTS pairs: check_ioco against a naive bounded reading of Definition 2.5 and
// against what the test graph (build_ioco_graph) rejects.
#include <gtest/gtest.h>

#include <set>
#include <unordered_set>

#include "ioco_test_support.hpp"
#include "playtest/base/error.hpp"
#include "playtest/ioco/ioco_check.hpp"
#include "playtest/ioco/ioco_graph.hpp"
#include "playtest/ioco/suspension.hpp"
#include "test_paths.hpp"

using namespace playtest;
using namespace playtest::ioco;
using ioco_test::Naive;

namespace {
Lts example(const std::string& name) { return load_lts(playtest::testing::source_dir() + "/examples/ioco/" + name); }
using S = std::vector<std::string>;

// Does some run of the test graph against impl reach a missing output? (product exploration)
bool graph_rejects(const IocoGraph& ig, const Lts& impl) {
  const TestGraph& g = ig.graph;
  SuspensionAutomaton si(impl);
  std::vector<std::pair<VertexId, SetId>> stack{{g.initial(), si.initial()}};
  std::set<std::pair<std::uint32_t, SetId>> seen{{g.initial().value, si.initial()}};
  auto push = [&](VertexId v, SetId r) {
    if (seen.insert({v.value, r}).second) stack.emplace_back(v, r);
  };
  while (!stack.empty()) {
    auto [v, r] = stack.back();
    stack.pop_back();
    if (g.is_active(v)) {
      for (EdgeId e : g.out_edges(v)) {
        if (g.label(e) == observe_label) {
          push(g.target(e), r);
          continue;
        }
        auto a = impl.find_action(g.label(e));
        const SetId r2 = a ? si.after(r, *a) : no_set;
        if (r2 != no_set) push(g.target(e), r2);
      }
    } else {
      for (ActionId x : si.outputs(r)) {
        auto e = find_out_edge(g, v, impl.action_name(x));
        if (!e) return true;
        push(g.target(*e), si.after(r, x));
      }
    }
  }
  return false;
}

// Shortest failing trace of length <= depth by the naive definition, or empty.
S naive_counterexample(const Lts& impl, const Lts& spec, std::size_t depth) {
  Naive ni{impl}, ns{spec};
  const S outs{"x", "y", "delta"}, ins{"a", "b"};
  std::vector<std::pair<S, std::pair<std::uint32_t, std::uint32_t>>> level{{{}, {ni.initial(), ns.initial()}}};
  std::set<std::pair<std::uint32_t, std::uint32_t>> seen{{ni.initial(), ns.initial()}};
  for (std::size_t d = 0; d <= depth && !level.empty(); ++d) {
    decltype(level) next;
    for (auto& [tr, qs] : level) {
      for (const auto& x : outs) {
        const auto i2 = ni.after(qs.first, x), s2 = ns.after(qs.second, x);
        if (i2 && !s2) {
          S t = tr;
          t.push_back(x);
          return t;
        }
      }
    }
    for (auto& [tr, qs] : level) {
      for (const auto& x : outs) {
        const auto i2 = ni.after(qs.first, x), s2 = ns.after(qs.second, x);
        if (i2 && s2 && seen.insert({i2, s2}).second) {
          S t = tr;
          t.push_back(x);
          next.push_back({t, {i2, s2}});
        }
      }
      for (const auto& a : ins) {
        const auto i2 = ni.after(qs.first, a), s2 = ns.after(qs.second, a);
        if (i2 && s2 && seen.insert({i2, s2}).second) {
          S t = tr;
          t.push_back(a);
          next.push_back({t, {i2, s2}});
        }
      }
    }
    level = std::move(next);
  }
  return {};
}
}  // namespace

TEST(IocoCandy, CorrectImplementationsConform) {
  const Lts spec = example("candy_spec.aut");
  EXPECT_TRUE(check_ioco(spec, spec).conforms);
  EXPECT_TRUE(check_ioco(example("candy_correct.aut"), spec).conforms);
  EXPECT_TRUE(check_ioco(example("candy_spec.lts.json"), spec).conforms);
  EXPECT_TRUE(check_ioco(spec, example("candy_spec.lts.json")).conforms);
}

TEST(IocoCandy, ChocolateInsteadOfLiquorice) {
  const IocoResult r = check_ioco(example("candy_faulty_choc.aut"), example("candy_spec.aut"));
  EXPECT_FALSE(r.conforms);
  EXPECT_EQ(r.counterexample, (S{"but", "choc"}));
  EXPECT_EQ(r.allowed, (S{"delta", "liq"}));
  EXPECT_EQ(r.implemented, (S{"choc"}));
}

TEST(IocoCandy, SilentAfterTwoPushesIsAQuiescenceFailure) {
  const IocoResult r = check_ioco(example("candy_faulty_silent.aut"), example("candy_spec.aut"));
  EXPECT_FALSE(r.conforms);
  EXPECT_EQ(r.counterexample, (S{"but", "but", "delta"}));
  EXPECT_EQ(r.allowed, (S{"choc", "liq"}));
}

TEST(IocoCandy, ChaosFailsAtOnce) {
  const IocoResult r = check_ioco(example("candy_chaos.aut"), example("candy_spec.aut"));
  EXPECT_FALSE(r.conforms);
  ASSERT_EQ(r.counterexample.size(), 1u);
  EXPECT_TRUE(r.counterexample[0] == "liq" || r.counterexample[0] == "choc");
}

TEST(IocoCandy, OutAfterTheTracesOfTheText) {
  const Lts spec = example("candy_spec.aut");
  EXPECT_EQ(out_after(spec, {}), (S{"delta"}));
  EXPECT_EQ(out_after(spec, {"but"}), (S{"delta", "liq"}));
  EXPECT_EQ(out_after(spec, {"but", "but"}), (S{"choc", "liq"}));
  EXPECT_EQ(out_after(spec, {"but", "delta", "but"}), (S{"choc"}));  // nothing came: only chocolate
  EXPECT_EQ(out_after(spec, {"but", "liq", "but"}), (S{"delta"}));   // after candy: void response
  EXPECT_EQ(out_after(spec, {"but", "but", "choc"}), (S{"delta"}));
  EXPECT_TRUE(out_after(spec, {"liq"}).empty());
}

TEST(IocoCandy, KindMismatchIsAModelError) {
  const Lts spec = parse_aut("des (0, 1, 2)\n(0, \"?a\", 1)\n");
  const Lts impl = parse_aut("des (0, 1, 2)\n(0, \"!a\", 1)\n");
  EXPECT_THROW(check_ioco(impl, spec), ModelError);
}

TEST(IocoProperty, CheckerAgreesWithNaiveDefinitionAndTestGraph) {
  Rng rng(2024);
  int nonconforming = 0, rejected_deep = 0;
  for (int iter = 0; iter < 1500; ++iter) {
    const std::uint32_t ns = 1 + static_cast<std::uint32_t>(rng.below(4));
    const std::uint32_t ni = 1 + static_cast<std::uint32_t>(rng.below(4));
    const Lts spec = ioco_test::random_lts(rng, ns, 1 + static_cast<std::uint32_t>(rng.below(3 * ns)), false);
    const Lts impl = ioco_test::random_lts(rng, ni, 1 + static_cast<std::uint32_t>(rng.below(3 * ni)), rng.below(2) == 0);
    const IocoResult r = check_ioco(impl, spec);
    const S naive = naive_counterexample(impl, spec, 8);
    SCOPED_TRACE(write_aut(spec) + "---\n" + write_aut(impl));
    // The test graph rejects exactly the non-conforming implementations.
    EXPECT_EQ(graph_rejects(build_ioco_graph(spec), impl), !r.conforms);
    if (r.conforms) {
      EXPECT_TRUE(naive.empty());
      continue;
    }
    ++nonconforming;
    // The counterexample is one by the naive definition, and a shortest one.
    ASSERT_FALSE(r.counterexample.empty());
    S sigma(r.counterexample.begin(), r.counterexample.end() - 1);
    Naive nI{impl}, nS{spec};
    const auto qi = nI.after_trace(sigma), qs = nS.after_trace(sigma);
    EXPECT_NE(qi, 0u);
    EXPECT_NE(qs, 0u);
    EXPECT_NE(nI.after(qi, r.counterexample.back()), 0u);
    EXPECT_EQ(nS.after(qs, r.counterexample.back()), 0u);
    if (naive.empty()) ++rejected_deep;
    else EXPECT_EQ(r.counterexample.size(), naive.size());
  }
  EXPECT_GT(nonconforming, 300);  // the generator exercises both answers
  EXPECT_LT(rejected_deep, 20);
}

TEST(IocoGraphMapping, CandyMachineStructure) {
  const IocoGraph ig = build_ioco_graph(example("candy_spec.aut"));
  const TestGraph& g = ig.graph;
  // 7 sets, each with the input but: 7 active + 7 passive vertices.
  EXPECT_EQ(g.num_vertices(), 14u);
  EXPECT_EQ(g.num_passive(), 7u);
  // Per set: but + observe + outputs: {0}:1 {1,2}:2 {3}:1 {2}:1 {4,5}:2 {5}:1 {6}:1 outputs.
  EXPECT_EQ(g.num_edges(), 7u * 2 + 9);
  EXPECT_TRUE(g.is_active(g.initial()));
  EXPECT_EQ(g.name(g.initial()), "{0}");
  for (VertexId v : g.vertices()) {
    if (g.is_active(v)) {
      EXPECT_TRUE(find_observe_edge(g, v).has_value());
      const VertexId p = g.target(*find_observe_edge(g, v));
      EXPECT_TRUE(g.is_passive(p));
      EXPECT_EQ(ig.set_of_vertex[p.index()], ig.set_of_vertex[v.index()]);
      continue;
    }
    double sum = 0;
    for (EdgeId e : g.out_edges(v)) {
      sum += g.probability(e);
      EXPECT_DOUBLE_EQ(g.probability(e), 1.0 / g.out_degree(v));  // uniform outputs
      EXPECT_EQ(g.is_timeout(e), g.label(e) == "delta");
    }
    EXPECT_NEAR(sum, 1.0, 1e-12);
  }
  // After but: the passive vertex of {1,2} offers liq and delta.
  const VertexId after_but = g.target(*find_out_edge(g, g.initial(), "but"));
  const VertexId obs = g.target(*find_observe_edge(g, after_but));
  EXPECT_TRUE(find_out_edge(g, obs, "liq").has_value());
  EXPECT_TRUE(find_out_edge(g, obs, "delta").has_value());
  EXPECT_FALSE(find_out_edge(g, obs, "choc").has_value());
}

TEST(IocoGraphMapping, OutputOnlySetsArePassiveVertices) {
  const Lts l = parse_aut("des (0, 3, 3)\n(0, \"?a\", 1)\n(1, \"!x\", 2)\n(1, \"!y\", 2)\n");
  const IocoGraph ig = build_ioco_graph(l);
  const TestGraph& g = ig.graph;
  const VertexId v1 = g.target(*find_out_edge(g, g.initial(), "a"));
  EXPECT_TRUE(g.is_passive(v1));
  EXPECT_EQ(g.out_degree(v1), 2u);
  EXPECT_THROW(build_ioco_graph(parse_aut("des (0, 1, 2)\n(0, \"?observe\", 1)\n")), ModelError);
}
