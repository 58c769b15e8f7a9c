// playtest explore MODEL: explore a model program (docs/language.md) into a test graph and print
// its counts; write the graph as graph/1 JSON (-o) or DOT (--dot).
#include <fmt/format.h>

#include "command.hpp"
#include "common.hpp"
#include "option_checks.hpp"
#include "param_effects.hpp"
#include "playtest/base/error.hpp"
#include "playtest/base/source_text.hpp"
#include "playtest/explore/explore_report.hpp"
#include "playtest/input/load.hpp"
#include "playtest/io/dot.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/lang/graphwalker_model.hpp"
#include "playtest/lang/model_program.hpp"
#include "progress.hpp"

namespace playtest::cli {
namespace {

struct Options {
  std::string path;
  std::vector<std::string> more_paths;  // GraphWalker: more files of the model
  std::vector<std::string> files;       // MODEL as given
  std::vector<std::string> params;
  std::uint64_t max_states = 10'000'000;
  std::uint32_t max_depth = std::numeric_limits<std::uint32_t>::max();
  double seconds = 0;
  std::string out, dot, names = "state";
  bool json = false;
};

int run(const Options& o) {
  std::vector<ModelParam> params;
  for (const auto& p : o.params) params.push_back(parse_model_param(p));
  // A GraphWalker model (docs/graphwalker.md) is compiled into a model program and explored as one.
  // Several files are one GraphWalker model (docs/graphwalker.md "Several files").
  const std::shared_ptr<const Model> model =
      is_graphwalker_file(o.path) || !o.more_paths.empty()
          ? compile_graphwalker(read_graphwalker_document(LoadOptions{.path = o.path, .more_paths = o.more_paths}))
                .model
          : std::shared_ptr<const Model>(load_model(o.path, params));
  ProgressLine progress("explore", "states expanded");
  ExploreResult r = explore(*model, {.max_states = o.max_states,
                                     .max_depth = o.max_depth,
                                     .max_seconds = o.seconds,
                                     .naming = o.names == "numbered" ? VertexNaming::numbered : VertexNaming::state,
                                     .on_progress = [&](std::uint64_t done, std::uint64_t) { progress.update(done); }});
  progress.finish();
  const TestGraph& g = r.graph;
  if (!o.out.empty()) {
    Output out(o.out);
    write_graph(g, out.stream());
    out.close();
  }
  if (!o.dot.empty()) {
    Output out(o.dot);
    write_dot(g, out.stream(), {.title = model->name()});
    out.close();
  }
  const ExploreReportInfo info{model->name(), static_cast<std::uint32_t>(model->state_size())};
  // Which parameters multiply the state space (a neighbouring value explored, bounded).
  const std::vector<ParamEffect> effects =
      r.status == ExploreStatus::complete && (o.json || (o.out != "-" && o.dot != "-"))
          ? param_effects(o.path, params, model->parameters(), g.num_vertices())
          : std::vector<ParamEffect>{};
  if (o.json) {
    nlohmann::json j = explore_json(r, info);
    j["file"] = o.path;
    j["parameter_effects"] = to_json(effects);
    std::cout << j.dump(2) << '\n';
  } else if (o.out != "-" && o.dot != "-") {
    write_explore_text(std::cout, r, info);
    for (const ParamEffect& e : effects) std::cout << "state space: " << describe(e) << '\n';
  }
  if (r.status != ExploreStatus::complete) fmt::print(stderr, "playtest: warning: {}\n", r.message);
  return exit_code(Outcome::done);
}

const Registration reg{
    "explore", 15, [](CLI::App& app) -> std::function<int()> {
      auto opts = std::make_shared<Options>();
      auto* sub =
          app.add_subcommand("explore", "Explore a model program (.ptm) or a GraphWalker model into a test graph");
      sub->add_option("MODEL", opts->files,
                      "Model program (docs/language.md) or GraphWalker model (several files: one model); - reads "
                      "standard input")
          ->required()
          ->each([o = opts.get()](const std::string& file) {
            if (o->path.empty())
              o->path = file;
            else
              o->more_paths.push_back(file);
          });
      sub->add_option("--param", opts->params, "Set a model parameter, NAME=VALUE (repeatable)");
      sub->add_option("--max-states", opts->max_states, "Stop after this many vertices (default 10000000)");
      sub->add_option("--max-depth", opts->max_depth, "Do not expand vertices this many steps from the initial state");
      sub->add_option("--time", opts->seconds, "Stop after this many seconds")->check(non_negative_finite());
      sub->add_option("-o,--output", opts->out, "Write the test graph as graph/1 JSON (- for standard output)");
      sub->add_option("--dot", opts->dot, "Write the test graph as Graphviz DOT (- for standard output)");
      sub->add_option("--names", opts->names, "Vertex names: state (the variables' values) or numbered (s1, s2, s2')")
          ->check(CLI::IsMember({"state", "numbered"}));
      sub->add_flag("--json", opts->json, "Print the counts as JSON");
      return [opts] { return run(*opts); };
    }};

}  // namespace
}  // namespace playtest::cli
