#include "playtest/run/junit_report.hpp"

#include <fmt/format.h>

#include <ostream>

#include "playtest/run/trace_writer.hpp"

namespace playtest {

std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
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

void write_junit(std::ostream& out, const TestGraph& g, std::span<const RunResult> runs, const JunitInfo& info) {
  std::size_t failures = 0, errors = 0, skipped = 0;
  double total = 0;
  for (const RunResult& r : runs) {
    failures += r.verdict == Verdict::fail;
    errors += r.verdict == Verdict::error;
    skipped += r.verdict == Verdict::inconclusive;
    total += r.elapsed_ms / 1000.0;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << fmt::format("<testsuites tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n",
                     runs.size(), failures, errors, skipped, total);
  out << fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n",
                     xml_escape(info.suite), runs.size(), failures, errors, skipped, total);
  if (!info.strategy.empty())
    out << fmt::format("    <properties><property name=\"strategy\" value=\"{}\"/></properties>\n", xml_escape(info.strategy));
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const RunResult& r = runs[i];
    out << fmt::format("    <testcase name=\"run {} (seed {})\" classname=\"{}\" time=\"{:.3f}\"", i + 1, r.seed,
                       xml_escape(info.classname), r.elapsed_ms / 1000.0);
    std::string body = xml_escape(fmt::format("{}\ncoverage: {}/{} edges, {}/{} labels\ntrace:\n{}", r.message,
                                              r.coverage.edges_covered, r.coverage.edges_total,
                                              r.coverage.labels_covered, r.coverage.labels_total,
                                              format_trace(g, r)));
    switch (r.verdict) {
      case Verdict::pass: out << "/>\n"; break;
      case Verdict::fail:
        out << fmt::format(">\n      <failure type=\"FAIL\" message=\"{}\">{}</failure>\n    </testcase>\n",
                           xml_escape(r.message), body);
        break;
      case Verdict::error:
        out << fmt::format(">\n      <error type=\"ERROR\" message=\"{}\">{}</error>\n    </testcase>\n",
                           xml_escape(r.message), body);
        break;
      case Verdict::inconclusive:
        out << fmt::format(">\n      <skipped message=\"INCONCLUSIVE: {}\"/>\n      <system-out>{}</system-out>\n    </testcase>\n",
                           xml_escape(r.message), body);
        break;
    }
  }
  out << "  </testsuite>\n</testsuites>\n";
}

}  // namespace playtest
