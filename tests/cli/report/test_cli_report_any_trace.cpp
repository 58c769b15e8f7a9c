// Reports of any trace (issue 24): `report` without --model draws the model the trace names (with
// its recorded --param), also for a run played on the fly; a model program's states are drawn as
// short names (v<index>) with the full state in the tooltip and the caption; a large model's failure
// is drawn as the neighbourhood of its path, in well under a second. A trace naming a model that is
// not a file here is reported without the picture, with a note.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

namespace playtest::testing {
namespace {

const std::string counters = example("examples/models/counters.ptm");

bool have_dot() { return std::system("command -v dot >/dev/null 2>&1") == 0; }

// The counters as a system under test with a bug: DownY is acknowledged, where the model allows no
// output.
const char* buggy =
    "echo ready\n"
    "while read -r cmd arg; do\n"
    "  case \"$cmd\" in\n"
    "    stimulus) echo ack\n"
    "      case \"$arg\" in\n"
    "        Up*|DownY) echo 'output ?Ack' ;;\n"
    "      esac ;;\n"
    "    reset) echo ready ;;\n"
    "    end) exit 0 ;;\n"
    "  esac\n"
    "done\n";

TEST(CliReportAnyTrace, WithoutModelTheTracesModelIsDrawnWithShortNames) {
  ScratchDir d("report_any_trace");
  const std::string sut = d.write("sut.sh", buggy);
  for (const std::string fly : {"", " --on-the-fly"}) {
    const std::string trace = d.file("t" + std::to_string(fly.size()) + ".jsonl");
    CliResult r = run_playtest("run " + counters + " --param N=6 --sut 'sh " + sut +
                               "' --strategy random --seed 2 --quiet --trace " + trace + fly);
    ASSERT_EQ(r.code, 1) << r.out << r.err;
    const auto start = std::chrono::steady_clock::now();
    CliResult rep = run_playtest("report " + trace + " -o " + d.file("r.html") + " --json");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(rep.code, 0) << rep.out << rep.err;
    const auto j = nlohmann::json::parse(rep.out);
    EXPECT_EQ(j["model"], counters);  // the trace's model, explored with N=6 (431 vertices)
    const std::string html = read_file(d.file("r.html"));
    EXPECT_NE(html.find("431 vertices"), std::string::npos) << fly;
    EXPECT_NE(html.find("1295 edges"), std::string::npos) << fly;
    if (!have_dot()) continue;
    EXPECT_EQ(j["pictures"], 1) << rep.out;
    // The failure's neighbourhood, its vertices by number, each with its state as tooltip and in
    // the caption.
    EXPECT_NE(html.find("too many to draw here; this is the neighbourhood"), std::string::npos);
    EXPECT_NE(html.find("Vertices are drawn by number: v"), std::string::npos);
    EXPECT_NE(html.find("<a xlink:title=\"(x=0, y=0, z=0, busy=false)\">"), std::string::npos);
    EXPECT_EQ(html.find(">(x=0, y=0, z=0, busy=false)</text>"), std::string::npos);  // no state as a label
    EXPECT_LT(seconds, 5.0);  // generous: the picture of at most 40 vertices takes well under a second
  }
}

TEST(CliReportAnyTrace, AModelThatIsNotAFileHereIsANote) {
  ScratchDir d("report_any_trace_missing");
  const std::string trace =
      d.write("t.jsonl",
              "{\"event\":\"begin\",\"run\":1,\"seed\":1,\"strategy\":\"random\",\"model\":\"gone.json\"}\n"
              "{\"event\":\"end\",\"run\":1,\"verdict\":\"PASS\",\"steps\":0,\"resets\":0,\"message\":\"ok\"}\n");
  CliResult rep = run_playtest("report " + trace + " -o " + d.file("r.html"));
  ASSERT_EQ(rep.code, 0) << rep.out << rep.err;
  EXPECT_NE(rep.out.find("note: the trace names the model 'gone.json', which is not a file here: give --model"),
            std::string::npos)
      << rep.out;
  // A model beside the trace is found there (the run was started elsewhere).
  d.write("gone.json",
          "{\"playtest\": \"graph/1\", \"initial\": \"a\", \"vertices\": [{\"id\": \"a\"}, {\"id\": \"b\"}],"
          " \"edges\": [{\"from\": \"a\", \"to\": \"b\", \"label\": \"go\"}]}");
  CliResult found = run_playtest("report " + trace + " -o " + d.file("r.html") + " --json");
  ASSERT_EQ(found.code, 0) << found.out << found.err;
  EXPECT_EQ(nlohmann::json::parse(found.out)["model"], d.file("gone.json"));
}

}  // namespace
}  // namespace playtest::testing
