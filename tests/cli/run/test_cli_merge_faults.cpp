// End to end, merging a campaign under faults (issue 25): a campaign cut short (a job killed by
// SIGKILL between runs, a shard's trace cut, a run --json with runs removed) is incomplete, never a
// PASS, and merge names the missing runs; runs that a signal or --fail-fast kept from starting are
// not missing; shards of different campaigns (another model, --steps, --sut) are refused, naming
// the difference.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.hpp"
#include "ping_system.hpp"

namespace playtest::testing {
namespace {

// The trace up to and including the end of run `last` (what a job killed between runs leaves).
std::string cut_after_run(const std::string& trace, std::uint32_t last) {
  std::string out;
  for (const std::string& l : lines_of(trace)) {
    out += l + "\n";
    const auto j = nlohmann::json::parse(l);
    if (j["event"] == "end" && j["run"] == last) break;
  }
  return out;
}

TEST(CliMergeFaults, TraceCutBetweenRunsMergesIncompleteNotPass) {
  PingSystem s("faults_cut_trace");
  CliResult r = run_playtest(s.run("--runs 9 --trace " + s.d.file("t.jsonl")));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  s.d.write("cut.jsonl", cut_after_run(read_file(s.d.file("t.jsonl")), 3));
  CliResult m = run_playtest("merge " + s.d.file("cut.jsonl"));
  EXPECT_EQ(m.code, 3) << m.out << m.err;
  EXPECT_NE(m.out.find("incomplete: 6 of the campaign's 9 runs are missing (runs 4, 5, 6, 7, 8, 9)"), std::string::npos)
      << m.out;
  EXPECT_NE(m.out.find("verdict: ERROR"), std::string::npos) << m.out;
  CliResult j = run_playtest("merge --json " + s.d.file("cut.jsonl"));
  EXPECT_EQ(j.code, 3) << j.err;
  const auto out = nlohmann::json::parse(j.out);
  EXPECT_EQ(out["verdict"], "ERROR");
  EXPECT_EQ(out["runs_missing"], 6);
  EXPECT_EQ(out["missing"], nlohmann::json({4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(out["runs_not_started"], 0);
  // The whole trace still merges to its PASS.
  CliResult whole = run_playtest("merge " + s.d.file("t.jsonl"));
  EXPECT_EQ(whole.code, 0) << whole.out << whole.err;
}

TEST(CliMergeFaults, ShardCutShortMergesIncomplete) {
  PingSystem s("faults_cut_shard");
  std::string traces;
  for (int k = 1; k <= 3; ++k) {
    CliResult r = run_playtest(
        s.run("--runs 9 --shard " + std::to_string(k) + "/3 --trace " + s.d.file("t" + std::to_string(k) + ".jsonl")));
    ASSERT_EQ(r.code, 0) << r.out << r.err;
  }
  // Shard 2 holds runs 2, 5, 8; its job was killed after run 2.
  s.d.write("t2.jsonl", cut_after_run(read_file(s.d.file("t2.jsonl")), 2));
  CliResult m = run_playtest("merge " + s.d.file("t1.jsonl") + " " + s.d.file("t2.jsonl") + " " + s.d.file("t3.jsonl"));
  EXPECT_EQ(m.code, 3) << m.out << m.err;
  EXPECT_NE(m.out.find("2 of the campaign's 9 runs are missing (runs 5, 8)"), std::string::npos) << m.out;
  EXPECT_EQ(m.out.find("verdict: PASS"), std::string::npos) << m.out;
}

TEST(CliMergeFaults, RunJsonWithRunsRemovedMergesIncomplete) {
  PingSystem s("faults_cut_json");
  for (int k = 1; k <= 2; ++k) {
    CliResult r = run_playtest(s.run("--runs 6 --json --shard " + std::to_string(k) + "/2"));
    ASSERT_EQ(r.code, 0) << r.err;
    s.d.write("r" + std::to_string(k) + ".json", r.out);
  }
  nlohmann::json j = nlohmann::json::parse(read_file(s.d.file("r2.json")));
  ASSERT_EQ(j["runs"].size(), 3u);
  j["runs"].erase(j["runs"].begin() + 1);  // run 4
  s.d.write("r2.json", j.dump(2));
  CliResult m = run_playtest("merge --json " + s.d.file("r1.json") + " " + s.d.file("r2.json"));
  EXPECT_EQ(m.code, 3) << m.out << m.err;
  const auto out = nlohmann::json::parse(m.out);
  EXPECT_EQ(out["verdict"], "ERROR");
  EXPECT_EQ(out["missing"], nlohmann::json({4}));
}

// Runs that a signal or --fail-fast kept from starting are not "missing": those merges keep their
// verdict and exit code.
TEST(CliMergeFaults, FailFastShardsAreNotIncomplete) {
  ScratchDir d("faults_failfast");
  const std::string model = d.write("pp.json", ping_loop);
  const std::string bad = d.write("bad.sh", ping_adapter("echo ack", "echo 'output bang'"));
  for (int k = 1; k <= 2; ++k) {
    CliResult r = run_playtest("run " + model + " --sut 'sh " + bad +
                               "' --strategy random --purpose none --steps 4 --seed 1 --runs 8 --fail-fast --shard " +
                               std::to_string(k) + "/2 --json --trace " + d.file("t" + std::to_string(k) + ".jsonl"));
    ASSERT_EQ(r.code, 1) << r.err;
    d.write("r" + std::to_string(k) + ".json", r.out);
  }
  for (const std::string& files :
       {d.file("t1.jsonl") + " " + d.file("t2.jsonl"), d.file("r1.json") + " " + d.file("r2.json")}) {
    CliResult m = run_playtest("merge " + files);
    EXPECT_EQ(m.code, 1) << files << "\n" << m.out << m.err;
    EXPECT_EQ(m.out.find("incomplete"), std::string::npos) << m.out;
  }
}

TEST(CliMergeFaults, ShardsOfDifferentCampaignsAreRefused) {
  PingSystem s("faults_mixed");
  auto shard = [&](const std::string& tag, int k, const std::string& run) {
    CliResult r = run_playtest(run + " --runs 4 --shard " + std::to_string(k) + "/2 --json --junit " +
                               s.d.file(tag + ".xml") + " --trace " + s.d.file(tag + ".jsonl"));
    EXPECT_TRUE(r.code == 0 || r.code == 1) << r.err;
    s.d.write(tag + ".json", r.out);
  };
  shard("a1", 1, s.run(""));
  shard("a2", 2, s.run(""));
  // The same campaign merges.
  for (const char* ext : {".json", ".xml", ".jsonl"}) {
    CliResult m = run_playtest("merge " + s.d.file(std::string("a1") + ext) + " " + s.d.file(std::string("a2") + ext));
    EXPECT_EQ(m.code, 0) << ext << "\n" << m.out << m.err;
  }
  // Other steps.
  shard("steps2", 2, "run " + s.model + " --sut " + s.sut + " --strategy random --purpose none --steps 5 --seed 1");
  // Another system under test.
  const std::string other_sut = "'sh " + s.d.write("other.sh", ping_adapter()) + "'";
  shard("sut2", 2, "run " + s.model + " --sut " + other_sut + " --strategy random --purpose none --steps 4 --seed 1");
  // Another model: a vertex renamed.
  std::string renamed = ping_loop;
  for (std::size_t at; (at = renamed.find("\"wait\"")) != std::string::npos;) renamed.replace(at, 6, "\"busy\"");
  const std::string model2 = s.d.write("pp2.json", renamed);
  shard("model2", 2, "run " + model2 + " --sut " + s.sut + " --strategy random --purpose none --steps 4 --seed 1");
  const std::pair<const char*, const char*> cases[] = {
      {"steps2", "option --steps: '4' in"}, {"sut2", "option --sut: "}, {"model2", "they test different models"}};
  for (const auto& [tag, says] : cases)
    for (const char* ext : {".json", ".xml", ".jsonl"}) {
      CliResult m = run_playtest("merge " + s.d.file(std::string("a1") + ext) + " " + s.d.file(std::string(tag) + ext));
      EXPECT_EQ(m.code, 2) << tag << ext << "\n" << m.out << m.err;
      EXPECT_NE(m.err.find("are not shards of the same campaign"), std::string::npos) << tag << ext << "\n" << m.err;
      EXPECT_NE(m.err.find(says), std::string::npos) << tag << ext << "\n" << m.err;
    }
  // Kinds of different campaigns together: shard 1's JSON with shard 2's trace of other steps.
  CliResult m = run_playtest("merge " + s.d.file("a1.json") + " " + s.d.file("a2.json") + " " + s.d.file("a1.jsonl") +
                             " " + s.d.file("steps2.jsonl"));
  EXPECT_EQ(m.code, 2) << m.out << m.err;
}

}  // namespace
}  // namespace playtest::testing
