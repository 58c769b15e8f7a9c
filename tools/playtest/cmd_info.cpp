// playtest info FILE: what a test graph contains and where it is weak (unreachable parts, vertices
// that cannot reach a goal, dead ends, strongly connected components).
#include "command.hpp"
#include "common.hpp"
#include "param_effects.hpp"
#include "playtest/diagnose/analyze.hpp"
#include "playtest/graph/graph_summary.hpp"
#include "playtest/lang/model_program.hpp"

namespace playtest::cli {
namespace {

struct Options {
  InputOptions input;
  bool json = false;
  std::uint32_t limit = 10;
};

int run(const Options& o) {
  const TestGraph g = load_test_graph(o.input);
  const GraphSummary s = summarize(g);
  // What validate warns about (a goal at the start, goals out of reach): said here too.
  const std::vector<std::string> warnings = model_warnings(g, false);
  // A model program: which parameters multiply the state space.
  std::vector<ParamEffect> effects;
  std::optional<std::string> text;  // (standard input: read once, kept for the loads below)
  const bool program = input_format(o.input, text) == InputFormat::model;
  if (program) {
    const std::vector<ModelParam> given = model_params(o.input);
    effects = param_effects(o.input.path, given, load_model(o.input.path, given)->parameters(), g.num_vertices());
  }
  if (o.json) {
    nlohmann::json j = summary_json(g, s, o.limit);
    j["file"] = o.input.path;
    j["warnings"] = warnings;
    if (program) j["parameter_effects"] = to_json(effects);
    print_json(j);
  } else {
    std::cout << "file:        " << o.input.path << '\n';
    write_summary_text(std::cout, g, s, o.limit);
    for (const ParamEffect& e : effects) std::cout << "state space: " << describe(e) << '\n';
    for (const std::string& w : warnings) std::cout << "warning:     " << w << '\n';
  }
  return exit_code(Outcome::done);
}

const Registration reg{
    "info", 20, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* sub = app.add_subcommand("info", "Describe a test graph: counts, components, reachability, goals");
      add_input_options(sub, o->input);
      sub->add_flag("--json", o->json, "Print the description as JSON");
      sub->add_option("--limit", o->limit, "How many vertex ids to list per finding")->default_val(10);
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
