// playtest explore MODEL: explore a model program (docs/language.md) into a test graph and print
// its counts; write the graph as graph/1 JSON (-o) or DOT (--dot).
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "command.hpp"
#include "option_checks.hpp"
#include "common.hpp"
#include "progress.hpp"
#include "playtest/error.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/io/dot.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/lang/model_program.hpp"

namespace playtest::cli {
namespace {

struct Options {
  std::string path;
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
  auto model = load_model(o.path, params);
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
  const double per_state = r.states ? static_cast<double>(r.store_bytes) / r.states : 0.0;
  if (o.json) {
    nlohmann::json j;
    j["model"] = model->name();
    j["file"] = o.path;
    j["status"] = to_string(r.status);
    if (!r.message.empty()) j["message"] = r.message;
    j["vertices"] = g.num_vertices();
    j["active"] = g.num_vertices() - g.num_passive();
    j["passive"] = g.num_passive();
    j["edges"] = g.num_edges();
    j["goals"] = g.num_goals();
    j["states"] = r.states;
    j["frontier"] = r.frontier;
    j["depth"] = r.depth;
    j["seconds"] = r.seconds;
    j["state_bytes"] = model->state_size();
    j["store_bytes"] = r.store_bytes;
    j["store_bytes_per_state"] = per_state;
    j["resettable"] = g.is_resettable();
    nlohmann::json traps = nlohmann::json::array();
    for (std::size_t t = 0; t < r.trap_names.size(); ++t) {
      nlohmann::json edges = nlohmann::json::array();
      for (EdgeId e : r.trap_edges[t]) edges.push_back(std::string(g.name(e)));
      traps.push_back({{"name", r.trap_names[t]}, {"edges", edges}});
    }
    j["traps"] = traps;
    fmt::print("{}\n", j.dump(2));
  } else if (o.out != "-" && o.dot != "-") {
    fmt::print("model {}: {} vertices ({} active, {} passive), {} edges, {} goal{}\n", model->name(), g.num_vertices(),
               g.num_vertices() - g.num_passive(), g.num_passive(), g.num_edges(), g.num_goals(),
               g.num_goals() == 1 ? "" : "s");
    fmt::print("{} states, depth {}, {:.3f} s; state {} bytes, store {} bytes ({:.1f} bytes/state)\n", r.states, r.depth,
               r.seconds, model->state_size(), r.store_bytes, per_state);
    for (std::size_t t = 0; t < r.trap_names.size(); ++t)
      fmt::print("trap {}: {} edge{}\n", r.trap_names[t], r.trap_edges[t].size(), r.trap_edges[t].size() == 1 ? "" : "s");
  }
  if (r.status != ExploreStatus::complete) fmt::print(stderr, "playtest: warning: {}\n", r.message);
  return exit_ok;
}

const Registration reg{"explore", 15, [](CLI::App& app) -> std::function<int()> {
  auto opts = std::make_shared<Options>();
  auto* sub = app.add_subcommand("explore", "Explore a model program (.ptm) into a test graph");
  sub->add_option("MODEL", opts->path, "Model program (docs/language.md); - reads standard input")->required();
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
