// playtest ioco: input/output conformance (seed 004). `ioco check SPEC IMPL` decides impl ioco spec
// with a shortest counterexample; `ioco torx-prob MODEL` computes the probabilities of the TorX
// algorithm with probabilities p1/p2/p3 (Lemma 3.1, one-run FAIL probability), exactly and by
// simulation. See docs/ioco.md.
#include "command.hpp"
#include "common.hpp"
#include "option_checks.hpp"
#include "playtest/ioco/ioco_report.hpp"
#include "playtest/ioco/lts_io.hpp"
#include "torx_option.hpp"

namespace playtest::cli {
namespace {

using namespace playtest::ioco;

struct Options {
  std::string spec, impl;
  std::vector<std::string> inputs, outputs;
  std::uint32_t max_sets = 1'000'000;
  TorxCliOptions torx;
  TorxReportOptions report;
  bool json = false;
  LtsReadOptions read() const { return {.inputs = inputs, .outputs = outputs}; }
};

void add_common(CLI::App* sub, Options& o) {
  sub->add_option("--inputs", o.inputs, "Labels that are inputs (comma-separated or repeated)")->delimiter(',');
  sub->add_option("--outputs", o.outputs, "Labels that are outputs (comma-separated or repeated)")->delimiter(',');
  sub->add_flag("--json", o.json, "Print the result as JSON");
}

int run_check(const Options& o) {
  const IocoResult r = check_ioco(load_lts(o.impl, o.read()), load_lts(o.spec, o.read()), {.max_sets = o.max_sets});
  if (o.json)
    print_json(ioco_json(r, o.spec, o.impl));
  else
    write_ioco_text(std::cout, r, o.spec, o.impl);
  return exit_code(r.conforms ? Outcome::conforms : Outcome::does_not_conform);
}

int run_prob(Options o) {
  const Lts spec = load_lts(o.spec, o.read());
  const Lts impl = o.impl.empty() ? spec : load_lts(o.impl, o.read());
  o.report.torx = resolve_torx_options(o.torx);
  const TorxReport r = analyze_torx(spec, impl, o.report);
  if (!o.json) {
    write_torx_text(std::cout, r);
    return exit_code(Outcome::done);
  }
  nlohmann::json j = torx_json(r);
  j["model"] = o.spec;
  j["impl"] = o.impl.empty() ? o.spec : o.impl;
  print_json(j);
  return exit_code(Outcome::done);
}

Registration reg{
    "ioco", 60, [](CLI::App& app) -> std::function<int()> {
      auto* ioco =
          app.add_subcommand("ioco", "Input/output conformance of labelled transition systems (.aut, lts/1 JSON)");
      ioco->require_subcommand(1);
      auto check = std::make_shared<Options>();
      auto* c = ioco->add_subcommand("check", "Decide IMPL ioco SPEC; exit 0 if it conforms, 1 with a counterexample");
      c->add_option("SPEC", check->spec, "Specification (.aut or lts/1 JSON)")->required();
      c->add_option("IMPL", check->impl, "Implementation (.aut or lts/1 JSON)")->required();
      c->add_option("--max-sets", check->max_sets, "Bound on the state sets of each suspension automaton");
      add_common(c, *check);
      auto prob = std::make_shared<Options>();
      auto* p = ioco->add_subcommand("torx-prob",
                                     "Probabilities of the TorX algorithm with p1/p2/p3 (seed 004 §3): of traces "
                                     "(Lemma 3.1) and of a FAIL verdict in one run, exact and simulated");
      p->add_option("MODEL", prob->spec, "Specification (.aut or lts/1 JSON)")->required();
      p->add_option("--impl", prob->impl, "Simulated implementation (default: the specification itself)");
      p->add_option("--sequence", prob->report.sequences,
                    "A trace, labels separated by spaces ('null' = 'delta'); repeatable");
      // --trace is an output file in run; here it was a label sequence.
      add_deprecated_alias(p, "--trace", "--sequence", prob->report.sequences);
      add_torx_options(p, prob->torx);
      p->add_flag("--fail-traces", prob->report.list_fail_traces,
                  "List every Fail trace up to --max-length with its probability");
      p->add_option("--simulate", prob->report.simulate_runs,
                    "Also simulate this many runs of TorxPolicy on the test graph");
      add_seed_option(p, prob->report.seed, "Seed of the simulation");
      add_common(p, *prob);
      return [c, p, check, prob]() -> int {
        if (c->parsed()) return run_check(*check);
        if (p->parsed()) return run_prob(*prob);
        return exit_code(ErrorKind::usage);
      };
    }};

}  // namespace
}  // namespace playtest::cli
