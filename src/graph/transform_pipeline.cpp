#include "playtest/graph/transform_pipeline.hpp"

#include <fmt/format.h>

#include <ostream>

#include "playtest/base/error.hpp"

namespace playtest {
namespace {

TransformStep record(std::string name, const TestGraph& before, const TestGraph& after) {
  return {std::move(name), before.num_vertices(), after.num_vertices(), before.num_edges(), after.num_edges()};
}

}  // namespace

TransformPipeline apply_transforms(TestGraph g, const TransformSteps& steps) {
  if (!steps.reachable && !steps.merge && !steps.compress)
    throw UsageError("transforms", "give at least one transform (reachable, merge, compress)");
  TransformPipeline p;
  if (steps.reachable) {
    TransformResult r = restrict_to_reachable(g);
    p.steps.push_back(record("reachable", g, r.graph));
    g = std::move(r.graph);
  }
  if (steps.merge) {
    TransformResult r = merge_parallel_edges(g);
    p.steps.push_back(record("merge", g, r.graph));
    g = std::move(r.graph);
  }
  if (steps.compress) {
    CompressResult r = compress_passive(g, {.on_trap = steps.on_trap});
    TransformStep s = record("compress", g, r.graph);
    s.eliminated = r.eliminated;
    s.uncompressed_passive = r.uncompressed_passive;
    for (VertexId v : r.trap_vertices) s.trap_vertices.emplace_back(g.name(v));
    p.steps.push_back(std::move(s));
    g = std::move(r.graph);
  }
  p.graph = std::move(g);
  return p;
}

void write_transform_text(std::ostream& out, const TransformPipeline& p) {
  for (const TransformStep& s : p.steps) {
    out << fmt::format("{}: {} -> {} vertices, {} -> {} edges", s.name, s.vertices_before, s.vertices_after,
                       s.edges_before, s.edges_after);
    if (!s.trap_vertices.empty())
      out << fmt::format(" ({} trap vertices; {} passive vertices that can reach a trap left uncompressed)",
                         s.trap_vertices.size(), s.uncompressed_passive);
    out << '\n';
  }
}

nlohmann::json transform_json(const TransformPipeline& p) {
  nlohmann::json steps = nlohmann::json::array();
  for (const TransformStep& s : p.steps) {
    nlohmann::json j = {{"transform", s.name},
                        {"vertices_before", s.vertices_before},
                        {"vertices_after", s.vertices_after},
                        {"edges_before", s.edges_before},
                        {"edges_after", s.edges_after}};
    if (s.name == "compress") {
      j["eliminated"] = s.eliminated;
      j["uncompressed_passive"] = s.uncompressed_passive;
      j["trap_vertices"] = s.trap_vertices;
    }
    steps.push_back(std::move(j));
  }
  return {{"steps", std::move(steps)}};
}

}  // namespace playtest
