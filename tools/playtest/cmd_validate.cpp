// playtest validate FILE: load and check a test graph; exit 0 when valid, 2 with a located message.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "command.hpp"
#include "common.hpp"
#include "playtest/base/error.hpp"
#include "playtest/diagnose/analyze.hpp"

namespace playtest::cli {
namespace {

struct Options {
  InputOptions input;
  bool json = false;
};

int run(const Options& o) {
  try {
    const LoadedInput in = load_input(o.input);
    const TestGraph& g = *in.graph;
    // Valid, but unable to serve a purpose: said, not refused (exit 0).
    const bool final_declared = in.model && in.model->may_have_final_states();
    const std::vector<std::string> warnings = model_warnings(g, final_declared);
    if (o.json) {
      nlohmann::json j{{"file", o.input.path},
                       {"valid", true},
                       {"vertices", g.num_vertices()},
                       {"edges", g.num_edges()},
                       {"warnings", warnings}};
      fmt::print("{}\n", j.dump());
    } else {
      std::string files = o.input.path;  // several: one GraphWalker model
      for (const std::string& f : o.input.more_paths) files += " " + f;
      fmt::print("{}: ok ({} vertices, {} edges)\n", files, g.num_vertices(), g.num_edges());
    }
    for (const std::string& w : warnings) fmt::print(stderr, "playtest: {}: warning: {}\n", o.input.path, w);
    return exit_code(Outcome::done);
  } catch (const Error& e) {
    if (!o.json) throw;
    const Diagnostic& d = e.diagnostic();
    nlohmann::json err{{"message", d.message}};
    if (d.where.line) {
      err["line"] = d.where.line;
      err["column"] = d.where.column;
    }
    if (!d.where.pointer.empty()) err["pointer"] = d.where.pointer;
    if (!d.notes.empty()) err["notes"] = d.notes;
    nlohmann::json j{{"file", o.input.path}, {"valid", false}, {"error", err}};
    fmt::print("{}\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    fmt::print(stderr, "playtest: {}\n", format_diagnostic(d));
    return exit_code(ErrorKind::input);
  }
}

const Registration reg{
    "validate", 10, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* sub = app.add_subcommand("validate", "Check that a test graph is well-formed and valid");
      add_input_options(sub, o->input);
      sub->add_flag("--json", o->json, "Print the result as JSON (also for an invalid file)");
      sub->footer("Exit codes: 0 valid, 2 invalid or unreadable (the message names file:line:column).");
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
