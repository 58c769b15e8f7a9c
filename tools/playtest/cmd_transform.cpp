// playtest transform FILE --reachable|--merge|--compress -o OUT: the graph transforms of seed 001
// §2.3, §2.4 and the appendix (include/playtest/graph/transforms.hpp). Several may be given; they run
// in the fixed order reachable, merge, compress.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "command.hpp"
#include "option_checks.hpp"
#include "common.hpp"
#include "playtest/error.hpp"
#include "playtest/graph/transforms.hpp"
#include "playtest/io/graph_json.hpp"

namespace playtest::cli {
namespace {

struct Options {
  InputOptions input;
  bool reachable = false, merge = false, compress = false, json = false;
  std::string trap_policy = "keep";
  std::string out = "-";
};

int run(const Options& o) {
  if (o.trap_policy != "keep" && o.trap_policy != "fail")
    throw UsageError("trap_vertices", "must be keep or fail, got '" + o.trap_policy + "'");
  if (!o.reachable && !o.merge && !o.compress)
    throw Error("transform: give at least one of --reachable, --merge, --compress");
  if (o.json && o.out == "-")
    throw Error("transform: --json prints a summary on standard output; write the graph to a file with -o");
  TestGraph g = load_input(o.input);
  nlohmann::json steps = nlohmann::json::array();
  auto record = [&](const char* name, const TestGraph& before, const TestGraph& after) {
    nlohmann::json s;
    s["transform"] = name;
    s["vertices_before"] = before.num_vertices();
    s["vertices_after"] = after.num_vertices();
    s["edges_before"] = before.num_edges();
    s["edges_after"] = after.num_edges();
    return s;
  };
  if (o.reachable) {
    TransformResult r = restrict_to_reachable(g);
    steps.push_back(record("reachable", g, r.graph));
    g = std::move(r.graph);
  }
  if (o.merge) {
    TransformResult r = merge_parallel_edges(g);
    steps.push_back(record("merge", g, r.graph));
    g = std::move(r.graph);
  }
  if (o.compress) {
    CompressResult r = compress_passive(
        g, {.on_trap = o.trap_policy == "fail" ? TrapPolicy::fail : TrapPolicy::keep});
    nlohmann::json s = record("compress", g, r.graph);
    s["eliminated"] = r.eliminated;
    s["uncompressed_passive"] = r.uncompressed_passive;
    nlohmann::json traps = nlohmann::json::array();
    for (VertexId v : r.trap_vertices) traps.push_back(std::string(g.name(v)));
    s["trap_vertices"] = traps;
    steps.push_back(std::move(s));
    g = std::move(r.graph);
  }
  Output out(o.out);
  write_graph(g, out.stream());
  out.close();
  if (o.json) {
    nlohmann::json j;
    j["input"] = o.input.path;
    j["output"] = o.out;
    j["steps"] = steps;
    fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  } else if (o.out != "-") {
    for (const auto& s : steps) {
      fmt::print("{}: {} -> {} vertices, {} -> {} edges", s["transform"].get<std::string>(),
                 s["vertices_before"].get<std::uint32_t>(), s["vertices_after"].get<std::uint32_t>(),
                 s["edges_before"].get<std::uint32_t>(), s["edges_after"].get<std::uint32_t>());
      if (s.contains("trap_vertices") && !s["trap_vertices"].empty())
        fmt::print(" ({} trap vertices; {} passive vertices that can reach a trap left uncompressed)",
                   s["trap_vertices"].size(), s["uncompressed_passive"].get<std::uint32_t>());
      fmt::print("\n");
    }
  }
  return exit_ok;
}

const Registration reg{"transform", 45, [](CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* sub = app.add_subcommand("transform", "Merge parallel edges, compress passive vertices, drop unreachable parts");
  add_input_options(sub, o->input);
  sub->add_flag("--reachable", o->reachable, "Keep only the part reachable from the initial vertex");
  sub->add_flag("--merge", o->merge,
                "Merge parallel edges (seed 001 §2.3): cheapest active edge; passive: summed probability, "
                "probability-weighted mean cost");
  sub->add_flag("--compress", o->compress,
                "Eliminate passive vertices (seed 001 §2.4): no edge joins two compressed passive vertices");
  sub->add_option("--trap-vertices", o->trap_policy,
                  "With --compress, what to do with traps (passive vertices play never leaves): keep leaves the "
                  "passive vertices that can reach one uncompressed, fail is an error")
      ->check(CLI::IsMember({"keep", "fail"}))
      ->default_val("keep");
  // --traps names purpose edges in plan, run and simulate; here it was the trap-vertex policy.
  add_deprecated_alias(sub, "--traps", "--trap-vertices", o->trap_policy);
  sub->add_option("-o,--output", o->out, "Output graph/1 file (- for standard output)")->default_val("-");
  sub->add_flag("--json", o->json, "Print a JSON summary of each step (needs -o FILE)");
  sub->footer("Several transforms may be given; they run in the order --reachable, --merge, --compress.\n"
              "Compression preserves expected costs and reachability probabilities, not step counts or\n"
              "worst-case costs; merging preserves expected costs and probabilities (see docs/transforms.md).");
  return [o] { return run(*o); };
}};

}  // namespace
}  // namespace playtest::cli
