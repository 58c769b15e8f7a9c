#include "common.hpp"

#include <algorithm>

#include "playtest/error.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/io/prism_import.hpp"
#include "playtest/ioco/ioco_graph.hpp"
#include "playtest/ioco/lts_io.hpp"
#include "playtest/run/policy_factory.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/lang/model_program.hpp"

namespace playtest::cli {

void add_input_options(CLI::App* sub, InputOptions& opts) {
  sub->add_option("FILE", opts.path, "Test graph (graph/1 JSON); - reads standard input")->required();
  // ioco models (docs/ioco.md): .aut and lts/1 JSON become test graphs; these tell inputs from outputs.
  sub->add_option("--inputs", opts.inputs, "LTS models: labels that are inputs (comma-separated)")->delimiter(',');
  sub->add_option("--outputs", opts.outputs, "LTS models: labels that are outputs (comma-separated)")->delimiter(',');
  // Model programs (.ptm, docs/language.md) are explored into a test graph.
  sub->add_option("--param", opts.params, "Model programs (.ptm): set a model parameter, NAME=VALUE (repeatable)");
  // PRISM explicit exports (.tra, docs/formats.md).
  sub->add_option("--reward", opts.reward,
                  "PRISM .tra: the reward structure to read as costs, by number (BASE<N>.srew/.trew) or by name; "
                  "required when the export has several");
  sub->add_option("--goal-label", opts.goal_label, "PRISM .tra: the label of the goal states (default: goal)");
}

bool is_model_program(const std::string& path) {
  const std::string_view ext = model_file_extension;
  return path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
}

std::vector<ModelParam> model_params(const InputOptions& opts) {
  std::vector<ModelParam> out;
  for (const auto& p : opts.params) out.push_back(parse_model_param(p));
  return out;
}

bool is_lts_file(const std::string& path) {
  auto ends_with = [&](std::string_view suffix) {
    return path.size() >= suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".aut")) return true;
  if (path == "-" || !ends_with(".json")) return false;
  std::ifstream in(path, std::ios::binary);
  char head[4096];
  in.read(head, sizeof head);
  return ioco::looks_like_lts_json(std::string_view(head, static_cast<std::size_t>(in.gcount())));
}

TestGraph load_input(const InputOptions& opts) {
  if (is_model_program(opts.path)) {
    auto model = load_model(opts.path, model_params(opts));
    ExploreResult r = explore(*model);
    if (r.status != ExploreStatus::complete) throw ModelError(Diagnostic{{opts.path, 0, 0, ""}, r.message, {}});
    return std::move(r.graph);
  }
  // A PRISM explicit MDP (docs/formats.md): BASE.tra names BASE.lab and BASE.trew too.
  if (opts.path.size() > 4 && opts.path.compare(opts.path.size() - 4, 4, ".tra") == 0) {
    PrismImportOptions prism;
    prism.reward = opts.reward;
    if (!opts.goal_label.empty()) prism.goal_label = opts.goal_label;
    return load_prism(opts.path.substr(0, opts.path.size() - 4), prism);
  }
  if (!opts.reward.empty()) throw UsageError("reward", "applies to PRISM explicit models (FILE ending in .tra) only");
  if (!opts.goal_label.empty())
    throw UsageError("goal_label", "applies to PRISM explicit models (FILE ending in .tra) only");
  if (is_lts_file(opts.path)) {
    const ioco::Lts lts = ioco::load_lts(opts.path, {.inputs = opts.inputs, .outputs = opts.outputs});
    return ioco::build_ioco_graph(lts).graph;
  }
  return load_graph(opts.path);
}

Output::Output(const std::string& path) : path_(path) {
  if (path != "-") {
    file_ = std::make_unique<std::ofstream>(path, std::ios::binary);
    if (!*file_) throw Error(Diagnostic{{path, 0, 0, ""}, "cannot open for writing", {}});
  }
}

void Output::close() {
  stream().flush();
  if (!stream()) throw Error(Diagnostic{{path_, 0, 0, ""}, "write error", {}});
  if (file_) file_->close();
}

std::string strategy_list() { return strategy_names_list(); }

namespace {
std::vector<std::string>& recorded_command_line() {
  static std::vector<std::string> args;
  return args;
}
}  // namespace

void set_command_line(int argc, char** argv) { recorded_command_line().assign(argv, argv + argc); }

std::string shell_quote(const std::string& s) {
  const bool plain = !s.empty() && s.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                       "0123456789_@%+=:,./-") == std::string::npos;
  if (plain) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string replay_command(const std::vector<std::string>& drop, const std::vector<std::string>& drop_flags,
                           const std::vector<std::string>& append) {
  const std::vector<std::string>& args = recorded_command_line();
  std::string out;
  auto add = [&](const std::string& a) { out += (out.empty() ? "" : " ") + shell_quote(a); };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const std::string name = a.substr(0, a.find('='));
    if (i > 0 && std::find(drop.begin(), drop.end(), name) != drop.end()) {
      if (name == a) ++i;  // "--seed 5": the value is the next word
      continue;
    }
    if (i > 0 && std::find(drop_flags.begin(), drop_flags.end(), a) != drop_flags.end()) continue;
    add(a);
  }
  for (const std::string& a : append) add(a);
  return out;
}

}  // namespace playtest::cli
