#include "playtest/run/campaign.hpp"

namespace playtest {

CampaignResult run_campaign(const Runner& runner, Policy& policy, Adapter& adapter, const CampaignOptions& options,
                            CampaignObserver* observer) {
  const TestGraph& g = runner.graph();
  CampaignResult c;
  c.edge_visits.assign(g.num_edges(), 0);
  c.runs_requested = options.runs;
  const StopSignal* stop = runner.options().stop;
  for (std::uint32_t i = 1; i <= options.runs; ++i) {
    if (stop != nullptr && stop->requested() && !c.runs.empty()) break;
    const std::uint64_t seed = campaign_seed(options.seed, i);
    if (observer) observer->on_run_begin(i, seed);
    RunResult r = runner.run(policy, adapter, observer, seed);
    for (std::size_t e = 0; e < c.edge_visits.size(); ++e) c.edge_visits[e] += r.edge_visits[e];
    c.verdict = c.runs.empty() ? r.verdict : combine(c.verdict, r.verdict);
    if (r.interrupted) {
      c.interrupted = true;
      c.signal = r.signal;
    }
    c.runs.push_back(std::move(r));
    if (c.interrupted) break;
  }
  c.coverage = coverage_of(g, c.edge_visits);
  return c;
}

}  // namespace playtest
