#include "common.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <optional>

#include "command.hpp"
#include "option_checks.hpp"
#include "playtest/error.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/explore/model_values.hpp"
#include "playtest/explore/state_space.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/io/prism_import.hpp"
#include "playtest/ioco/ioco_graph.hpp"
#include "playtest/ioco/lts_io.hpp"
#include "playtest/lang/model_program.hpp"
#include "playtest/run/run_values.hpp"
#include "playtest/source_text.hpp"

namespace playtest::cli {

void add_input_options(CLI::App* sub, InputOptions& opts) {
  sub->add_option("FILE", opts.path,
                  "The model: graph/1 JSON, a model program (.ptm), .aut or lts/1 JSON, a PRISM explicit .tra; - reads "
                  "standard input (format from the content or --format)")
      ->required();
  sub->add_option("--format", opts.format, "The input's format: graph, model, aut, lts, prism (default: auto)")
      ->check(CLI::IsMember({"auto", "graph", "model", "aut", "lts", "prism"}))
      ->default_val("auto");
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

InputOptions InputOptions::with_path(const std::string& other) const {
  InputOptions in = *this;
  in.path = other;
  if (!other.ends_with(".tra")) in.reward.clear(), in.goal_label.clear();
  return in;
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

namespace {

// The format of an input's text: JSON objects are graph/1 or lts/1, "des (" starts an .aut file, a
// first line of two or three numbers a PRISM .tra, anything else is read as a model program.
InputFormat format_of_text(std::string_view text) {
  std::size_t i = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  const std::string_view rest = text.substr(i);
  if (rest.starts_with("{"))
    return ioco::looks_like_lts_json(rest.substr(0, 4096)) ? InputFormat::lts : InputFormat::graph;
  if (rest.starts_with("des")) {
    std::size_t j = 3;
    while (j < rest.size() && (rest[j] == ' ' || rest[j] == '\t')) ++j;
    if (j < rest.size() && rest[j] == '(') return InputFormat::aut;
  }
  if (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest[0]))) {
    const std::string_view line = rest.substr(0, rest.find('\n'));
    if (line.find_first_not_of("0123456789 \t\r") == std::string_view::npos) return InputFormat::prism;
  }
  return InputFormat::model;
}

}  // namespace

InputFormat input_format(const InputOptions& opts, std::optional<std::string>& text) {
  static const std::pair<const char*, InputFormat> named[] = {{"graph", InputFormat::graph},
                                                              {"model", InputFormat::model},
                                                              {"aut", InputFormat::aut},
                                                              {"lts", InputFormat::lts},
                                                              {"prism", InputFormat::prism}};
  const std::string& p = opts.path;
  const bool stream = p == "-" || source_kind(p) == SourceKind::stream;
  if (stream) text = read_source_text(p);  // once: a pipe cannot be read twice
  for (const auto& [name, f] : named)
    if (opts.format == name) return f;
  if (!stream) {
    if (is_model_program(p)) return InputFormat::model;
    if (p.ends_with(".aut")) return InputFormat::aut;
    if (p.ends_with(".tra")) return InputFormat::prism;
    if (p.ends_with(".json")) {
      std::ifstream in(p, std::ios::binary);
      char head[4096];
      in.read(head, sizeof head);
      return ioco::looks_like_lts_json(std::string_view(head, static_cast<std::size_t>(in.gcount())))
                 ? InputFormat::lts
                 : InputFormat::graph;
    }
    text = read_source_text(p);
  }
  return format_of_text(*text);
}

namespace {
TestGraph load_any(const InputOptions& opts, InputFormat* format_out, PrismLabels* labels, LoadedModel* loaded);
}  // namespace

TestGraph load_input(const InputOptions& opts, InputFormat* format_out) {
  return load_any(opts, format_out, nullptr, nullptr);
}

TestGraph load_input(const InputOptions& opts, InputFormat* format_out, PrismLabels* labels) {
  return load_any(opts, format_out, labels, nullptr);
}

TestGraph load_input(const InputOptions& opts, LoadedModel& loaded) { return load_any(opts, nullptr, nullptr, &loaded); }

namespace {
TestGraph load_any(const InputOptions& opts, InputFormat* format_out, PrismLabels* labels, LoadedModel* loaded) {
  std::optional<std::string> text;
  const InputFormat format = input_format(opts, text);
  if (format_out) *format_out = format;
  if (format != InputFormat::prism) {
    if (!opts.reward.empty()) throw UsageError("reward", "applies to PRISM explicit models (FILE ending in .tra) only");
    if (!opts.goal_label.empty())
      throw UsageError("goal_label", "applies to PRISM explicit models (FILE ending in .tra) only");
  }
  // Formats read whole (not streamed) get their text here: once, with the stream limit.
  auto whole_text = [&]() -> const std::string& {
    if (!text) text = read_source_text(opts.path);
    if (text->find_first_not_of(" \t\r\n") == std::string::npos)
      throw InputError(Diagnostic{{opts.path, 0, 0, ""}, "the input is empty: there is nothing to read", {}});
    return *text;
  };
  switch (format) {
    case InputFormat::model: {
      std::shared_ptr<const Model> model =
          compile_model(whole_text(), opts.path, model_params(opts), {opts.goal_conditions, "--goal"});
      const bool values = loaded && model->values() && model->values()->has_values();
      StateSpace space(*model);
      ExploreResult r = explore(space, {.max_states = opts.max_states, .partial_graph = false});
      if (r.status != ExploreStatus::complete) {
        std::vector<std::string> notes;
        std::string message = r.message;
        if (!opts.whole_graph_for.empty())
          message = fmt::format("{} needs the whole graph, and the model is too big to explore: {}",
                                opts.whole_graph_for, message);
        if (r.status == ExploreStatus::state_limit) notes.push_back("raise the limit with --max-states N");
        if (!opts.whole_graph_for.empty())
          notes.push_back(
              "or test on the fly with --strategy random, anti-ant or pessimistic (without --goal, --edge, "
              "--traps, --vertex-timeout, --shrink, --jobs, --shard, --mutants, --impl): they explore the model "
              "as the runs go, without a state limit");
        throw ModelError(Diagnostic{{opts.path, 0, 0, ""}, message, std::move(notes)});
      }
      if (loaded) {
        loaded->model = model;
        if (values) {
          // The runner matches values against the model state of each vertex.
          auto ctx = std::make_shared<ValueContext>();
          ctx->model = model;
          ctx->state_size = model->state_size();
          ctx->states.reserve(r.node_of_vertex.size() * ctx->state_size);
          for (NodeId n : r.node_of_vertex) {
            const auto st = space.state(n);
            ctx->states.insert(ctx->states.end(), st.begin(), st.end());
          }
          loaded->values = std::move(ctx);
        }
      }
      return std::move(r.graph);
    }
    case InputFormat::prism: {
      // A PRISM explicit MDP is several files (docs/formats.md): BASE.tra names BASE.lab and BASE.trew.
      if (text || !opts.path.ends_with(".tra"))
        throw InputError(Diagnostic{{opts.path, 0, 0, ""},
                                    "a PRISM explicit model is read from its files (BASE.tra with BASE.lab and the "
                                    "reward files beside it), not from standard input, a pipe or another name",
                                    {"give the path of the .tra file"}});
      PrismImportOptions prism;
      prism.reward = opts.reward;
      if (opts.prism_property) {
        prism.goal_label = "";
        prism.several_initial = true;
      }
      prism.no_rewards = opts.prism_no_rewards;
      if (!opts.goal_label.empty()) prism.goal_label = opts.goal_label;
      const std::string base = opts.path.substr(0, opts.path.size() - 4);
      if (labels != nullptr) return load_prism(base, prism, *labels);
      return load_prism(base, prism);
    }
    case InputFormat::aut:
    case InputFormat::lts: {
      const ioco::LtsReadOptions lo{.inputs = opts.inputs, .outputs = opts.outputs};
      const ioco::Lts lts = format == InputFormat::aut ? ioco::parse_aut(whole_text(), opts.path, lo)
                                                       : ioco::parse_lts_json(whole_text(), opts.path, lo);
      return ioco::build_ioco_graph(lts).graph;
    }
    case InputFormat::graph:
      // Regular .json files are streamed (the reader never holds a large file's text).
      return text ? parse_graph(whole_text(), opts.path) : load_graph(opts.path);
  }
  throw InternalError("load_input: unknown input format");
}
}  // namespace

std::vector<std::string> param_environment(const Model* model) {
  std::vector<std::string> env;
  if (model)
    for (const auto& [name, value] : model->parameters()) env.push_back("PLAYTEST_PARAM_" + name + "=" + value);
  return env;
}

std::shared_ptr<const ValueContext> on_the_fly_values(const std::shared_ptr<const Model>& model) {
  if (!model || !model->values() || !model->values()->has_values()) return nullptr;
  auto ctx = std::make_shared<ValueContext>();
  ctx->model = model;
  return ctx;
}

std::unique_ptr<Model> load_model_program(const InputOptions& opts) {
  std::optional<std::string> text;
  if (input_format(opts, text) != InputFormat::model) return nullptr;
  if (!opts.reward.empty()) throw UsageError("reward", "applies to PRISM explicit models (FILE ending in .tra) only");
  if (!opts.goal_label.empty())
    throw UsageError("goal_label", "applies to PRISM explicit models (FILE ending in .tra) only");
  if (!text) text = read_source_text(opts.path);
  if (text->find_first_not_of(" \t\r\n") == std::string::npos)
    throw InputError(Diagnostic{{opts.path, 0, 0, ""}, "the input is empty: there is nothing to read", {}});
  return compile_model(*text, opts.path, model_params(opts), {opts.goal_conditions, "--goal"});
}


int exit_code_of(Verdict v) {
  switch (v) {
    case Verdict::pass:
      return exit_ok;
    case Verdict::fail:
      return exit_fail;
    case Verdict::inconclusive:
      return exit_inconclusive;
    case Verdict::error:
      return exit_error;
  }
  return exit_error;
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

std::string shell_quote(const std::string& s) {
  const bool plain = !s.empty() && s.find_first_not_of(
                                       "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                       "0123456789_@%+=:,./-") == std::string::npos;
  if (plain) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string program_name() {
  const std::vector<std::string>& args = recorded_command_line();
  return args.empty() ? std::string("playtest") : shell_quote(args.front());
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
