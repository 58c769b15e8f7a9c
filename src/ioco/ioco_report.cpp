#include "playtest/ioco/ioco_report.hpp"

#include <fmt/format.h>

#include <ostream>
#include <sstream>

#include "playtest/base/error.hpp"

namespace playtest::ioco {
namespace {

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

}  // namespace

void write_ioco_text(std::ostream& out, const IocoResult& r, const std::string& spec_name,
                     const std::string& impl_name) {
  if (r.conforms) {
    out << fmt::format("PASS: {} ioco {} ({} state-set pairs explored)\n", impl_name, spec_name, r.pairs_explored);
    return;
  }
  const std::vector<std::string> sigma(r.counterexample.begin(), r.counterexample.end() - 1);
  out << fmt::format("FAIL: {} is not ioco {}\n", impl_name, spec_name);
  out << fmt::format("  counterexample: {}\n", join(r.counterexample));
  out << fmt::format("  after '{}' the implementation can give '{}'; the specification allows only: {}\n", join(sigma),
                     r.counterexample.back(), join(r.allowed));
}

nlohmann::json ioco_json(const IocoResult& r, const std::string& spec_name, const std::string& impl_name) {
  nlohmann::json j{
      {"spec", spec_name}, {"impl", impl_name}, {"conforms", r.conforms}, {"pairs_explored", r.pairs_explored}};
  if (!r.conforms) {
    j["counterexample"] = r.counterexample;
    j["allowed"] = r.allowed;
    j["implemented"] = r.implemented;
  }
  return j;
}

TorxReport analyze_torx(const Lts& spec, const Lts& impl, const TorxReportOptions& o) {
  if (o.list_fail_traces && o.torx.max_length == 0)
    throw UsageError("fail_traces", "needs a maximal length (max_length)");
  TorxReport r;
  r.options = o;
  for (const std::string& text : o.sequences) {
    TorxReport::Sequence s{split_trace(text), 0};
    s.probability = torx_trace_probability(spec, impl, s.trace, o.torx);
    r.sequences.push_back(std::move(s));
  }
  r.exact = torx_exact(spec, impl, o.torx);
  if (o.list_fail_traces) {
    r.fail_traces = fail_traces(spec, impl, o.torx.max_length, o.torx);
    for (const auto& f : r.fail_traces) r.fail_traces_sum += f.probability;
  }
  if (o.simulate_runs > 0) {
    const std::vector<std::string> first = r.sequences.empty() ? std::vector<std::string>{} : r.sequences[0].trace;
    r.simulation = simulate_torx(spec, impl, o.torx, o.simulate_runs, o.seed, first);
  }
  return r;
}

void write_torx_text(std::ostream& out, const TorxReport& r) {
  const TorxOptions& t = r.options.torx;
  out << fmt::format("TorX p1 (stop) = {:.6g}, p2 (input) = {:.6g}, p3 (observe) = {:.6g}, max length {}\n", t.p_stop,
                     t.p_input, t.p_observe, t.max_length ? std::to_string(t.max_length) : "none");
  for (const auto& s : r.sequences)
    out << fmt::format("P(trace '{}') = {:.6g}   (Lemma 3.1)\n", join(s.trace), s.probability);
  const TorxOutcome& ex = r.exact;
  out << fmt::format(
      "P(FAIL in one run) = {:.6g}   (exact; PASS by stopping {:.6g}, input refused {:.6g}, unresolved {:.3g})\n",
      ex.fail, ex.pass_stop, ex.pass_refused, ex.unresolved);
  if (r.options.list_fail_traces) {
    for (const auto& f : r.fail_traces)
      out << fmt::format("  fail trace {:<24} inputs:outputs {}:{}  P = {:.6g}\n", join(f.trace), f.inputs, f.outputs,
                         f.probability);
    out << fmt::format("  sum over the fail traces = {:.6g}\n", r.fail_traces_sum);
  }
  if (r.simulation) {
    const TorxSimulation& s = *r.simulation;
    out << fmt::format("simulation: {} runs (seed {}): FAIL rate {:.6g}\n", s.runs, r.options.seed,
                       static_cast<double>(s.fails) / static_cast<double>(s.runs));
    if (!r.sequences.empty())
      out << fmt::format("simulation: trace '{}' occurred in {:.6g} of the runs\n", join(r.sequences[0].trace),
                         static_cast<double>(s.watch_hits) / static_cast<double>(s.runs));
  }
}

nlohmann::json torx_json(const TorxReport& r) {
  const TorxOptions& t = r.options.torx;
  nlohmann::json j{
      {"p_stop", t.p_stop}, {"p_input", t.p_input}, {"p_observe", t.p_observe}, {"max_length", t.max_length}};
  for (const auto& s : r.sequences) j["traces"].push_back({{"trace", s.trace}, {"probability", s.probability}});
  const TorxOutcome& ex = r.exact;
  j["exact"] = {{"fail", ex.fail},
                {"pass_stop", ex.pass_stop},
                {"pass_refused", ex.pass_refused},
                {"unresolved", ex.unresolved},
                {"levels", ex.levels}};
  if (r.options.list_fail_traces) {
    j["fail_traces"] = nlohmann::json::array();
    for (const auto& f : r.fail_traces)
      j["fail_traces"].push_back(
          {{"trace", f.trace}, {"inputs", f.inputs}, {"outputs", f.outputs}, {"probability", f.probability}});
    j["fail_traces_sum"] = r.fail_traces_sum;
  }
  if (r.simulation) {
    const TorxSimulation& s = *r.simulation;
    j["simulation"] = {
        {"runs", s.runs},           {"seed", r.options.seed},
        {"fails", s.fails},         {"fail_rate", static_cast<double>(s.fails) / static_cast<double>(s.runs)},
        {"pass_stop", s.pass_stop}, {"pass_refused", s.pass_refused}};
    if (!r.sequences.empty()) j["simulation"]["first_trace_hits"] = s.watch_hits;
  }
  return j;
}

}  // namespace playtest::ioco
