#include "playtest/run/run_output.hpp"

#include <fmt/format.h>

#include <ostream>

#include "playtest/graph/names.hpp"
#include "playtest/run/trace_writer.hpp"

namespace playtest {

std::vector<EdgeId> purpose_edges_left(const Runner& runner, const RunResult& r) {
  std::vector<EdgeId> left;
  if (r.purpose_met || runner.options().purpose.kind != TestPurpose::Kind::cover) return left;
  const TestGraph& g = runner.graph();
  const auto purpose = runner.purpose_edges();
  for (EdgeId e : g.edges())
    if ((purpose.empty() || purpose[e.index()]) && r.edge_visits[e.index()] == 0) left.push_back(e);
  return left;
}

namespace {

nlohmann::json coverage_json(const Coverage& c) {
  return {{"edges_covered", c.edges_covered},
          {"edges_total", c.edges_total},
          {"labels_covered", c.labels_covered},
          {"labels_total", c.labels_total}};
}

std::string quoted_list(const std::vector<std::string>& items) {
  std::string s;
  for (const auto& a : items) s += (s.empty() ? "" : ", ") + a;
  return s;
}

}  // namespace

void write_run_text(std::ostream& out, const Runner& runner, const RunResult& r, std::uint32_t run_index,
                    const RunOutputOptions& o) {
  const TestGraph& g = runner.graph();
  out << fmt::format("run {} (seed {}): {} after {} steps, {} resets, {:.1f} ms: {}\n", run_index, r.seed,
                     to_string(r.verdict), r.steps, r.resets, r.elapsed_ms, r.message);
  if ((r.verdict == Verdict::fail || r.verdict == Verdict::error) && !r.trace.empty())
    out << "trace (last steps):\n" << format_trace(g, r, o.trace_steps);
  if (r.verdict == Verdict::fail)
    out << fmt::format("at vertex '{}': allowed {{{}}}, observed {}\n", g.name(r.fail_vertex), quoted_list(r.allowed),
                       r.observed.empty() ? "silence" : "'" + r.observed + "'");
  if (r.verdict == Verdict::inconclusive) {
    const std::vector<EdgeId> left = purpose_edges_left(runner, r);
    if (!left.empty()) {
      out << fmt::format("purpose edges left uncovered: {} of {}\n", left.size(), runner.purpose_edge_count());
      for (std::size_t i = 0; i < left.size() && i < o.purpose_listed; ++i)
        out << "  " << describe_edge(g, left[i]) << '\n';
      if (left.size() > o.purpose_listed) out << fmt::format("  ... and {} more\n", left.size() - o.purpose_listed);
    } else if (runner.options().purpose.kind == TestPurpose::Kind::reach && !r.purpose_met) {
      out << "purpose left unmet: no goal vertex was reached\n";
    }
  }
}

void write_campaign_text(std::ostream& out, const Runner& runner, const CampaignResult& c, const RunOutputOptions& o) {
  if (o.per_run)
    for (std::size_t i = 0; i < c.runs.size(); ++i)
      write_run_text(out, runner, c.runs[i], static_cast<std::uint32_t>(i + 1), o);
  out << fmt::format("coverage: {}/{} edges, {}/{} labels\n", c.coverage.edges_covered, c.coverage.edges_total,
                     c.coverage.labels_covered, c.coverage.labels_total);
  if (c.interrupted)
    out << fmt::format("interrupted by {} after {} of {} runs\n",
                       c.signal != 0 ? signal_name(c.signal) : "a stop request", c.runs.size(), c.runs_requested);
  out << fmt::format("verdict: {}\n", to_string(c.verdict));
}

nlohmann::json campaign_json(const Runner& runner, const CampaignResult& c, std::string_view strategy) {
  const TestGraph& g = runner.graph();
  nlohmann::json j;
  j["verdict"] = std::string(to_string(c.verdict));
  j["strategy"] = std::string(strategy);
  j["coverage"] = coverage_json(c.coverage);
  j["interrupted"] = c.interrupted;
  j["runs_requested"] = c.runs_requested;
  if (c.interrupted) j["signal"] = c.signal != 0 ? nlohmann::json(signal_name(c.signal)) : nlohmann::json(nullptr);
  j["runs"] = nlohmann::json::array();
  for (const RunResult& r : c.runs) {
    nlohmann::json jr = {{"verdict", std::string(to_string(r.verdict))},
                         {"message", r.message},
                         {"seed", r.seed},
                         {"steps", r.steps},
                         {"resets", r.resets},
                         {"elapsed_ms", r.elapsed_ms},
                         {"purpose_met", r.purpose_met},
                         {"final_vertex", std::string(g.name(r.final_vertex))},
                         {"coverage", coverage_json(r.coverage)}};
    if (r.interrupted) jr["interrupted"] = true;
    if (r.verdict == Verdict::fail)
      jr["failure"] = {{"vertex", std::string(g.name(r.fail_vertex))},
                       {"allowed", r.allowed},
                       {"observed", r.observed.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.observed)}};
    if (r.verdict == Verdict::inconclusive) {
      const std::vector<EdgeId> left = purpose_edges_left(runner, r);
      if (!left.empty()) {
        nlohmann::json jl = nlohmann::json::array();
        for (EdgeId e : left)
          jl.push_back({{"edge", std::string(g.name(e))},
                        {"label", std::string(g.label(e))},
                        {"from", std::string(g.name(g.source(e)))},
                        {"to", std::string(g.name(g.target(e)))}});
        jr["purpose_left"] = std::move(jl);
      }
    }
    j["runs"].push_back(std::move(jr));
  }
  return j;
}

}  // namespace playtest
