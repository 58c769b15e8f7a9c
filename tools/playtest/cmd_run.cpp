// playtest run MODEL --sut COMMAND --strategy NAME: play a strategy against a live system under test
// through the subprocess adapter (docs/adapter-protocol.md); judge every observation; report a
// verdict (exit code 0 PASS, 1 FAIL, 4 INCONCLUSIVE, 3 ERROR), a trace, JUnit XML and coverage.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "command.hpp"
#include "option_checks.hpp"
#include "common.hpp"
#include "progress.hpp"
#include "torx_option.hpp"
#include "traps_option.hpp"
#include "playtest/error.hpp"
#include "playtest/graph/names.hpp"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include "playtest/report/html_report.hpp"
#include "playtest/report/text.hpp"
#include "playtest/run/junit_report.hpp"
#include "playtest/run/policy_factory.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/run/subprocess_adapter.hpp"
#include "playtest/run/trace_writer.hpp"
#include "playtest/strategy/traps.hpp"

namespace playtest::cli {
namespace {

struct Options {
  InputOptions input;
  std::string sut;
  std::string strategy = "random";
  std::string purpose = "auto";
  std::vector<std::string> goals, edges, vertex_timeouts, traps;
  std::uint64_t steps = 1000;
  double time_s = 0;
  std::uint32_t timeout_ms = 1000, ack_timeout_ms = 5000, ready_timeout_ms = 5000;
  std::uint32_t runs = 1, bound = 0;
  std::uint64_t seed = 0;
  std::string trace, junit, sut_stderr, report;
  bool json = false, quiet = false;
  TorxCliOptions torx;
  bool planner_exact = false;
};

int exit_code_of(Verdict v) {
  switch (v) {
    case Verdict::pass: return exit_ok;
    case Verdict::fail: return exit_fail;
    case Verdict::inconclusive: return exit_inconclusive;
    case Verdict::error: return exit_error;
  }
  return exit_error;
}

nlohmann::json coverage_json(const Coverage& c) {
  return {{"edges_covered", c.edges_covered}, {"edges_total", c.edges_total},
          {"labels_covered", c.labels_covered}, {"labels_total", c.labels_total}};
}

int run(const Options& o) {
  TestGraph g = load_input(o.input);
  RunOptions ro;
  const StrategySpec spec{.kind = parse_strategy_kind(o.strategy),
                          .purpose = parse_purpose_choice(o.purpose),
                          .goals = o.goals,
                          .edges = o.edges,
                          .traps = o.traps};
  ro.purpose = spec.resolve(g, declared_traps(g));
  require_something_to_test(g, ro.purpose);
  ro.max_steps = o.steps;
  ro.time_budget = std::chrono::milliseconds(static_cast<std::int64_t>(o.time_s * 1000.0));
  ro.timeout = std::chrono::milliseconds(o.timeout_ms);
  if (!o.vertex_timeouts.empty()) {
    ro.vertex_timeouts.assign(g.num_vertices(), std::chrono::milliseconds(0));
    for (const std::string& vt : o.vertex_timeouts) {
      auto eq = vt.rfind('=');
      if (eq == std::string::npos) throw UsageError("vertex_timeout", fmt::format("'{}': expected VERTEX=MS", vt));
      const VertexId v = vertex_named(g, vt.substr(0, eq), "a vertex of --vertex-timeout");
      const std::string ms = vt.substr(eq + 1);
      std::uint32_t value = 0;
      auto [end, ec] = std::from_chars(ms.data(), ms.data() + ms.size(), value);
      if (ms.empty() || ec != std::errc() || end != ms.data() + ms.size())
        throw UsageError("vertex_timeout", fmt::format("'{}': '{}' is not a number of milliseconds", vt, ms));
      ro.vertex_timeouts[v.index()] = std::chrono::milliseconds(value);
    }
  }
  Runner runner(g, ro);  // refuses graphs that cannot drive an online test
  PolicySetup setup{
      .goals = ro.purpose.goals, .edges = ro.purpose.edges, .bound = o.bound, .torx = resolve_torx_options(o.torx)};
  if (o.planner_exact) setup.planner.horizon = setup.planner.tail_traps = 0;
  auto policy = make_policy(spec.kind, g, setup);

  SubprocessOptions so{.command = o.sut};
  so.ack_timeout = std::chrono::milliseconds(o.ack_timeout_ms);
  so.ready_timeout = std::chrono::milliseconds(o.ready_timeout_ms);
  if (o.sut_stderr == "discard") {
    so.stderr_mode = SubprocessOptions::Stderr::discard;
  } else if (!o.sut_stderr.empty() && o.sut_stderr != "inherit") {
    so.stderr_mode = SubprocessOptions::Stderr::file;
    so.stderr_path = o.sut_stderr;
    if (std::FILE* f = std::fopen(o.sut_stderr.c_str(), "a")) {
      std::fclose(f);
    } else {
      throw UsageError("sut_stderr", fmt::format("cannot open '{}' for appending: {}", o.sut_stderr, std::strerror(errno)));
    }
  }
  SubprocessAdapter adapter(so);

  std::unique_ptr<Output> trace_out;
  std::unique_ptr<JsonlTraceWriter> trace;
  if (!o.trace.empty()) {
    trace_out = std::make_unique<Output>(o.trace);
    trace = std::make_unique<JsonlTraceWriter>(trace_out->stream());
  }
  std::vector<RunResult> results;
  std::vector<std::uint32_t> visits(g.num_edges(), 0);
  Verdict overall = Verdict::pass;
  // The command that replays run i: this one with its seed and one run, writing no files.
  auto replay = [](std::uint64_t seed) {
    return replay_command({"--seed", "--runs", "--trace", "--junit", "--report"}, {"--json", "--quiet"},
                          {"--seed", std::to_string(seed), "--runs", "1"});
  };
  ProgressLine progress("run", "runs");
  for (std::uint32_t i = 0; i < o.runs; ++i) {
    if (o.runs > 1) progress.update(i, o.runs);
    std::uint64_t seed = o.seed + i;
    if (trace) trace->begin_run(i + 1, seed, o.strategy, o.input.path, replay(seed));
    RunResult r = runner.run(*policy, adapter, trace.get(), seed);
    for (std::size_t e = 0; e < visits.size(); ++e) visits[e] += r.edge_visits[e];
    overall = i == 0 ? r.verdict : combine(overall, r.verdict);
    progress.finish();  // the run's lines print on a clean line
    if (!o.json && !o.quiet) {
      fmt::print("run {} (seed {}): {} after {} steps, {} resets, {:.1f} ms: {}\n", i + 1, seed, to_string(r.verdict),
                 r.steps, r.resets, r.elapsed_ms, r.message);
      if (r.verdict == Verdict::inconclusive) {
        // What the purpose still wanted.
        const auto missed = report::uncovered_purpose_edges(g, ro.purpose, r.edge_visits);
        if (!missed.empty())
          fmt::print("  not covered: {} of the purpose's edges: {}\n", missed.size(), report::describe_edges(g, missed, 8));
        else if (ro.purpose.kind == TestPurpose::Kind::reach)
          fmt::print("  not reached: {}\n", report::describe_purpose(g, ro.purpose).substr(6));
      }
      if (r.verdict == Verdict::fail || r.verdict == Verdict::error) {
        fmt::print("trace (last steps):\n{}", format_trace(g, r, 20));
        if (r.verdict == Verdict::fail) {
          std::string allowed;
          for (const auto& a : r.allowed) allowed += (allowed.empty() ? "" : ", ") + a;
          fmt::print("at vertex '{}': allowed {{{}}}, observed {}\n", g.name(r.fail_vertex), allowed,
                     r.observed.empty() ? "silence" : "'" + r.observed + "'");
        }
      }
    }
    results.push_back(std::move(r));
  }
  if (trace_out) trace_out->close();
  if (!o.junit.empty()) {
    Output junit(o.junit);
    write_junit(junit.stream(), g, results,
                JunitInfo{.suite = "playtest run " + o.input.path, .classname = "playtest." + o.strategy,
                          .strategy = o.strategy});
    junit.close();
  }
  if (!o.report.empty()) {
    report::Report rep{.title = "playtest run " + o.input.path, .tool_version = PLAYTEST_VERSION, .model = &g,
                       .model_name = o.input.path};
    for (std::size_t i = 0; i < results.size(); ++i)
      rep.runs.push_back(report::run_record(g, results[i], static_cast<std::uint32_t>(i + 1),
                                            {.strategy = o.strategy, .model = o.input.path, .replay = replay(results[i].seed)}));
    Output out(o.report);
    report::write_html_report(out.stream(), rep);
    out.close();
  }
  Coverage total = coverage_of(g, visits);
  if (o.json) {
    nlohmann::json j;
    j["verdict"] = std::string(to_string(overall));
    j["exit_code"] = exit_code_of(overall);
    j["strategy"] = o.strategy;
    j["coverage"] = coverage_json(total);
    j["runs"] = nlohmann::json::array();
    for (const RunResult& r : results) {
      nlohmann::json jr = {{"verdict", std::string(to_string(r.verdict))},
                           {"message", r.message},
                           {"seed", r.seed},
                           {"steps", r.steps},
                           {"resets", r.resets},
                           {"elapsed_ms", r.elapsed_ms},
                           {"purpose_met", r.purpose_met},
                           {"final_vertex", std::string(g.name(r.final_vertex))},
                           {"coverage", coverage_json(r.coverage)}};
      if (r.verdict == Verdict::inconclusive) {
        jr["uncovered_purpose_edges"] = nlohmann::json::array();
        for (EdgeId e : report::uncovered_purpose_edges(g, ro.purpose, r.edge_visits))
          jr["uncovered_purpose_edges"].push_back({{"edge", std::string(g.name(e))},
                                                   {"label", std::string(g.label(e))},
                                                   {"from", std::string(g.name(g.source(e)))},
                                                   {"to", std::string(g.name(g.target(e)))}});
      }
      if (r.verdict == Verdict::fail)
        jr["failure"] = {{"vertex", std::string(g.name(r.fail_vertex))},
                         {"allowed", r.allowed},
                         {"observed", r.observed.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.observed)}};
      j["runs"].push_back(std::move(jr));
    }
    fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
  } else {
    fmt::print("coverage: {}/{} edges, {}/{} labels\n", total.edges_covered, total.edges_total, total.labels_covered,
               total.labels_total);
    fmt::print("verdict: {}\n", to_string(overall));
  }
  return exit_code_of(overall);
}

const Registration reg{"run", 60, [](CLI::App& app) {
  auto o = std::make_shared<Options>();
  auto* sub = app.add_subcommand(
      "run",
      "Test a live system: play a strategy against COMMAND through the adapter protocol (docs/adapter-protocol.md).\n"
      "Exit codes: 0 PASS, 1 FAIL, 4 INCONCLUSIVE, 3 ERROR (adapter died, garbage, hang), 2 usage/input error.");
  add_input_options(sub, o->input);
  sub->add_option("--sut", o->sut, "Adapter command, run with /bin/sh -c")->required();
  sub->add_option("--strategy", o->strategy, "One of: " + strategy_list())->default_val("random");
  sub->add_option("--purpose", o->purpose, "reach (a goal), cover (edges), none (just run the budget), auto")
      ->check(CLI::IsMember({"auto", "reach", "cover", "none"}))
      ->default_val("auto");
  sub->add_option("--goal", o->goals, "Goal vertex (repeatable; default: the graph's goals)");
  sub->add_option("--traps", o->traps,
                  "Test purpose as traps, comma-separated: all, model (meta.traps), edge ids, labels, globs (* ?), "
                  "id:/label: prefixes; the run covers them (docs/planning.md)")
      ->delimiter(',');
  sub->add_option("--edge", o->edges, "Edge id or label to cover (repeatable; default: every edge)");
  sub->add_option("--steps", o->steps, "Step budget per run (0: none)")->default_val(1000);
  sub->add_option("--time", o->time_s, "Wall-clock budget per run in seconds (0: none)")->default_val(0)->check(non_negative_finite());
  sub->add_option("--timeout-ms", o->timeout_ms, "Wait for an output at a passive vertex")->default_val(1000);
  sub->add_option("--vertex-timeout", o->vertex_timeouts, "VERTEX=MS: the wait at one passive vertex (repeatable)");
  sub->add_option("--ack-timeout-ms", o->ack_timeout_ms, "Wait for the adapter's ack of a stimulus")->default_val(5000);
  sub->add_option("--ready-timeout-ms", o->ready_timeout_ms, "Wait for the adapter's ready (start, reset)")->default_val(5000);
  sub->add_option("--bound", o->bound, "reach: the game bound n (default: 2 * vertices + 2; restarted when spent)");
  add_torx_options(sub, o->torx);
  sub->add_flag("--planner-exact", o->planner_exact,
                "planner: the paper's exact gain at any size (no planning horizon; slow on large graphs, "
                "docs/planning.md)");
  sub->add_option("--runs", o->runs, "Number of runs (run i uses seed S+i-1)")->default_val(1)->check(positive_integer());
  sub->add_option("--seed", o->seed, "Seed of the strategy's random choices")->default_val(0);
  sub->add_option("--trace", o->trace, "Write the JSON-lines trace of every step here (flushed per step)");
  sub->add_option("--junit", o->junit, "Write a JUnit XML report here");
  sub->add_option("--report", o->report,
                  "Write a self-contained HTML report here: verdicts, replay commands, the model with coverage, "
                  "the path to each failure (docs/testing.md)");
  sub->add_option("--sut-stderr", o->sut_stderr, "The adapter's stderr: inherit (default), discard, or a FILE (appended)");
  sub->add_flag("--json", o->json, "Print the result as JSON");
  sub->add_flag("--quiet", o->quiet, "Print only the coverage and the verdict");
  return [o] { return run(*o); };
}};

}  // namespace
}  // namespace playtest::cli
