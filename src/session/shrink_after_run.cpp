#include "playtest/session/shrink_after_run.hpp"

#include "playtest/base/output_file.hpp"
#include "playtest/campaign/trace_writer.hpp"

namespace playtest {

ShrinkDone shrink_to_file(const TestGraph& g, const ReplayTarget& target, Adapter& adapter, const RunOptions& run,
                          const ShrinkToFileOptions& o, std::uint64_t seed) {
  ShrinkOptions so = o.shrink;
  so.replay.run = run;
  so.replay.run.purpose = {};
  so.replay.run.max_steps = 2 * target.steps.size() + 100;
  OutputFile out(o.output);  // opened first: a bad path is an error before minutes of shrinking
  ShrinkDone d{shrink(g, target, adapter, so), {.trace = o.trace, .model = o.model}};
  if (d.result.witness) {
    write_trace(out.stream(), g, d.result.witness->result, {.seed = seed, .model = o.model, .params = o.params});
    d.context.output = o.output;
    if (o.replay) d.context.replay_command = o.replay(o.output);
    out.commit();
  } else {
    out.discard();  // nothing failed: no trace (and a previous one is kept)
  }
  return d;
}

std::optional<ShrinkDone> shrink_first_failure(const TestGraph& g, const CampaignResult& c, const RunOptions& run,
                                               SubprocessOptions adapter, ShrinkToFileOptions o) {
  if (o.output.empty() || c.interrupted) return std::nullopt;
  for (const RunResult& r : c.runs)
    if (r.verdict == Verdict::fail) {
      adapter.stop = run.stop;
      SubprocessAdapter instance(job_options(adapter, 1));  // {job} and PLAYTEST_JOB as in the campaign
      if (o.trace.empty()) o.trace = "the failing run";
      return shrink_to_file(g, replay_target(g, r), instance, run, o, r.seed);
    }
  return std::nullopt;
}

}  // namespace playtest
