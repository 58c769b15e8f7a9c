// playtest transform FILE --reachable|--merge|--compress -o OUT: the graph transforms of seed 001
// §2.3, §2.4 and the appendix (include/playtest/graph/transforms.hpp). Several may be given; they run
// in the fixed order reachable, merge, compress.
#include "command.hpp"
#include "common.hpp"
#include "option_checks.hpp"
#include "playtest/graph/transform_pipeline.hpp"
#include "playtest/io/graph_json.hpp"

namespace playtest::cli {
namespace {

struct Options {
  InputOptions input;
  TransformSteps steps;
  std::string trap_policy = "keep", out = "-";
  bool json = false;
};

int run(Options o) {
  if (!o.steps.reachable && !o.steps.merge && !o.steps.compress)
    throw UsageError("", "give at least one of --reachable, --merge, --compress");
  if (o.json && o.out == "-")
    throw UsageError("output", "--json prints a summary on standard output; write the graph to a file with -o");
  if (o.trap_policy != "keep" && o.trap_policy != "fail")  // the deprecated --traps skips the option's check
    throw UsageError("trap_vertices", "must be keep or fail, got '" + o.trap_policy + "'");
  o.steps.on_trap = o.trap_policy == "fail" ? TrapPolicy::fail : TrapPolicy::keep;
  const TransformPipeline p = apply_transforms(load_test_graph(o.input), o.steps);
  Output out(o.out);
  write_graph(p.graph, out.stream());
  out.close();
  if (o.json) {
    nlohmann::json j = transform_json(p);
    j["input"] = o.input.path;
    j["output"] = o.out;
    print_json(j);
  } else if (o.out != "-") {
    write_transform_text(std::cout, p);
  }
  return exit_code(Outcome::done);
}

const Registration reg{
    "transform", 45, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* sub =
          app.add_subcommand("transform", "Merge parallel edges, compress passive vertices, drop unreachable parts");
      add_input_options(sub, o->input);
      sub->add_flag("--reachable", o->steps.reachable, "Keep only the part reachable from the initial vertex");
      sub->add_flag("--merge", o->steps.merge,
                    "Merge parallel edges (seed 001 §2.3): cheapest active edge; passive: summed probability, "
                    "probability-weighted mean cost");
      sub->add_flag("--compress", o->steps.compress,
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
      sub->footer(
          "Several transforms may be given; they run in the order --reachable, --merge, --compress.\n"
          "Compression preserves expected costs and reachability probabilities, not step counts or\n"
          "worst-case costs; merging preserves expected costs and probabilities (see docs/transforms.md).");
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
