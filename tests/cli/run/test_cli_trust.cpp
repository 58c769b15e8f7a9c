// End to end: what `playtest run` does when things go wrong around the system under test (issue
// "no silent wrong answer"): a signal while an adapter hangs keeps the trace and the JUnit file and
// leaves no process behind; an adapter's own faults (partial lines, unflushed output, a command killed
// under sh -c) are ERRORs with a message that says what happened, never a FAIL of the system.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "cli_runner.hpp"
#include "test_paths.hpp"

extern char** environ;

namespace playtest::testing {
namespace {

// idle --ping--> wait --pong--> idle
const char* ping_pong = R"({"playtest": "graph/1", "initial": "idle",
  "vertices": [{"id": "idle"}, {"id": "wait", "kind": "passive"}],
  "edges": [{"from": "idle", "to": "wait", "label": "ping"},
            {"from": "wait", "to": "idle", "label": "pong", "prob": 1}]})";

std::vector<nlohmann::json> jsonl(const std::string& path) {
  std::istringstream in(read_file(path));
  std::vector<nlohmann::json> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

// The process `pid` is gone, or a zombie (it holds no file, no pipe); waits up to 2 s for it.
bool process_gone(pid_t pid) {
  for (int i = 0; i < 200; ++i) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    if (!status) return true;
    for (std::string line; std::getline(status, line);)
      if (line.rfind("State:", 0) == 0 && line.find('Z') != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

pid_t read_pid(const std::string& path) {
  for (int i = 0; i < 500; ++i) {
    std::string text = read_file(path);
    if (!text.empty() && text.back() == '\n') return static_cast<pid_t>(std::stol(text));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

struct Killed {
  int exit_code = -1;
  pid_t adapter = -1, background = -1;
};

// Starts `playtest run` against an adapter that acknowledges the first stimulus and then hangs
// (itself and a background child, both in its process group), sends `signo` once the adapter hangs,
// and returns how playtest ended.
Killed run_and_kill(const ScratchDir& d, int signo, const std::string& extra) {
  const std::string model = d.write("pp.json", ping_pong);
  const std::string adapter = d.write("hang.sh", "echo $$ > " + d.file("adapter.pid") +
                                                     "\n"
                                                     "echo ready\n"
                                                     "read cmd arg\n"
                                                     "echo ack\n"
                                                     "sleep 600 & echo $! > " +
                                                     d.file("background.pid") +
                                                     "\n"
                                                     "sleep 600\n");
  const std::string cmd = playtest::testing::playtest_binary() + " run " + model + " --sut 'sh " + adapter +
                          "' --steps 100 --timeout-ms 600000 --runs 3 --trace " + d.file("t.jsonl") + " --junit " +
                          d.file("j.xml") + " " + extra + " >" + d.file("out.txt") + " 2>" + d.file("err.txt");
  std::string sh = "/bin/sh", dash_c = "-c", exec_cmd = "exec " + cmd;
  char* argv[] = {sh.data(), dash_c.data(), exec_cmd.data(), nullptr};
  pid_t pid = -1;
  EXPECT_EQ(::posix_spawn(&pid, "/bin/sh", nullptr, nullptr, argv, environ), 0);
  Killed k;
  k.adapter = read_pid(d.file("adapter.pid"));
  k.background = read_pid(d.file("background.pid"));
  // The stimulus was sent and acknowledged: playtest now waits for 'pong' that never comes.
  for (int i = 0; i < 500 && read_file(d.file("t.jsonl")).find("\"stimulus\"") == std::string::npos; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ::kill(pid, signo);
  int status = 0;
  for (int i = 0; i < 1000; ++i) {  // at most 10 s
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      k.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
      return k;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  ADD_FAILURE() << "playtest did not exit within 10 s of the signal";
  return k;
}

void expect_report_kept(const ScratchDir& d, const std::string& signal_name) {
  const auto lines = jsonl(d.file("t.jsonl"));
  ASSERT_GE(lines.size(), 4u) << read_file(d.file("t.jsonl"));
  EXPECT_EQ(lines.front()["event"], "campaign");
  EXPECT_EQ(lines[1]["event"], "begin");
  const nlohmann::json& end = lines.back();
  EXPECT_EQ(end["event"], "end");
  EXPECT_EQ(end["verdict"], "ERROR");
  EXPECT_EQ(end["interrupted"], true);
  EXPECT_EQ(end["signal"], signal_name);
  EXPECT_EQ(end["steps"], 1);
  // Only the interrupted run: the other two of --runs 3 never started.
  int begins = 0;
  for (const auto& l : lines) begins += l["event"] == "begin";
  EXPECT_EQ(begins, 1);
  const std::string junit = read_file(d.file("j.xml"));
  EXPECT_NE(junit.find("errors=\"1\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("<error type=\"ERROR\" message=\"interrupted by " + signal_name), std::string::npos) << junit;
  const std::string out = read_file(d.file("out.txt"));
  // Only finished runs count: the interrupted one did not finish.
  EXPECT_NE(out.find("interrupted by " + signal_name + " after 0 of 3 runs (1 stopped before it ended, 2 not started)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("verdict: ERROR"), std::string::npos) << out;
}

TEST(CliRunInterrupted, SigtermWhileTheAdapterHangsKeepsTraceAndJunitAndKillsTheGroup) {
  ScratchDir d("run_sigterm");
  const Killed k = run_and_kill(d, SIGTERM, "");
  EXPECT_EQ(k.exit_code, 143);
  expect_report_kept(d, "SIGTERM");
  ASSERT_GT(k.adapter, 0);
  ASSERT_GT(k.background, 0);
  EXPECT_TRUE(process_gone(k.adapter)) << "the adapter outlived playtest";
  EXPECT_TRUE(process_gone(k.background)) << "the adapter's background child outlived playtest";
}

TEST(CliRunInterrupted, SigintExitsWith130) {
  ScratchDir d("run_sigint");
  const Killed k = run_and_kill(d, SIGINT, "");
  EXPECT_EQ(k.exit_code, 130);
  expect_report_kept(d, "SIGINT");
  EXPECT_TRUE(process_gone(k.adapter));
  EXPECT_TRUE(process_gone(k.background));
}

TEST(CliRunInterrupted, JsonSaysInterrupted) {
  ScratchDir d("run_sigterm_json");
  const Killed k = run_and_kill(d, SIGTERM, "--json");
  EXPECT_EQ(k.exit_code, 143);
  const auto j = nlohmann::json::parse(read_file(d.file("out.txt")));
  EXPECT_EQ(j["verdict"], "ERROR");
  EXPECT_EQ(j["interrupted"], true);
  EXPECT_EQ(j["signal"], "SIGTERM");
  EXPECT_EQ(j["exit_code"], 143);
  EXPECT_EQ(j["runs"].size(), 1u);
  EXPECT_TRUE(process_gone(k.background));
}

// Four jobs, each adapter hanging after its first stimulus with a background child: one signal
// stops them all, every started run is in the merged trace and the JUnit file, and no process is left.
TEST(CliRunInterrupted, SigtermStopsEveryJob) {
  ScratchDir d("run_sigterm_jobs");
  const std::string model = d.write("pp.json", ping_pong);
  const std::string adapter =
      d.write("hang.sh", "echo $$ > " + d.file("adapter.$PLAYTEST_JOB.tmp") + " && mv " +
                             d.file("adapter.$PLAYTEST_JOB.tmp") + " " + d.file("adapter.$PLAYTEST_JOB.pid") +
                             "\n"
                             "echo ready\n"
                             "read cmd arg\n"
                             "echo ack\n"
                             "sleep 600 & echo $! > " +
                             d.file("background.$PLAYTEST_JOB.pid") +
                             "\n"
                             "sleep 600\n");
  const std::string cmd = playtest::testing::playtest_binary() + " run " + model + " --sut 'sh " + adapter +
                          "' --steps 100 --timeout-ms 600000 --runs 10 --jobs 4 --trace " + d.file("t.jsonl") +
                          " --junit " + d.file("j.xml") + " >" + d.file("out.txt") + " 2>" + d.file("err.txt");
  std::string sh = "/bin/sh", dash_c = "-c", exec_cmd = "exec " + cmd;
  char* argv[] = {sh.data(), dash_c.data(), exec_cmd.data(), nullptr};
  pid_t pid = -1;
  ASSERT_EQ(::posix_spawn(&pid, "/bin/sh", nullptr, nullptr, argv, environ), 0);
  std::vector<pid_t> adapters, backgrounds;
  for (int job = 1; job <= 4; ++job) {
    adapters.push_back(read_pid(d.file("adapter." + std::to_string(job) + ".pid")));
    backgrounds.push_back(read_pid(d.file("background." + std::to_string(job) + ".pid")));
  }
  // Every job's stimulus is acknowledged (its background child exists): all four wait for 'pong'.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ::kill(pid, SIGTERM);
  int status = 0, code = -1;
  for (int i = 0; i < 1000; ++i) {
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      code = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (code == -1) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, &status, 0);
    FAIL() << "playtest did not exit within 10 s of the signal";
  }
  EXPECT_EQ(code, 143);
  const auto lines = jsonl(d.file("t.jsonl"));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.front()["event"], "campaign");
  int begins = 0, ends = 0;
  std::uint32_t last_run = 0;
  for (const auto& l : lines) {
    if (l["event"] == "begin") {
      ++begins;
      EXPECT_EQ(l["run"], last_run + 1);  // in run order
      last_run = l["run"];
    }
    if (l["event"] == "end") {
      ++ends;
      EXPECT_EQ(l["run"], last_run);  // each run's events together
      EXPECT_EQ(l["verdict"], "ERROR");
      EXPECT_EQ(l["interrupted"], true);
      EXPECT_EQ(l["signal"], "SIGTERM");
    }
  }
  EXPECT_EQ(begins, 4);
  EXPECT_EQ(ends, 4);
  const std::string junit = read_file(d.file("j.xml"));
  EXPECT_NE(junit.find("tests=\"4\" failures=\"0\" errors=\"4\""), std::string::npos) << junit;
  const std::string out = read_file(d.file("out.txt"));
  EXPECT_NE(out.find("interrupted by SIGTERM after 0 of 10 runs (4 stopped before they ended, 6 not started)"),
            std::string::npos)
      << out;
  for (pid_t p : adapters) {
    ASSERT_GT(p, 0);
    EXPECT_TRUE(process_gone(p)) << "an adapter outlived playtest";
  }
  for (pid_t p : backgrounds) {
    ASSERT_GT(p, 0);
    EXPECT_TRUE(process_gone(p)) << "an adapter's background child outlived playtest";
  }
}

// --- the adapter's faults are not the system's ---------------------------------------------------

TEST(CliRunAdapterFaults, PartialLineIsAnErrorWhateverTheTimeout) {
  ScratchDir d("run_partial");
  const std::string model = d.write("pp.json", ping_pong);
  // The output line never ends: with the default 1000 ms output timeout (shorter than the 2000 ms
  // allowed to finish a line) this used to be judged as silence, a FAIL of the system.
  const std::string adapter = d.write("partial.sh",
                                      "echo ready\n"
                                      "while read -r cmd arg; do\n"
                                      "  case \"$cmd\" in\n"
                                      "    stimulus) echo ack; printf 'output po' ;;\n"
                                      "    end) exit 0 ;;\n"
                                      "  esac\n"
                                      "done\n");
  for (const char* timeout : {"", "--timeout-ms 100", "--timeout-ms 5000"}) {
    CliResult r = run_playtest("run " + model + " --sut 'sh " + adapter + "' --steps 4 " + timeout);
    EXPECT_EQ(r.code, 3) << timeout << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("verdict: ERROR"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("wrote a partial line and nothing more"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("'output po'"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
  }
}

TEST(CliRunAdapterFaults, MissingReadyHintsAtUnflushedOutput) {
  ScratchDir d("run_unflushed");
  const std::string model = d.write("pp.json", ping_pong);
  // Says 'ready' into a full buffer that nobody flushes (stdout is a pipe), then waits.
  const std::string adapter = d.write("unflushed.py",
                                      "import sys\n"
                                      "sys.stdout.write('ready\\n')\n"
                                      "for line in sys.stdin:\n"
                                      "    pass\n");
  CliResult r =
      run_playtest("run " + model + " --sut 'env -u PYTHONUNBUFFERED python3 " + adapter + "' --ready-timeout-ms 300");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("did not answer 'ready' within 300 ms after it started; it sent nothing at all"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("not flushed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("flush=True"), std::string::npos) << r.out;
}

TEST(CliRunAdapterFaults, WrongAnswerGetsNoFlushHint) {
  ScratchDir d("run_wrong_ready");
  const std::string model = d.write("pp.json", ping_pong);
  CliResult r = run_playtest("run " + model + " --sut 'echo hello; sleep 5' --ready-timeout-ms 300");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("answered 'hello' where 'ready' was expected"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("flush"), std::string::npos) << r.out;
}

TEST(CliRunAdapterFaults, CommandKilledUnderShellSaysWhichSignal) {
  ScratchDir d("run_sh_signal");
  const std::string model = d.write("pp.json", ping_pong);
  // sh -c runs the adapter as a child (a compound command is not exec'd): the shell exits with
  // 128 + 9 when the adapter is killed by SIGKILL.
  const std::string adapter = d.write("adapter.sh", "echo ready\nread cmd arg\nkill -9 $$\n");
  CliResult r = run_playtest("run " + model + " --sut 'cd " + d.file("") + " && sh adapter.sh; exit $?' --steps 4");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("closed its output"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("killed by signal 9"), std::string::npos) << r.out;
}

TEST(CliRunAdapterFaults, ExecdCommandKilledSaysWhichSignal) {
  ScratchDir d("run_exec_signal");
  const std::string model = d.write("pp.json", ping_pong);
  CliResult r = run_playtest("run " + model + " --sut 'echo ready; read x; kill -9 $$' --steps 4");
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("closed its output (the process was killed by signal 9"), std::string::npos) << r.out;
}

TEST(CliRunAdapterFaults, UnwritableSutStderrIsAUsageError) {
  ScratchDir d("run_stderr");
  const std::string model = d.write("pp.json", ping_pong);
  CliResult r = run_playtest("run " + model + " --sut cat --sut-stderr " + d.file("no/such/dir/err.txt"));
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("option --sut-stderr: cannot open"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

// Nothing tested is never a PASS: without a purpose a run passes when its budget ends without a
// failure, but a run whose time budget is spent before its first step (here while the adapter
// starts) or whose first stimulus is refused took no step: INCONCLUSIVE, exit 4, in the JUnit file too.
TEST(CliRunNothingTested, NoStepIsNeverAPass) {
  ScratchDir d("run_nothing_tested");
  const std::string model = d.write("pp.json", ping_pong);
  // An adapter for ping_pong that runs `start` first and answers a stimulus with `answer`.
  auto adapter = [&](const std::string& name, const std::string& start, const std::string& answer) {
    return d.write(name, start + "echo ready\nwhile read -r cmd arg; do\n  case \"$cmd\" in\n    stimulus) " + answer +
                             " ;;\n    reset) echo ready ;;\n    end) exit 0 ;;\n  esac\ndone\n");
  };
  const std::string slow = adapter("slow.sh", "sleep 1\n", "echo ack; echo 'output pong'");
  CliResult r = run_playtest("run " + model + " --sut 'sh " + slow +
                             "' --purpose none --time 0.2 --steps 0 --json --junit " + d.file("slow.xml"));
  EXPECT_EQ(r.code, 4) << r.out << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["verdict"], "INCONCLUSIVE") << r.out;
  EXPECT_EQ(j["runs"][0]["steps"], 0) << r.out;
  EXPECT_NE(r.out.find("nothing was tested"), std::string::npos) << r.out;
  EXPECT_NE(read_file(d.file("slow.xml")).find("<skipped"), std::string::npos) << read_file(d.file("slow.xml"));
  r = run_playtest("run " + model + " --sut 'sh " + adapter("refuse.sh", "", "echo refused") +
                   "' --purpose none --steps 10");
  EXPECT_EQ(r.code, 4) << r.out << r.err;
  EXPECT_NE(r.out.find("refused the stimulus 'ping'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nothing was tested"), std::string::npos) << r.out;
  // The same system, answering at once: the budget ends after steps were judged, which passes.
  r = run_playtest("run " + model + " --sut 'sh " + adapter("good.sh", "", "echo ack; echo 'output pong'") +
                   "' --purpose none --steps 10");
  EXPECT_EQ(r.code, 0) << r.out << r.err;
}

}  // namespace
}  // namespace playtest::testing
