// GoogleTest integration (docs/testing.md "Testing from C++"): a test of an in-process component is
//
//   TEST(JobBoard, MeetsItsModel) {
//     const playtest::TestGraph model = playtest::load_test_graph({.path = "job_board.json"});
//     EXPECT_TRUE(playtest::gtest::passes(model, [] { return std::make_unique<JobBoardAdapter>(); },
//                                         {.strategy = "cover", .runs = 5}));
//   }
//
// passes() plays `runs` runs of the strategy against adapters the factory makes (one per run, an
// InProcessAdapter normally: run/in_process_adapter.hpp) and succeeds when the combined verdict is
// PASS. Otherwise its message says the verdict and why, the path the failing run took, the stimuli
// it shrinks to (a FAIL is shrunk in process, diagnose/shrink.hpp) and the line that replays it:
//
//   replay: PLAYTEST_SEED=7 /path/to/tests --gtest_filter=JobBoard.MeetsItsModel
//
// The seed comes from the environment, PLAYTEST_SEED (else PlayOptions::default_seed), and is
// printed before the runs, so that a failure on CI is played again locally. With PLAYTEST_TRACE_DIR
// set, the runs' JSON-lines trace goes to DIR/<Suite>.<Test>.jsonl (and the shrunk run to
// DIR/<Suite>.<Test>.min.jsonl): a CI job keeps the folder and `playtest report DIR/*.jsonl
// --model MODEL -o report.html` draws it. Header-only: link playtest::playtest and GTest::gtest.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include "playtest/campaign/campaign.hpp"
#include "playtest/campaign/trace_writer.hpp"
#include "playtest/catalog/strategy_table.hpp"
#include "playtest/diagnose/script.hpp"
#include "playtest/diagnose/shrink.hpp"
#include "playtest/graph/test_graph.hpp"
#include "playtest/run/adapter.hpp"
#include "playtest/run/runner.hpp"
#include "playtest/session/files.hpp"
#include "playtest/session/replay_command.hpp"
#include "playtest/session/shrink_after_run.hpp"

namespace playtest::gtest {

// The seed of a test's runs: PLAYTEST_SEED when set (a decimal number), else `fallback`.
struct Seed {
  std::uint64_t value = 0;
  bool from_environment = false;
  std::string error;  // PLAYTEST_SEED is set but not a number: what is wrong ("" when fine)
};

inline Seed test_seed(std::uint64_t fallback) {
  const char* env = std::getenv("PLAYTEST_SEED");
  if (env == nullptr || *env == '\0') return {.value = fallback};
  const std::string text(env);
  std::uint64_t v = 0;
  for (const char c : text) {
    if (c < '0' || c > '9' || v > (UINT64_MAX - static_cast<std::uint64_t>(c - '0')) / 10)
      return {.error = "PLAYTEST_SEED='" + text + "' is not a seed (a decimal number below 2^64)"};
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return {.value = v, .from_environment = true};
}

struct PlayOptions {
  std::string strategy = "cover";  // any of `playtest run --strategy`
  std::uint32_t runs = 1;
  // The runs' purpose, step budget and timeouts (RunOptions::seed is replaced by the test's seed).
  RunOptions run;
  PrepareOptions prepare;                          // the strategy's own options
  std::uint64_t default_seed = 1;                  // without PLAYTEST_SEED
  std::string model_name;                          // the model as the traces name it ("" : "model")
  bool shrink = true;                              // shrink a FAIL to its shortest failing stimuli
  std::uint32_t shrink_attempts = 5;               // K: tries per candidate (the system is nondeterministic)
  std::chrono::milliseconds shrink_budget{10000};  // wall clock for the whole shrink
};

using AdapterFactory = std::function<std::unique_ptr<Adapter>()>;

namespace detail_gtest {

// "Suite.Test" of the running test ("playtest" outside a test).
inline std::string test_name() {
  const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
  if (info == nullptr) return "playtest";
  std::string name = std::string(info->test_suite_name()) + "." + info->name();
  return name;
}

// The test binary, for the replay line.
inline std::string executable() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("<test binary>") : exe.string();
}

inline std::string replay_line(std::uint64_t seed, const std::string& test) {
  return "PLAYTEST_SEED=" + std::to_string(seed) + " " + shell_quote(executable()) +
         " --gtest_filter=" + shell_quote(test);
}

// A file name from a test name: parameterized tests have '/' in theirs.
inline std::string file_stem(std::string name) {
  for (char& c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')) c = '_';
  return name;
}

}  // namespace detail_gtest

// Plays the campaign and judges it (see the top of this file). Never throws: a strategy that refuses
// the model, an unwritable PLAYTEST_TRACE_DIR or an exception of the adapter is a failed assertion
// with its message.
inline ::testing::AssertionResult passes(const TestGraph& model, const AdapterFactory& make_adapter,
                                         const PlayOptions& options = {}) {
  namespace fs = std::filesystem;
  const std::string test = detail_gtest::test_name();
  const Seed seed = test_seed(options.default_seed);
  if (!seed.error.empty()) return ::testing::AssertionFailure() << "playtest: " << seed.error;
  std::cout << "[ playtest ] " << test << ": strategy " << options.strategy << ", " << options.runs
            << (options.runs == 1 ? " run" : " runs") << ", seed " << seed.value
            << (seed.from_environment ? " (PLAYTEST_SEED)" : " (default; PLAYTEST_SEED=N sets it)") << std::endl;
  try {
    const PolicyMaker maker = policy_maker(options.strategy, model, options.run.purpose, options.prepare);
    RunOptions run = options.run;
    run.keep_trace = true;
    const Runner runner(model, run);

    std::string trace, minimal;
    if (const char* dir = std::getenv("PLAYTEST_TRACE_DIR"); dir != nullptr && *dir != '\0') {
      std::error_code ec;
      fs::create_directories(dir, ec);
      if (ec)
        return ::testing::AssertionFailure()
               << "playtest: PLAYTEST_TRACE_DIR '" << dir << "' cannot be created: " << ec.message();
      const std::string stem = (fs::path(dir) / detail_gtest::file_stem(test)).string();
      trace = stem + ".jsonl";
      minimal = stem + ".min.jsonl";
    }
    std::unique_ptr<CampaignFiles> files;
    if (!trace.empty())
      files = std::make_unique<CampaignFiles>(
          CampaignFileOptions{.model = options.model_name.empty() ? "model" : options.model_name,
                              .strategy = options.strategy,
                              .trace = trace,
                              .tool_version = "playtest/gtest.hpp",
                              .replay = [&](std::uint64_t s) { return detail_gtest::replay_line(s, test); }},
          options.runs);
    const CampaignWorkers workers{
        .policy = maker,
        .adapter = [&](std::uint32_t, const StopSignal&) -> std::unique_ptr<Adapter> { return make_adapter(); }};
    const CampaignResult c =
        run_campaign(runner, workers, {.runs = options.runs, .seed = seed.value}, files ? files->observer() : nullptr);
    if (files) files->finish(model, c);
    if (c.verdict == Verdict::pass) return ::testing::AssertionSuccess();

    if (c.runs.empty())
      return ::testing::AssertionFailure() << "playtest: verdict " << to_string(c.verdict) << ", no run was played";
    // The first run with the campaign's verdict.
    const RunResult* bad = &c.runs.front();
    for (const RunResult& r : c.runs)
      if (r.verdict == c.verdict) {
        bad = &r;
        break;
      }
    std::ostringstream out;
    out << "playtest: verdict " << to_string(bad->verdict) << " in run " << bad->run << " of " << c.runs.size()
        << " (strategy " << options.strategy << ", seed " << bad->seed << ")\n"
        << "  message: " << bad->message << "\n"
        << "  path:\n";
    const std::string path = format_trace(model, *bad);
    out << path << (path.empty() || path.back() != '\n' ? "\n" : "");
    if (bad->verdict == Verdict::fail && options.shrink) {
      std::unique_ptr<Adapter> adapter = make_adapter();
      RunOptions replay_run = run;
      replay_run.purpose = {};
      replay_run.purpose.kind = TestPurpose::Kind::none;
      const ShrinkOptions so{.replay = {.run = replay_run, .attempts = options.shrink_attempts},
                             .budget = options.shrink_budget};
      ShrinkResult s;
      if (!minimal.empty()) {
        s = shrink_to_file(model, replay_target(model, *bad), *adapter, replay_run,
                           {.output = minimal,
                            .shrink = so,
                            .trace = trace,
                            .model = options.model_name.empty() ? "model" : options.model_name,
                            .replay = [&](const std::string&) { return detail_gtest::replay_line(bad->seed, test); }},
                           bad->seed)
                .result;
      } else {
        s = shrink(model, replay_target(model, *bad), *adapter, so);
      }
      if (s.reproduced)
        out << "  shrunk stimuli (" << count_stimuli(s.minimal) << " of " << count_stimuli(s.original) << ", failing "
            << s.minimal_rate.successes << " of " << s.minimal_rate.trials << " attempts): " << describe(s.minimal)
            << "\n";
      else
        out << "  shrunk stimuli: none (the failure did not come back in " << options.shrink_attempts << " attempts)\n";
      if (!minimal.empty() && s.witness) out << "  shrunk trace: " << minimal << "\n";
    }
    if (!trace.empty())
      out << "  trace: " << trace << "\n";
    else
      out << "  trace: none (PLAYTEST_TRACE_DIR=DIR writes DIR/" << detail_gtest::file_stem(test) << ".jsonl)\n";
    // The line ends the message: GoogleTest closes it with ")", on the next line, not on the command.
    out << "  replay: " << detail_gtest::replay_line(bad->seed, test) << "\n";
    return ::testing::AssertionFailure() << out.str();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "playtest: " << e.what();
  }
}

}  // namespace playtest::gtest
