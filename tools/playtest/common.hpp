// Helpers shared by the subcommands: loading the input model/graph and opening outputs.
// Only glue lives here; anything reusable belongs in the library.
#pragma once

#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "playtest/graph/test_graph.hpp"
#include "playtest/lang/model_program.hpp"

namespace playtest::cli {

// Where the model comes from. The file kind is decided by its extension: .json is graph/1;
// other kinds (.aut labelled transition systems, model programs) register their loaders here.
struct InputOptions {
  std::string path;
  std::vector<std::string> inputs;   // .aut: labels that are inputs (stimuli)
  std::vector<std::string> outputs;  // .aut: labels that are outputs (observations)
  std::vector<std::string> params;   // model programs: NAME=VALUE
  std::string reward;                // PRISM .tra: the reward structure (number or name)
  std::string goal_label;            // PRISM .tra: the label of the goal states ("" = "goal")
};

// Adds the positional FILE argument ("-" for standard input) and the options that go with it.
void add_input_options(CLI::App* sub, InputOptions& opts);

// Model programs (.ptm, docs/language.md): whether `path` names one, and opts.params parsed.
bool is_model_program(const std::string& path);
std::vector<ModelParam> model_params(const InputOptions& opts);

// An ioco labelled transition system (docs/ioco.md): a .aut file, or JSON declaring "playtest": "lts/1".
bool is_lts_file(const std::string& path);

// Loads the test graph described by `opts`; throws playtest::Error on bad input.
TestGraph load_input(const InputOptions& opts);

// The strategy names (run/policy_factory.hpp), comma-separated, for --help texts.
std::string strategy_list();

// The command line playtest was started with (main records it), and the shell command that runs
// it again without the options in `drop` (each with its value, e.g. "--seed") and the flags in
// `drop_flags`, with `append` added: what a report shows as the command that replays one run.
void set_command_line(int argc, char** argv);
std::string replay_command(const std::vector<std::string>& drop, const std::vector<std::string>& drop_flags,
                           const std::vector<std::string>& append);
// `s` as one word of a POSIX shell command (single-quoted when it needs quoting).
std::string shell_quote(const std::string& s);

// An output stream for `path` ("-" = standard output); throws playtest::Error if it cannot be opened.
class Output {
 public:
  explicit Output(const std::string& path);
  std::ostream& stream() { return file_ ? *file_ : std::cout; }
  void close();  // flushes and checks for write errors

 private:
  std::string path_;
  std::unique_ptr<std::ofstream> file_;
};

}  // namespace playtest::cli
