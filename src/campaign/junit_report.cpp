#include "playtest/campaign/junit_report.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <ostream>

#include "playtest/campaign/trace_writer.hpp"

namespace playtest {

std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if ((c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f) {
          out += fmt::format("\\x{:02x}", c);
        } else if (c >= 0x80) {
          // Keep well-formed UTF-8 sequences, escape stray bytes.
          std::size_t len = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
          bool ok = len > 0 && i + len <= s.size();
          for (std::size_t k = 1; ok && k < len; ++k) ok = (static_cast<unsigned char>(s[i + k]) >> 6) == 0x2;
          if (ok) {
            out.append(s.substr(i, len));
            i += len - 1;
          } else {
            out += fmt::format("\\x{:02x}", c);
          }
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out;
}

namespace {

JunitSuite suite_of(const GameGraph& g, std::span<const RunResult> runs, const JunitInfo& info) {
  JunitSuite suite{.name = info.suite, .classname = info.classname};
  if (!info.strategy.empty()) suite.properties.emplace_back("strategy", info.strategy);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const RunResult& r = runs[i];
    std::string claims;  // what a run that stopped early claimed, as the text and --json say it
    for (const OutcomeClaim& c : r.stopped_by) claims += describe_claim(g, c) + '\n';
    suite.cases.push_back(
        {.run = r.run != 0 ? r.run : static_cast<std::uint32_t>(i + 1),
         .seed = r.seed,
         .time_s = r.elapsed_ms / 1000.0,
         .verdict = r.verdict,
         .message = r.message,
         .detail = fmt::format("{}\n{}coverage: {}/{} edges, {}/{} labels\ntrace:\n{}", r.message, claims,
                               r.coverage.edges_covered, r.coverage.edges_total, r.coverage.labels_covered,
                               r.coverage.labels_total, format_trace(g, r))});
  }
  return suite;
}

JunitSuite campaign_suite_of(const GameGraph& g, const CampaignResult& c, const JunitInfo& info) {
  JunitSuite suite = suite_of(g, c.runs, info);
  suite.properties.emplace_back("seed", std::to_string(c.seed));
  suite.properties.emplace_back("runs", std::to_string(c.runs_requested));
  if (!c.shard.is_whole()) suite.properties.emplace_back("shard", to_string(c.shard));
  if (!g.is_explored()) suite.properties.emplace_back("on_the_fly", "true");
  if (!g.is_explored() && !c.model_play.on_the_fly_reason.empty())
    suite.properties.emplace_back("on_the_fly_reason", c.model_play.on_the_fly_reason);
  // The campaign's identity, for merge (CampaignOptions::settings).
  if (!c.model_digest.empty()) suite.properties.emplace_back("model_digest", c.model_digest);
  if (!c.settings.empty())
    suite.properties.emplace_back(
        "settings", nlohmann::json(c.settings).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  if (c.fail_fast) suite.properties.emplace_back("fail_fast", "true");
  suite.properties.emplace_back("model_slack", std::to_string(c.slack.size()));
  if (!c.slack.empty()) {
    suite.system_out = fmt::format("model slack: {} outcome{} the model allows never observed (a finding about the model):\n",
                                   c.slack.size(), c.slack.size() == 1 ? "" : "s");
    for (const OutcomeClaim& claim : c.slack) suite.system_out += describe_claim(g, claim) + '\n';
  }
  return suite;
}

}  // namespace

JunitSuite junit_suite(const GameGraph& g, std::span<const RunResult> runs, const JunitInfo& info) {
  return suite_of(g, runs, info);
}
JunitSuite junit_suite(const GameGraph& g, const CampaignResult& c, const JunitInfo& info) {
  return campaign_suite_of(g, c, info);
}

void write_junit(std::ostream& out, const JunitSuite& suite) {
  std::size_t failures = 0, errors = 0, skipped = 0;
  double total = 0;
  for (const JunitCase& c : suite.cases) {
    failures += c.verdict == Verdict::fail;
    errors += c.verdict == Verdict::error;
    skipped += c.verdict == Verdict::inconclusive;
    total += c.time_s;
  }
  const std::size_t tests = suite.cases.size();
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << fmt::format("<testsuites tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n", tests,
                     failures, errors, skipped, total);
  out << fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n",
      xml_escape(suite.name), tests, failures, errors, skipped, total);
  if (!suite.properties.empty()) {
    out << "    <properties>";
    for (const auto& [name, value] : suite.properties)
      out << fmt::format("<property name=\"{}\" value=\"{}\"/>", xml_escape(name), xml_escape(value));
    out << "</properties>\n";
  }
  for (const JunitCase& c : suite.cases) {
    out << fmt::format("    <testcase name=\"run {} (seed {})\" classname=\"{}\" time=\"{:.3f}\"", c.run, c.seed,
                       xml_escape(suite.classname), c.time_s);
    const std::string body = xml_escape(c.detail);
    switch (c.verdict) {
      case Verdict::pass:
        out << "/>\n";
        break;
      case Verdict::fail:
        out << fmt::format(">\n      <failure type=\"FAIL\" message=\"{}\">{}</failure>\n    </testcase>\n",
                           xml_escape(c.message), body);
        break;
      case Verdict::error:
        out << fmt::format(">\n      <error type=\"ERROR\" message=\"{}\">{}</error>\n    </testcase>\n",
                           xml_escape(c.message), body);
        break;
      case Verdict::inconclusive:
        out << fmt::format(
            ">\n      <skipped message=\"INCONCLUSIVE: {}\"/>\n      <system-out>{}</system-out>\n    </testcase>\n",
            xml_escape(c.message), body);
        break;
    }
  }
  if (!suite.system_out.empty()) out << "    <system-out>" << xml_escape(suite.system_out) << "</system-out>\n";
  out << "  </testsuite>\n</testsuites>\n";
}

}  // namespace playtest
