// Helpers shared by the subcommands: loading the input model/graph and opening outputs.
// Only glue lives here; anything reusable belongs in the library.
#pragma once

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "playtest/io/prism_import.hpp"
#include "playtest/lang/model_program.hpp"
#include "playtest/output_file.hpp"
#include "playtest/run/runner.hpp"

namespace playtest {
struct ValueContext;  // run/run_values.hpp
}  // namespace playtest

namespace playtest::cli {

// Where the model comes from. The file kind is decided by its extension: .json is graph/1;
// other kinds (.aut labelled transition systems, model programs) register their loaders here.
struct InputOptions {
  std::string path;
  std::vector<std::string> inputs;   // .aut: labels that are inputs (stimuli)
  std::vector<std::string> outputs;  // .aut: labels that are outputs (observations)
  std::vector<std::string> params;   // model programs: NAME=VALUE
  std::vector<std::string> goal_conditions;  // model programs: --goal conditions, in place of `final`
  std::string reward;                // PRISM .tra: the reward structure (number or name)
  std::string goal_label;            // PRISM .tra: the label of the goal states ("" = "goal")
  std::string format = "auto";       // graph, model, aut, lts, prism; auto: extension, else content
  // PRISM .tra, for solve --property (docs/formats.md): read no reward files (a probability query),
  // no goal label unless --goal-label, several initial states allowed.
  bool prism_no_rewards = false;
  bool prism_property = false;
  std::uint64_t max_states = 10'000'000;  // model programs: the exploration's limit
  // Model programs: what asked for the whole graph in run and simulate ("strategy 'reach'",
  // "--mutants"), named when the exploration hits max_states; "" for commands that always explore.
  std::string whole_graph_for;

  // The same options for another input (simulate --impl); the PRISM options stay only for a .tra.
  InputOptions with_path(const std::string& other) const;
};

// Adds the positional FILE argument ("-" for standard input) and the options that go with it.
void add_input_options(CLI::App* sub, InputOptions& opts);

// The kinds of input (README "Inputs"): graph/1 JSON, model programs, .aut and lts/1 JSON labelled
// transition systems, PRISM explicit exports.
enum class InputFormat { graph, model, aut, lts, prism };

// The format of `opts.path`: --format when given, else by extension (.json, .ptm, .aut, .tra), else
// (standard input, pipes, other names) by content. `text` gets the input's text when it was read
// for that or because it is a stream (read once, up to the stream limit); it is then what the
// loader parses.
InputFormat input_format(const InputOptions& opts, std::optional<std::string>& text);

// Model programs (.ptm, docs/language.md): whether `path` names one, and opts.params parsed.
bool is_model_program(const std::string& path);
std::vector<ModelParam> model_params(const InputOptions& opts);

// A model program behind a test graph: the compiled model (its parameters go to the adapter) and,
// when its labels hold values, what the runner needs to match them (the state of every vertex).
struct LoadedModel {
  std::shared_ptr<const Model> model;
  std::shared_ptr<const ValueContext> values;  // null unless the model's labels hold values
};

// Loads the test graph described by `opts` (and says which format it was); throws playtest::Error on
// bad input: a located message, an empty input, a directory.
TestGraph load_input(const InputOptions& opts, InputFormat* format = nullptr);
// The same; for a PRISM export `labels` receives every label of its .lab file.
TestGraph load_input(const InputOptions& opts, InputFormat* format, PrismLabels* labels);
// The same; `loaded` receives the model program the graph was explored from (nothing for other
// formats).
TestGraph load_input(const InputOptions& opts, LoadedModel& loaded);

// The adapter's environment entries PLAYTEST_PARAM_<NAME>=VALUE for the model's parameters
// (docs/adapter-protocol.md); none for a model without parameters or another kind of input.
std::vector<std::string> param_environment(const Model* model);

// What the runner needs to match values for a model explored on the fly (null when its labels hold
// none).
std::shared_ptr<const ValueContext> on_the_fly_values(const std::shared_ptr<const Model>& model);

// The compiled model program of `opts` (docs/testing.md "Models too big to explore": run and
// simulate play it on the fly, exploring as the runs go), or nullptr when the input is of another
// format. Throws what load_input throws for a bad model program.
std::unique_ptr<Model> load_model_program(const InputOptions& opts);

// The exit code of a test verdict (README "Exit codes").
int exit_code_of(Verdict v);

// Prints `j` on standard output, indented, invalid UTF-8 replaced.
void print_json(const nlohmann::json& j);

// --seed, the same option everywhere: default 0.
void add_seed_option(CLI::App* sub, std::uint64_t& seed, const std::string& what);

// The command line playtest was started with (main records it), and the shell command that runs
// it again without the options in `drop` (each with its value, e.g. "--seed") and the flags in
// `drop_flags`, with `append` added: what a report shows as the command that replays one run.
void set_command_line(int argc, char** argv);
std::string replay_command(const std::vector<std::string>& drop, const std::vector<std::string>& drop_flags,
                           const std::vector<std::string>& append);
// The program as the user started it (argv[0], shell-quoted), the first word of every command
// playtest prints for the user to paste (run's and shrink's replay lines); "playtest" when unknown.
std::string program_name();
// What identifies a campaign besides its model (CampaignOptions::settings): every option of `sub`
// that was given or has a default, by its long name, with its value(s) as given ("," between
// repeated ones), except the positional FILE, --help and the options in `ignore` (those that do not
// change what the runs do: outputs, parallelism, how the model is read, which its digest covers).
std::map<std::string, std::string> campaign_settings(const CLI::App* sub, const std::vector<std::string>& ignore);

// `s` as one word of a POSIX shell command (single-quoted when it needs quoting).
std::string shell_quote(const std::string& s);

// An output file for `path` ("-" = standard output), written whole or not at all (OutputFile:
// a temporary file renamed into place by close()); throws playtest::Error if it cannot be opened.
class Output {
 public:
  explicit Output(const std::string& path, OutputFile::Mode mode = OutputFile::Mode::whole) : file_(path, mode) {}
  std::ostream& stream() { return file_.stream(); }
  void close() { file_.commit(); }  // flushes, checks for write errors, replaces the file
  void discard() noexcept { file_.discard(); }

 private:
  OutputFile file_;
};

}  // namespace playtest::cli
