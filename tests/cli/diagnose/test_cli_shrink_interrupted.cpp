// End to end (issue 25): a shrink stopped by a signal in the middle of its search says how often its
// best script failed in the search, and that it failed (FAIL), never "fails 0/0" and INCONCLUSIVE.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "cli_runner.hpp"
#include "spawned.hpp"
#include "test_paths.hpp"

namespace playtest::testing {
namespace {

// A shrink stopped by SIGTERM in the middle of its search reports how often its best script failed
// (in the search), and FAIL: it did fail.
TEST(CliShrinkInterrupted, InterruptedShrinkReportsTheRateItSaw) {
  ScratchDir d("diag_shrink_interrupted");
  const std::string lock = example("examples/sut/lock.json");
  CliResult r =
      run_playtest("run " + lock + " --sut " + playtest::testing::test_path("lock_sut") +
                   " --strategy random --purpose none --steps 5000 --seed 1 --quiet --trace " + d.file("t.jsonl"));
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  // The lock, counting its starts; the 60th (the original's 10 attempts are long done, and the
  // search has kept a shorter script: the seed's shrink takes 89 runs) leaves a marker for the test
  // and hangs, so that the signal comes in the middle of the search.
  const std::string wrap =
      d.write("wrap.sh", "n=$(( $(cat " + d.file("count") + " 2>/dev/null || echo 0) + 1 ))\necho $n > " +
                             d.file("count") + "\nif [ $n -ge 60 ]; then touch " + d.file("marker") +
                             "; sleep 600; fi\nexec " + playtest::testing::test_path("lock_sut") + "\n");
  const pid_t pid = spawn_shell(playtest::testing::playtest_binary() + " shrink " + d.file("t.jsonl") + " --sut 'sh " + wrap +
                                "' -o " + d.file("m.jsonl") + " >" + d.file("out.txt") + " 2>" + d.file("err.txt"));
  ASSERT_GT(pid, 0);
  for (int i = 0; i < 1000 && !std::filesystem::exists(d.file("marker")); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(std::filesystem::exists(d.file("marker"))) << read_file(d.file("out.txt"));
  ::kill(pid, SIGTERM);
  EXPECT_EQ(wait_exit(pid, std::chrono::milliseconds(10000)), 143);
  const std::string out = read_file(d.file("out.txt"));
  EXPECT_NE(out.find("interrupted: the search stopped"), std::string::npos) << out;
  EXPECT_EQ(out.find("fails 0/0"), std::string::npos) << out;
  EXPECT_NE(out.find("in the search (not measured again: interrupted)"), std::string::npos) << out;
  EXPECT_NE(out.find("verdict: FAIL"), std::string::npos) << out;
}

}  // namespace
}  // namespace playtest::testing
