#include "playtest/graph/graph_digest.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstdint>
#include <string_view>

namespace playtest {

namespace {

class Fnv1a {
 public:
  void bytes(std::string_view s) {
    word(s.size());  // length first: "ab"+"c" and "a"+"bc" differ
    for (unsigned char c : s) byte(c);
  }
  void word(std::uint64_t x) {
    for (int i = 0; i < 8; ++i) byte(static_cast<unsigned char>(x >> (8 * i)));
  }
  void number(double x) { word(std::bit_cast<std::uint64_t>(x == 0 ? 0.0 : x)); }  // -0 as 0
  std::uint64_t value() const { return h_; }

 private:
  void byte(unsigned char c) {
    h_ ^= c;
    h_ *= 0x100000001b3ull;
  }
  std::uint64_t h_ = 0xcbf29ce484222325ull;
};

}  // namespace

std::string graph_digest(const TestGraph& g) {
  Fnv1a h;
  h.bytes("playtest graph digest 1");
  h.word(g.num_vertices());
  for (VertexId v : g.vertices()) {
    h.bytes(g.name(v));
    h.word((g.is_passive(v) ? 1u : 0u) | (g.is_goal(v) ? 2u : 0u));
  }
  h.word(g.num_vertices() ? g.initial().value : 0);
  h.word(g.is_resettable() ? 1 : 0);
  h.number(g.reset_cost().value_or(0));
  h.word(g.num_edges());
  for (EdgeId e : g.edges()) {
    h.word(g.source(e).value);
    h.word(g.target(e).value);
    h.bytes(g.label(e));
    h.bytes(g.name(e));
    h.number(g.cost(e));
    h.number(g.probability(e));
    h.word((g.is_timeout(e) ? 1u : 0u) | (g.is_observe(e) ? 2u : 0u));
  }
  return fmt::format("{:016x}", h.value());
}

}  // namespace playtest
