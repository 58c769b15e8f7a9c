#include "playtest/input/load.hpp"

#include <fmt/format.h>

#include <cctype>
#include <fstream>
#include <optional>

#include "playtest/base/error.hpp"
#include "playtest/base/source_text.hpp"
#include "playtest/catalog/strategy_table.hpp"
#include "playtest/explore/explorer.hpp"
#include "playtest/explore/state_space.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/io/graphwalker.hpp"
#include "playtest/ioco/ioco_graph.hpp"
#include "playtest/ioco/lts_io.hpp"

namespace playtest {

namespace {

constexpr std::pair<const char*, InputFormat> format_names[] = {
    {"graph", InputFormat::graph}, {"model", InputFormat::model}, {"aut", InputFormat::aut},
    {"lts", InputFormat::lts},     {"prism", InputFormat::prism}, {"graphwalker", InputFormat::graphwalker}};

// The format of an input's text: JSON objects are graph/1, lts/1 or GraphWalker, a <graphml> document
// GraphWalker's GraphML, "des (" starts an .aut file, a first line of two or three numbers a PRISM
// .tra, anything else is read as a model program.
InputFormat format_of_text(std::string_view text) {
  std::size_t i = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  const std::string_view rest = text.substr(i);
  if (rest.starts_with("{") && looks_like_graphwalker_json(rest.substr(0, 4096))) return InputFormat::graphwalker;
  if (rest.starts_with("<") && looks_like_graphml(rest.substr(0, 4096))) return InputFormat::graphwalker;
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

// The state of every explored vertex, for the runner's value matching (RunOptions::values).
std::shared_ptr<const ValueContext> vertex_values(const std::shared_ptr<const Model>& model, const StateSpace& space,
                                                  const std::vector<NodeId>& node_of_vertex) {
  auto ctx = std::make_shared<ValueContext>();
  ctx->model = model;
  ctx->state_size = model->state_size();
  ctx->states.reserve(node_of_vertex.size() * ctx->state_size);
  for (NodeId n : node_of_vertex) {
    const auto st = space.state(n);
    ctx->states.insert(ctx->states.end(), st.begin(), st.end());
  }
  return ctx;
}

bool has_values(const Model& model) { return model.values() && model.values()->has_values(); }

// A model program explored whole within o.max_states; beyond, a ModelError saying what to change.
void explore_whole(const LoadOptions& o, const std::shared_ptr<const Model>& model, LoadedInput& out) {
  StateSpace space(*model);
  ExploreResult r = explore(space, {.max_states = o.max_states, .partial_graph = false});
  if (r.status != ExploreStatus::complete) {
    std::vector<std::string> notes;
    std::string message = r.message;
    if (!o.whole_graph_for.empty())
      message =
          fmt::format("{} needs the whole graph, and the model is too big to explore: {}", o.whole_graph_for, message);
    if (r.status == ExploreStatus::state_limit) notes.push_back("raise the limit with --max-states N");
    if (!o.whole_graph_for.empty())
      notes.push_back(fmt::format(
          "or test on the fly with --strategy {} (without --goal, --edge, --traps, --vertex-timeout, --shrink, "
          "--jobs, --shard, --mutants, --impl): they explore the model as the runs go, without a state limit",
          on_the_fly_strategies("or")));
    throw ModelError(Diagnostic{{o.path, 0, 0, ""}, message, std::move(notes)});
  }
  if (o.values && has_values(*model)) out.values = vertex_values(model, space, r.node_of_vertex);
  out.graph = std::move(r.graph);
}

// A compiled model: explored whole, or first within a budget and otherwise played on the fly.
void load_compiled(const LoadOptions& o, const std::shared_ptr<const Model>& model, LoadedInput& out) {
  out.model = model;
  if (!o.explore_first || !o.whole_graph_for.empty()) return explore_whole(o, model, out);
  ExploreFirstOptions eo = *o.explore_first;
  eo.max_states = o.max_states;
  ExploreFirst first = explore_first(model, eo);  // small models play as their graph
  if (first.graph) {
    out.graph = std::move(first.graph);
    out.values = std::move(first.values);
    return;
  }
  out.on_the_fly_reason = std::move(first.on_the_fly_reason);
  if (has_values(*model)) {  // on the fly the graph knows its states: the model alone
    auto ctx = std::make_shared<ValueContext>();
    ctx->model = model;
    out.values = std::move(ctx);
  }
}

void load_model_program(const LoadOptions& o, const std::string& text, LoadedInput& out) {
  load_compiled(o, compile_model(text, o.path, model_params(o), {o.goal_conditions, "--goal"}), out);
}

// GraphWalker/AltWalker JSON (docs/graphwalker.md): compiled into a model program, then as one.
// The texts of o.more_paths, each checked to be a GraphWalker file.
std::vector<std::string> more_graphwalker_texts(const LoadOptions& o) {
  std::vector<std::string> texts;
  for (const std::string& p : o.more_paths) {
    std::optional<std::string> text;
    LoadOptions one = o.with_path(p);
    one.format.reset();
    if (input_format(one, text) != InputFormat::graphwalker)
      throw UsageError("FILE", fmt::format("several model files are read together only as GraphWalker models "
                                           "(GraphML or JSON, docs/graphwalker.md): '{}' is no GraphWalker file",
                                           p));
    if (!text) text = read_source_text(p);
    if (text->find_first_not_of(" \t\r\n") == std::string::npos)
      throw InputError(Diagnostic{{p, 0, 0, ""}, "the input is empty: there is nothing to read", {}});
    texts.push_back(std::move(*text));
  }
  return texts;
}

GwDocument graphwalker_document(const LoadOptions& o, const std::string& text) {
  if (o.more_paths.empty()) return parse_graphwalker(text, o.path);
  const std::vector<std::string> more = more_graphwalker_texts(o);
  std::vector<GwFile> files{{text, o.path}};
  for (std::size_t i = 0; i < more.size(); ++i) files.push_back({more[i], o.more_paths[i]});
  return parse_graphwalker_files(files);
}

void load_graphwalker_input(const LoadOptions& o, const std::string& text, LoadedInput& out) {
  if (!o.params.empty())
    throw UsageError("param",
                     "GraphWalker models have no parameters; their variables start as the model's actions say");
  GraphWalkerOptions go;
  go.goal_elements = o.goal_conditions;
  go.predefined_path = o.graphwalker_predefined_path;
  auto imported = std::make_shared<GraphWalkerImport>(compile_graphwalker(graphwalker_document(o, text), go));
  out.graphwalker = imported;
  load_compiled(o, imported->model, out);
}

TestGraph load_prism_input(const LoadOptions& o, bool from_text, LoadedInput& out) {
  // A PRISM explicit MDP is several files (docs/formats.md): BASE.tra names BASE.lab and BASE.trew.
  if (from_text || !o.path.ends_with(".tra"))
    throw InputError(Diagnostic{{o.path, 0, 0, ""},
                                "a PRISM explicit model is read from its files (BASE.tra with BASE.lab and the "
                                "reward files beside it), not from standard input, a pipe or another name",
                                {"give the path of the .tra file"}});
  PrismImportOptions prism;
  prism.reward = o.reward;
  if (o.prism_property) {
    prism.goal_label = "";
    prism.several_initial = true;
  }
  prism.no_rewards = o.prism_no_rewards;
  if (!o.goal_label.empty()) prism.goal_label = o.goal_label;
  const std::string base = o.path.substr(0, o.path.size() - 4);
  if (o.all_labels) return load_prism(base, prism, out.labels);
  return load_prism(base, prism);
}

}  // namespace

std::optional<InputFormat> input_format_named(std::string_view name) {
  for (const auto& [n, f] : format_names)
    if (name == n) return f;
  return std::nullopt;
}

LoadOptions LoadOptions::with_path(const std::string& other) const {
  LoadOptions in = *this;
  in.path = other;
  in.more_paths.clear();
  if (!other.ends_with(".tra")) in.reward.clear(), in.goal_label.clear();
  return in;
}

bool is_model_program(const std::string& path) {
  const std::string_view ext = model_file_extension;
  return path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
}

bool is_graphwalker_file(const std::string& path) {
  try {
    if (path == "-" || source_kind(path) == SourceKind::stream) return false;
  } catch (const InputError&) {
    return false;  // the reader says why
  }
  std::ifstream in(path, std::ios::binary);
  char head[4096];
  in.read(head, sizeof head);
  const std::string_view h(head, static_cast<std::size_t>(in.gcount()));
  return !h.empty() && (looks_like_graphwalker_json(h) || path.ends_with(".graphml") || looks_like_graphml(h));
}

std::vector<ModelParam> model_params(const LoadOptions& o) {
  std::vector<ModelParam> out;
  for (const auto& p : o.params) out.push_back(parse_model_param(p));
  return out;
}

InputFormat input_format(const LoadOptions& o, std::optional<std::string>& text) {
  const std::string& p = o.path;
  const bool stream = p == "-" || source_kind(p) == SourceKind::stream;
  if (stream) text = read_source_text(p);  // once: a pipe cannot be read twice
  if (o.format) return *o.format;
  if (!stream) {
    if (is_model_program(p)) return InputFormat::model;
    if (p.ends_with(".aut")) return InputFormat::aut;
    if (p.ends_with(".tra")) return InputFormat::prism;
    if (p.ends_with(".graphml")) return InputFormat::graphwalker;  // GraphWalker's GraphML (yEd)
    if (p.ends_with(".json")) {
      std::ifstream in(p, std::ios::binary);
      char head[4096];
      in.read(head, sizeof head);
      const std::string_view h(head, static_cast<std::size_t>(in.gcount()));
      if (looks_like_graphwalker_json(h)) return InputFormat::graphwalker;
      return ioco::looks_like_lts_json(h) ? InputFormat::lts : InputFormat::graph;
    }
    text = read_source_text(p);
  }
  return format_of_text(*text);
}

LoadedInput load_input(const LoadOptions& o) {
  std::optional<std::string> text;
  LoadedInput out;
  out.format = input_format(o, text);
  if (!o.more_paths.empty() && out.format != InputFormat::graphwalker)
    throw UsageError("FILE", fmt::format("several model files are read together only as GraphWalker models (GraphML "
                                         "or JSON, docs/graphwalker.md): '{}' is no GraphWalker file",
                                         o.path));
  if (out.format != InputFormat::prism) {
    if (!o.reward.empty()) throw UsageError("reward", "applies to PRISM explicit models (FILE ending in .tra) only");
    if (!o.goal_label.empty())
      throw UsageError("goal_label", "applies to PRISM explicit models (FILE ending in .tra) only");
  }
  // Formats read whole (not streamed) get their text here: once, with the stream limit.
  auto whole_text = [&]() -> const std::string& {
    if (!text) text = read_source_text(o.path);
    if (text->find_first_not_of(" \t\r\n") == std::string::npos)
      throw InputError(Diagnostic{{o.path, 0, 0, ""}, "the input is empty: there is nothing to read", {}});
    return *text;
  };
  switch (out.format) {
    case InputFormat::model:
      load_model_program(o, whole_text(), out);
      break;
    case InputFormat::graphwalker:
      load_graphwalker_input(o, whole_text(), out);
      break;
    case InputFormat::prism:
      out.graph = load_prism_input(o, text.has_value(), out);
      break;
    case InputFormat::aut:
    case InputFormat::lts: {
      const ioco::LtsReadOptions lo{.inputs = o.inputs, .outputs = o.outputs};
      const ioco::Lts lts = out.format == InputFormat::aut ? ioco::parse_aut(whole_text(), o.path, lo)
                                                           : ioco::parse_lts_json(whole_text(), o.path, lo);
      out.graph = ioco::build_ioco_graph(lts).graph;
      break;
    }
    case InputFormat::graph:
      // Regular .json files are streamed (the reader never holds a large file's text).
      out.graph = text ? parse_graph(whole_text(), o.path) : load_graph(o.path);
      break;
  }
  return out;
}

GwDocument read_graphwalker_document(const LoadOptions& o) {
  std::optional<std::string> text;
  if (!o.more_paths.empty() && input_format(o, text) != InputFormat::graphwalker)
    throw UsageError("FILE", fmt::format("several model files are read together only as GraphWalker models (GraphML "
                                         "or JSON, docs/graphwalker.md): '{}' is no GraphWalker file",
                                         o.path));
  if (!text) text = read_source_text(o.path);
  return graphwalker_document(o, *text);
}

TestGraph load_test_graph(const LoadOptions& o) {
  LoadOptions whole = o;
  whole.explore_first.reset();
  return std::move(*load_input(whole).graph);
}

std::vector<std::string> param_environment(const Model* model) {
  std::vector<std::string> env;
  if (model)
    for (const auto& [name, value] : model->parameters()) env.push_back("PLAYTEST_PARAM_" + name + "=" + value);
  return env;
}

}  // namespace playtest
