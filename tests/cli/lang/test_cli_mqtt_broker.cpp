// End to end against a real round-robin broker (issue 31): Debian's mosquitto with an MQTT v5
// shared subscription, played through examples/sut/mqtt_shared_adapter.py, which starts a broker of
// its own per run on a free loopback port (docs/mqtt-example.md). The broker gives each message to
// one member of the group in turn, the turn moved by every earlier delivery and (un)subscription:
// not the model's coin, and not a rule of the last few labels of one kind.
//
// Where mosquitto or the Python client (python3-paho-mqtt) is missing, the tests are skipped with
// the reason, never passed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_runner.hpp"

namespace playtest::testing {
namespace {

const std::string model = example("examples/models/mqtt_shared.ptm");
// The adapter imports the installed Python adapter kit (docs/adapter-protocol.md, "Installing the
// kits"): here the checkout's, on PYTHONPATH.
const std::string adapter =
    "env PYTHONPATH=" + example("adapters/python") + " python3 " + example("examples/sut/mqtt_shared_adapter.py");
constexpr int tour = 208;  // `playtest cover` on the model: the optimal tour if the broker tossed the coins

std::string why_not() {
  if (std::system("command -v mosquitto >/dev/null 2>&1 || test -x /usr/sbin/mosquitto") != 0)
    return "mosquitto is not installed (Debian: apt-get install mosquitto)";
  if (std::system("python3 -c 'import paho.mqtt.client' >/dev/null 2>&1 || "
                  "PYTHONPATH=/usr/lib/python3/dist-packages python3 -c 'import paho.mqtt.client' >/dev/null 2>&1") !=
      0)
    return "the Python MQTT client is not installed (Debian: apt-get install python3-paho-mqtt)";
  return "";
}

// A campaign of three runs of adaptive cover: the later runs start with what the earlier ones saw
// (every outcome at every vertex, so nothing is withheld in the campaign's evidence and the
// frequencies match the declared coins); each must still steer, never fall back to the bare tour,
// which loops where the broker is not the coin (runs 2 and 3 spent their whole budget so before).
// Every run covers every edge within twice the optimal tour, and every claim of the model's slack
// is true of the run's own trace.
TEST(MqttBroker, EveryRunOfAnAdaptiveCampaignCoversTheBrokerWithinTwiceTheTour) {
  if (const std::string why = why_not(); !why.empty()) GTEST_SKIP() << why;
  ScratchDir d("mqtt_broker_campaign");
  const std::string trace = d.file("t.jsonl");
  CliResult r = run_playtest("run " + model + " --sut '" + adapter +
                             "' --strategy cover --adapt on --runs 3 --steps 3000 --seed 1 --ready-timeout-ms 30000 "
                             "--json --trace " +
                             trace);
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["verdict"], "PASS");
  ASSERT_EQ(j["runs"].size(), 3u);
  for (const auto& run : j["runs"]) {
    EXPECT_EQ(run["verdict"], "PASS") << run.dump(2);
    EXPECT_EQ(run["coverage"]["edges_covered"], 192) << run.dump(2);
    EXPECT_LE(run["steps"].get<int>(), 2 * tour) << run.dump(2);
  }
  // The trace, counted here: observations per (vertex, label), visits per vertex, over the runs.
  std::map<std::pair<std::string, std::string>, int> seen;
  std::map<std::string, int> visits;
  std::istringstream lines(read_file(trace));
  for (std::string line; std::getline(lines, line);) {
    const auto step = nlohmann::json::parse(line);
    if (step["event"] != "step" || step["kind"] != "observation") continue;
    ++seen[{step["vertex"], step["label"]}];
    ++visits[step["vertex"].get<std::string>()];
  }
  ASSERT_FALSE(visits.empty());
  if (j.contains("model_slack"))
    for (const auto& c : j["model_slack"]) {
      const std::string vertex = c["vertex"], label = c["label"], text = c["text"];
      if (c["kind"] == "never_at_vertex") {
        EXPECT_EQ((seen[{vertex, label}]), 0) << text;  // never claimed of an outcome the trace shows
        EXPECT_EQ(c["visits"].get<int>(), visits[vertex]) << text;
      } else {
        EXPECT_LE(c["visits"].get<int>(), visits[vertex]) << text;  // visits in some histories of it
      }
    }
}

}  // namespace
}  // namespace playtest::testing
