#include "playtest/campaign/merge.hpp"

#include <expat.h>
#include <fmt/format.h>
#include <signal.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

#include "playtest/base/error.hpp"
#include "playtest/base/numbers.hpp"
#include "playtest/base/source_text.hpp"
#include "playtest/run/stop_signal.hpp"

namespace playtest {

std::string_view to_string(CampaignPartKind k) {
  switch (k) {
    case CampaignPartKind::trace:
      return "trace";
    case CampaignPartKind::junit:
      return "JUnit";
    case CampaignPartKind::run_json:
      return "run --json";
    case CampaignPartKind::simulate_json:
      return "simulate --json";
  }
  return "?";
}

namespace {

[[noreturn]] void refuse(const std::string& source, std::uint32_t line, std::uint32_t column, std::string pointer,
                         std::string message) {
  throw ParseError(make_diagnostic(source, line, column, std::move(pointer), std::move(message)));
}

// --- JSON documents --------------------------------------------------------------------------------

// Reads the fields playtest wrote, refusing (with the field's JSON pointer) what it would not write.
class JsonReader {
 public:
  JsonReader(const std::string& source, std::uint32_t line = 0) : source_(source), line_(line) {}

  const nlohmann::json& at(const nlohmann::json& j, const std::string& key, const std::string& where) const {
    if (!j.is_object() || !j.contains(key)) fail(where, fmt::format("missing \"{}\"", key));
    return j.at(key);
  }
  std::uint64_t uint(const nlohmann::json& j, const std::string& key, const std::string& where) const {
    const nlohmann::json& v = at(j, key, where);
    if (!v.is_number_unsigned()) fail(where + "/" + key, fmt::format("\"{}\" must be an unsigned integer", key));
    return v.get<std::uint64_t>();
  }
  std::uint32_t uint32(const nlohmann::json& j, const std::string& key, const std::string& where) const {
    const std::uint64_t v = uint(j, key, where);
    if (v > 0xffffffffu) fail(where + "/" + key, fmt::format("\"{}\" is out of range", key));
    return static_cast<std::uint32_t>(v);
  }
  std::string str(const nlohmann::json& j, const std::string& key, const std::string& where) const {
    const nlohmann::json& v = at(j, key, where);
    if (!v.is_string()) fail(where + "/" + key, fmt::format("\"{}\" must be a string", key));
    return v.get<std::string>();
  }
  Shard shard(const nlohmann::json& j, const std::string& where) const {
    if (!j.contains("shard")) return {};
    const std::string text = str(j, "shard", where);
    try {
      return parse_shard(text);
    } catch (const UsageError& e) {
      fail(where + "/shard", "\"shard\": " + e.diagnostic().message);
    }
  }
  Verdict verdict(const nlohmann::json& j, const std::string& where) const {
    const std::string v = str(j, "verdict", where);
    for (Verdict x : {Verdict::pass, Verdict::fail, Verdict::inconclusive, Verdict::error})
      if (to_string(x) == v) return x;
    fail(where + "/verdict", fmt::format("unknown verdict '{}'", v));
  }
  // Optional fields: absent, or of the kind playtest writes.
  void optional(const nlohmann::json& j, const std::string& where, std::initializer_list<const char*> uints,
                std::initializer_list<const char*> strings, std::initializer_list<const char*> bools,
                std::initializer_list<const char*> numbers = {}) const {
    for (const char* k : uints)
      if (j.contains(k) && !j[k].is_number_unsigned())
        fail(where + "/" + k, fmt::format("\"{}\" must be an unsigned integer", k));
    for (const char* k : strings)
      if (j.contains(k) && !j[k].is_string()) fail(where + "/" + k, fmt::format("\"{}\" must be a string", k));
    for (const char* k : bools)
      if (j.contains(k) && !j[k].is_boolean()) fail(where + "/" + k, fmt::format("\"{}\" must be true or false", k));
    for (const char* k : numbers)
      if (j.contains(k) && !j[k].is_number()) fail(where + "/" + k, fmt::format("\"{}\" must be a number", k));
  }
  // The campaign's identity: model_digest, settings (an object of strings) and fail_fast.
  void identity(const nlohmann::json& j, CampaignPart& p) const {
    optional(j, "", {}, {"model_digest"}, {"fail_fast"});
    p.model_digest = j.value("model_digest", std::string());
    p.fail_fast = j.value("fail_fast", false);
    if (const auto it = j.find("settings"); it != j.end()) settings(*it, "/settings", p);
  }
  void settings(const nlohmann::json& s, const std::string& where, CampaignPart& p) const {
    if (!s.is_object()) fail(where, "\"settings\" must be an object of option names and values");
    for (const auto& [k, v] : s.items())
      if (!v.is_string()) fail(where + "/" + k, "\"settings\" must be an object of option names and values");
    p.settings = s;
  }
  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
    refuse(source_, line_, 0, pointer.empty() ? "" : pointer, message);
  }

 private:
  const std::string& source_;
  std::uint32_t line_;
};

void read_run_json(CampaignPart& p) {
  const JsonReader r(p.source);
  const nlohmann::json& j = p.document;
  p.strategy = r.str(j, "strategy", "");
  p.seed = r.uint(j, "seed", "");
  p.runs = r.uint32(j, "runs_requested", "");
  p.shard = r.shard(j, "");
  r.identity(j, p);
  const nlohmann::json& runs = r.at(j, "runs", "");
  if (!runs.is_array()) r.fail("/runs", "\"runs\" must be an array");
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string where = fmt::format("/runs/{}", i);
    r.uint32(runs[i], "run", where);
    r.uint(runs[i], "seed", where);
    r.verdict(runs[i], where);
    r.optional(runs[i], where, {"steps", "resets"}, {"message", "replay"}, {"interrupted"}, {"elapsed_ms"});
  }
  r.optional(j, "", {"failed_fast", "runs_not_completed"}, {}, {"interrupted"});
  if (j.contains("signal") && !j["signal"].is_string() && !j["signal"].is_null())
    r.fail("/signal", "\"signal\" must be a signal's name or null");
  for (const char* key : {"edge_visits", "coverage"})
    if (!r.at(j, key, "").is_object()) r.fail(std::string("/") + key, fmt::format("\"{}\" must be an object", key));
  if (!r.at(j, "covered_labels", "").is_array()) r.fail("/covered_labels", "\"covered_labels\" must be an array");
  r.uint32(j["coverage"], "edges_total", "/coverage");
  r.uint32(j["coverage"], "labels_total", "/coverage");
  for (const auto& [edge, visits] : j["edge_visits"].items())
    if (!visits.is_number_unsigned()) r.fail("/edge_visits", fmt::format("visits of '{}' must be a count", edge));
}

void read_simulate_json(CampaignPart& p) {
  const JsonReader r(p.source);
  const nlohmann::json& j = p.document;
  p.seed = r.uint(j, "seed", "");
  p.runs = r.uint32(j, "runs", "");
  r.uint32(j, "mutant_runs", "");
  r.uint(j, "steps", "");
  p.shard = r.shard(j, "");
  r.optional(j, "", {}, {"model", "implementation"}, {});
  if (j.contains("mutants")) {
    if (!j["mutants"].is_array()) r.fail("/mutants", "\"mutants\" must be an array");
    for (std::size_t i = 0; i < j["mutants"].size(); ++i) {
      r.str(j["mutants"][i], "kind", fmt::format("/mutants/{}", i));
      r.str(j["mutants"][i], "description", fmt::format("/mutants/{}", i));
    }
  }
  const nlohmann::json& rows = r.at(j, "strategies", "");
  if (!rows.is_array()) r.fail("/strategies", "\"strategies\" must be an array");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string where = fmt::format("/strategies/{}", i);
    p.strategy += (i ? "," : "") + r.str(rows[i], "strategy", where);
    for (const char* key :
         {"runs", "passed", "failed", "inconclusive", "errors", "purpose_met", "steps_sum", "steps_sq_sum"})
      r.uint(rows[i], key, where);
    r.str(rows[i], "purpose", where);
    r.str(rows[i], "purpose_description", where);
    if (rows[i].contains("mutants")) {
      const nlohmann::json& m = rows[i]["mutants"];
      for (const char* key : {"count", "runs", "runs_failed", "steps_to_detect_sum"})
        r.uint(m, key, where + "/mutants");
      const nlohmann::json& d = r.at(m, "detected_mutants", where + "/mutants");
      if (!d.is_array()) r.fail(where + "/mutants/detected_mutants", "must be an array");
      for (const auto& x : d)
        if (!x.is_number_unsigned() || x.get<std::uint64_t>() == 0 ||
            x.get<std::uint64_t>() > m["count"].get<std::uint64_t>())
          r.fail(where + "/mutants/detected_mutants", "must list mutant numbers");
    }
  }
}

// --- traces ------------------------------------------------------------------------------------------

void read_trace(CampaignPart& p, std::string_view text) {
  std::uint32_t line_no = 0;
  std::set<std::uint32_t> seen;
  TraceRun* current = nullptr;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t nl = text.find('\n', at);
    if (nl == std::string_view::npos) nl = text.size();
    const std::string_view raw = text.substr(at, nl - at);
    at = nl + 1;
    ++line_no;
    if (raw.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const nlohmann::json j = nlohmann::json::parse(raw, nullptr, false);
    const JsonReader r(p.source, line_no);
    if (j.is_discarded() || !j.is_object())
      refuse(p.source, line_no, 1, "", "not a JSON object: a trace has one JSON object per line");
    const std::string event = r.str(j, "event", "");
    if (p.document.is_null()) {
      if (event != "campaign")
        refuse(p.source, line_no, 1, "",
               "a trace of playtest run starts with its campaign event ({\"event\":\"campaign\",...}); this one "
               "starts with '" +
                   event + "'");
      if (const auto it = j.find("on_the_fly"); it != j.end() && *it == true)
        refuse(p.source, line_no, 1, "/on_the_fly",
               "a trace of a model played on the fly has no totals to merge: its campaign is played by one job, "
               "in no shards (docs/testing.md, \"Models too big to explore\")");
      p.document = j;
      p.strategy = r.str(j, "strategy", "");
      p.seed = r.uint(j, "seed", "");
      p.runs = r.uint32(j, "runs", "");
      r.uint32(j, "edges", "");
      r.uint32(j, "labels", "");
      p.shard = r.shard(j, "");
      r.identity(j, p);
      continue;
    }
    if (event == "campaign") refuse(p.source, line_no, 1, "", "a second campaign event: one trace per file");
    const std::uint32_t run = r.uint32(j, "run", "");
    if (event == "begin") {
      if (!seen.insert(run).second) refuse(p.source, line_no, 1, "", fmt::format("run {} begins twice", run));
      p.trace_runs.push_back({.run = run, .seed = r.uint(j, "seed", "")});
      current = &p.trace_runs.back();
    } else if (event == "step" || event == "end") {
      if (current == nullptr || current->run != run || !current->end.is_null())
        refuse(p.source, line_no, 1, "",
               fmt::format("a '{}' event of run {} outside that run's begin and end", event, run));
      if (event == "end") {
        r.verdict(j, "");
        r.uint(j, "steps", "");
        r.str(j, "message", "");
        r.optional(j, "", {"resets"}, {}, {"interrupted"});
        if (j.contains("signal") && !j["signal"].is_string() && !j["signal"].is_null())
          r.fail("/signal", "\"signal\" must be a signal's name or null");
        current->end = j;
      } else if (j.contains("edge")) {
        current->edges.push_back(r.str(j, "edge", ""));
        current->labels.push_back(r.str(j, "label", ""));
      }
    } else {
      refuse(p.source, line_no, 1, "", fmt::format("unknown event '{}'", event));
    }
    current->lines.emplace_back(raw.substr(0, raw.find_last_not_of('\r') + 1));
  }
  if (p.document.is_null()) refuse(p.source, 0, 0, "", "the trace is empty");
}

// --- JUnit -----------------------------------------------------------------------------------------

// Reads the JUnit XML that write_junit writes (any formatting of it), with expat: entities, character
// references and CDATA are the parser's business. A DOCTYPE is refused (playtest never writes one,
// and it is where entity expansion attacks live).
class JunitReader {
 public:
  JunitReader(CampaignPart& p) : p_(p), parser_(XML_ParserCreate("UTF-8")) {
    if (parser_ == nullptr) throw std::bad_alloc();
    XML_SetUserData(parser_, this);
    XML_SetElementHandler(parser_, &JunitReader::start, &JunitReader::end);
    XML_SetCharacterDataHandler(parser_, &JunitReader::text);
    XML_SetStartDoctypeDeclHandler(parser_, &JunitReader::doctype);
  }
  ~JunitReader() { XML_ParserFree(parser_); }
  JunitReader(const JunitReader&) = delete;
  JunitReader& operator=(const JunitReader&) = delete;

  void read(std::string_view text) {
    // expat takes an int length: feed the text in pieces.
    constexpr std::size_t piece = 1 << 20;
    for (std::size_t at = 0;; at += piece) {
      const std::size_t n = std::min(piece, text.size() - std::min(at, text.size()));
      const bool last = at + n >= text.size();
      if (XML_Parse(parser_, text.data() + at, static_cast<int>(n), last ? 1 : 0) != XML_STATUS_OK) {
        if (!problem_.empty()) refuse(p_.source, problem_line_, problem_column_, "", problem_);
        refuse(p_.source, static_cast<std::uint32_t>(XML_GetCurrentLineNumber(parser_)),
               static_cast<std::uint32_t>(XML_GetCurrentColumnNumber(parser_)) + 1, "",
               fmt::format("not well-formed XML: {}", XML_ErrorString(XML_GetErrorCode(parser_))));
      }
      if (last) break;
    }
    if (!saw_suite_) refuse(p_.source, 1, 1, "", "no <testsuite>: not a JUnit file written by playtest run");
    JsonReader r(p_.source);
    for (const auto& [name, value] : p_.junit.properties) {
      if (name == "strategy") p_.strategy = value;
      if (name == "seed" && !parse_uint(value, p_.seed)) refuse(p_.source, 0, 0, "", "property seed is not a number");
      if (name == "runs" && !parse_uint(value, p_.runs)) refuse(p_.source, 0, 0, "", "property runs is not a number");
      if (name == "shard") {
        try {
          p_.shard = parse_shard(value);
        } catch (const UsageError& e) {
          refuse(p_.source, 0, 0, "", "property shard: " + e.diagnostic().message);
        }
      }
      if (name == "model_digest") p_.model_digest = value;
      if (name == "fail_fast") p_.fail_fast = value == "true";
      if (name == "settings") {
        const nlohmann::json s = nlohmann::json::parse(value, nullptr, false);
        if (s.is_discarded()) refuse(p_.source, 0, 0, "", "property settings is not a JSON object");
        r.settings(s, "", p_);
      }
    }
    if (p_.runs == 0)
      refuse(p_.source, 0, 0, "",
             "the suite has no 'runs' property: not the JUnit file of a playtest run campaign (or written by an "
             "older playtest)");
  }

 private:
  template <class T>
  static bool parse_uint(std::string_view s, T& v) {
    const auto r = read_integer<T>(s);
    v = r.value;
    return r.ok();
  }
  static const char* attr(const XML_Char** attrs, std::string_view name) {
    for (std::size_t i = 0; attrs[i] != nullptr; i += 2)
      if (name == attrs[i]) return attrs[i + 1];
    return nullptr;
  }
  void stop(std::string message) {
    if (problem_.empty()) {
      problem_ = std::move(message);
      problem_line_ = static_cast<std::uint32_t>(XML_GetCurrentLineNumber(parser_));
      problem_column_ = static_cast<std::uint32_t>(XML_GetCurrentColumnNumber(parser_)) + 1;
    }
    XML_StopParser(parser_, XML_FALSE);
  }
  static void doctype(void* self, const XML_Char*, const XML_Char*, const XML_Char*, int) {
    static_cast<JunitReader*>(self)->stop("a DOCTYPE declaration: playtest's JUnit files have none");
  }
  static void start(void* self, const XML_Char* name, const XML_Char** attrs) {
    static_cast<JunitReader*>(self)->on_start(name, attrs);
  }
  static void end(void* self, const XML_Char* name) { static_cast<JunitReader*>(self)->on_end(name); }
  static void text(void* self, const XML_Char* s, int len) {
    auto* r = static_cast<JunitReader*>(self);
    if (r->collect_ != nullptr) r->collect_->append(s, static_cast<std::size_t>(len));
  }

  void on_start(std::string_view name, const XML_Char** attrs) {
    JunitSuite& suite = p_.junit;
    if (name == "testsuite") {
      if (saw_suite_) return stop("a second <testsuite>: playtest writes one per file");
      saw_suite_ = true;
      const char* n = attr(attrs, "name");
      suite.name = n ? n : "";
    } else if (name == "property" && saw_suite_ && in_case_ == nullptr) {
      const char* n = attr(attrs, "name");
      const char* v = attr(attrs, "value");
      if (n == nullptr || v == nullptr) return stop("a <property> without name or value");
      suite.properties.emplace_back(n, v);
    } else if (name == "testcase") {
      if (!saw_suite_ || in_case_ != nullptr) return stop("a <testcase> outside the <testsuite>");
      const char* n = attr(attrs, "name");
      const char* c = attr(attrs, "classname");
      const char* t = attr(attrs, "time");
      JunitCase tc;
      // "run N (seed S)"
      std::string_view nm = n ? n : "";
      const std::size_t open = nm.find(" (seed "), space = 4;
      if (nm.rfind("run ", 0) != 0 || open == std::string_view::npos || nm.back() != ')' ||
          !parse_uint(nm.substr(space, open - space), tc.run) || tc.run == 0 ||
          !parse_uint(nm.substr(open + 7, nm.size() - open - 8), tc.seed))
        return stop(fmt::format("a <testcase> named '{}' where playtest writes 'run N (seed S)'", nm));
      if (c != nullptr) {
        if (suite.cases.empty())
          suite.classname = c;
        else if (suite.classname != c)
          return stop("test cases of different classnames");
      }
      if (t != nullptr) {
        const auto time = read_finite(t);
        if (!time.ok()) return stop(fmt::format("time '{}' is not a number{}", t, why_not(time, t)));
        tc.time_s = time.value;
      }
      suite.cases.push_back(std::move(tc));
      in_case_ = &suite.cases.back();
    } else if (in_case_ != nullptr && (name == "failure" || name == "error" || name == "skipped")) {
      const char* m = attr(attrs, "message");
      std::string message = m ? m : "";
      if (name == "skipped") {
        in_case_->verdict = Verdict::inconclusive;
        if (message.rfind("INCONCLUSIVE: ", 0) == 0) message.erase(0, 14);
      } else {
        in_case_->verdict = name == "failure" ? Verdict::fail : Verdict::error;
        collect_ = &in_case_->detail;
      }
      in_case_->message = std::move(message);
    } else if (in_case_ != nullptr && name == "system-out") {
      collect_ = &in_case_->detail;
    }
  }
  void on_end(std::string_view name) {
    if (name == "testcase") in_case_ = nullptr;
    if (name == "failure" || name == "error" || name == "system-out") collect_ = nullptr;
  }

  CampaignPart& p_;
  XML_Parser parser_;
  bool saw_suite_ = false;
  JunitCase* in_case_ = nullptr;
  std::string* collect_ = nullptr;
  std::string problem_;
  std::uint32_t problem_line_ = 0, problem_column_ = 0;
};

}  // namespace

CampaignPart read_campaign_part(std::string_view text, std::string source) {
  CampaignPart p;
  p.source = std::move(source);
  std::size_t start = text.rfind("\xef\xbb\xbf", 0) == 0 ? 3 : 0;
  start = text.find_first_not_of(" \t\r\n", start);
  if (start == std::string_view::npos) refuse(p.source, 0, 0, "", "the input is empty: there is nothing to merge");
  if (text[start] == '<') {
    p.kind = CampaignPartKind::junit;
    JunitReader(p).read(text);
    return p;
  }
  if (text[start] != '{')
    refuse(p.source, 1, 1, "",
           "not a playtest output: expected a run trace (JSON lines), a JUnit file, or run/simulate --json output");
  nlohmann::json whole = nlohmann::json::parse(text, nullptr, false);
  if (!whole.is_discarded() && whole.is_object() && !whole.contains("event")) {
    p.document = std::move(whole);
    if (p.document.contains("strategies")) {
      p.kind = CampaignPartKind::simulate_json;
      read_simulate_json(p);
    } else if (p.document.contains("runs") && p.document.contains("verdict")) {
      p.kind = CampaignPartKind::run_json;
      read_run_json(p);
    } else {
      refuse(p.source, 1, 1, "", "a JSON object that is neither run --json nor simulate --json output");
    }
    return p;
  }
  p.kind = CampaignPartKind::trace;
  read_trace(p, text);
  return p;
}

namespace {

// --- merging ---------------------------------------------------------------------------------------

[[noreturn]] void mismatch(std::string message) { throw InputError(std::move(message)); }

int signal_number(std::string_view name) {
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
    if (name == signal_name(s)) return s;
  return 0;
}

// The parts of one kind cover every shard, each once (traces: at least once, a trace directory
// gives a file per run), and no run twice.
void check_shards(const std::vector<const CampaignPart*>& parts, CampaignPartKind kind,
                  const std::vector<std::vector<std::uint32_t>>& runs_of_part) {
  if (parts.empty()) return;
  const std::uint32_t m = parts.front()->shard.count;
  std::vector<const CampaignPart*> by_shard(m + 1, nullptr);
  std::map<std::uint32_t, const CampaignPart*> run_from;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const CampaignPart& p = *parts[i];
    const CampaignPart*& first = by_shard[p.shard.index];
    if (first != nullptr && kind != CampaignPartKind::trace)
      mismatch(fmt::format("{} and {} are both shard {} ({})", first->source, p.source, to_string(p.shard),
                           to_string(kind)));
    if (first == nullptr) first = &p;
    for (std::uint32_t run : runs_of_part[i]) {
      if (run == 0 || run > p.runs || !p.shard.contains(run))
        mismatch(fmt::format("{}: run {} is not a run of shard {} of a campaign of {} runs", p.source, run,
                             to_string(p.shard), p.runs));
      auto [it, fresh] = run_from.emplace(run, &p);
      if (!fresh) mismatch(fmt::format("run {} is in both {} and {}", run, it->second->source, p.source));
    }
  }
  for (std::uint32_t k = 1; k <= m; ++k)
    if (by_shard[k] == nullptr)
      mismatch(fmt::format("shard {}/{} is missing among the {} inputs", k, m, to_string(kind)));
}

std::vector<std::uint32_t> runs_of(const CampaignPart& p) {
  std::vector<std::uint32_t> runs;
  switch (p.kind) {
    case CampaignPartKind::trace:
      for (const TraceRun& r : p.trace_runs) runs.push_back(r.run);
      break;
    case CampaignPartKind::junit:
      for (const JunitCase& c : p.junit.cases) runs.push_back(c.run);
      break;
    case CampaignPartKind::run_json:
      for (const auto& r : p.document["runs"]) runs.push_back(r["run"].get<std::uint32_t>());
      break;
    case CampaignPartKind::simulate_json:
      break;
  }
  return runs;
}

StrategyComparison merge_simulations(const std::vector<const CampaignPart*>& parts) {
  const nlohmann::json& first = parts.front()->document;
  StrategyComparison c;
  c.seed = first["seed"].get<std::uint64_t>();
  c.max_steps = first["steps"].get<std::uint64_t>();
  c.runs = first["runs"].get<std::uint32_t>();
  c.mutant_runs = first["mutant_runs"].get<std::uint32_t>();
  c.model = first.value("model", std::string());
  c.implementation = first.value("implementation", std::string());
  if (first.contains("mutants") && first["mutants"].is_array())
    for (const auto& m : first["mutants"])
      c.mutants.push_back(
          {m.value("kind", std::string()), m.value("description", std::string()), mutant_analysis_from_json(m)});
  for (const CampaignPart* p : parts) {
    const nlohmann::json& d = p->document;
    for (const char* key : {"steps", "mutant_runs", "mutants", "model", "implementation"})
      if (d.value(key, nlohmann::json()) != first.value(key, nlohmann::json()))
        mismatch(fmt::format("{} and {} are not shards of the same simulation: their \"{}\" differ",
                             parts.front()->source, p->source, key));
  }
  const nlohmann::json& rows = first["strategies"];
  for (std::size_t i = 0; i < rows.size(); ++i) {
    StrategyComparison::Row row;
    row.strategy = rows[i]["strategy"].get<std::string>();
    row.purpose_description = rows[i]["purpose_description"].get<std::string>();
    const std::string kind = rows[i]["purpose"].get<std::string>();
    row.purpose.kind = kind == "reach"   ? TestPurpose::Kind::reach
                       : kind == "cover" ? TestPurpose::Kind::cover
                                         : TestPurpose::Kind::none;
    SimulationStats& s = row.stats;
    s.strategy = row.strategy;
    const bool with_mutants = rows[i].contains("mutants");
    if (with_mutants) {
      s.mutants = rows[i]["mutants"]["count"].get<std::uint32_t>();
      s.mutant_detected.assign(s.mutants, 0);
    }
    for (const CampaignPart* p : parts) {
      const nlohmann::json& r = p->document["strategies"][i];
      if (r["purpose"] != rows[i]["purpose"] || r["purpose_description"] != rows[i]["purpose_description"] ||
          r.contains("mutants") != with_mutants)
        mismatch(fmt::format("{} and {}: strategy {} plays different purposes", parts.front()->source, p->source,
                             row.strategy));
      auto add = [&](std::uint32_t& to, const char* key) { to += r[key].get<std::uint32_t>(); };
      add(s.runs, "runs");
      add(s.passed, "passed");
      add(s.failed, "failed");
      add(s.inconclusive, "inconclusive");
      add(s.errors, "errors");
      add(s.purpose_met, "purpose_met");
      s.steps_sum += r["steps_sum"].get<std::uint64_t>();
      s.steps_sq_sum += r["steps_sq_sum"].get<std::uint64_t>();
      if (with_mutants) {
        const nlohmann::json& m = r["mutants"];
        if (m["count"].get<std::uint32_t>() != s.mutants)
          mismatch(fmt::format("{} and {} have different mutants", parts.front()->source, p->source));
        s.mutant_runs += m["runs"].get<std::uint32_t>();
        s.mutant_runs_failed += m["runs_failed"].get<std::uint32_t>();
        s.steps_to_detect_sum += m["steps_to_detect_sum"].get<std::uint64_t>();
        for (const auto& k : m["detected_mutants"]) s.mutant_detected[k.get<std::size_t>() - 1] = 1;
        // The fewest steps of a failing run per mutant: the least over the shards that saw one.
        if (m.contains("fail_steps") && m["fail_steps"].is_array() && m["fail_steps"].size() == s.mutants) {
          s.mutant_fail_steps.resize(s.mutants, 0);
          for (std::size_t k = 0; k < s.mutants; ++k) {
            const auto& x = m["fail_steps"][k];
            const std::uint64_t steps = x.is_number_unsigned() ? x.get<std::uint64_t>() : 0;
            if (steps > 0 && (s.mutant_fail_steps[k] == 0 || steps < s.mutant_fail_steps[k]))
              s.mutant_fail_steps[k] = steps;
          }
        }
      }
    }
    for (std::uint8_t d : s.mutant_detected) s.mutants_detected += d;
    finish_stats(s);
    c.rows.push_back(std::move(row));
  }
  return c;
}

nlohmann::json coverage_json(std::uint64_t edges, std::uint64_t edges_total, std::uint64_t labels,
                             std::uint64_t labels_total) {
  return {{"edges_covered", edges},
          {"edges_total", edges_total},
          {"labels_covered", labels},
          {"labels_total", labels_total}};
}

// The whole campaign's run --json from the shards' (what run_output's campaign_json writes).
nlohmann::json merge_run_json(const std::vector<const CampaignPart*>& parts) {
  const nlohmann::json& first = parts.front()->document;
  nlohmann::json j;
  j["strategy"] = first["strategy"];
  j["seed"] = first["seed"];
  j["runs_requested"] = first["runs_requested"];
  j["runs_in_shard"] = first["runs_requested"];
  std::map<std::string, std::uint64_t> visits;
  std::set<std::string> labels;
  nlohmann::json runs = nlohmann::json::array();
  bool interrupted = false;
  nlohmann::json signal;
  std::uint32_t failed_fast = 0;
  std::uint64_t not_completed = 0;
  for (const CampaignPart* p : parts) {
    const nlohmann::json& d = p->document;
    if (d["coverage"]["edges_total"] != first["coverage"]["edges_total"] ||
        d["coverage"]["labels_total"] != first["coverage"]["labels_total"])
      mismatch(fmt::format("{} and {} test models of different sizes", parts.front()->source, p->source));
    for (const auto& [edge, n] : d["edge_visits"].items()) visits[edge] += n.get<std::uint64_t>();
    for (const auto& l : d["covered_labels"]) labels.insert(l.get<std::string>());
    for (const auto& r : d["runs"]) runs.push_back(r);
    if (d.value("interrupted", false)) {
      interrupted = true;
      if (signal.is_null() && d.contains("signal")) signal = d["signal"];
    }
    if (d.contains("failed_fast")) {
      const auto f = d["failed_fast"].get<std::uint32_t>();
      if (failed_fast == 0 || f < failed_fast) failed_fast = f;
    }
    not_completed += d.value("runs_not_completed", std::uint64_t{0});
  }
  std::stable_sort(runs.begin(), runs.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    return a["run"].get<std::uint32_t>() < b["run"].get<std::uint32_t>();
  });
  j["coverage"] = coverage_json(visits.size(), first["coverage"]["edges_total"].get<std::uint64_t>(), labels.size(),
                                first["coverage"]["labels_total"].get<std::uint64_t>());
  j["edge_visits"] = visits;
  j["covered_labels"] = std::vector<std::string>(labels.begin(), labels.end());
  j["interrupted"] = interrupted;
  if (interrupted) j["signal"] = signal;
  if (failed_fast != 0) j["failed_fast"] = failed_fast;
  j["runs_not_completed"] = not_completed;
  j["runs_not_started"] = first["runs_requested"].get<std::uint64_t>() - runs.size();
  j["runs"] = std::move(runs);
  return j;
}

// The summary from traces (no run --json among the inputs): each run's begin and end events, the
// coverage from the edges its steps followed.
nlohmann::json summary_from_traces(const std::vector<const CampaignPart*>& parts) {
  const nlohmann::json& head = parts.front()->document;
  std::vector<const TraceRun*> all;
  for (const CampaignPart* p : parts)
    for (const TraceRun& r : p->trace_runs) all.push_back(&r);
  std::sort(all.begin(), all.end(), [](const TraceRun* a, const TraceRun* b) { return a->run < b->run; });
  std::map<std::string, std::uint64_t> visits;
  std::set<std::string> labels;
  nlohmann::json runs = nlohmann::json::array();
  bool interrupted = false;
  nlohmann::json signal;
  std::uint64_t not_completed = 0;
  for (const TraceRun* r : all) {
    for (std::size_t i = 0; i < r->edges.size(); ++i) {
      ++visits[r->edges[i]];
      labels.insert(r->labels[i]);
    }
    nlohmann::json jr = {{"run", r->run}, {"seed", r->seed}};
    if (r->end.is_null()) {  // the trace stops in the middle of the run (playtest was killed)
      jr["verdict"] = "ERROR";
      jr["message"] = "the trace ends before the run did";
      jr["interrupted"] = true;
      interrupted = true;
      ++not_completed;
    } else {
      for (const char* key : {"verdict", "message", "steps", "resets"})
        if (r->end.contains(key)) jr[key] = r->end[key];
      if (r->end.value("interrupted", false)) {
        jr["interrupted"] = true;
        ++not_completed;
        if (r->end.contains("signal") && r->end["signal"].is_string()) {
          interrupted = true;
          if (signal.is_null()) signal = r->end["signal"];
        }
      }
    }
    runs.push_back(std::move(jr));
  }
  nlohmann::json j;
  j["strategy"] = head["strategy"];
  j["seed"] = head["seed"];
  j["runs_requested"] = head["runs"];
  j["runs_in_shard"] = head["runs"];
  j["coverage"] = coverage_json(visits.size(), head["edges"].get<std::uint64_t>(), labels.size(),
                                head["labels"].get<std::uint64_t>());
  j["edge_visits"] = visits;
  j["covered_labels"] = std::vector<std::string>(labels.begin(), labels.end());
  j["interrupted"] = interrupted;
  if (interrupted) j["signal"] = signal;
  j["runs_not_completed"] = not_completed;
  j["runs_not_started"] = head["runs"].get<std::uint64_t>() - runs.size();
  j["runs"] = std::move(runs);
  return j;
}

// The summary from JUnit files alone (they hold no coverage).
nlohmann::json summary_from_junit(const JunitSuite& suite, const CampaignPart& first) {
  nlohmann::json runs = nlohmann::json::array();
  bool interrupted = false;
  nlohmann::json signal;
  for (const JunitCase& c : suite.cases) {
    nlohmann::json jr = {{"run", c.run},
                         {"seed", c.seed},
                         {"verdict", std::string(to_string(c.verdict))},
                         {"message", c.message},
                         {"elapsed_ms", c.time_s * 1000.0}};
    // An interrupted run's message (runner.cpp): "interrupted by SIGTERM after N steps: ...".
    if (c.verdict == Verdict::error && c.message.rfind("interrupted by SIG", 0) == 0) {
      interrupted = true;
      jr["interrupted"] = true;
      if (signal.is_null()) signal = c.message.substr(15, c.message.find(' ', 15) - 15);
    }
    runs.push_back(std::move(jr));
  }
  nlohmann::json j;
  j["strategy"] = first.strategy;
  j["seed"] = first.seed;
  j["runs_requested"] = first.runs;
  j["runs_in_shard"] = first.runs;
  j["interrupted"] = interrupted;
  if (interrupted) j["signal"] = signal;
  j["runs_not_started"] = first.runs - runs.size();
  j["runs"] = std::move(runs);
  return j;
}

MergedCampaign merge_parts(std::vector<CampaignPart> parts);

// The first option in which the settings of two parts differ, in words, or "".
std::string settings_difference(const CampaignPart& a, const CampaignPart& b) {
  const nlohmann::json none = nlohmann::json::object();
  const nlohmann::json& x = a.settings.is_object() ? a.settings : none;
  const nlohmann::json& y = b.settings.is_object() ? b.settings : none;
  auto shown = [](const nlohmann::json& s, const std::string& key) {
    return s.contains(key) ? "'" + s[key].get<std::string>() + "'" : std::string("not given");
  };
  for (const nlohmann::json* s : {&x, &y})
    for (const auto& [key, value] : s->items())
      if (x.value(key, nlohmann::json()) != y.value(key, nlohmann::json()))
        return fmt::format("option {}: {} in {}, {} in {}", key, shown(x, key), a.source, shown(y, key), b.source);
  return {};
}

// Per shard, the runs its parts hold and why some may be absent (a signal, --fail-fast); the runs
// missing for no stated reason over all shards.
MissingRuns missing_runs(const std::vector<const CampaignPart*>& parts) {
  std::map<std::uint32_t, ShardRuns> by_shard;
  // Per shard (a trace directory gives a part per run): its first FAIL, and whether a run of it was
  // stopped without a signal (by --fail-fast) or the campaign says it ran with --fail-fast.
  std::map<std::uint32_t, std::uint32_t> first_fails;
  std::map<std::uint32_t, bool> fail_fast;
  auto failing = [](std::uint32_t& first, std::uint32_t run) {
    if (first == 0 || run < first) first = run;
  };
  for (const CampaignPart* p : parts) {
    ShardRuns& h = by_shard[p->shard.index];
    std::uint32_t& first_fail = first_fails[p->shard.index];
    bool& stopped_without_signal = fail_fast[p->shard.index];
    stopped_without_signal = stopped_without_signal || p->fail_fast;
    switch (p->kind) {
      case CampaignPartKind::run_json: {
        const nlohmann::json& d = p->document;
        for (const auto& r : d["runs"]) h.present.push_back(r["run"].get<std::uint32_t>());
        if (d.value("interrupted", false) && d.contains("signal") && d["signal"].is_string()) h.interrupted = true;
        if (d.contains("failed_fast")) failing(h.failed_fast, d["failed_fast"].get<std::uint32_t>());
        break;
      }
      case CampaignPartKind::trace:
        for (const TraceRun& r : p->trace_runs) {
          h.present.push_back(r.run);
          if (r.end.is_null()) continue;  // cut in the middle: no reason known
          if (r.end.value("verdict", std::string()) == "FAIL") failing(first_fail, r.run);
          if (r.end.value("interrupted", false)) {
            if (r.end.contains("signal") && r.end["signal"].is_string())
              h.interrupted = true;
            else
              stopped_without_signal = true;  // stopped by --fail-fast
          }
        }
        break;
      case CampaignPartKind::junit:
        for (const JunitCase& c : p->junit.cases) {
          h.present.push_back(c.run);
          if (c.verdict == Verdict::fail) failing(first_fail, c.run);
          if (c.verdict == Verdict::error && c.message.rfind("interrupted by SIG", 0) == 0) h.interrupted = true;
          if (c.verdict == Verdict::error && c.message.find("(fail-fast)") != std::string::npos)
            stopped_without_signal = true;
        }
        break;
      case CampaignPartKind::simulate_json:
        break;
    }
  }
  for (auto& [k, held] : by_shard)
    if (fail_fast[k] && first_fails[k] != 0) failing(held.failed_fast, first_fails[k]);
  MissingRuns all;
  for (const auto& [k, held] : by_shard) {
    const MissingRuns m = runs_missing({.index = k, .count = parts.front()->shard.count}, parts.front()->runs, held);
    all.count += m.count;
    all.first.insert(all.first.end(), m.first.begin(), m.first.end());
  }
  std::sort(all.first.begin(), all.first.end());
  if (all.first.size() > 20) all.first.resize(20);
  return all;
}

}  // namespace

MergedCampaign merge_campaign(std::vector<CampaignPart> parts) {
  // The readers checked every field merging uses; this is the net under what they missed.
  try {
    return merge_parts(std::move(parts));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("the inputs are not as playtest writes them: {}", e.what()));
  }
}

namespace {

MergedCampaign merge_parts(std::vector<CampaignPart> parts) {
  if (parts.empty()) mismatch("nothing to merge: no inputs");
  MergedCampaign m;
  const CampaignPart& first = parts.front();
  m.simulate = first.kind == CampaignPartKind::simulate_json;
  std::map<CampaignPartKind, std::vector<const CampaignPart*>> by_kind;
  for (const CampaignPart& p : parts) {
    if ((p.kind == CampaignPartKind::simulate_json) != m.simulate)
      mismatch(fmt::format("{} is {} output and {} is {} output: merge the outputs of one kind of campaign",
                           first.source, to_string(first.kind), p.source, to_string(p.kind)));
    auto differ = [&](const char* what, const std::string& a, const std::string& b) {
      if (a != b)
        mismatch(fmt::format("{} and {} are not shards of the same campaign: {} {} and {}", first.source, p.source,
                             what, a, b));
    };
    differ("strategy", first.strategy, p.strategy);
    differ("seed", std::to_string(first.seed), std::to_string(p.seed));
    differ("runs", std::to_string(first.runs), std::to_string(p.runs));
    differ("shard count", std::to_string(first.shard.count), std::to_string(p.shard.count));
    if (first.model_digest != p.model_digest)
      mismatch(
          fmt::format("{} and {} are not shards of the same campaign: they test different models (digest {} and "
                      "{})",
                      first.source, p.source, first.model_digest.empty() ? "none" : first.model_digest,
                      p.model_digest.empty() ? "none" : p.model_digest));
    if (const std::string d = settings_difference(first, p); !d.empty())
      mismatch(fmt::format("{} and {} are not shards of the same campaign: {}", first.source, p.source, d));
    if (first.fail_fast != p.fail_fast)
      mismatch(fmt::format("{} and {} are not shards of the same campaign: option --fail-fast in {}, not in {}",
                           first.source, p.source, first.fail_fast ? first.source : p.source,
                           first.fail_fast ? p.source : first.source));
    by_kind[p.kind].push_back(&p);
  }
  std::map<CampaignPartKind, std::set<std::uint32_t>> runs_by_kind;
  for (const auto& [kind, ps] : by_kind) {
    std::vector<std::vector<std::uint32_t>> runs;
    for (const CampaignPart* p : ps) {
      runs.push_back(runs_of(*p));
      runs_by_kind[kind].insert(runs.back().begin(), runs.back().end());
    }
    check_shards(ps, kind, runs);
  }
  // Every kind must tell of the same runs.
  for (const auto& [kind, runs] : runs_by_kind)
    for (const auto& [other, other_runs] : runs_by_kind)
      for (std::uint32_t r : runs)
        if (!other_runs.count(r))
          mismatch(
              fmt::format("run {} is in the {} inputs but not in the {} inputs", r, to_string(kind), to_string(other)));
  if (m.simulate) {
    m.comparison = merge_simulations(by_kind[CampaignPartKind::simulate_json]);
    return m;
  }
  if (by_kind.count(CampaignPartKind::junit)) {
    const auto& ps = by_kind[CampaignPartKind::junit];
    JunitSuite suite;
    suite.name = ps.front()->junit.name;
    suite.classname = ps.front()->junit.classname;
    for (const auto& prop : ps.front()->junit.properties)
      if (prop.first != "shard" && prop.first != "model_slack")  // (a shard's slack is not the campaign's)
        suite.properties.push_back(prop);
    for (const CampaignPart* p : ps) {
      if (p->junit.name != suite.name)
        mismatch(fmt::format("{} and {} are suites of different names ('{}', '{}')", ps.front()->source, p->source,
                             suite.name, p->junit.name));
      suite.cases.insert(suite.cases.end(), p->junit.cases.begin(), p->junit.cases.end());
    }
    std::stable_sort(suite.cases.begin(), suite.cases.end(),
                     [](const JunitCase& a, const JunitCase& b) { return a.run < b.run; });
    m.junit = std::move(suite);
  }
  if (by_kind.count(CampaignPartKind::trace)) {
    const auto& ps = by_kind[CampaignPartKind::trace];
    nlohmann::json head = ps.front()->document;
    for (const CampaignPart* p : ps) {
      nlohmann::json h = p->document;
      h.erase("shard");
      head.erase("shard");
      if (h != head)
        mismatch(fmt::format("{} and {} are traces of different campaigns", ps.front()->source, p->source));
    }
    std::vector<const TraceRun*> all;
    for (const CampaignPart* p : ps)
      for (const TraceRun& r : p->trace_runs) all.push_back(&r);
    std::sort(all.begin(), all.end(), [](const TraceRun* a, const TraceRun* b) { return a->run < b->run; });
    std::vector<std::string> lines{head.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
    for (const TraceRun* r : all) lines.insert(lines.end(), r->lines.begin(), r->lines.end());
    m.trace = std::move(lines);
  }
  const CampaignPartKind primary = by_kind.count(CampaignPartKind::run_json) ? CampaignPartKind::run_json
                                   : by_kind.count(CampaignPartKind::trace)  ? CampaignPartKind::trace
                                                                             : CampaignPartKind::junit;
  if (primary == CampaignPartKind::run_json)
    m.summary = merge_run_json(by_kind[primary]);
  else if (primary == CampaignPartKind::trace)
    m.summary = summary_from_traces(by_kind[primary]);
  else
    m.summary = summary_from_junit(*m.junit, first);
  // The campaign's identity, as the unsharded campaign's run --json has it.
  if (first.fail_fast) m.summary["fail_fast"] = true;
  if (!first.model_digest.empty()) m.summary["model_digest"] = first.model_digest;
  if (first.settings.is_object() && !first.settings.empty()) m.summary["settings"] = first.settings;
  // Every kind holds the same runs (checked above): the missing ones are those of any kind.
  m.missing = missing_runs(by_kind[primary]);
  if (m.missing.count != 0) {
    m.summary["runs_missing"] = m.missing.count;
    m.summary["missing"] = m.missing.first;
    m.summary["runs_not_started"] = m.summary["runs_not_started"].get<std::uint64_t>() - m.missing.count;
  }
  std::optional<Verdict> v;
  for (const auto& r : m.summary["runs"]) {
    const std::string s = r["verdict"].get<std::string>();
    Verdict x = Verdict::error;
    for (Verdict y : {Verdict::pass, Verdict::fail, Verdict::inconclusive, Verdict::error})
      if (to_string(y) == s) x = y;
    v = v ? combine(*v, x) : x;
  }
  if (m.missing.count != 0) v = combine(v.value_or(Verdict::error), Verdict::error);  // never a PASS
  m.verdict = v.value_or(Verdict::error);
  m.summary["verdict"] = std::string(to_string(m.verdict));
  m.interrupted = m.summary.value("interrupted", false);
  if (m.interrupted && m.summary.contains("signal") && m.summary["signal"].is_string())
    m.signal = signal_number(m.summary["signal"].get<std::string>());
  return m;
}

}  // namespace

namespace {
void merged_text(std::ostream& out, const MergedCampaign& m);
}  // namespace

void write_merged_text(std::ostream& out, const MergedCampaign& m) {
  std::ostringstream text;  // messages and labels come from the files: escaped for the terminal
  merged_text(text, m);
  out << terminal_text(text.str());
}

namespace {

void merged_text(std::ostream& out, const MergedCampaign& m) {
  if (m.simulate) {
    write_comparison_text(out, *m.comparison);
    return;
  }
  const nlohmann::json& j = m.summary;
  std::vector<const nlohmann::json*> failed;
  for (const auto& r : j["runs"]) {
    std::string line = fmt::format("run {} (seed {}): {}", r["run"].get<std::uint32_t>(),
                                   r["seed"].get<std::uint64_t>(), r["verdict"].get<std::string>());
    if (r.contains("steps"))
      line += fmt::format(" after {} steps, {} resets", r["steps"].get<std::uint64_t>(),
                          r.value("resets", std::uint64_t{0}));
    if (r.contains("elapsed_ms")) line += fmt::format(", {:.1f} ms", r["elapsed_ms"].get<double>());
    out << line << ": " << r.value("message", std::string()) << '\n';
    if (r.contains("replay")) out << "replay: " << r["replay"].get<std::string>() << '\n';
    const std::string v = r["verdict"].get<std::string>();
    if ((v == "FAIL" || v == "ERROR") && !r.value("interrupted", false)) failed.push_back(&r);
  }
  if (!failed.empty()) {
    out << fmt::format("failed runs: {} of {}\n", failed.size(), j["runs"].size());
    for (const nlohmann::json* r : failed)
      out << fmt::format("  run {} (seed {}): {}{}\n", (*r)["run"].get<std::uint32_t>(),
                         (*r)["seed"].get<std::uint64_t>(), (*r)["verdict"].get<std::string>(),
                         r->contains("replay") ? ": " + (*r)["replay"].get<std::string>() : std::string());
  }
  if (j.contains("coverage")) {
    const nlohmann::json& c = j["coverage"];
    out << fmt::format("coverage: {}/{} edges, {}/{} labels\n", c["edges_covered"].get<std::uint64_t>(),
                       c["edges_total"].get<std::uint64_t>(), c["labels_covered"].get<std::uint64_t>(),
                       c["labels_total"].get<std::uint64_t>());
  } else {
    out << "coverage: not known (JUnit files hold none: merge the run --json outputs or the traces too)\n";
  }
  if (m.interrupted)
    out << fmt::format("interrupted by {} after {} of {} runs\n",
                       j.contains("signal") && j["signal"].is_string() ? j["signal"].get<std::string>()
                                                                       : std::string("a stop request"),
                       j["runs"].size(), j["runs_requested"].get<std::uint64_t>());
  if (j.contains("failed_fast"))
    out << fmt::format("stopped at the first FAIL (run {}, fail-fast) in its shard\n",
                       j["failed_fast"].get<std::uint32_t>());
  if (m.missing.count != 0) {
    std::string listed;
    for (std::uint32_t r : m.missing.first) listed += (listed.empty() ? "" : ", ") + std::to_string(r);
    if (m.missing.count > m.missing.first.size()) listed += ", ...";
    out << fmt::format(
        "incomplete: {} of the campaign's {} runs {} missing (run{} {}): an output was cut short (a job killed, e.g. "
        "by SIGKILL) or edited; they count as ERROR\n",
        m.missing.count, j["runs_requested"].get<std::uint64_t>(), m.missing.count == 1 ? "is" : "are",
        m.missing.count == 1 ? "" : "s", listed);
  }
  out << fmt::format("verdict: {}\n", j["verdict"].get<std::string>());
}

}  // namespace

}  // namespace playtest
