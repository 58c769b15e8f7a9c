// playtest ioco: input/output conformance (seed 004). `ioco check SPEC IMPL` decides impl ioco spec
// with a shortest counterexample; `ioco torx-prob MODEL` computes the probabilities of the TorX
// algorithm with probabilities p1/p2/p3 (Lemma 3.1, one-run FAIL probability), exactly and by
// simulation. See docs/ioco.md.
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "command.hpp"
#include "option_checks.hpp"
#include "common.hpp"
#include "playtest/error.hpp"
#include "playtest/ioco/ioco_check.hpp"
#include "playtest/ioco/lts_io.hpp"
#include "playtest/ioco/torx_analysis.hpp"
#include "torx_option.hpp"

namespace playtest::cli {
namespace {

using namespace playtest::ioco;

struct LabelOptions {
  std::vector<std::string> inputs, outputs;
  LtsReadOptions read() const { return {.inputs = inputs, .outputs = outputs}; }
};

void add_label_options(CLI::App* sub, LabelOptions& o) {
  sub->add_option("--inputs", o.inputs, "Labels that are inputs (comma-separated or repeated)")->delimiter(',');
  sub->add_option("--outputs", o.outputs, "Labels that are outputs (comma-separated or repeated)")->delimiter(',');
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s;
}

std::vector<std::string> split_trace(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> r;
  for (std::string w; in >> w;) r.push_back(canonical_label(w));
  return r;
}

// ---- check ----
struct CheckOptions {
  std::string spec, impl;
  LabelOptions labels;
  std::uint32_t max_sets = 1'000'000;
  bool json = false;
};

int run_check(const CheckOptions& o) {
  const Lts spec = load_lts(o.spec, o.labels.read());
  const Lts impl = load_lts(o.impl, o.labels.read());
  const IocoResult r = check_ioco(impl, spec, {.max_sets = o.max_sets});
  if (o.json) {
    nlohmann::json j{{"spec", o.spec}, {"impl", o.impl}, {"conforms", r.conforms},
                     {"pairs_explored", r.pairs_explored}};
    if (!r.conforms) {
      j["counterexample"] = r.counterexample;
      j["allowed"] = r.allowed;
      j["implemented"] = r.implemented;
    }
    fmt::print("{}\n", j.dump(2));
  } else if (r.conforms) {
    fmt::print("PASS: {} ioco {} ({} state-set pairs explored)\n", o.impl, o.spec, r.pairs_explored);
  } else {
    std::vector<std::string> sigma(r.counterexample.begin(), r.counterexample.end() - 1);
    fmt::print("FAIL: {} is not ioco {}\n", o.impl, o.spec);
    fmt::print("  counterexample: {}\n", join(r.counterexample));
    fmt::print("  after '{}' the implementation can give '{}'; the specification allows only: {}\n", join(sigma),
               r.counterexample.back(), join(r.allowed));
  }
  return r.conforms ? exit_ok : exit_fail;
}

// ---- torx-prob ----
struct ProbOptions {
  std::string model, impl;
  LabelOptions labels;
  std::vector<std::string> traces;
  TorxCliOptions torx;
  bool list_fail = false;
  std::uint64_t runs = 0, seed = 1;
  bool json = false;
};

int run_prob(const ProbOptions& o) {
  const Lts spec = load_lts(o.model, o.labels.read());
  const Lts impl = o.impl.empty() ? spec : load_lts(o.impl, o.labels.read());
  const TorxOptions t = resolve_torx_options(o.torx);
  nlohmann::json j{{"model", o.model}, {"impl", o.impl.empty() ? o.model : o.impl},
                   {"p_stop", t.p_stop}, {"p_input", t.p_input}, {"p_observe", t.p_observe},
                   {"max_length", t.max_length}};
  if (!o.json)
    fmt::print("TorX p1 (stop) = {:.6g}, p2 (input) = {:.6g}, p3 (observe) = {:.6g}, max length {}\n", t.p_stop,
               t.p_input, t.p_observe, t.max_length ? std::to_string(t.max_length) : "none");
  for (const auto& text : o.traces) {
    const auto tr = split_trace(text);
    const double p = torx_trace_probability(spec, impl, tr, t);
    j["traces"].push_back({{"trace", tr}, {"probability", p}});
    if (!o.json) fmt::print("P(trace '{}') = {:.6g}   (Lemma 3.1)\n", join(tr), p);
  }
  const TorxOutcome ex = torx_exact(spec, impl, t);
  j["exact"] = {{"fail", ex.fail}, {"pass_stop", ex.pass_stop}, {"pass_refused", ex.pass_refused},
                {"unresolved", ex.unresolved}, {"levels", ex.levels}};
  if (!o.json)
    fmt::print("P(FAIL in one run) = {:.6g}   (exact; PASS by stopping {:.6g}, input refused {:.6g}, unresolved {:.3g})\n",
               ex.fail, ex.pass_stop, ex.pass_refused, ex.unresolved);
  if (o.list_fail) {
    if (t.max_length == 0) throw Error("--fail-traces needs --max-length");
    double sum = 0.0;
    for (const auto& f : fail_traces(spec, impl, t.max_length, t)) {
      sum += f.probability;
      j["fail_traces"].push_back(
          {{"trace", f.trace}, {"inputs", f.inputs}, {"outputs", f.outputs}, {"probability", f.probability}});
      if (!o.json)
        fmt::print("  fail trace {:<24} inputs:outputs {}:{}  P = {:.6g}\n", join(f.trace), f.inputs, f.outputs,
                   f.probability);
    }
    j["fail_traces_sum"] = sum;
    if (!o.json) fmt::print("  sum over the fail traces = {:.6g}\n", sum);
  }
  if (o.runs > 0) {
    const auto first = o.traces.empty() ? std::vector<std::string>{} : split_trace(o.traces.front());
    const TorxSimulation s = simulate_torx(spec, impl, t, o.runs, o.seed, first);
    const double f = static_cast<double>(s.fails) / static_cast<double>(s.runs);
    j["simulation"] = {{"runs", s.runs}, {"seed", o.seed}, {"fails", s.fails}, {"fail_rate", f},
                       {"pass_stop", s.pass_stop}, {"pass_refused", s.pass_refused}};
    if (!first.empty()) j["simulation"]["first_trace_hits"] = s.watch_hits;
    if (!o.json) {
      fmt::print("simulation: {} runs (seed {}): FAIL rate {:.6g}\n", s.runs, o.seed, f);
      if (!first.empty())
        fmt::print("simulation: trace '{}' occurred in {:.6g} of the runs\n", join(first),
                   static_cast<double>(s.watch_hits) / static_cast<double>(s.runs));
    }
  }
  if (o.json) fmt::print("{}\n", j.dump(2));
  return exit_ok;
}

Registration reg{"ioco", 60, [](CLI::App& app) -> std::function<int()> {
  auto* ioco = app.add_subcommand("ioco", "Input/output conformance of labelled transition systems (.aut, lts/1 JSON)");
  ioco->require_subcommand(1);
  auto check = std::make_shared<CheckOptions>();
  auto* c = ioco->add_subcommand("check", "Decide IMPL ioco SPEC; exit 0 if it conforms, 1 with a counterexample");
  c->add_option("SPEC", check->spec, "Specification (.aut or lts/1 JSON)")->required();
  c->add_option("IMPL", check->impl, "Implementation (.aut or lts/1 JSON)")->required();
  add_label_options(c, check->labels);
  c->add_option("--max-sets", check->max_sets, "Bound on the state sets of each suspension automaton");
  c->add_flag("--json", check->json, "Print the result as JSON");
  auto prob = std::make_shared<ProbOptions>();
  auto* p = ioco->add_subcommand("torx-prob",
                                 "Probabilities of the TorX algorithm with p1/p2/p3 (seed 004 §3): of traces "
                                 "(Lemma 3.1) and of a FAIL verdict in one run, exact and simulated");
  p->add_option("MODEL", prob->model, "Specification (.aut or lts/1 JSON)")->required();
  p->add_option("--impl", prob->impl, "Simulated implementation (default: the specification itself)");
  add_label_options(p, prob->labels);
  p->add_option("--sequence", prob->traces, "A trace, labels separated by spaces ('null' = 'delta'); repeatable");
  // --trace is an output file in run; here it was a label sequence.
  add_deprecated_alias(p, "--trace", "--sequence", prob->traces);
  add_torx_options(p, prob->torx);
  p->add_flag("--fail-traces", prob->list_fail, "List every Fail trace up to --max-length with its probability");
  p->add_option("--simulate", prob->runs, "Also simulate this many runs of TorxPolicy on the test graph");
  p->add_option("--seed", prob->seed, "Seed of the simulation");
  p->add_flag("--json", prob->json, "Print the results as JSON");
  return [c, p, check, prob]() -> int {
    if (c->parsed()) return run_check(*check);
    if (p->parsed()) return run_prob(*prob);
    return exit_usage;
  };
}};

}  // namespace
}  // namespace playtest::cli
