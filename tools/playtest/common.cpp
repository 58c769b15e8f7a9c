#include "common.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <optional>

#include "command.hpp"
#include "option_checks.hpp"
#include "playtest/base/error.hpp"

namespace playtest::cli {

void add_input_options(CLI::App* sub, InputOptions& opts) {
  // FILE...: several files are one GraphWalker model (docs/graphwalker.md "Several files").
  sub->add_option("FILE", opts.files,
                  "The model: graph/1 JSON, a model program (.ptm), .aut or lts/1 JSON, a PRISM explicit .tra, a "
                  "GraphWalker model (JSON, GraphML: several files are one model); - reads standard input (format "
                  "from the content or --format)")
      ->required()
      ->each([&opts](const std::string& file) {
        if (opts.path.empty())
          opts.path = file;
        else
          opts.more_paths.push_back(file);
      });
  sub->add_option("--format", opts.format_name,
                  "The input's format: graph, model, aut, lts, prism, graphwalker (default: auto)")
      ->check(CLI::IsMember({"auto", "graph", "model", "aut", "lts", "prism", "graphwalker"}))
      ->default_val("auto")
      ->each([&opts](const std::string& name) { opts.format = input_format_named(name); });
  // ioco models (docs/ioco.md): .aut and lts/1 JSON become test graphs; these tell inputs from outputs.
  sub->add_option("--inputs", opts.inputs, "LTS models: labels that are inputs (comma-separated)")->delimiter(',');
  sub->add_option("--outputs", opts.outputs, "LTS models: labels that are outputs (comma-separated)")->delimiter(',');
  // Model programs (.ptm, docs/language.md) are explored into a test graph.
  sub->add_option("--param", opts.params, "Model programs (.ptm): set a model parameter, NAME=VALUE (repeatable)");
  sub->add_option("--max-states", opts.max_states,
                  "Model programs (.ptm): explore at most this many vertices (the model is refused beyond)")
      ->default_val(10'000'000)
      ->check(positive_integer());
  // PRISM explicit exports (.tra, docs/formats.md).
  sub->add_option("--reward", opts.reward,
                  "PRISM .tra: the reward structure to read as costs, by number (BASE<N>.srew/.trew) or by name; "
                  "required when the export has several");
  sub->add_option("--goal-label", opts.goal_label, "PRISM .tra: the label of the goal states (default: goal)");
}

void print_json(const nlohmann::json& j) {
  std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

void add_seed_option(CLI::App* sub, std::uint64_t& seed, const std::string& what) {
  sub->add_option("--seed", seed, what)->default_val(0)->check(non_negative_integer());
}

namespace {
std::vector<std::string>& recorded_command_line() {
  static std::vector<std::string> args;
  return args;
}
}  // namespace

void set_command_line(int argc, char** argv) { recorded_command_line().assign(argv, argv + argc); }

std::map<std::string, std::string> campaign_settings(const CLI::App* sub, const std::vector<std::string>& ignore) {
  std::map<std::string, std::string> out;
  for (const CLI::Option* opt : sub->get_options()) {
    if (!opt->nonpositional()) continue;  // FILE: the model, which its digest identifies
    const std::string name = opt->get_name();
    if (name == "--help" || name == "-h" || std::find(ignore.begin(), ignore.end(), name) != ignore.end()) continue;
    std::string value;
    if (opt->count() > 0) {
      for (const std::string& r : opt->results()) value += (value.empty() ? "" : ",") + r;
    } else {
      value = opt->get_default_str();
    }
    if (!value.empty()) out[name] = value;
  }
  return out;
}

std::string program_name() {
  const std::vector<std::string>& args = recorded_command_line();
  return args.empty() ? std::string("playtest") : shell_quote(args.front());
}

std::string replay_command(const std::vector<std::string>& drop, const std::vector<std::string>& drop_flags,
                           const std::vector<std::string>& append) {
  return playtest::replay_command(recorded_command_line(), drop, drop_flags, append);
}

}  // namespace playtest::cli
