// A test graph as a GraphWalker model (docs/graphwalker.md "Export"): what GraphWalker Studio and
// AltWalker's model visualiser open. Names become method names (letters, digits, '_'); the test
// graph's own names, labels, costs, probabilities and vertex kinds stay in each element's
// "properties".
#include <fmt/format.h>

#include <cctype>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "playtest/io/graphwalker.hpp"

namespace playtest {
namespace {

// `prefix` followed by `text` with every character but letters, digits and '_' made '_'.
std::string method_name(std::string_view prefix, std::string_view text) {
  std::string out(prefix);
  for (char c : text) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  return out;
}

// Makes `name` unique among `used` by appending _2, _3, ...
std::string unique(std::string name, std::unordered_map<std::string, int>& used) {
  const int n = ++used[name];
  if (n == 1) return name;
  std::string candidate;
  int k = n;
  do candidate = fmt::format("{}_{}", name, k++);
  while (used.count(candidate));
  used[candidate] = 1;
  return candidate;
}

}  // namespace

std::string graphwalker_json(const TestGraph& g, const std::string& model_name) {
  using nlohmann::json;
  json vertices = json::array(), edges = json::array();
  std::unordered_map<std::string, int> used;
  for (VertexId v : g.vertices()) {
    json props = {{"playtest_name", std::string(g.name(v))}};
    if (g.is_passive(v)) props["passive"] = true;
    if (g.is_goal(v)) props["goal"] = true;
    vertices.push_back({{"id", fmt::format("v{}", v.index())},
                        {"name", unique(method_name("v_", g.name(v)), used)},
                        {"properties", props}});
  }
  for (EdgeId e : g.edges()) {
    const std::string label(g.label(e));
    json props = {{"label", label}, {"cost", g.cost(e)}};
    json edge = {{"id", fmt::format("e{}", e.index())},
                 {"name", unique(method_name("e_", label.starts_with('?') ? label.substr(1) : label), used)},
                 {"sourceVertexId", fmt::format("v{}", g.source(e).index())},
                 {"targetVertexId", fmt::format("v{}", g.target(e).index())}};
    if (g.is_passive(g.source(e))) {
      edge["weight"] = g.probability(e);
      props["output"] = true;
    }
    edge["properties"] = props;
    edges.push_back(std::move(edge));
  }
  json model = {{"name", model_name},
                {"id", model_name},
                {"generator", "random(edge_coverage(100))"},
                {"startElementId", fmt::format("v{}", g.initial().index())},
                {"vertices", std::move(vertices)},
                {"edges", std::move(edges)}};
  json doc = {{"name", model_name}, {"models", json::array({std::move(model)})}};
  return doc.dump(2) + "\n";
}

}  // namespace playtest
