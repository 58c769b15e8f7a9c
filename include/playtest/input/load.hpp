// Loading any model playtest reads, in one call: the format is detected from an explicit choice,
// the file's extension or its content, and the file goes to its reader in io/ (graph/1 JSON, PRISM
// explicit exports), lang/ (model programs, explored by explore/) or ioco/ (.aut and lts/1 labelled
// transition systems). "-" is standard input, read once. A C++ test (GoogleTest, in process) loads
// the models the tool loads with the same options (README "Inputs", docs/formats.md).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "playtest/io/prism_import.hpp"
#include "playtest/lang/graphwalker_model.hpp"
#include "playtest/lang/model_program.hpp"
#include "playtest/run/on_the_fly.hpp"
#include "playtest/run/run_values.hpp"

namespace playtest {

// The kinds of input: graph/1 JSON, model programs (.ptm), .aut and lts/1 JSON labelled transition
// systems, PRISM explicit exports (.tra with .lab and reward files), GraphWalker/AltWalker JSON.
enum class InputFormat { graph, model, aut, lts, prism, graphwalker };

// "graph", "model", "aut", "lts", "prism", "graphwalker"; nullopt for any other name ("auto").
std::optional<InputFormat> input_format_named(std::string_view name);

// What to load and how. Every field but `path` has a default that reads the file as the tool does
// without options.
struct LoadOptions {
  std::string path;  // the file; "-" reads standard input
  // GraphWalker models only: further files read with `path` as one model (a model spread over several
  // GraphML or JSON files, as GraphWalker's several -m; docs/graphwalker.md "Several files").
  std::vector<std::string> more_paths;
  std::optional<InputFormat> format;         // nullopt: by extension (.json, .ptm, .aut, .tra), else by content
  std::vector<std::string> inputs;           // .aut, lts/1: labels that are inputs (stimuli)
  std::vector<std::string> outputs;          // .aut, lts/1: labels that are outputs (observations)
  std::vector<std::string> params;           // model programs: NAME=VALUE
  std::vector<std::string> goal_conditions;  // model programs: conditions on the state, in place of `final`;
                                             // GraphWalker: element names (being at one is the goal)
  std::string reward;                        // PRISM: the reward structure (number or name)
  std::string goal_label;                    // PRISM: the label of the goal states ("" = "goal")
  // PRISM, for property queries (docs/formats.md): read no reward files (a probability query), no
  // goal label unless goal_label is given, several initial states allowed; all_labels: read every
  // label of the .lab file into LoadedInput::labels.
  bool prism_no_rewards = false;
  bool prism_property = false;
  bool all_labels = false;
  // Model programs explored whole: fill LoadedInput::values when the model's labels hold values
  // (the model state of every vertex, for the runner; explore_first always fills it).
  bool values = false;
  std::uint64_t max_states = 10'000'000;  // model programs: the exploration's limit (vertices)
  // Model programs: what asked for the whole graph ("strategy 'reach'", "--mutants"), named in the
  // refusal when the exploration hits max_states; "" when the caller always explores.
  std::string whole_graph_for;
  // Model programs (docs/testing.md "Models too big to explore"): nullopt (or whole_graph_for not
  // empty) explores the whole model (a model beyond max_states is refused); given, the model is
  // explored within this budget
  // (explore_first; its max_states is replaced by the one above) and, when it does not fit or
  // on-the-fly play is asked for, LoadedInput has no graph and says why.
  std::optional<ExploreFirstOptions> explore_first;

  // GraphWalker: play the start model's predefined path (GraphWalkerOptions::predefined_path).
  bool graphwalker_predefined_path = false;

  // The same options for another input (simulate's implementation); the PRISM options stay only for
  // a .tra file.
  LoadOptions with_path(const std::string& other) const;
};

// What load_input read.
struct LoadedInput {
  InputFormat format = InputFormat::graph;
  // The test graph (a model program explored; an LTS made a test graph by ioco's construction).
  // Absent only for a model program with LoadOptions::explore_first that is to be played on the fly.
  std::optional<TestGraph> graph;
  // A model program: the compiled model (its parameters go to the adapter's environment) and, when
  // its labels hold values, what the runner needs to match them (RunOptions::values): the state of
  // every vertex of `graph`, or on the fly the model alone. Null for other formats.
  std::shared_ptr<const Model> model;
  std::shared_ptr<const ValueContext> values;
  // Without `graph`: why the model is played on the fly, in words for the outputs.
  std::string on_the_fly_reason;
  // PRISM with LoadOptions::all_labels: every label of the .lab file.
  PrismLabels labels;
  // GraphWalker: the elements, generator and predefined path of the imported models (`model` is
  // the compiled model program, played as one).
  std::shared_ptr<const GraphWalkerImport> graphwalker;
};

// The format of `o.path`: o.format when given, else by extension, else (standard input, pipes,
// other names) by content. `text` gets the input's text when it was read for that or because it is
// a stream (read once, up to the stream limit); load_input then parses that text.
InputFormat input_format(const LoadOptions& o, std::optional<std::string>& text);

// Model programs (.ptm, docs/language.md): whether `path` names one, and o.params parsed.
bool is_model_program(const std::string& path);
// Whether `path` is a regular file whose text starts as a GraphWalker document (docs/graphwalker.md).
bool is_graphwalker_file(const std::string& path);
std::vector<ModelParam> model_params(const LoadOptions& o);

// The GraphWalker document of `o.path` and `o.more_paths`, read together (parse_graphwalker_files);
// throws as load_input, and UsageError("FILE") when several files are given and one is no
// GraphWalker file.
GwDocument read_graphwalker_document(const LoadOptions& o);

// Loads the input `o` describes. Throws InputError (and its kinds: ModelError for a model program
// that fails or is too big) on bad input, with a located message, an empty input, a directory;
// UsageError("reward"/"goal_label") for PRISM options given to another format.
LoadedInput load_input(const LoadOptions& o);

// The test graph of `o` when a graph is all the caller needs: load_input(o).graph, the model
// explored whole (o.explore_first is not used).
TestGraph load_test_graph(const LoadOptions& o);

// The adapter's environment entries PLAYTEST_PARAM_<NAME>=VALUE for the model's parameters
// (docs/adapter-protocol.md); none for a model without parameters or no model.
std::vector<std::string> param_environment(const Model* model);

}  // namespace playtest
