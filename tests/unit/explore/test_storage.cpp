// The storage the explorer's speed rests on: the state store with keys kept inside its slots (at
// most 4 bytes) and outside, across many index growths; the graph builder's unique vertex names
// (indexed once at build, duplicates still reported); the explorer's generated names.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/explore/cpp_model.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/explore/state_store.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/random.hpp"

using namespace playtest;

TEST(StateStoreStorage, ManyKeysOfEverySizeAcrossGrowths) {
  Rng rng(11);
  for (std::size_t size : {1u, 2u, 3u, 4u, 5u, 8u}) {
    StateStore store(size);
    std::map<std::string, std::uint32_t> ref;
    // Full byte range, most keys new: the index grows from 16 slots past 2^15.
    const std::uint64_t span = size == 1 ? 256 : 40000;
    for (int i = 0; i < 30000; ++i) {
      std::vector<std::byte> k(size);
      std::uint64_t v = rng.below(span) * 2654435761u;
      for (auto& b : k) {
        b = static_cast<std::byte>(v & 0xff);
        v >>= 8;
      }
      const auto [id, added] = store.insert(k);
      const std::string ks(reinterpret_cast<const char*>(k.data()), k.size());
      const auto [it, is_new] = ref.emplace(ks, static_cast<std::uint32_t>(ref.size()));
      ASSERT_EQ(added, is_new) << "size " << size << " insert " << i;
      ASSERT_EQ(id, it->second);
    }
    ASSERT_EQ(store.size(), ref.size());
    for (const auto& [ks, id] : ref) {
      const auto key = std::as_bytes(std::span<const char>(ks.data(), ks.size()));
      ASSERT_EQ(store.find(key), id);
      ASSERT_TRUE(std::equal(key.begin(), key.end(), store.key(id).begin()));
      store.prefetch(key);  // a hint only: must not change anything
    }
    // Keys never inserted are absent.
    int absent = 0;
    for (int i = 0; i < 2000; ++i) {
      std::vector<std::byte> k(size);
      for (auto& b : k) b = static_cast<std::byte>(rng.below(256));
      const std::string ks(reinterpret_cast<const char*>(k.data()), k.size());
      if (ref.count(ks)) continue;
      ++absent;
      ASSERT_EQ(store.find(k), UINT32_MAX);
    }
    if (size > 2) {
      EXPECT_GT(absent, 1000);
    }
  }
}

TEST(GraphBuilderUniqueNames, FoundAfterBuildAndMixWithOrdinaryVertices) {
  GraphBuilder b;
  const VertexId a = b.add_vertex("a", VertexKind::active);
  std::vector<VertexId> ids;
  for (int i = 0; i < 1000; ++i) ids.push_back(b.add_unique_vertex("u" + std::to_string(i), VertexKind::active, i == 7));
  const VertexId z = b.vertex_ref("z");
  b.add_vertex("z", VertexKind::active);
  b.set_initial(a);
  for (int i = 0; i < 1000; ++i) b.add_edge({.from = ids[static_cast<std::size_t>(i)], .to = z, .label = "x"});
  b.add_edge({.from = a, .to = ids[0], .label = "y"});
  const TestGraph g = b.build();
  ASSERT_EQ(g.num_vertices(), 1002u);
  EXPECT_EQ(g.find_vertex("a"), a);
  EXPECT_EQ(g.find_vertex("z"), z);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(g.find_vertex("u" + std::to_string(i)), ids[static_cast<std::size_t>(i)]);
    ASSERT_EQ(g.name(ids[static_cast<std::size_t>(i)]), "u" + std::to_string(i));
  }
  EXPECT_TRUE(g.is_goal(ids[7]));
  EXPECT_FALSE(g.is_goal(ids[8]));
  EXPECT_FALSE(g.find_vertex("u1000").has_value());
}

TEST(GraphBuilderUniqueNames, ADuplicateIsStillAnError) {
  for (bool ordinary_first : {false, true}) {
    GraphBuilder b;
    VertexId v;
    if (ordinary_first) {
      v = b.add_vertex("s1", VertexKind::active);
      b.add_unique_vertex("s2", VertexKind::active);
      b.add_unique_vertex("s1", VertexKind::active);
    } else {
      v = b.add_unique_vertex("s1", VertexKind::active);
      b.add_unique_vertex("s2", VertexKind::active);
      b.add_unique_vertex("s1", VertexKind::passive);
    }
    b.set_initial(v);
    try {
      b.build();
      FAIL() << "a duplicate name was accepted";
    } catch (const GraphError& e) {
      EXPECT_NE(std::string(e.what()).find("duplicate vertex id 's1'"), std::string::npos) << e.what();
    }
  }
}

namespace {
struct Pair {
  std::int32_t x = 0;
  std::int32_t y = 0;
  bool operator==(const Pair&) const = default;
};
}  // namespace

TEST(ExplorerNames, NumberedNamesAreBreadthFirstAndFindable) {
  // A 40 x 40 grid: names up to s1600, more than one digit of every length.
  CppModel<Pair> m{Pair{}, "Grid"};
  m.controllable("IncX", [](const Pair& s) { return s.x < 39; }, [](Pair& s) { ++s.x; });
  m.controllable("IncY", [](const Pair& s) { return s.y < 39; }, [](Pair& s) { ++s.y; });
  const ExploreResult r = explore(m, {.naming = VertexNaming::numbered});
  ASSERT_EQ(r.graph.num_vertices(), 1600u);
  for (std::uint32_t v = 0; v < 1600; ++v) {
    const std::string name = "s" + std::to_string(v + 1);
    ASSERT_EQ(r.graph.name(VertexId{v}), name);
    ASSERT_EQ(r.graph.find_vertex(name), VertexId{v});
  }
  // Labels: two distinct texts shared by 2 * 40 * 39 edges.
  EXPECT_EQ(r.graph.num_edges(), 2u * 40 * 39);
  EXPECT_EQ(r.graph.num_labels(), 2u);
}
