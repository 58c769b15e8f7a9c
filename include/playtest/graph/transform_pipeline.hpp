// `playtest transform`: several of the transforms of graph/transforms.hpp in their fixed order
// (reachable part, merge parallel edges, compress passive vertices), with what each step did. One
// typed result, one text and one JSON rendering.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "playtest/graph/transforms.hpp"

namespace playtest {

struct TransformSteps {
  bool reachable = false, merge = false, compress = false;
  TrapPolicy on_trap = TrapPolicy::keep;  // compress
};

struct TransformStep {
  std::string name;  // "reachable", "merge", "compress"
  std::uint32_t vertices_before = 0, vertices_after = 0, edges_before = 0, edges_after = 0;
  // compress only:
  std::uint32_t eliminated = 0, uncompressed_passive = 0;
  std::vector<std::string> trap_vertices;  // ids in the graph before the step
};

struct TransformPipeline {
  TestGraph graph;
  std::vector<TransformStep> steps;
};

// Throws UsageError("transforms") when no step is asked for.
TransformPipeline apply_transforms(TestGraph g, const TransformSteps& steps);

// One line per step ("compress: 12 -> 7 vertices, 20 -> 14 edges (...)").
void write_transform_text(std::ostream& out, const TransformPipeline& p);
nlohmann::json transform_json(const TransformPipeline& p);

}  // namespace playtest
