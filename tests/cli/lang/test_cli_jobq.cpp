// End to end, issue 26's "done": `playtest run examples/models/jobq.ptm` against the work-queue
// server examples/sut/jobq_server (its ids invented, a time-to-run), through its adapter written
// with each adapter kit (examples/sut/jobq_adapter.py and jobq_adapter.cpp). A job not deleted comes
// back after its time-to-run and the test expects it; ids flow from outputs to later stimuli; a
// server that answers a put with -1 FAILs naming the guard; one that never gives a job back FAILs at
// the silence; the model's --param TTR reaches the adapter (and the server) as PLAYTEST_PARAM_TTR.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_runner.hpp"
#include "test_paths.hpp"

namespace playtest::testing {
namespace {

const std::string model = example("examples/models/jobq.ptm");
const std::string server = playtest::testing::test_path("jobq_server");

// The Python adapter imports the installed kit (docs/adapter-protocol.md, "Installing the kits"):
// here the checkout's, on PYTHONPATH.
std::string python_adapter(const std::string& flags = "") {
  return "env PYTHONPATH=" + example("adapters/python") + " python3 " + example("examples/sut/jobq_adapter.py") +
         " " + server + flags;
}
std::string cpp_adapter(const std::string& flags = "") { return playtest::testing::test_path("jobq_adapter") + " " + server + flags; }

std::vector<nlohmann::json> steps_of(const std::string& trace) {
  std::vector<nlohmann::json> out;
  std::istringstream in(read_file(trace));
  for (std::string line; std::getline(in, line);) {
    nlohmann::json j = nlohmann::json::parse(line);
    if (j["event"] == "step") out.push_back(std::move(j));
  }
  return out;
}

class BothAdapters : public ::testing::TestWithParam<std::string> {
 protected:
  std::string adapter(const std::string& flags = "") const {
    return GetParam() == "python" ? python_adapter(flags) : cpp_adapter(flags);
  }
};

TEST_P(BothAdapters, AJobNotDeletedComesBackAndIdsFlowIntoStimuli) {
  ScratchDir d("jobq_pass_" + GetParam());
  const std::string trace = d.file("t.jsonl");
  CliResult r = run_playtest("run " + model + " --sut '" + adapter() +
                             "' --strategy expected --seed 1 --timeout-ms 5000 --trace " + trace);
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict: PASS"), std::string::npos) << r.out;
  // The job reserved by worker 0 and not deleted comes back to worker 1, which then deletes it by
  // the id the server gave it.
  std::string id;
  bool returned = false, deleted = false;
  for (const nlohmann::json& s : steps_of(trace)) {
    const std::string label = s["label"];
    const std::string concrete = s.value("concrete", "");
    if (label == "?Inserted(Job#0)") {
      ASSERT_TRUE(concrete.starts_with("?Inserted(")) << concrete;
      id = concrete.substr(10, concrete.size() - 11);
    }
    if (label == "?Reserved(1, Job#0)" && s["vertex"].get<std::string>().find("held={Job#0 -> 0}") != std::string::npos)
      returned = true;
    if (label == "Delete(1, Job#0)") {
      EXPECT_EQ(concrete, "Delete(1, " + id + ")");
      deleted = true;
    }
  }
  EXPECT_FALSE(id.empty());
  EXPECT_GT(std::stoll(id), 0);
  EXPECT_TRUE(returned) << read_file(trace);
  EXPECT_TRUE(deleted) << read_file(trace);
}

TEST_P(BothAdapters, ANegativeIdFailsNamingTheGuard) {
  CliResult r = run_playtest("run " + model + " --sut '" + adapter(" --negative-ids") +
                             "' --strategy expected --seed 1 --timeout-ms 5000");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("the system produced '?Inserted(-1)': the guard 'require value(j) > 0' (" + model),
            std::string::npos)
      << r.out;
}

TEST_P(BothAdapters, AServerThatNeverGivesAJobBackFails) {
  CliResult r = run_playtest("run " + model + " --sut '" + adapter(" --no-ttr") +
                             "' --strategy expected --seed 1 --timeout-ms 5000");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("observed silence"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("?Reserved(1, Job#0)"), std::string::npos) << r.out;
  // The wait is the model's (2 * TTR = 600 ms), not --timeout-ms's 5000.
  EXPECT_NE(r.out.find("within 600 ms"), std::string::npos) << r.out;
}

INSTANTIATE_TEST_SUITE_P(JobQueue, BothAdapters, ::testing::Values("python", "cpp"),
                         [](const auto& info) { return info.param; });

TEST(JobQueue, TheTimeToRunParameterReachesTheServer) {
  // TTR=100: the model waits 2 * 100 ms for a job to come back, and the server gives it back after
  // 100 ms because the adapter passed PLAYTEST_PARAM_TTR on: PASS. Were the server left at its
  // default (the adapter's 300 ms), the model's 200 ms wait would see silence.
  CliResult r = run_playtest("run " + model + " --param TTR=100 --sut '" + cpp_adapter() +
                             "' --strategy expected --seed 1 --runs 2");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
}

TEST(JobQueue, RandomRunsOnTheFlyAndExplored) {
  // A random tester, on the fly and on the explored graph: ids, deletes, waits and returns as they
  // come. A correct server never FAILs; a run may end INCONCLUSIVE (exit 4) when a job came back
  // while its delete was on its way (the model then does not offer the delete any more).
  for (const std::string extra : {" --runs 1", " --runs 2 --jobs 2"}) {
    CliResult r = run_playtest("run " + model + " --sut '" + cpp_adapter() +
                               "' --strategy random --purpose none --steps 25 --seed 5" + extra);
    EXPECT_TRUE(r.code == 0 || r.code == 4) << extra << r.out << r.err;
    EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace playtest::testing
