// Helpers shared by the subcommands: the input options (the loading is the library's,
// input/load.hpp), the exit code of a verdict, the replay command line of this invocation and
// opening outputs. Only glue lives here; anything reusable belongs in the library.
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

#include "playtest/base/output_file.hpp"
#include "playtest/graph/test_graph.hpp"
#include "playtest/input/load.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/session/replay_command.hpp"

namespace playtest::cli {

// Where the model comes from: the library's load options (input/load.hpp) and --format as given
// (its value also sets LoadOptions::format).
struct InputOptions : LoadOptions {
  std::string format_name = "auto";  // graph, model, aut, lts, prism; auto: extension, else content
  std::vector<std::string> files;    // FILE as given: path, then more_paths
};

// Adds the positional FILE argument ("-" for standard input) and the options that go with it.
void add_input_options(CLI::App* sub, InputOptions& opts);

// Prints `j` on standard output, indented, invalid UTF-8 replaced.
void print_json(const nlohmann::json& j);

// --seed, the same option everywhere: default 0.
void add_seed_option(CLI::App* sub, std::uint64_t& seed, const std::string& what);

// The command line playtest was started with (main records it), and the shell command that runs
// it again (session/replay_command.hpp) without the options in `drop` (each with its value, e.g. "--seed") and the
// flags in `drop_flags`, with `append` added: what a report shows as the command that replays one run.
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
