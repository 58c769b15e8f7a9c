// playtest merge FILES... [--junit OUT.xml] [--trace OUT.jsonl] [--json]: put the outputs of the
// shards of a campaign (run --shard K/M, simulate --shard K/M) back together into what the unsharded
// campaign would have produced; each file's kind (trace, JUnit, run/simulate --json) is read from its
// content. Exit code as `run`: the combined verdict's (0 for a simulation).
#include "command.hpp"
#include "common.hpp"
#include "playtest/base/error.hpp"
#include "playtest/base/source_text.hpp"
#include "playtest/campaign/merge.hpp"

namespace playtest::cli {
namespace {

struct Options {
  std::vector<std::string> files;
  std::string junit, trace;
  bool json = false;
};

int run(const Options& o) {
  std::vector<CampaignPart> parts;
  for (const std::string& f : o.files) parts.push_back(read_campaign_part(read_source_text(f), f));
  const MergedCampaign m = merge_campaign(std::move(parts));
  if (!o.junit.empty()) {
    if (!m.junit) throw UsageError("junit", "no JUnit file among the inputs: there is nothing to merge into one");
    Output out(o.junit);
    write_junit(out.stream(), *m.junit);
    out.close();
  }
  if (!o.trace.empty()) {
    if (!m.trace) throw UsageError("trace", "no trace among the inputs: there is nothing to merge into one");
    Output out(o.trace);
    for (const std::string& line : *m.trace) out.stream() << line << '\n';
    out.close();
  }
  const int code = m.simulate                       ? exit_code(Outcome::done)
                   : m.interrupted && m.signal != 0 ? stopped_exit_code(m.signal)
                                                    : exit_code_of(m.verdict);
  if (o.json) {
    nlohmann::json j = m.simulate ? comparison_json(*m.comparison) : m.summary;
    if (!m.simulate) j["exit_code"] = code;
    print_json(j);
  } else {
    write_merged_text(std::cout, m);
  }
  return code;
}

const Registration reg{
    "merge", 62, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* sub = app.add_subcommand(
          "merge",
          "Put the outputs of a sharded campaign (run --shard K/M, simulate --shard K/M) back together: what the "
          "unsharded campaign would have produced.\n"
          "Each FILE is a run trace, a JUnit file of playtest run, or run/simulate --json output (told by its "
          "content); every shard must be there once.\n"
          "Exit codes as run: 0 PASS, 1 FAIL, 4 INCONCLUSIVE, 3 ERROR, 128+N interrupted; 0 for simulations; 2 "
          "inputs that do not belong together; 6 an output not written.");
      sub->add_option("FILES", o->files, "The shards' outputs")->required();
      sub->add_option("--junit", o->junit, "Write the merged JUnit XML here (needs the shards' JUnit files)");
      sub->add_option("--trace", o->trace, "Write the merged JSON-lines trace here (needs the shards' traces)");
      sub->add_flag("--json", o->json, "Print the merged result as run --json (or simulate --json) would");
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
