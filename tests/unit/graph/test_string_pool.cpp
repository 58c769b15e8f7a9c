#include <gtest/gtest.h>

#include <string>
#include <unordered_map>

#include "playtest/graph/random.hpp"
#include "playtest/graph/string_pool.hpp"

using namespace playtest;

TEST(StringPool, InternFindAndAppendAgreeWithAMap) {
  StringPool pool;
  std::unordered_map<std::string, std::uint32_t> ref;
  Rng rng(5);
  for (int i = 0; i < 20000; ++i) {
    // Short, 7-byte, 8-byte and long strings, with embedded NULs and shared prefixes.
    std::string s = "k" + std::to_string(rng.below(5000));
    if (i % 7 == 0) s += std::string(1 + rng.below(12), 'x');
    if (i % 11 == 0) s += std::string(1, '\0');
    std::uint32_t id = pool.intern(s);
    auto [it, fresh] = ref.emplace(s, id);
    EXPECT_EQ(it->second, id) << s;
    EXPECT_EQ(pool.view(id), s);
  }
  EXPECT_EQ(pool.size(), ref.size());
  for (auto& [s, id] : ref) EXPECT_EQ(pool.find(s), id);
  EXPECT_FALSE(pool.find("absent").has_value());
  // Appended strings are not indexed until index_all().
  std::uint32_t a = pool.append("appended-only");
  EXPECT_EQ(pool.view(a), "appended-only");
  EXPECT_FALSE(pool.find("appended-only").has_value());
  EXPECT_EQ(pool.intern("another"), a + 1);
  pool.index_all();
  EXPECT_EQ(pool.find("appended-only"), a);
  EXPECT_EQ(pool.find("another"), a + 1);
}

TEST(StringPool, EmptyStringAndLengthsAreDistinguished) {
  StringPool pool;
  auto e = pool.intern("");
  auto a = pool.intern("a");
  auto a0 = pool.intern(std::string("a\0", 2));
  auto s7 = pool.intern("abcdefg"), s8 = pool.intern("abcdefgh"), s9 = pool.intern("abcdefgi");
  EXPECT_NE(e, a);
  EXPECT_NE(a, a0);
  EXPECT_NE(s8, s9);
  EXPECT_NE(s7, s8);
  EXPECT_EQ(pool.find(""), e);
  EXPECT_EQ(pool.find("abcdefgh"), s8);
  EXPECT_EQ(pool.find("abcdefgi"), s9);
}
