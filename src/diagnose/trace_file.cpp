#include "playtest/diagnose/trace_file.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "diagnose/detail/located.hpp"
#include "playtest/error.hpp"
#include "playtest/run/trace_writer.hpp"

namespace playtest {

bool parse_step_kind(std::string_view s, StepKind& out) {
  for (StepKind k : {StepKind::stimulus, StepKind::observation, StepKind::timeout, StepKind::reset,
                     StepKind::unexpected, StepKind::silence, StepKind::wait})
    if (to_string(k) == s) {
      out = k;
      return true;
    }
  return false;
}

bool parse_verdict(std::string_view s, Verdict& out) {
  for (Verdict v : {Verdict::pass, Verdict::fail, Verdict::inconclusive, Verdict::error})
    if (to_string(v) == s) {
      out = v;
      return true;
    }
  return false;
}

namespace {

class TraceParser {
 public:
  explicit TraceParser(std::string source) { t_.source = std::move(source); }

  void line(std::string_view text, std::uint32_t number) {
    line_ = number;
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (text.find_first_not_of(" \t") == std::string_view::npos) return;
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded()) fail("not a JSON value; a trace has one JSON object per line");
    if (!j.is_object()) fail("not a JSON object; a trace has one JSON object per line");
    const std::string event = text_field(j, "event", true);
    if (event == "begin") {
      RecordedRun r;
      r.run = static_cast<std::uint32_t>(number_field(j, "run", 1));
      r.seed = number_field(j, "seed", 0);
      r.strategy = text_field(j, "strategy", false);
      r.model = text_field(j, "model", false);
      r.line = number;
      t_.runs.push_back(std::move(r));
    } else if (event == "step") {
      RecordedRun& r = run_for(j);
      RecordedStep s;
      s.step = number_field(j, "step", r.steps.size() + 1);
      if (j.contains("time_ms")) {
        if (!j["time_ms"].is_number()) fail("\"time_ms\" must be a number");
        s.time_ms = j["time_ms"].get<double>();
      }
      const std::string kind = text_field(j, "kind", true);
      if (!parse_step_kind(kind, s.kind))
        fail(
            fmt::format("unknown step kind '{}' (expected stimulus, observation, timeout, reset, unexpected, "
                        "silence or wait)",
                        kind));
      s.vertex = text_field(j, "vertex", true);
      s.label = text_field(j, "label", false);
      s.edge = text_field(j, "edge", false);
      s.to = text_field(j, "to", false);
      const bool moves = s.kind != StepKind::unexpected && s.kind != StepKind::silence;
      if (moves && s.to.empty()) fail(fmt::format("a '{}' step needs \"to\"", kind));
      if ((s.kind == StepKind::stimulus || s.kind == StepKind::observation || s.kind == StepKind::wait) &&
          !j.contains("label"))
        fail(fmt::format("a '{}' step needs \"label\"", kind));
      s.line = number;
      r.steps.push_back(std::move(s));
    } else if (event == "end") {
      RecordedRun& r = run_for(j);
      const std::string verdict = text_field(j, "verdict", true);
      if (!parse_verdict(verdict, r.verdict))
        fail(fmt::format("unknown verdict '{}' (expected PASS, FAIL, INCONCLUSIVE or ERROR)", verdict));
      r.message = text_field(j, "message", false);
      r.ended = true;
    }
    // Other events: skipped (later versions may add some).
  }

  RecordedTrace finish() {
    if (t_.runs.empty()) {
      line_ = 0;
      fail("no run in the trace (expected lines such as {\"event\":\"begin\",...})");
    }
    return std::move(t_);
  }

 private:
  [[noreturn]] void fail(std::string message) const {
    detail::throw_at<ParseError>(t_.source, line_, std::move(message));
  }
  std::string text_field(const nlohmann::json& j, const char* key, bool required) const {
    auto it = j.find(key);
    if (it == j.end()) {
      if (required) fail(fmt::format("missing \"{}\"", key));
      return {};
    }
    if (!it->is_string()) fail(fmt::format("\"{}\" must be a string", key));
    return it->get<std::string>();
  }
  std::uint64_t number_field(const nlohmann::json& j, const char* key, std::uint64_t fallback) const {
    auto it = j.find(key);
    if (it == j.end()) return fallback;
    if (!it->is_number_unsigned()) fail(fmt::format("\"{}\" must be a non-negative integer", key));
    return it->get<std::uint64_t>();
  }
  // The run a step or end line belongs to: its "run" number (a run without a begin line is
  // started), else the last run.
  RecordedRun& run_for(const nlohmann::json& j) {
    const bool numbered = j.contains("run");
    const std::uint64_t n = number_field(j, "run", t_.runs.empty() ? 1 : t_.runs.back().run);
    if (!t_.runs.empty() && t_.runs.back().run == n && !t_.runs.back().ended) return t_.runs.back();
    if (!t_.runs.empty() && !numbered && !t_.runs.back().ended) return t_.runs.back();
    RecordedRun r;
    r.run = static_cast<std::uint32_t>(n);
    r.line = line_;
    if (!t_.runs.empty()) r.model = t_.runs.back().model;
    t_.runs.push_back(std::move(r));
    return t_.runs.back();
  }

  RecordedTrace t_;
  std::uint32_t line_ = 0;
};

}  // namespace

RecordedTrace read_trace(std::istream& in, const std::string& source_name) {
  TraceParser p(source_name);
  std::string text;
  std::uint32_t number = 0;
  while (std::getline(in, text)) p.line(text, ++number);
  return p.finish();
}

RecordedTrace load_trace(const std::string& path) {
  if (path == "-") return read_trace(std::cin, "-");
  std::ifstream in(path, std::ios::binary);
  if (!in) detail::throw_at<ParseError>(path, 0, "cannot open the trace file");
  return read_trace(in, path);
}

const RecordedRun& select_run(const RecordedTrace& t, std::uint32_t run) {
  if (run != 0) {
    for (const RecordedRun& r : t.runs)
      if (r.run == run) return r;
    throw UsageError("run", fmt::format("the trace '{}' has no run {} (it has {} run{})", t.source, run, t.runs.size(),
                                        t.runs.size() == 1 ? "" : "s"));
  }
  for (const RecordedRun& r : t.runs)
    if (r.ended && r.verdict == Verdict::fail) return r;
  return t.runs.front();
}

void write_trace(std::ostream& out, const TestGraph& g, const RunResult& r, const TraceHeader& header) {
  JsonlTraceWriter w(out);
  w.set_context(header.model, {});
  w.begin_run(header.run, header.seed, header.strategy);
  for (const TraceStep& s : r.trace) w.on_step(g, s);
  w.on_end(g, r);
}

}  // namespace playtest
