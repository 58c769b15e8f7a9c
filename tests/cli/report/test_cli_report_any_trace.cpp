// Reports of any trace (issue 24): `report` without --model draws the model the trace names (with
// its recorded --param), also for a run played on the fly; a model program's states are drawn as
// short names (v<index>) with the full state in the tooltip and the caption; a large model's failure
// is drawn as the neighbourhood of its path, in well under a second. A trace naming a model that is
// not a file here is reported without the picture, with a note.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

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
    EXPECT_NE(html.find("too many to draw readably here; this is the neighbourhood"), std::string::npos);
    EXPECT_NE(html.find("Vertices are drawn by number: v"), std::string::npos);
    EXPECT_NE(html.find("<a xlink:title=\"(x="), std::string::npos);          // the state as the tooltip
    EXPECT_EQ(html.find("font-size=\"14.00\">(x="), std::string::npos);       // never as a label
    EXPECT_NE(html.find("font-size=\"14.00\">v"), std::string::npos) << fly;  // the short name is
    EXPECT_LT(seconds, 5.0);  // generous: the picture of at most 24 vertices takes well under a second
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
  EXPECT_NE(rep.out.find("note: the trace names 'gone.json' as the model of run 1, which does not exist: it was not "
                         "read; give --model to draw it"),
            std::string::npos)
      << rep.out;
  // A file that is no model is not read.
  const std::string fifo = d.write("t2.jsonl",
                                   "{\"event\":\"begin\",\"run\":1,\"seed\":1,\"strategy\":\"random\",\"model\":"
                                   "\"/dev/zero\"}\n{\"event\":\"end\",\"run\":1,\"verdict\":\"PASS\",\"steps\":0,"
                                   "\"resets\":0,\"message\":\"ok\"}\n");
  CliResult zero = run_playtest("report " + fifo + " -o " + d.file("r2.html"));
  ASSERT_EQ(zero.code, 0) << zero.out << zero.err;
  EXPECT_NE(zero.out.find("which is not a regular file: it was not read"), std::string::npos) << zero.out;
  // A model beside the trace is found there (the run was started elsewhere).
  d.write("gone.json",
          "{\"playtest\": \"graph/1\", \"initial\": \"a\", \"vertices\": [{\"id\": \"a\"}, {\"id\": \"b\"}],"
          " \"edges\": [{\"from\": \"a\", \"to\": \"b\", \"label\": \"go\"}]}");
  CliResult found = run_playtest("report " + trace + " -o " + d.file("r.html") + " --json");
  ASSERT_EQ(found.code, 0) << found.out << found.err;
  EXPECT_EQ(nlohmann::json::parse(found.out)["model"], d.file("gone.json"));
}

// A trace of a run played on the fly whose model is too big to explore within --explore-time (the
// counters at N=1000: 2 * 10^9 states): the report takes its coverage and the failure's path from the
// part of the model the trace saw (the states its steps pass through and their edges), and says so.
TEST(CliReportAnyTrace, AModelTooBigToExploreIsReportedOnThePartTheTraceSaw) {
  ScratchDir d("report_seen_part");
  const std::string sut = d.write("sut.sh", buggy);
  const std::string trace = d.file("t.jsonl");
  CliResult r =
      run_playtest("run " + counters + " --sut 'sh " + sut + "' --strategy random --seed 2 --quiet --trace " + trace);
  ASSERT_EQ(r.code, 1) << r.out << r.err;
  CliResult rep = run_playtest("report " + trace + " --explore-time 0.05 -o " + d.file("r.html") + " --json");
  ASSERT_EQ(rep.code, 0) << rep.out << rep.err;
  const auto j = nlohmann::json::parse(rep.out);
  ASSERT_FALSE(j["messages"].empty()) << rep.out;
  const std::string note = j["messages"][0];
  std::smatch m;
  ASSERT_TRUE(std::regex_search(note, m,
                                std::regex("^coverage of the (\\d+) edges the trace saw; the model is too big to "
                                           "explore within --explore-time \\(exploring it did not end within 0.05 s")))
      << note;
  const std::string edges = m[1];
  const std::string html = read_file(d.file("r.html"));
  EXPECT_NE(html.find("Coverage of the " + edges + " edges the trace saw"), std::string::npos);
  // The coverage fact counts the seen edges: some taken, not all (each state's other edges were seen
  // but not taken).
  ASSERT_TRUE(std::regex_search(html, m,
                                std::regex("coverage <b>(\\d+)/" + edges +
                                           " edges, \\d+/\\d+ labels \\(of "
                                           "those the traces saw\\)</b>")))
      << html.substr(0, 3000);
  EXPECT_GT(std::stoi(m[1]), 0);
  EXPECT_LT(std::stoi(m[1]), std::stoi(edges));
  // The failure's path is drawn (by Graphviz or without it) and the steps point at its edges.
  EXPECT_EQ(j["pictures"], 2) << rep.out;  // the failure and the (small) part the trace saw
  EXPECT_NE(html.find("id=\"f1_failure\""), std::string::npos);
  EXPECT_NE(html.find("data-edge=\"f1_e"), std::string::npos);
  EXPECT_NE(html.find("class=\"edge path"), std::string::npos);
  // A trace that is not of this model is still refused (the walk stops where it leaves the model).
  const std::string other =
      std::regex_replace(read_file(trace), std::regex("\"label\":\"DownY\""), "\"label\":\"DownW\"");
  CliResult bad = run_playtest("report " + d.write("other.jsonl", other) + " --model " + counters +
                               " --explore-time 0.05 -o " + d.file("r2.html"));
  EXPECT_EQ(bad.code, 2) << bad.out << bad.err;
  EXPECT_NE(bad.err.find("is the model the one the trace was recorded with?"), std::string::npos) << bad.err;
}

// Issue 31, claims: a run that stops because continuing is futile records the claims it stopped on
// in the trace's end, and the report (of the trace, and run --report) says them once, lists the
// model's slack made from the trace itself, and marks it on the model picture.
TEST(CliReportAnyTrace, FutileStopsAndModelSlackAreListedAndMarked) {
  ScratchDir d("report_slack");
  const std::string model =
      d.write("st.json",
              "{\"playtest\": \"graph/1\", \"initial\": \"a\", \"vertices\": [{\"id\": \"a\"}, {\"id\": \"p\", "
              "\"kind\": \"passive\"}, {\"id\": \"b\"}], \"edges\": [{\"from\": \"a\", \"to\": \"p\", \"label\": "
              "\"go\"}, {\"from\": \"p\", \"to\": \"a\", \"label\": \"x\", \"prob\": 0.5}, {\"from\": \"p\", \"to\": "
              "\"b\", \"label\": \"y\", \"prob\": 0.5}, {\"from\": \"b\", \"to\": \"a\", \"label\": \"back\"}]}");
  // The system always answers x: y is never chosen, and 'back' lies behind it.
  const std::string sut = d.write("x.sh",
                                  "echo ready\nwhile read -r cmd arg; do case \"$cmd\" in stimulus) echo ack; case "
                                  "\"$arg\" in go) echo 'output x' ;; esac ;; reset) echo ready ;; end) exit 0 ;; "
                                  "esac; done\n");
  CliResult r = run_playtest("run " + model + " --sut 'sh " + sut + "' --strategy cover --steps 5000 --trace " +
                             d.file("t.jsonl") + " --report " + d.file("run.html"));
  ASSERT_EQ(r.code, 4) << r.out << r.err;
  // Stopped because continuing was futile, not by the budget: no note about the default purpose's budget.
  EXPECT_EQ(r.out.find("was not met within the budget"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("stopped early, because continuing was futile"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("model slack: 1 outcome the model allows was never observed"), std::string::npos) << r.out;
  // The trace's end: the claim, with the visits (688 rule 1% out at 99.9%) in every history.
  nlohmann::json end;
  std::istringstream lines(read_file(d.file("t.jsonl")));
  for (std::string line; std::getline(lines, line);)
    if (line.find("\"event\":\"end\"") != std::string::npos) end = nlohmann::json::parse(line);
  ASSERT_TRUE(end.contains("stopped_by")) << end.dump();
  ASSERT_EQ(end["stopped_by"].size(), 1u);
  const auto& claim = end["stopped_by"][0];
  EXPECT_EQ(claim["label"], "y");
  EXPECT_EQ(claim["vertex"], "p");
  EXPECT_EQ(claim["edges_behind"], 2);
  EXPECT_GE(claim["visits"].get<int>(), 688);
  EXPECT_LE(claim["rate_ruled_out_above"].get<double>(), 0.01);
  EXPECT_NE(claim["text"].get<std::string>().find("'y' had not been seen at 'p' in the "), std::string::npos);
  EXPECT_EQ(end["untestable_edges"], 2);
  CliResult rep = run_playtest("report " + d.file("t.jsonl") + " -o " + d.file("trace.html"));
  ASSERT_EQ(rep.code, 0) << rep.out << rep.err;
  for (const char* page : {"run.html", "trace.html"}) {
    const std::string html = read_file(d.file(page));
    EXPECT_NE(html.find("Runs stopped because continuing was futile"), std::string::npos) << page;
    EXPECT_NE(html.find("Model slack: outcomes the model allows that the system never showed (1)"), std::string::npos)
        << page;
    EXPECT_NE(html.find("the system never chose &apos;y&apos; at &apos;p&apos;: not seen in "), std::string::npos) << page;
    EXPECT_NE(html.find("model slack: 1 outcome"), std::string::npos) << page;  // in the contents
    if (have_dot()) {
      EXPECT_NE(html.find("class=\"edge slack\""), std::string::npos) << page;
    }
  }
}

}  // namespace
}  // namespace playtest::testing
