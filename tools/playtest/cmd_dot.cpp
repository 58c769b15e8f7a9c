// playtest dot FILE [-o OUT]: a Graphviz picture of a test graph.
#include "command.hpp"
#include "common.hpp"
#include "playtest/io/dot.hpp"

namespace playtest::cli {
namespace {

struct Options {
  InputOptions input;
  std::string out = "-";
  std::string title;
};

int run(const Options& o) {
  TestGraph g = load_test_graph(o.input);
  Output out(o.out);
  write_dot(g, out.stream(), {.title = o.title.empty() ? o.input.path : o.title});
  out.close();
  return exit_code(Outcome::done);
}

const Registration reg{
    "dot", 30, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* sub = app.add_subcommand("dot", "Write a Graphviz DOT picture of a test graph");
      add_input_options(sub, o->input);
      sub->add_option("-o,--output", o->out, "Output file (- for standard output)")->default_val("-");
      sub->add_option("--title", o->title, "Title of the picture (default: the file name)");
      sub->footer(
          "Active vertices are ellipses, passive ones diamonds, goals doubled, the initial vertex bold\n"
          "with an arrow into it; edges show label, cost (c=) and probability (p=).");
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
