#include "playtest/report/run_record.hpp"

#include <fmt/format.h>

namespace playtest::report {

namespace {

RunRecord record_of(const GameGraph& g, const RunResult& r, std::uint32_t run, const RunContext& context) {
  RunRecord out;
  out.run = run;
  out.seed = r.seed;
  out.strategy = context.strategy;
  out.model = context.model;
  out.replay = context.replay;
  out.verdict = r.verdict;
  out.message = r.message;
  out.steps = r.steps;
  out.resets = r.resets;
  out.elapsed_ms = r.elapsed_ms;
  if (r.verdict == Verdict::fail) {
    out.fail_vertex = g.vertex_name(r.fail_vertex);
    out.allowed = r.allowed;
    if (!r.observed.empty()) out.observed = r.observed;
  }
  for (const OutcomeClaim& c : r.stopped_by)
    out.stopped_by.push_back({.vertex = g.vertex_name(c.vertex),
                              .label = std::string(g.label(c.outcome)),
                              .edge = g.is_explored() ? g.edge_name(c.outcome) : std::string(),
                              .visits = c.visits,
                              .histories = c.histories,
                              .rate = c.rate,
                              .confidence = c.confidence,
                              .edges_behind = c.edges_behind,
                              .text = describe_claim(g, c)});
  out.untestable_edges = r.untestable_edges;
  out.trace.reserve(r.trace.size());
  for (const TraceStep& s : r.trace) {
    StepRecord x{.step = s.step, .time_ms = s.time_ms, .kind = s.kind, .vertex = g.vertex_name(s.from)};
    if (s.kind != StepKind::reset) x.label = s.label;
    // (On the fly edge ids are in discovery order, not the explored graph's: left out, as in traces.)
    if (g.is_explored() && !s.edge.is_none()) x.edge = g.edge_name(s.edge);
    if (s.kind != StepKind::unexpected && s.kind != StepKind::silence) x.to = g.vertex_name(s.to);
    out.trace.push_back(std::move(x));
  }
  return out;
}

}  // namespace

RunRecord run_record(const GameGraph& g, const RunResult& r, std::uint32_t run, const RunContext& context) {
  return record_of(g, r, run, context);
}

}  // namespace playtest::report
