// End to end: campaigns at scale. `run --jobs N` gives the results of one job; {job} and PLAYTEST_JOB
// tell the adapters apart; `--shard K/M` outputs merged by `playtest merge` are the unsharded
// campaign's (run against a deterministic shell adapter, simulate against the simulated system);
// `--fail-fast` stops at the first FAIL and every failing run comes with a replay command that
// replays it.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "cli_runner.hpp"

namespace playtest::testing {
namespace {

// idle --a--> wa --x--> idle, idle --b--> wb --y--> idle, idle --stop--> off (the goal).
const char* ab_model = R"({"playtest": "graph/1", "initial": "idle",
  "vertices": [{"id": "idle"}, {"id": "wa", "kind": "passive"}, {"id": "wb", "kind": "passive"},
               {"id": "off", "goal": true}],
  "edges": [{"from": "idle", "to": "wa", "label": "a"}, {"from": "wa", "to": "idle", "label": "x", "prob": 1},
            {"from": "idle", "to": "wb", "label": "b"}, {"from": "wb", "to": "idle", "label": "y", "prob": 1},
            {"from": "idle", "to": "off", "label": "stop"}]})";

// Deterministic: its answers depend only on the stimuli of the run. With BUGGY=1 it answers x to a
// second b in a row (a FAIL that some seeds find and others do not). It notes "$PLAYTEST_JOB $1"
// (the command passes {job} as $1) in jobs.txt at each start. With BARRIER=N its first start in each
// job waits (up to 4 s) until N jobs have started one: so N adapters run at once, whatever the
// timing, when playtest runs N jobs in parallel (and never when it runs them one after another).
std::string adapter_script(const ScratchDir& d) {
  return "echo \"$PLAYTEST_JOB $1\" >> " + d.file("jobs.txt") +
         "\n"
         "if [ -n \"$BARRIER\" ] && [ ! -e " +
         d.file("started.$PLAYTEST_JOB") +
         " ]; then\n"
         "  touch " +
         d.file("started.$PLAYTEST_JOB") +
         "\n"
         "  i=0\n"
         "  while [ \"$(ls " +
         d.file("") +
         " | grep -c '^started')\" -lt \"$BARRIER\" ] && [ $i -lt 40 ]; do\n"
         "    sleep 0.1; i=$((i + 1))\n"
         "  done\n"
         "fi\n"
         "echo ready\n"
         "last=\n"
         "while read -r cmd arg; do\n"
         "  case \"$cmd\" in\n"
         "    stimulus) echo ack\n"
         "      case \"$arg\" in\n"
         "        a) echo 'output x' ;;\n"
         "        b) if [ \"$last\" = b ] && [ -n \"$BUGGY\" ]; then echo 'output x'; else echo 'output y'; fi ;;\n"
         "      esac\n"
         "      last=$arg ;;\n"
         "    reset) echo ready ;;\n"
         "    end) exit 0 ;;\n"
         "  esac\n"
         "done\n";
}

struct AbSystem {
  ScratchDir d;
  std::string model, sut;
  explicit AbSystem(const std::string& tag, bool buggy) : d(tag) {
    model = d.write("ab.json", ab_model);
    const std::string script = d.write("adapter.sh", adapter_script(d));
    sut = std::string("'") + (buggy ? "BUGGY=1 " : "") + "sh " + script + " {job}'";
  }
  std::string run(const std::string& extra) const {
    return "run " + model + " --sut " + sut + " --strategy random --purpose reach --steps 40 --timeout-ms 2000 " +
           extra;
  }
};

// Without what depends on time, and without the replay commands (they name the adapter command,
// which FourJobsGiveTheResultsOfOne changes; FailFast... checks that they replay).
nlohmann::json untimed_json(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text);
  if (j.contains("runs") && j["runs"].is_array())
    for (auto& r : j["runs"]) {
      r.erase("elapsed_ms");
      r.erase("replay");
    }
  return j;
}

std::string untimed_trace(const std::string& text) {
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    nlohmann::json j = nlohmann::json::parse(line);
    for (const char* key : {"time_ms", "elapsed_ms", "replay"}) j.erase(key);
    out += j.dump() + "\n";
  }
  return out;
}

std::string untimed_junit(const std::string& text) {
  static const std::regex time(R"re(time="[0-9.]+")re"), ms(R"re( +[0-9]+\.[0-9] ms)re");
  return std::regex_replace(std::regex_replace(text, time, "time=\"T\""), ms, " T ms");
}

TEST(CliCampaign, FourJobsGiveTheResultsOfOne) {
  AbSystem s("campaign_jobs", true);
  CliResult one = run_playtest(
      s.run("--runs 12 --seed 3 --json --trace " + s.d.file("t1.jsonl") + " --junit " + s.d.file("j1.xml")));
  std::filesystem::remove(s.d.file("jobs.txt"));
  CliResult four = run_playtest(
      s.run("--runs 12 --seed 3 --jobs 4 --json --trace " + s.d.file("t4.jsonl") + " --junit " + s.d.file("j4.xml")));
  ASSERT_EQ(one.code, 1) << one.out << one.err;  // some seeds find the bug
  EXPECT_EQ(four.code, one.code) << four.err;
  const nlohmann::json j1 = untimed_json(one.out), j4 = untimed_json(four.out);
  EXPECT_EQ(j1, j4);
  int fails = 0, passes = 0;
  for (const auto& r : j1["runs"]) {
    fails += r["verdict"] == "FAIL";
    passes += r["verdict"] == "PASS";
  }
  EXPECT_GT(fails, 0);
  EXPECT_GT(passes, 0);
  EXPECT_EQ(untimed_trace(read_file(s.d.file("t1.jsonl"))), untimed_trace(read_file(s.d.file("t4.jsonl"))));
  EXPECT_EQ(untimed_junit(read_file(s.d.file("j1.xml"))), untimed_junit(read_file(s.d.file("j4.xml"))));
  // Four adapter processes at once (the barrier), each told its job number both ways.
  std::istringstream jobs(read_file(s.d.file("jobs.txt")));
  std::set<std::string> seen;
  int starts = 0;
  for (std::string line; std::getline(jobs, line); ++starts) seen.insert(line);
  EXPECT_EQ(starts, 12);
  EXPECT_EQ(seen, (std::set<std::string>{"1 1", "2 2", "3 3", "4 4"}));
}

TEST(CliCampaign, ShardsMergeIntoTheWholeCampaign) {
  AbSystem s("campaign_shards", true);
  auto outputs = [&](const std::string& tag, const std::string& extra) {
    return run_playtest(s.run("--runs 10 --seed 1 --json --trace " + s.d.file("t" + tag + ".jsonl") + " --junit " +
                              s.d.file("j" + tag + ".xml") + " " + extra));
  };
  const CliResult whole = outputs("", "");
  ASSERT_EQ(whole.code, 1) << whole.out << whole.err;
  std::string inputs;
  for (int k = 1; k <= 3; ++k) {
    const std::string tag = std::to_string(k);
    const CliResult part = outputs(tag, "--jobs 2 --shard " + tag + "/3");
    ASSERT_TRUE(part.code == 0 || part.code == 1) << part.out << part.err;
    const nlohmann::json j = nlohmann::json::parse(part.out);
    EXPECT_EQ(j["shard"], tag + "/3");
    for (const auto& r : j["runs"]) EXPECT_EQ((r["run"].get<int>() - 1) % 3, k - 1);
    s.d.write("r" + tag + ".json", part.out);
    // Inputs in any order and of every kind.
    inputs +=
        " " + s.d.file("j" + tag + ".xml") + " " + s.d.file("r" + tag + ".json") + " " + s.d.file("t" + tag + ".jsonl");
  }
  const CliResult merged =
      run_playtest("merge" + inputs + " --json --junit " + s.d.file("jm.xml") + " --trace " + s.d.file("tm.jsonl"));
  EXPECT_EQ(merged.code, whole.code) << merged.out << merged.err;
  // The model's slack is made from the whole campaign's evidence, which the shards' files do not
  // hold (a claim of one shard may be contradicted by another's runs): merge leaves it out.
  nlohmann::json whole_json = untimed_json(whole.out);
  ASSERT_TRUE(whole_json.contains("model_slack"));
  whole_json.erase("model_slack");
  EXPECT_EQ(untimed_json(merged.out), whole_json);
  EXPECT_EQ(untimed_trace(read_file(s.d.file("tm.jsonl"))), untimed_trace(read_file(s.d.file("t.jsonl"))));
  static const std::regex slack_property(R"re(<property name="model_slack" value="[0-9]+"/>)re"),
      slack_out(R"re(    <system-out>model slack:[^<]*</system-out>\n)re");
  EXPECT_EQ(untimed_junit(read_file(s.d.file("jm.xml"))),
            std::regex_replace(std::regex_replace(untimed_junit(read_file(s.d.file("j.xml"))), slack_property, ""),
                               slack_out, ""));
  // The text summary of the merge names the failed runs with their replay commands.
  const CliResult text = run_playtest("merge" + inputs);
  EXPECT_EQ(text.code, 1);
  EXPECT_NE(text.out.find("failed runs: "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("--seed"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("verdict: FAIL"), std::string::npos) << text.out;
  // Only traces, only JUnit files: the same verdict.
  const CliResult traces = run_playtest("merge " + s.d.file("t1.jsonl") + " " + s.d.file("t2.jsonl") + " " +
                                        s.d.file("t3.jsonl") + " --json");
  EXPECT_EQ(traces.code, 1) << traces.err;
  EXPECT_EQ(nlohmann::json::parse(traces.out)["coverage"], nlohmann::json::parse(whole.out)["coverage"]);
  // A missing shard, a file from another campaign: refused.
  const CliResult missing = run_playtest("merge " + s.d.file("r1.json") + " " + s.d.file("r3.json"));
  EXPECT_EQ(missing.code, 2);
  EXPECT_NE(missing.err.find("shard 2/3 is missing among the run --json inputs"), std::string::npos) << missing.err;
  const CliResult mixed = run_playtest("merge " + s.d.file("r1.json") + " " + s.d.file("r2.json") + " " +
                                       s.d.file("r3.json") + " " + s.d.file("j.xml"));
  EXPECT_EQ(mixed.code, 2);
  EXPECT_NE(mixed.err.find("not shards of the same campaign"), std::string::npos) << mixed.err;
  const CliResult garbage = run_playtest("merge " + s.model);
  EXPECT_EQ(garbage.code, 2);
  EXPECT_NE(garbage.err.find("ab.json"), std::string::npos) << garbage.err;
}

TEST(CliCampaign, TraceDirHoldsAFilePerRunThatMerges) {
  AbSystem s("campaign_tracedir", false);
  const CliResult r = run_playtest(s.run("--runs 10 --seed 1 --jobs 3 --trace-dir " + s.d.file("traces")));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  std::string files;
  for (int i = 1; i <= 10; ++i) {
    const std::string f = s.d.file("traces/run-" + std::string(i < 10 ? "0" : "") + std::to_string(i) + ".jsonl");
    ASSERT_TRUE(std::filesystem::exists(f)) << f;
    files += " " + f;
  }
  const CliResult whole = run_playtest(s.run("--runs 10 --seed 1 --trace " + s.d.file("t.jsonl")));
  const CliResult merged = run_playtest("merge" + files + " --trace " + s.d.file("m.jsonl"));
  EXPECT_EQ(merged.code, 0) << merged.out << merged.err;
  EXPECT_EQ(untimed_trace(read_file(s.d.file("m.jsonl"))), untimed_trace(read_file(s.d.file("t.jsonl"))));
}

TEST(CliCampaign, FailFastStopsAtTheFirstFailureAndItsReplayFailsAlike) {
  AbSystem s("campaign_failfast", true);
  const CliResult all = run_playtest(s.run("--runs 20 --seed 1 --json"));
  const nlohmann::json ja = nlohmann::json::parse(all.out);
  int first = 0;
  for (const auto& r : ja["runs"])
    if (r["verdict"] == "FAIL") {
      first = r["run"];
      break;
    }
  ASSERT_GT(first, 0) << all.out;
  for (const char* jobs : {"1", "4"}) {
    const CliResult r = run_playtest(s.run("--runs 20 --seed 1 --fail-fast --json --jobs " + std::string(jobs)));
    EXPECT_EQ(r.code, 1) << r.out << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["failed_fast"], first);
    EXPECT_EQ(j["verdict"], "FAIL");
    for (const auto& run : j["runs"]) {
      if (run["run"].get<int>() <= first) {
        EXPECT_EQ(run["verdict"], ja["runs"][run["run"].get<int>() - 1]["verdict"]);
        EXPECT_FALSE(run.contains("interrupted"));
      } else if (run.contains("interrupted")) {
        EXPECT_NE(run["message"].get<std::string>().find("not completed"), std::string::npos) << run;
      }
    }
    if (std::string(jobs) == "1") {
      EXPECT_EQ(j["runs"].size(), static_cast<std::size_t>(first));
    }
  }
  // The text output names the failing run with its seed and a command that replays it.
  const CliResult text = run_playtest(s.run("--runs 20 --seed 1 --fail-fast --jobs 4"));
  EXPECT_EQ(text.code, 1);
  EXPECT_NE(text.out.find("stopped at the first FAIL (run " + std::to_string(first) + ", fail-fast)"),
            std::string::npos)
      << text.out;
  const std::string seed = std::to_string(ja["runs"][first - 1]["seed"].get<int>());
  const std::size_t at = text.out.find("replay: ");
  ASSERT_NE(at, std::string::npos) << text.out;
  std::string replay = text.out.substr(at + 8, text.out.find('\n', at) - at - 8);
  const std::size_t run_at = replay.find(" run ");
  ASSERT_NE(run_at, std::string::npos) << replay;
  EXPECT_NE(replay.find("--seed " + seed + " --runs 1"), std::string::npos) << replay;
  EXPECT_EQ(replay.find("--fail-fast"), std::string::npos) << replay;
  EXPECT_EQ(replay.find("--jobs"), std::string::npos) << replay;
  const CliResult again = run_playtest(replay.substr(run_at + 1) + " --json");  // the binary is run_playtest's
  EXPECT_EQ(again.code, 1) << again.out << again.err;
  const nlohmann::json ju = nlohmann::json::parse(again.out);
  EXPECT_EQ(ju["runs"][0]["seed"], ja["runs"][first - 1]["seed"]);
  EXPECT_EQ(ju["runs"][0]["steps"], ja["runs"][first - 1]["steps"]);
  EXPECT_EQ(ju["runs"][0]["message"], ja["runs"][first - 1]["message"]);
}

TEST(CliCampaign, BadCampaignOptionsAreUsageErrors) {
  AbSystem s("campaign_usage", false);
  for (const char* bad : {"--jobs 0", "--shard 0/2", "--shard 3/2", "--shard x", "--runs 2 --shard 3/3"}) {
    const CliResult r = run_playtest(s.run(bad));
    EXPECT_EQ(r.code, 2) << bad << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(std::string(bad).find("jobs") != std::string::npos ? "--jobs" : "--shard"), std::string::npos)
        << bad << ": " << r.err;
  }
  const CliResult both = run_playtest(s.run("--trace a --trace-dir b"));
  EXPECT_EQ(both.code, 2);
}

TEST(CliCampaign, SimulateShardsAndThreadsGiveTheSameComparison) {
  ScratchDir d("campaign_simulate");
  const std::string model = example("examples/sut/workers.json");
  const std::string base = "simulate " + model +
                           " --strategy random,reach,cover --runs 30 --mutants --mutant-count 5 " +
                           "--mutant-runs 4 --seed 2 --steps 200 --json";
  const CliResult whole = run_playtest(base + " --threads 1");
  ASSERT_EQ(whole.code, 0) << whole.err;
  EXPECT_EQ(run_playtest(base + " --threads 2").out, whole.out);
  std::string inputs;
  for (int k = 1; k <= 3; ++k) {
    const CliResult part = run_playtest(base + " --shard " + std::to_string(k) + "/3");
    ASSERT_EQ(part.code, 0) << part.err;
    inputs += " " + d.write("s" + std::to_string(k) + ".json", part.out);
  }
  const CliResult merged = run_playtest("merge" + inputs + " --json");
  EXPECT_EQ(merged.code, 0) << merged.err;
  EXPECT_EQ(nlohmann::json::parse(merged.out), nlohmann::json::parse(whole.out));
  const CliResult text = run_playtest("merge" + inputs);
  EXPECT_EQ(text.out, run_playtest(base.substr(0, base.size() - 7) + " --threads 2").out);
}

}  // namespace
}  // namespace playtest::testing
