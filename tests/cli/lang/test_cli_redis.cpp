// End to end against a real third-party program: each test starts its own redis-server (Debian
// package redis-server) on a free loopback port, with no persistence, in a scratch directory, and runs
// `playtest run examples/models/redis_pubsub.ptm` through examples/sut/redis_adapter. The server is
// killed at the end of the test whatever happens (and by the kernel if the test process dies). Where
// redis-server is missing or does not start, the tests are skipped with the reason, never passed.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "cli_runner.hpp"
#include "redis_server.hpp"
#include "test_paths.hpp"

namespace playtest::testing {
namespace {

const std::string model = example("examples/models/redis_pubsub.ptm");

class RedisPubSub : public ::testing::Test {
 protected:
  void SetUp() override {
    server_.emplace(dir_);
    if (!server_->why_not().empty()) GTEST_SKIP() << server_->why_not();
  }

  // `playtest run` with the cover strategy on every stimulus edge (the order of two deliveries is
  // the server's choice, so only the stimuli can be covered for sure). Long waits where the server
  // is right, so that a loaded machine does not make a PASS flaky.
  CliResult run(const std::string& model_file, const std::string& adapter_flags, const std::string& extra) {
    const std::string sut = playtest::testing::test_path("redis_adapter") + " --port " + std::to_string(server_->port()) + adapter_flags;
    return run_playtest("run " + model_file + " --sut '" + sut +
                        "' --strategy cover --traps 'Publish*,Subscribe*,Unsubscribe*' --steps 20000 " + extra);
  }

  ScratchDir dir_{"redis_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name())};
  std::optional<RedisServer> server_;
};

TEST_F(RedisPubSub, PassesAgainstTheRealServer) {
  CliResult r = run(model, "", "--timeout-ms 10000 --seed 1 --json");
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["verdict"], "PASS");
  EXPECT_EQ(j["runs"][0]["purpose_met"], true) << r.out;
  // Every stimulus edge: 16 subscription states times 4 Subscribe, 4 Unsubscribe, 4 Publish.
  EXPECT_GE(j["coverage"]["edges_covered"], 192) << r.out;
  EXPECT_EQ(j["coverage"]["edges_total"], 288);
  // Every label, the 8 ?Message(client, channel, text) included: Redis delivered each message.
  EXPECT_EQ(j["coverage"]["labels_covered"], 20) << r.out;
}

TEST_F(RedisPubSub, TextReportSaysPass) {
  CliResult r = run(model, "", "--timeout-ms 10000 --seed 2");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict: PASS"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("20/20 labels"), std::string::npos) << r.out;
}

TEST_F(RedisPubSub, FailsWhenMessagesToOneClientAreLost) {
  // The adapter loses every message to client 1: silence where the model expects one.
  CliResult r = run(model, " --drop-to 1", "--timeout-ms 1000 --seed 1");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict: FAIL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("allowed {?Message(1, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("observed silence"), std::string::npos) << r.out;
}

TEST_F(RedisPubSub, FailsWhenUnsubscribeIsIgnored) {
  // The adapter acknowledges Unsubscribe without telling Redis: a message the model does not allow.
  CliResult r = run(model, " --skip-unsubscribe", "--timeout-ms 10000 --seed 1");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict: FAIL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("observed '?Message("), std::string::npos) << r.out;
}

TEST_F(RedisPubSub, FailsWithAWrongModel) {
  // A model claiming that UNSUBSCRIBE has no effect: the real server stops delivering, and the
  // silence where the wrong model expects a message fails.
  std::string text = read_file(model);
  const std::string effect = "{ subs := subs - {(c, ch)}; }";
  const auto at = text.find(effect);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, effect.size(), "{ }");
  const std::string wrong = dir_.write("wrong.ptm", text);
  CliResult r = run(wrong, "", "--timeout-ms 1000 --seed 1");
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("verdict: FAIL"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("observed silence"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace playtest::testing
