// playtest convert FILE --to prism|graph|dot -o OUT: write a loaded test graph in another format.
// prism writes OUT.tra, OUT.lab, OUT.trew (an MDP for PRISM/Storm, docs/formats.md).
#include <fmt/format.h>

#include <filesystem>

#include "command.hpp"
#include "common.hpp"
#include "playtest/base/error.hpp"
#include "playtest/graph/names.hpp"
#include "playtest/io/dot.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/io/graphwalker.hpp"
#include "playtest/io/prism_export.hpp"

namespace playtest::cli {
namespace {

struct Options {
  InputOptions input;
  std::string to;
  std::string out = "-";
  std::vector<std::string> goals;
};

// --to when not given: from the output's extension (.dot: dot; .json, standard output: graph).
std::string format_of(const Options& o) {
  if (!o.to.empty()) return o.to;
  const auto dot = o.out.rfind('.');
  const std::string ext = dot == std::string::npos ? "" : o.out.substr(dot);
  if (ext == ".dot" || ext == ".gv") return "dot";
  if (o.out == "-" || ext == ".json") return "graph";
  throw UsageError(
      "to",
      fmt::format("not given, and the output '{}' does not tell the format: give --to graph, dot or prism", o.out));
}

int run(const Options& o) {
  TestGraph g = load_test_graph(o.input);
  const std::string to = format_of(o);
  // Every --goal names a vertex of the graph (an unknown one is an input error, exit 2), and only
  // the PRISM export has a goal label to put them in.
  std::vector<VertexId> goals;
  for (const auto& name : o.goals) goals.push_back(vertex_named(g, name, "a goal"));
  if (!goals.empty() && to != "prism")
    throw UsageError("goal", fmt::format("applies to --to prism only (the {} output keeps the file's goals)", to));
  if (to == "prism") {
    if (o.out == "-")
      throw UsageError("output",
                       "--to prism writes three files: give -o BASE (it writes BASE.tra, BASE.lab, BASE.trew)");
    if (goals.empty()) goals = g.goals();
    Output tra(o.out + ".tra"), lab(o.out + ".lab"), trew(o.out + ".trew");
    write_prism_tra(g, goals, tra.stream());
    write_prism_lab(g, goals, lab.stream());
    write_prism_trew(g, goals, trew.stream());
    tra.close();
    lab.close();
    trew.close();
  } else if (to == "graph") {
    Output out(o.out);
    write_graph(g, out.stream());
    out.close();
  } else if (to == "graphwalker") {
    Output out(o.out);
    // The model's name: the input's file name without its extension (GraphWalker names have no '.').
    std::string name = std::filesystem::path(o.input.path).stem().string();
    for (char& c : name)
      if (c == '.' || c == '#') c = '_';
    out.stream() << graphwalker_json(g, name.empty() || o.input.path == "-" ? "playtest" : name);
    out.close();
  } else {
    Output out(o.out);
    write_dot(g, out.stream(), {.title = o.input.path});
    out.close();
  }
  return exit_code(Outcome::done);
}

const Registration reg{
    "convert", 35, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* sub = app.add_subcommand(
          "convert", "Write a test graph as graph/1 JSON, DOT, a PRISM explicit MDP or a GraphWalker model");
      add_input_options(sub, o->input);
      sub->add_option("--to", o->to,
                      "Output format: graph (graph/1 JSON), dot, prism (BASE.tra/.lab/.trew), graphwalker "
                      "(GraphWalker/AltWalker "
                      "JSON); default: from the -o "
                      "extension (.json graph, .dot dot; standard output: graph)")
          ->check(CLI::IsMember({"graph", "dot", "prism", "graphwalker"}));
      sub->add_option("-o,--output", o->out, "Output file, or BASE for prism (- for standard output)")
          ->default_val("-");
      sub->add_option("--goal", o->goals, "prism: a goal vertex id for the \"goal\" label (default: the file's goals)");
      sub->footer(
          "PRISM explicit models (docs/formats.md). Export: prism -importmodel BASE.tra,lab,trew -mdp, then\n"
          "  'Rmin=? [ F \"goal\" ]' equals solve --objective expected; 'Pmax=? [ F<=n \"goal\" ]' equals\n"
          "  solve --objective reach --bound n (one MDP step per edge of the graph).\n"
          "Import: inputs ending in .tra are PRISM exports (MDP or DTMC) with BASE.lab and the reward files\n"
          "  BASE.srew/.trew (several structures: BASE1.*, BASE2.*; pick one with --reward N|NAME). Goal: the\n"
          "  states labelled --goal-label (default goal). State rewards are added to every move out of the\n"
          "  state. Each MDP step is TWO moves (s -> s.c -> t), a DTMC step one, so for an imported MDP\n"
          "  solve --objective expected      = R{\"r\"}min=? [ F \"goal\" ]   (DTMC: R{\"r\"}=? [ F \"goal\" ])\n"
          "  solve --objective reach --bound 2n = Pmax=? [ F<=n \"goal\" ]   (DTMC: --bound n = P=? [ F<=n \"goal\" "
          "])");
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
