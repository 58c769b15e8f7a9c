#include "playtest/diagnose/learn.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "diagnose/detail/located.hpp"
#include "playtest/base/error.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/graph/transforms.hpp"

namespace playtest {

ObservationCounts::ObservationCounts(const TestGraph& g) : g_(g), edge_(g.num_edges(), 0) {}

void ObservationCounts::count(EdgeId e) {
  ++edge_[e.index()];
  ++observations_;
}

void ObservationCounts::count_unexpected(VertexId v, const std::string& label) {
  for (Unexpected& u : unexpected_)
    if (u.vertex == v && u.label == label) {
      ++u.count;
      return;
    }
  unexpected_.push_back({v, label, 1});
}

void ObservationCounts::add(const RecordedTrace& trace) {
  for (const RunRecord& run : trace.runs) {
    // Every step checked against the model as report and replay check it (resolve_run).
    const ResolvedRun resolved = resolve_run(g_, run);
    ++runs_;
    for (std::size_t i = 0; i < run.trace.size(); ++i) {
      const StepRecord& s = run.trace[i];
      if (s.kind == StepKind::unexpected || s.kind == StepKind::silence)
        count_unexpected(resolved.from[i], s.kind == StepKind::silence ? std::string() : s.label);
      else if (s.kind == StepKind::observation || s.kind == StepKind::timeout)
        count(resolved.edge[i]);
    }
  }
}

void ObservationCounts::add(const RunResult& r) {
  ++runs_;
  for (const TraceStep& s : r.trace) {
    if (s.kind == StepKind::observation || s.kind == StepKind::timeout) {
      if (!s.edge.is_none() && g_.is_passive(s.from)) count(s.edge);
    } else if (s.kind == StepKind::unexpected || s.kind == StepKind::silence) {
      count_unexpected(s.from, s.kind == StepKind::silence ? std::string() : s.label);
    }
  }
}

std::string_view to_string(PriorCenter c) { return c == PriorCenter::model ? "model" : "uniform"; }

PriorCenter parse_prior_center(std::string_view name) {
  if (name == "model") return PriorCenter::model;
  if (name == "uniform") return PriorCenter::uniform;
  throw UsageError("prior", fmt::format("unknown prior '{}'; expected model or uniform", name));
}

namespace {

void check_level(const char* parameter, double x) {
  if (!(x > 0 && x < 1)) throw UsageError(parameter, fmt::format("must lie strictly between 0 and 1, got {}", x));
}

}  // namespace

LearnResult learn(const TestGraph& g, const ObservationCounts& counts, const LearnOptions& o,
                  std::span<const std::string> sources) {
  // Above 10^12 visits the credible intervals cannot be computed in double precision (they came out
  // as points beside the estimate, or [0, 0]).
  if (!(o.prior_weight > 0) || !(o.prior_weight <= 1e12))
    throw UsageError("prior_weight",
                     fmt::format("the prior's weight must be above 0 and at most 1e12 visits (beyond, the credible "
                                 "intervals cannot be computed in double precision), got {}",
                                 o.prior_weight));
  check_level("confidence", o.confidence);
  check_level("significance", o.significance);
  if (counts.edge_counts().size() != g.num_edges()) throw InternalError("learn: counts of another graph");
  LearnResult r;
  r.options = o;
  r.runs = counts.runs();
  r.observations = counts.observations();
  std::vector<double> prob(g.num_edges(), 0.0);
  nlohmann::json counts_json = nlohmann::json::object();
  const double lo_q = (1.0 - o.confidence) / 2.0, hi_q = (1.0 + o.confidence) / 2.0;
  for (VertexId v : g.vertices()) {
    if (!g.is_passive(v)) continue;
    VertexEstimate ve;
    ve.vertex = v;
    const auto out = g.out_edges(v);
    const double k = out.size();
    for (EdgeId e : out) ve.visits += counts.edge_counts()[e.index()];
    const double total = o.prior_weight + double(ve.visits);
    std::vector<std::uint64_t> c;
    std::vector<double> p;
    for (EdgeId e : out) {
      OutcomeEstimate oe;
      oe.edge = e;
      oe.count = counts.edge_counts()[e.index()];
      oe.declared = g.probability(e);
      // The Beta marginal's parameters, each summed from its parts (b as total - a would cancel to 0
      // when the prior's share is below the rounding of the counts).
      const double share = o.prior == PriorCenter::model ? oe.declared : 1.0 / k;
      const double a = o.prior_weight * share + double(oe.count);
      const double b = o.prior_weight * (1.0 - share) + double(ve.visits - oe.count);
      if (out.size() == 1) {
        oe.estimate = oe.low = oe.high = 1.0;
      } else if (a <= 0 || b <= 0) {  // the prior rules it out (or in) and nothing was seen otherwise
        oe.estimate = oe.low = oe.high = a <= 0 ? 0.0 : 1.0;
      } else {
        oe.estimate = a / total;
        oe.low = beta_quantile(lo_q, a, b);
        oe.high = beta_quantile(hi_q, a, b);
      }
      if (oe.count == 0) oe.chance_unseen = std::pow(1.0 - oe.declared, double(ve.visits));
      prob[e.index()] = oe.estimate;
      c.push_back(oe.count);
      p.push_back(oe.declared);
      ve.outcomes.push_back(oe);
    }
    if (ve.visits > 0) {
      ++r.visited;
      nlohmann::json ej = nlohmann::json::object();
      for (const OutcomeEstimate& oe : ve.outcomes) ej[std::string(g.name(oe.edge))] = oe.count;
      counts_json[std::string(g.name(v))] = {{"visits", ve.visits}, {"edges", std::move(ej)}};
      if (out.size() >= 2) {
        ve.fit = goodness_of_fit(c, p, o.method);
        ve.flagged = ve.fit->p_value < o.significance;
        ++r.tested;
        r.flagged += ve.flagged;
      }
    }
    for (const ObservationCounts::Unexpected& u : counts.unexpected())
      if (u.vertex == v) ve.unexpected.push_back(u);
    r.vertices.push_back(std::move(ve));
  }
  nlohmann::json meta = g.meta_json().empty() ? nlohmann::json::object() : nlohmann::json::parse(g.meta_json());
  if (!meta.is_object()) meta = nlohmann::json{{"model_meta", std::move(meta)}};
  meta["learned"] = {{"prior", std::string(to_string(o.prior))},
                     {"prior_weight", o.prior_weight},
                     {"runs", r.runs},
                     {"observations", r.observations},
                     {"sources", std::vector<std::string>(sources.begin(), sources.end())},
                     {"counts", std::move(counts_json)}};
  r.learned = with_probabilities(g, prob, meta.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  return r;
}

}  // namespace playtest
