#include "playtest/campaign/trace_reader.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "playtest/base/error.hpp"

namespace playtest {

namespace {

using nlohmann::json;

[[noreturn]] void fail_at(std::string_view source, std::uint32_t line, std::uint32_t column, std::string message,
                          std::string pointer = {}) {
  throw ParseError(
      Diagnostic{.where = {.file = std::string(source), .line = line, .column = column, .pointer = pointer},
                 .message = std::move(message)});
}

// Reads the fields of one event object, failing with the key's JSON pointer.
class Fields {
 public:
  Fields(const json& j, std::string_view source, std::uint32_t line) : j_(j), source_(source), line_(line) {}

  const json* find(const char* key) const {
    auto it = j_.find(key);
    return it == j_.end() || it->is_null() ? nullptr : &*it;
  }
  std::string text(const char* key, bool required) const {
    const json* v = find(key);
    if (!v) {
      if (required) fail(key, fmt::format("the event has no \"{}\"", key));
      return {};
    }
    if (!v->is_string()) fail(key, fmt::format("\"{}\" must be a string", key));
    return v->get<std::string>();
  }
  std::uint64_t count(const char* key, bool required,
                      std::uint64_t max = std::numeric_limits<std::uint64_t>::max()) const {
    const json* v = find(key);
    if (!v) {
      if (required) fail(key, fmt::format("the event has no \"{}\"", key));
      return 0;
    }
    if (!v->is_number_unsigned() && !(v->is_number_integer() && v->get<std::int64_t>() >= 0))
      fail(key, fmt::format("\"{}\" must be a non-negative integer", key));
    const std::uint64_t x = v->get<std::uint64_t>();
    if (x > max) fail(key, fmt::format("\"{}\" is {}; at most {} is allowed", key, x, max));
    return x;
  }
  double number(const char* key) const {
    const json* v = find(key);
    if (!v) return 0;
    if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < 0)
      fail(key, fmt::format("\"{}\" must be a non-negative number", key));
    return v->get<double>();
  }
  [[noreturn]] void fail(const char* key, std::string message) const {
    fail_at(source_, line_, 0, std::move(message), std::string("/") + key);
  }

 private:
  const json& j_;
  std::string_view source_;
  std::uint32_t line_;
};

// Parses one line of the trace into j; on an error, the column (1-based, clamped to just past the
// line) and what nlohmann says.
std::optional<std::pair<std::uint32_t, std::string>> parse_json_line(const std::string& line_text, json& j) {
  try {
    j = json::parse(line_text);
  } catch (const json::parse_error& e) {
    // nlohmann's byte position is 1 past the offending character.
    return std::pair<std::uint32_t, std::string>(
        static_cast<std::uint32_t>(std::min<std::size_t>(e.byte, line_text.size() + 1)), e.what());
  } catch (const json::exception& e) {
    return std::pair<std::uint32_t, std::string>(1, e.what());  // a number out of range (error 406) carries no position
  }
  return std::nullopt;
}

// The campaign's line: run count, seed, shard, fail-fast, and its identity (the line without the shard).
RecordedCampaign campaign_event(const json& j, const Fields& f, std::uint32_t line) {
  RecordedCampaign c;
  c.line = line;
  c.runs = static_cast<std::uint32_t>(f.count("runs", false, std::numeric_limits<std::uint32_t>::max()));
  c.seed = f.count("seed", false);
  if (const std::string shard = f.text("shard", false); !shard.empty()) {
    try {
      c.shard = parse_shard(shard);
    } catch (const UsageError& e) {
      f.fail("shard", "\"shard\": " + e.diagnostic().message);
    }
  }
  if (const json* ff = f.find("fail_fast")) {
    if (!ff->is_boolean()) f.fail("fail_fast", "\"fail_fast\" must be true or false");
    c.fail_fast = ff->get<bool>();
  }
  json key = j;
  key.erase("shard");
  c.identity = key.dump(-1, ' ', false, json::error_handler_t::replace);
  return c;
}

// A run's "begin": its seed, strategy, model and parameters (when given), replay command.
void begin_event(const Fields& f, RunRecord& run) {
  run.seed = f.count("seed", false);
  run.strategy = f.text("strategy", false);
  if (std::string model = f.text("model", false); !model.empty()) run.model = std::move(model);
  if (const json* params = f.find("params")) {
    if (!params->is_array()) f.fail("params", "\"params\" must be an array of strings NAME=VALUE");
    run.params.clear();
    for (const json& p : *params) {
      if (!p.is_string()) f.fail("params", "\"params\" must be an array of strings NAME=VALUE");
      run.params.push_back(p.get<std::string>());
    }
  }
  run.replay = f.text("replay", false);
}

// A "step": appended to the run's trace (numbered as written, else counted).
void step_event(const Fields& f, std::uint32_t line, RunRecord& run) {
  StepRecord s;
  s.line = line;
  s.step = f.find("step") ? f.count("step", true) : run.trace.size() + 1;  // as written, else counted
  s.time_ms = f.number("time_ms");
  const std::string kind = f.text("kind", true);
  const auto k = parse_step_kind(kind);
  if (!k)
    f.fail("kind", fmt::format("unknown step kind \"{}\" (expected stimulus, observation, timeout, reset, "
                               "unexpected, silence or wait)",
                               kind));
  s.kind = *k;
  const bool moves = s.kind != StepKind::unexpected && s.kind != StepKind::silence;
  const bool labelled = s.kind == StepKind::stimulus || s.kind == StepKind::observation || s.kind == StepKind::wait;
  s.vertex = f.text("vertex", true);
  s.label = f.text("label", labelled);
  s.edge = f.text("edge", false);
  s.to = f.text("to", moves);
  s.concrete = f.text("concrete", false);
  run.trace.push_back(std::move(s));
}

// The "stopped_by" claims of an "end" (what stopped the run early) and the edges left untestable.
void stopped_by(const Fields& f, const json& stopped, std::string_view source, std::uint32_t line, RunRecord& run) {
  if (!stopped.is_array()) f.fail("stopped_by", "\"stopped_by\" must be an array of objects");
  for (const json& so : stopped) {
    if (!so.is_object()) f.fail("stopped_by", "\"stopped_by\" must be an array of objects");
    const Fields sf(so, source, line);
    ClaimRecord r{
        .vertex = sf.text("vertex", true),
        .label = sf.text("label", false),
        .edge = sf.text("edge", false),
        .visits = sf.count("visits", false),
        .histories = static_cast<std::uint32_t>(std::min<std::uint64_t>(sf.count("histories", false), UINT32_MAX)),
        .rate = sf.number("rate_ruled_out_above"),
        .confidence = sf.number("confidence"),
        .edges_behind =
            static_cast<std::uint32_t>(std::min<std::uint64_t>(sf.count("edges_behind", false), UINT32_MAX)),
        .text = sf.text("text", false)};
    run.stopped_by.push_back(std::move(r));
  }
  run.untestable_edges =
      static_cast<std::uint32_t>(std::min<std::uint64_t>(f.count("untestable_edges", false), UINT32_MAX));
}

// A run's "end": its verdict, counts and times, the failure (vertex, observed, allowed) and the claims.
void end_event(const Fields& f, std::string_view source, std::uint32_t line, RunRecord& run) {
  const std::string verdict = f.text("verdict", true);
  const auto v = parse_verdict(verdict);
  if (!v)
    f.fail("verdict", fmt::format("unknown verdict \"{}\" (expected PASS, FAIL, INCONCLUSIVE or ERROR)", verdict));
  run.verdict = *v;
  if (const json* i = f.find("interrupted")) {
    if (!i->is_boolean()) f.fail("interrupted", "\"interrupted\" must be true or false");
    run.interrupted = i->get<bool>();
  }
  run.signal = f.text("signal", false);
  run.message = f.text("message", false);
  run.steps = f.count("steps", false);
  run.resets = f.count("resets", false);
  run.elapsed_ms = f.number("elapsed_ms");
  if (const json* failure = f.find("failure")) {
    if (!failure->is_object()) f.fail("failure", "\"failure\" must be an object");
    const Fields ff(*failure, source, line);
    run.fail_vertex = ff.text("vertex", false);
    run.observed = ff.find("observed") ? std::optional<std::string>(ff.text("observed", false)) : std::nullopt;
    if (const json* allowed = ff.find("allowed")) {
      if (!allowed->is_array()) f.fail("failure", "\"failure/allowed\" must be an array of strings");
      for (const json& a : *allowed) {
        if (!a.is_string()) f.fail("failure", "\"failure/allowed\" must be an array of strings");
        run.allowed.push_back(a.get<std::string>());
      }
    }
  }
  if (const json* stopped = f.find("stopped_by")) stopped_by(f, *stopped, source, line, run);
}

// What the runs' lines leave out: the elapsed time and step count from the last step, the failure
// from a last unexpected or silent step, and a note on a run without an end.
void complete_runs(std::vector<RunRecord>& runs) {
  for (RunRecord& r : runs) {
    if (!r.trace.empty()) {
      if (r.elapsed_ms == 0) r.elapsed_ms = r.trace.back().time_ms;
      if (!r.verdict) r.steps = r.trace.back().step;
    }
    if (r.verdict == Verdict::fail && r.fail_vertex.empty() && !r.trace.empty()) {
      const StepRecord& last = r.trace.back();
      if (last.kind == StepKind::unexpected || last.kind == StepKind::silence) {
        r.fail_vertex = last.vertex;
        if (last.kind == StepKind::unexpected) r.observed = last.label;
      }
    }
    if (!r.verdict)
      r.notes.push_back("the trace has no end for this run: playtest, the adapter or the machine stopped during it");
  }
}

}  // namespace

std::optional<Verdict> parse_verdict(std::string_view s) {
  for (Verdict v : {Verdict::pass, Verdict::fail, Verdict::inconclusive, Verdict::error})
    if (to_string(v) == s) return v;
  return std::nullopt;
}

std::optional<StepKind> parse_step_kind(std::string_view s) {
  for (StepKind k : {StepKind::stimulus, StepKind::observation, StepKind::timeout, StepKind::reset,
                     StepKind::unexpected, StepKind::silence, StepKind::wait})
    if (to_string(k) == s) return k;
  return std::nullopt;
}

RecordedTrace read_trace(std::istream& in, std::string_view source) {
  RecordedTrace out;
  out.source = std::string(source);
  std::vector<RunRecord>& runs = out.runs;
  std::string line_text;
  std::uint32_t line = 0;
  RunRecord* current = nullptr;
  bool ended = false;  // the current run has its "end" event
  auto start_run = [&](std::uint32_t number, std::uint32_t at) {
    std::string model = runs.empty() ? std::string() : runs.back().model;
    std::vector<std::string> params = runs.empty() ? std::vector<std::string>() : runs.back().params;
    runs.emplace_back();
    current = &runs.back();
    current->model = std::move(model);
    current->params = std::move(params);
    current->source = std::string(source);
    current->line = at;
    current->run = number;
    ended = false;
  };
  while (std::getline(in, line_text)) {
    ++line;
    const bool last_and_cut = in.eof();  // no line break after it
    if (!line_text.empty() && line_text.back() == '\r') line_text.pop_back();
    if (line_text.find_first_not_of(" \t") == std::string::npos) continue;
    json j;
    if (auto bad = parse_json_line(line_text, j)) {
      if (last_and_cut && current) {
        current->notes.push_back(fmt::format("the trace's last line ({}) is cut off; it was dropped", line));
        break;
      }
      std::string what = std::move(bad->second);
      if (auto p = what.find(": "); p != std::string::npos) what = what.substr(p + 2);
      fail_at(source, line, bad->first, "not a JSON trace event: " + what);
    }
    if (!j.is_object()) fail_at(source, line, 1, "a trace event must be a JSON object");
    const Fields f(j, source, line);
    const std::string event = f.text("event", true);
    const auto run_number =
        static_cast<std::uint32_t>(f.count("run", false, std::numeric_limits<std::uint32_t>::max()));
    // The campaign's own line (run count, seed, shard): no run. A second one (traces concatenated
    // by hand) is skipped.
    if (event == "campaign") {
      if (out.campaign || !runs.empty()) continue;
      RecordedCampaign c = campaign_event(j, f, line);
      if (c.runs > 0) out.campaign = std::move(c);
      continue;
    }
    if (event == "begin") {
      start_run(run_number == 0 ? static_cast<std::uint32_t>(runs.size() + 1) : run_number, line);
      begin_event(f, *current);
      continue;
    }
    if (event != "step" && event != "end") continue;  // events of later versions are skipped
    // A step or end without its begin (a trace cut at the front, or concatenated by hand).
    if (!current || ended || (run_number != 0 && run_number != current->run))
      start_run(run_number == 0 ? static_cast<std::uint32_t>(runs.size() + 1) : run_number, line);
    if (event == "step") {
      step_event(f, line, *current);
      continue;
    }
    end_event(f, source, line, *current);
    ended = true;
  }
  if (in.bad()) throw InputError(fmt::format("{}: could not be read", source));
  if (runs.empty())
    fail_at(source, 0, 0, "the trace has no run (expected JSON lines such as {\"event\":\"begin\",...})");
  complete_runs(runs);
  return out;
}

RecordedTrace load_trace(const std::string& path) {
  if (path == "-") return read_trace(std::cin, "-");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail_at(path, 0, 0, "cannot open the trace for reading");
  RecordedTrace t = read_trace(in, path);
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode))
    t.file_id = fmt::format("{}:{}", static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino));
  return t;
}

void refuse_repeated_runs(std::span<const RecordedTrace> traces) {
  std::map<std::string, const RecordedTrace*> files;
  // A run is known by its campaign, number and what was measured (two executions of one command
  // differ in their times; a copy of a file does not).
  std::map<std::string, const RecordedTrace*> runs;
  bool stdin_seen = false;
  for (const RecordedTrace& t : traces) {
    if (t.source == "-") {
      if (stdin_seen) throw InputError("standard input ('-') is given twice as a trace");
      stdin_seen = true;
    }
    if (!t.file_id.empty()) {
      const auto [it, fresh] = files.emplace(t.file_id, &t);
      if (!fresh)
        throw InputError(make_diagnostic(
            t.source, 0, 0, "",
            it->second->source == t.source
                ? std::string("the trace is given twice: its runs would count twice")
                : fmt::format("the trace is also given as '{}': its runs would count twice", it->second->source)));
    }
    if (!t.campaign) continue;
    for (const RunRecord& r : t.runs) {
      const auto [it, fresh] = runs.emplace(fmt::format("{}|{}|{}|{}|{}", t.campaign->identity, r.run, r.steps,
                                                        r.elapsed_ms, r.trace.empty() ? -1.0 : r.trace.back().time_ms),
                                            &t);
      if (!fresh && it->second != &t)
        throw InputError(make_diagnostic(
            t.source, r.line, r.line ? 1 : 0, "",
            fmt::format("run {} of this campaign is also in '{}': it would count twice", r.run, it->second->source)));
    }
  }
}

ResolvedRun resolve_run(const TestGraph& g, const RunRecord& run) {
  ResolvedRun out;
  const std::size_t n = run.trace.size();
  out.from.assign(n, VertexId::none());
  out.to.assign(n, VertexId::none());
  out.edge.assign(n, EdgeId::none());
  std::uint32_t at = 0;  // the line of the step being checked
  auto fail = [&](std::string message) {
    Diagnostic d;
    d.where = {.file = run.source, .line = at, .column = at ? 1u : 0u, .pointer = ""};
    d.message = std::move(message);
    d.notes.push_back("is the model the one the trace was recorded with?");
    throw GraphError(std::move(d));
  };
  auto vertex = [&](const std::string& name) {
    const auto v = g.find_vertex(name);
    if (!v) fail(fmt::format("the trace's vertex '{}' is not a vertex of the model", name));
    return *v;
  };
  auto outputs_have = [&](VertexId v, std::string_view label) {
    for (EdgeId e : g.out_edges(v))
      if (!g.is_timeout(e) && g.label(e) == label) return e;
    return EdgeId::none();
  };
  for (std::size_t i = 0; i < n; ++i) {
    const StepRecord& s = run.trace[i];
    at = s.line;
    const VertexId v = vertex(s.vertex);
    out.from[i] = v;
    EdgeId e = EdgeId::none();
    if (!s.edge.empty()) {
      const auto found = g.find_edge(s.edge);
      if (!found) fail(fmt::format("the trace's edge '{}' is not an edge of the model", s.edge));
      e = *found;
      if (g.source(e) != v)
        fail(fmt::format("the trace's edge '{}' leaves vertex '{}' in the model, not '{}'", s.edge, g.name(g.source(e)),
                         s.vertex));
      if ((s.kind == StepKind::stimulus || s.kind == StepKind::observation) && g.label(e) != s.label)
        fail(fmt::format("the trace's edge '{}' is labelled '{}' in the model, not '{}'", s.edge, g.label(e), s.label));
    }
    // What the model has for this kind of step at v (the edge the runner would have followed).
    EdgeId expected = EdgeId::none();
    switch (s.kind) {
      case StepKind::stimulus:
        if (g.is_active(v))
          for (EdgeId x : g.out_edges(v))
            if (!g.is_observe(x) && g.label(x) == s.label) expected = x;
        if (expected.is_none())
          fail(fmt::format("the model does not offer the stimulus '{}' at vertex '{}'", s.label, s.vertex));
        break;
      case StepKind::observation:
        if (g.is_passive(v)) expected = outputs_have(v, s.label);
        if (expected.is_none())
          fail(fmt::format("the model has no output '{}' at passive vertex '{}'", s.label, s.vertex));
        break;
      case StepKind::timeout:
        if (g.is_passive(v)) expected = g.timeout_edge(v);
        if (expected.is_none()) fail(fmt::format("the model has no timeout edge at passive vertex '{}'", s.vertex));
        break;
      case StepKind::wait:
        if (g.is_active(v)) expected = g.observe_edge(v);
        if (expected.is_none())
          fail(fmt::format("the model has no observe edge at vertex '{}' for the trace's wait", s.vertex));
        break;
      case StepKind::reset:
        if (!g.is_resettable()) fail("the trace resets the system, but the model has no reset");
        break;
      case StepKind::unexpected:
        if (g.is_passive(v) && !outputs_have(v, s.label).is_none())
          fail(fmt::format("the trace calls the output '{}' at vertex '{}' unexpected, but the model allows it there",
                           s.label, s.vertex));
        break;
      case StepKind::silence:
        if (!g.is_passive(v) || !g.timeout_edge(v).is_none())
          fail(fmt::format("the trace fails on silence at vertex '{}', where the model {}", s.vertex,
                           g.is_passive(v) ? "follows its timeout edge" : "waits for a stimulus"));
        break;
    }
    if (!e.is_none() && !expected.is_none() && e != expected) {
      // (A stimulus may take any of several equally labelled edges to the same target.)
      const bool same_stimulus = s.kind == StepKind::stimulus && g.label(e) == s.label && !g.is_observe(e) &&
                                 g.target(e) == g.target(expected);
      if (!same_stimulus)
        fail(fmt::format("the trace's edge '{}' is labelled '{}' in the model, not '{}'", s.edge, g.label(e), s.label));
    }
    if (e.is_none()) e = expected;
    if (!e.is_none() && (s.kind == StepKind::unexpected || s.kind == StepKind::silence || s.kind == StepKind::reset))
      fail(fmt::format("the trace's {} step names an edge", to_string(s.kind)));
    out.edge[i] = e;
    if (s.kind == StepKind::reset) {
      out.to[i] = vertex(s.to);
      if (out.to[i] != g.initial())
        fail(fmt::format("the trace's reset leads to '{}', not to the model's initial vertex '{}'", s.to,
                         g.name(g.initial())));
    } else if (!e.is_none()) {
      out.to[i] = g.target(e);
      if (!s.to.empty() && vertex(s.to) != out.to[i])
        fail(fmt::format("the trace's step goes from '{}' to '{}', where the model's edge '{}' leads to '{}'", s.vertex,
                         s.to, g.name(e), g.name(out.to[i])));
    }
  }
  at = run.line;
  if (!run.fail_vertex.empty()) out.fail_vertex = vertex(run.fail_vertex);
  return out;
}

void check_recorded_model(const RunRecord& run) {
  const std::string& path = run.model;
  auto refuse = [&](std::string why) {
    Diagnostic d;
    d.where = {.file = run.source, .line = run.line, .column = run.line ? 1u : 0u, .pointer = "/model"};
    d.message = fmt::format("the trace names '{}' as the model of run {}, {}", path, run.run, why);
    d.notes.push_back("it was not read; give the model the run was recorded with: --model FILE");
    throw InputError(std::move(d));
  };
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) refuse("which does not exist");
  if (!std::filesystem::is_regular_file(status)) refuse("which is not a regular file");
  const std::string_view name = path;
  const bool json_file = name.ends_with(".json"), aut = name.ends_with(".aut"), tra = name.ends_with(".tra");
  if (!json_file && !aut && !tra && !name.ends_with(".ptm"))
    refuse("which is not a model file (.json, .ptm, .aut or .tra)");
  std::ifstream in(path, std::ios::binary);
  char head[4096];
  in.read(head, sizeof head);
  std::string_view text(head, static_cast<std::size_t>(in.gcount()));
  if (text.starts_with("\xef\xbb\xbf")) text.remove_prefix(3);
  text.remove_prefix(std::min(text.size(), text.find_first_not_of(" \t\r\n")));
  const bool looks_like = json_file ? text.starts_with("{") && text.find("\"playtest\"") != std::string_view::npos
                          : aut     ? text.starts_with("des")
                          : tra
                              ? !text.empty() && text.substr(0, text.find('\n')).find_first_not_of("0123456789 \t\r") ==
                                                     std::string_view::npos
                              : true;
  if (!looks_like) refuse("which does not look like a model of that kind");
}

MissingRuns missing_runs(const RecordedTrace& t) {
  if (!t.campaign) return {};
  ShardRuns held;
  std::uint32_t first_fail = 0;
  bool stopped_without_signal = t.campaign->fail_fast;
  for (const RunRecord& r : t.runs) {
    held.present.push_back(r.run);
    if (r.verdict == Verdict::fail && (first_fail == 0 || r.run < first_fail)) first_fail = r.run;
    if (r.interrupted) {
      if (!r.signal.empty())
        held.interrupted = true;
      else
        stopped_without_signal = true;  // --fail-fast
    }
  }
  if (stopped_without_signal) held.failed_fast = first_fail;
  return runs_missing(t.campaign->shard, t.campaign->runs, held);
}

const RunRecord& select_run(const RecordedTrace& t, std::uint32_t run) {
  if (run != 0) {
    for (const RunRecord& r : t.runs)
      if (r.run == run) return r;
    throw UsageError("run", fmt::format("the trace '{}' has no run {} (it has {} run{})", t.source, run, t.runs.size(),
                                        t.runs.size() == 1 ? "" : "s"));
  }
  for (const RunRecord& r : t.runs)
    if (r.verdict == Verdict::fail) return r;
  return t.runs.front();
}

void add_evidence(Evidence& into, const TestGraph& g, const RunRecord& run, const ResolvedRun& resolved) {
  std::vector<EdgeId> window;
  const std::size_t k = into.max_context();
  into.cut();
  for (std::size_t i = 0; i < run.trace.size() && i < resolved.edge.size(); ++i) {
    const StepKind kind = run.trace[i].kind;
    if (kind == StepKind::reset) {
      window.clear();
      into.cut();
      continue;
    }
    const EdgeId e = resolved.edge[i];
    if (e.is_none() || e.index() >= g.num_edges()) continue;
    if (kind == StepKind::observation || kind == StepKind::timeout) into.record(g.source(e), window, e);
    into.extend(e);
    if (k == 0) continue;
    if (window.size() == k) window.erase(window.begin());
    window.push_back(e);
  }
  into.cut();
}

}  // namespace playtest
