#include "playtest/report/html_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <kainjow/mustache.hpp>
#include <map>
#include <ostream>
#include <set>
#include <sstream>

#include "detail/page_template.hpp"
#include "playtest/base/error.hpp"
#include "playtest/io/dot.hpp"
#include "playtest/report/fallback_svg.hpp"
#include "playtest/report/svg_plot.hpp"
#include "playtest/strategy/claims.hpp"
#include "playtest/strategy/history_model.hpp"

namespace playtest::report {

namespace {

namespace mst = kainjow::mustache;
using Data = mst::data;

// Colours (the page's CSS uses the same).
constexpr const char* fail_red = "#cf222e";
constexpr const char* uncovered_orange = "#e8590c";
constexpr const char* slack_purple = "#8250df";  // an outcome the system never chose at its vertex
constexpr const char* history_teal = "#1b7c83";  // an outcome chosen only after some histories
constexpr const char* strategy_green = "#1a7f37";
// Blues from light to dark for "covered this often".
constexpr const char* blues[] = {"#8fbce6", "#5a9bd8", "#2f78c4", "#12569e", "#0b3d75"};

Data list() { return Data(Data::type::list); }

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string verdict_name(const std::optional<Verdict>& v) { return v ? std::string(to_string(*v)) : "NO VERDICT"; }
std::string verdict_class(const std::optional<Verdict>& v) { return v ? lower(to_string(*v)) : "none"; }

std::string ms_text(double ms) {
  if (ms < 1000) return fmt::format("{:.1f} ms", ms);
  if (ms < 120000) return fmt::format("{:.2f} s", ms / 1000);
  return fmt::format("{:.1f} min", ms / 60000);
}

// "run 2 (fail.jsonl)": the trace's file name, its path only when two traces share a file name.
std::string run_name(const RunRecord& r, bool with_source, bool full_path = false) {
  std::string s = fmt::format("run {}", r.run);
  if (with_source && !r.source.empty()) {
    const auto slash = r.source.rfind('/');
    s += fmt::format(" ({})", full_path || slash == std::string::npos ? r.source : r.source.substr(slash + 1));
  }
  return s;
}

std::string join_limited(const std::vector<std::string>& items, std::size_t limit) {
  std::string s;
  for (std::size_t i = 0; i < items.size() && i < limit; ++i) s += (i ? ", " : "") + items[i];
  if (items.size() > limit) s += fmt::format(", … ({} more)", items.size() - limit);
  return s;
}

// A run's steps resolved against the model: the check report, learn and replay share
// (campaign/trace_reader.hpp, resolve_run).
using Resolved = ResolvedRun;

// What the model allows at v: the outputs of a passive vertex, the stimuli of an active one.
std::vector<std::string> allowed_at(const TestGraph& g, VertexId v) {
  std::vector<std::string> out;
  for (EdgeId e : g.out_edges(v)) {
    std::string l = g.is_timeout(e) ? "(timeout)" : g.is_observe(e) ? "(observe)" : std::string(g.label(e));
    if (std::find(out.begin(), out.end(), l) == out.end()) out.push_back(std::move(l));
  }
  return out;
}

// The coverage colour scale: bucket boundaries on a log scale from 1 to the largest count.
struct Scale {
  std::vector<std::uint32_t> upper;  // bucket i holds counts <= upper[i]
  explicit Scale(std::uint32_t max) {
    const std::size_t k = std::size(blues);
    if (max <= k) {
      for (std::uint32_t c = 1; c <= std::max<std::uint32_t>(max, 1); ++c) upper.push_back(c);
      return;
    }
    for (std::size_t i = 1; i <= k; ++i) {
      auto u = static_cast<std::uint32_t>(std::ceil(std::pow(double(max), double(i) / double(k))));
      if (!upper.empty()) u = std::max(u, upper.back() + 1);
      upper.push_back(std::min(u, max));
      if (upper.back() == max) break;
    }
    upper.back() = max;
  }
  std::size_t bucket(std::uint32_t c) const {
    for (std::size_t i = 0; i < upper.size(); ++i)
      if (c <= upper[i]) return i;
    return upper.size() - 1;
  }
  // Colours spread over the palette when there are fewer buckets than colours.
  const char* color(std::size_t b) const {
    const std::size_t k = std::size(blues);
    if (upper.size() <= 1) return blues[2];
    return blues[(b * (k - 1)) / (upper.size() - 1)];
  }
};

std::string render(const std::string& tmpl, const Data& data) {
  mst::mustache m(tmpl);
  m.set_custom_escape([](const std::string& s) { return escape_html(s); });
  std::string out = m.render(data);
  if (!m.is_valid()) throw InternalError("report template: " + m.error_message());
  return out;
}

std::string dot_of(const TestGraph& g, const DotOptions& d);

// A picture, by Graphviz when it can, else drawn by playtest (fallback_svg), or a message (a stop
// request); counts pictures and collects messages in `summary`.
struct Picture {
  std::string svg;
  std::string message;
  std::string fallback;  // for the caption when the picture was drawn without Graphviz
};

class Drawer {
 public:
  Drawer(const ReportOptions& o, ReportSummary& summary) : o_(o), summary_(summary) {}

  Picture draw(const TestGraph& g, const DotOptions& d, const FallbackFailureBox* box = nullptr) {
    const std::string dot = dot_of(g, d);
    std::string reason, message;
    if (!given_up_.empty()) {
      // Graphviz is missing, or timed out on an earlier picture (the failures' neighbourhoods come
      // first, the larger pictures of the whole model after them): no second wait.
      reason = given_up_;
    } else {
      // A time budget proportional to the picture: a report never waits a minute for one picture.
      GraphvizOptions gv = o_.graphviz;
      gv.timeout = std::min(gv.timeout, std::chrono::milliseconds(2000 + static_cast<std::int64_t>(dot.size() / 20)));
      SvgPicture p = render_svg(dot, gv);
      if (p.ok) {
        ++summary_.pictures;
        return {std::move(p.svg), {}, {}};
      }
      if (p.reason.empty()) {  // a stop request: no picture, the report is not kept anyway
        note(p.message);
        return {{}, p.message, {}};
      }
      reason = p.reason;
      message = p.message;
      if (p.reason == "it is not installed" || p.reason == "it could not be started") given_up_ = p.reason;
      if (p.reason.starts_with("it timed out")) given_up_ = p.reason + " on an earlier picture";
    }
    if (!message.empty()) note(message + "; the pictures were drawn without it");
    ++summary_.pictures;
    return {fallback_svg(g, d, box),
            {},
            fmt::format("Drawn without Graphviz ({}): vertices stand in rows by their distance from the initial "
                        "vertex.",
                        reason)};
  }

  // A picture drawn and then replaced by another (a failure picture too wide to read): not counted.
  void discard() {
    if (summary_.pictures > 0) --summary_.pictures;
  }

 private:
  void note(const std::string& m) {
    if (std::find(summary_.messages.begin(), summary_.messages.end(), m) == summary_.messages.end())
      summary_.messages.push_back(m);
  }
  const ReportOptions& o_;
  ReportSummary& summary_;
  std::string given_up_;  // why Graphviz is not tried again
};

std::string dot_of(const TestGraph& g, const DotOptions& d) {
  std::ostringstream s;
  write_dot(g, s, d);
  return s.str();
}

// Short names (v<index>) for the vertices of a model whose names are long (a model program's states).
bool short_names(const TestGraph& g, const ReportOptions& o) {
  for (VertexId v : g.vertices())
    if (g.name(v).size() > o.max_drawn_name) return true;
  return false;
}
void name_vertices(DotOptions& d, const TestGraph& g, const ReportOptions& o) {
  if (short_names(g, o)) d.vertex_name = [](VertexId v) { return fmt::format("v{}", v.value); };
}
// "v3 = (x=1, busy=true), ..." for the vertices in `vs` (each once, in order), at most `limit`.
std::string name_list(const TestGraph& g, const std::vector<VertexId>& vs, std::size_t limit) {
  std::set<std::uint32_t> seen;
  std::string out;
  std::size_t n = 0, more = 0;
  for (VertexId v : vs) {
    if (v.is_none() || !seen.insert(v.value).second) continue;
    if (n++ >= limit) {
      ++more;
      continue;
    }
    out += fmt::format("{}v{} = {}", out.empty() ? "" : "; ", v.value, g.name(v));
  }
  if (more) out += fmt::format("; and {} more (hover a vertex for its name)", more);
  return out;
}

bool drawable(const TestGraph& g, const ReportOptions& o) {
  return g.num_vertices() <= o.max_drawn_vertices && g.num_edges() <= o.max_drawn_edges;
}

// A failure picture wider than this (pt, Graphviz's unit) would be scaled below readable at a page
// 1280 px wide (its column is about 730 px: 10 pt labels would shrink below 8 px): it is drawn again
// on a smaller neighbourhood (radius 1 and 12 vertices, then 6), down to the failing vertex and its
// last steps (issue 36).
constexpr double max_failure_picture_pt = 900;

// The width of an SVG picture in pt (its root's width="...pt"), 0 when it does not say.
double svg_width_pt(const std::string& svg) {
  const std::size_t root = svg.find("<svg");
  if (root == std::string::npos) return 0;
  const std::size_t w = svg.find(" width=\"", root);
  if (w == std::string::npos || w > svg.find('>', root)) return 0;
  double value = 0;
  for (std::size_t i = w + 8; i < svg.size() && std::isdigit(static_cast<unsigned char>(svg[i])); ++i)
    value = value * 10 + (svg[i] - '0');
  return value;
}

// Vertices within `radius` undirected steps of the seeds, breadth first, at most `limit`.
std::vector<std::uint8_t> neighbourhood(const TestGraph& g, const std::vector<VertexId>& seeds, std::uint32_t radius,
                                        std::uint32_t limit) {
  std::vector<std::uint8_t> in(g.num_vertices(), 0);
  std::deque<std::pair<VertexId, std::uint32_t>> queue;
  std::uint32_t count = 0;
  for (VertexId v : seeds)
    if (!v.is_none() && !in[v.index()] && count < limit) {
      in[v.index()] = 1;
      ++count;
      queue.emplace_back(v, 0);
    }
  while (!queue.empty() && count < limit) {
    const auto [v, d] = queue.front();
    const std::uint32_t next = d + 1;  // clang 14 cannot capture a structured binding
    queue.pop_front();
    if (d >= radius) continue;
    auto visit = [&](VertexId w) {
      if (in[w.index()] || count >= limit) return;
      in[w.index()] = 1;
      ++count;
      queue.emplace_back(w, next);
    };
    for (EdgeId e : g.out_edges(v)) visit(g.target(e));
    for (EdgeId e : g.in_edges(v)) visit(g.source(e));
  }
  return in;
}

// A model program's state as its vertex name writes it, "(x=1, q=[1, 2], busy=true)" with "'"
// (a twin) or "!" (a companion) after it: the variables in order. Empty when `name` is not such a
// state (a graph/1 id), so that the step table shows names as they are.
std::vector<std::pair<std::string_view, std::string_view>> state_fields(std::string_view name) {
  std::vector<std::pair<std::string_view, std::string_view>> out;
  while (!name.empty() && (name.back() == '\'' || name.back() == '!')) name.remove_suffix(1);
  if (name.size() < 2 || name.front() != '(' || name.back() != ')') return {};
  name = name.substr(1, name.size() - 2);
  int depth = 0;
  bool in_string = false;
  std::size_t start = 0;
  auto field = [&](std::string_view f) {
    const std::size_t eq = f.find('=');
    if (eq == std::string_view::npos || eq == 0) return false;
    out.emplace_back(f.substr(0, eq), f.substr(eq + 1));
    return true;
  };
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      --depth;
    } else if (depth == 0 && c == ',' && i + 1 < name.size() && name[i + 1] == ' ') {
      if (!field(name.substr(start, i - start))) return {};
      start = i + 2;
    }
  }
  if (!field(name.substr(start))) return {};
  return out;
}

// What a step changed, "x: 1 → 2, busy: false → true" (TLA+'s trace explorer highlights the same),
// "no variable changed", or empty when the names are not states of the same variables.
std::string state_changes(std::string_view from, std::string_view to) {
  const auto a = state_fields(from), b = state_fields(to);
  if (a.empty() || a.size() != b.size()) return {};
  std::string out;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].first != b[i].first) return {};
    if (a[i].second != b[i].second)
      out += fmt::format("{}{}: {} → {}", out.empty() ? "" : ", ", a[i].first, a[i].second, b[i].second);
  }
  return out.empty() ? std::string("no variable changed") : out;
}

// The steps table of a run (the last max_table_steps steps).
std::string steps_html(const RunRecord& r, const TestGraph* g, const Resolved* res, const std::string& picture_prefix,
                       std::size_t path_begin, const ReportOptions& o) {
  Data d;
  const std::size_t n = r.trace.size();
  const std::size_t first = n > o.max_table_steps ? n - o.max_table_steps : 0;
  d.set("first_state", std::string());
  d.set("has_first_state", false);
  // Vertices by number (v12) where the pictures draw them so (short_names: long names, a model
  // program's states).
  const bool numbered = g && res && short_names(*g, o);
  d.set("has_omitted", first > 0);
  d.set("omitted", fmt::format("{}", first));
  d.set("allowed_head", g ? "the model allowed here" : "allowed");
  Data rows = list();
  for (std::size_t i = first; i < n; ++i) {
    const StepRecord& s = r.trace[i];
    Data row;
    const bool failing = s.kind == StepKind::unexpected || s.kind == StepKind::silence;
    std::string cls = failing ? "failing" : "";
    if (i >= path_begin && r.verdict != Verdict::pass) cls += cls.empty() ? "on-path" : " on-path";
    row.set("row_class", cls);
    row.set("step", fmt::format("{}", s.step));
    row.set("time", fmt::format("{:.1f}", s.time_ms));
    row.set("kind", std::string(to_string(s.kind)));
    // Long state names (a model program's): the step shows the vertices by number and what it
    // changed (old → new); the full states are on hover and once above the table.
    const bool by_number = numbered;
    auto number = [&](const std::string& name, VertexId v) {
      return by_number && !v.is_none() ? fmt::format("v{}", v.value) : name;
    };
    row.set("from", number(s.vertex, res ? res->from[i] : VertexId::none()));
    row.set("from_title", by_number ? s.vertex : std::string());
    row.set("has_from_title", by_number && !s.vertex.empty());
    std::string changes;
    if (by_number && !s.to.empty() && s.kind != StepKind::reset) changes = state_changes(s.vertex, s.to);
    if (by_number && i == first && !res->from[i].is_none()) {
      d.set("first_state", fmt::format("v{} = {}", res->from[i].value, s.vertex));
      d.set("has_first_state", true);
    }
    row.set("has_changes", !changes.empty());
    row.set("changes", changes);
    std::string head = " —", label = s.label, tail = "→";
    std::string to = s.to.empty() ? s.to : number(s.to, res ? res->to[i] : VertexId::none());
    row.set("to_title", by_number ? s.to : std::string());
    row.set("has_to_title", by_number && !s.to.empty());
    switch (s.kind) {
      case StepKind::timeout:
        label = "(timeout)";
        break;
      case StepKind::wait:
        label = "(observe)";
        break;
      case StepKind::reset:
        head = " ⟲ ";
        label = "reset";
        tail = " →";
        break;
      case StepKind::unexpected:
        tail = "→ ✗";
        to = "not allowed here";
        break;
      case StepKind::silence:
        label = "silence";
        tail = " ✗";
        to = "no output and no timeout edge";
        break;
      default:
        break;
    }
    row.set("arrow_head", head);
    row.set("step_label", label);
    row.set("arrow_tail", tail);
    row.set("to", to);
    std::string allowed;
    const bool known = g && res && !res->from[i].is_none();
    if (failing && !r.allowed.empty()) {
      allowed =
          (known ? (g->is_passive(res->from[i]) ? "outputs {" : "stimuli {") : "{") + join_limited(r.allowed, 12) + "}";
    } else if (known) {
      const auto a = allowed_at(*g, res->from[i]);
      allowed = (g->is_passive(res->from[i]) ? "outputs {" : "stimuli {") + join_limited(a, 8) + "}";
    }
    row.set("allowed", allowed);
    const bool has_ref = res && !picture_prefix.empty() && !res->edge[i].is_none();
    row.set("has_edge_ref", has_ref);
    if (has_ref) row.set("edge_ref", fmt::format("{}e{}", picture_prefix, res->edge[i].value));
    rows.push_back(row);
  }
  d.set("rows", rows);
  return render(detail::steps_template(), d);
}

// Where the path to the failure starts: after the run's last reset.
std::size_t path_begin(const RunRecord& r) {
  for (std::size_t i = r.trace.size(); i-- > 0;)
    if (r.trace[i].kind == StepKind::reset) return i + 1;
  return 0;
}

Data facts_item(std::string key, std::string value) {
  Data f;
  f.set("key", std::move(key));
  f.set("value", std::move(value));
  return f;
}

Data toc_item(std::string target, std::string text) {
  Data t;
  t.set("target", std::move(target));
  t.set("text", std::move(text));
  return t;
}

std::string replay_hint(const RunRecord& r) {
  return fmt::format(
      "not recorded in the trace; this run used seed {}: repeat the original command with --seed {} "
      "--runs 1",
      r.seed, r.seed);
}

}  // namespace

std::string clean_text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
        out += "\xEF\xBF\xBD";
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    std::size_t len = 0;
    std::uint32_t cp = 0;
    if (c >= 0xC2 && c <= 0xDF)
      len = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
      len = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4)
      len = 4, cp = c & 0x07;
    bool ok = len > 0 && i + len <= n;
    for (std::size_t k = 1; ok && k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) ok = false;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    // Overlong forms, surrogates and values above U+10FFFF are not UTF-8.
    if (ok &&
        ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF)))
      ok = false;
    if (!ok) {
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    out.append(s.substr(i, len));
    i += len;
  }
  return out;
}

std::string escape_html(std::string_view s) { return mst::html_escape<std::string>(clean_text(s)); }

SolveSection solve_section(const TestGraph& g, const ExpectedCostResult& r) {
  SolveSection s;
  s.objective = "expected";
  s.strategy = r.strategy;
  for (VertexId v : g.vertices()) {
    const double x = r.value[v.index()];
    s.vertex_value.push_back(std::isfinite(x) ? "E=" + short_number(x) : std::string("E=inf"));
    s.losing.push_back(!std::isfinite(x));
  }
  s.summary.push_back(fmt::format("Minimum expected cost to reach a goal: {} from the initial vertex '{}'.",
                                  std::isfinite(r.value[g.initial().index()])
                                      ? short_number(r.value[g.initial().index()])
                                      : std::string("infinite"),
                                  g.name(g.initial())));
  s.summary.push_back(fmt::format("{} of {} vertices reach a goal with probability 1; {}.", r.num_region,
                                  g.num_vertices(),
                                  r.certified ? "the strategy is certified optimal" : "the strategy is NOT certified"));
  return s;
}

SolveSection solve_section(const TestGraph& g, const SureWinResult& r) {
  SolveSection s;
  s.objective = "win";
  s.strategy = r.strategy;
  for (VertexId v : g.vertices()) {
    const bool win = r.winnable[v.index()] != 0;
    s.vertex_value.push_back(win ? "win C=" + short_number(r.cost[v.index()]) : std::string("lose"));
    s.losing.push_back(!win);
  }
  s.summary.push_back(fmt::format(
      "{} of {} vertices are sure wins: from them the strategy reaches a goal whatever the "
      "system does; the initial vertex '{}' is {}.",
      r.num_winnable, g.num_vertices(), g.name(g.initial()), r.winnable[g.initial().index()] ? "one" : "not"));
  return s;
}

SolveSection solve_section(const TestGraph& g, const BoundedReachResult& r) {
  SolveSection s;
  s.objective = "reach";
  for (VertexId v : g.vertices()) {
    s.strategy.push_back(r.choice(v));
    s.vertex_value.push_back(fmt::format("Pr={} C={}", short_number(r.prob(v)), short_number(r.cost(v))));
    s.losing.push_back(r.prob(v) == 0);
  }
  s.summary.push_back(fmt::format(
      "Within {} moves the strategy reaches a goal from '{}' with probability {} at "
      "expected cost {}.",
      r.bound(), g.name(g.initial()), short_number(r.prob(g.initial())), short_number(r.cost(g.initial()))));
  return s;
}

namespace {

// The page of write_html_report, built one section at a time. What the sections share is made
// once, in the constructor: the runs resolved against the model, how often each edge was taken,
// how runs are named; the sections add to `page` and to the table of contents `toc`.
struct PageBuilder {
  const Report& rep;
  const ReportOptions& o;
  ReportSummary& summary;
  Drawer drawer;
  const TestGraph* g;
  Data page;
  Data toc = list();
  std::vector<Resolved> resolved;
  std::vector<std::uint32_t> visits;
  std::map<std::string, std::uint32_t> sources;  // runs per trace
  bool with_source = false;                      // runs come from more than one trace: name the trace
  bool full_path = false;                        // two traces share a file name: name the whole path
  std::uint32_t total = 0;                       // runs
  bool part = false;                             // the model is the part of a model the traces saw
  bool whole = false;                            // the whole model is small enough to draw
  Coverage cov;
  std::uint32_t pictures_of_failures = 0;
  std::vector<std::uint8_t> slack_edge;  // 1: never at its vertex, 2: only in some histories

  PageBuilder(const Report& report, const ReportOptions& options, ReportSummary& s);
  void verdict_and_facts();
  void runs_tables();
  Data failure(std::size_t i, const std::string& anchor);
  struct FailurePicture {
    Picture pic;
    std::string caption;
    std::string prefix;  // the ids of the picture's elements, for the steps' hover links
  };
  FailurePicture failure_picture(const RunRecord& r, const Resolved& res, const std::string& prefix, std::size_t begin);
  void claims();
  void model();
  Data model_legend(std::uint32_t max_visits, const Scale& scale) const;
  std::string model_picture(const Scale& scale);
  void uncovered_edges();
  void simulation();
  void cover();
  void solve();
  void section_picture(Data& section, const std::string& key, const std::string& what, bool drawn,
                       const std::function<void(DotOptions&)>& style);
};

PageBuilder::PageBuilder(const Report& report, const ReportOptions& options, ReportSummary& s)
    : rep(report), o(options), summary(s), drawer(options, s), g(report.model) {
  summary.runs = static_cast<std::uint32_t>(rep.runs.size());
  total = summary.runs;
  page.set("title", rep.title.empty() ? std::string("playtest report") : rep.title);
  page.set("version", rep.tool_version);
  if (!rep.runs.empty()) toc.push_back(toc_item("runs", "runs"));

  // Runs, resolved against the model; coverage over all of them.
  if (g) {
    visits.assign(g->num_edges(), 0);
    for (const RunRecord& r : rep.runs) {
      resolved.push_back(resolve_run(*g, r));
      for (EdgeId e : resolved.back().edge)
        if (!e.is_none()) ++visits[e.index()];
    }
  }
  std::set<std::string> file_names;
  for (const RunRecord& r : rep.runs) {
    ++sources[r.source];
    file_names.insert(r.source.substr(r.source.rfind('/') + 1));
  }
  with_source = sources.size() > 1;
  full_path = file_names.size() < sources.size();
  part = g && !rep.model_part.empty();
  whole = g && drawable(*g, o);
}

void PageBuilder::verdict_and_facts() {
  // The overall verdict: FAIL over ERROR over INCONCLUSIVE over PASS; a run without a verdict is an ERROR.
  std::optional<Verdict> overall;
  std::uint32_t counts[4] = {0, 0, 0, 0};
  std::uint32_t unfinished = 0;
  for (const RunRecord& r : rep.runs) {
    const Verdict v = r.verdict.value_or(Verdict::error);
    overall = overall ? combine(*overall, v) : v;
    if (r.verdict)
      ++counts[static_cast<int>(*r.verdict)];
    else
      ++unfinished;
  }
  if (rep.runs_missing != 0) {
    overall = combine(overall.value_or(Verdict::error), Verdict::error);
    summary.messages.push_back(fmt::format(
        "{} run{} that the trace's campaign line promises {} missing: the trace was cut short (playtest killed, e.g. "
        "by SIGKILL) or edited; the overall verdict is ERROR at best",
        rep.runs_missing, rep.runs_missing == 1 ? "" : "s", rep.runs_missing == 1 ? "is" : "are"));
  }
  const std::string missing = rep.runs_missing == 0
                                  ? std::string()
                                  : fmt::format("; {} run{} of the campaign missing (the trace was cut short)",
                                                rep.runs_missing, rep.runs_missing == 1 ? "" : "s");
  std::string headline;
  if (total == 0) {
    // No runs: say what the report holds instead.
    std::vector<std::string> parts;
    if (rep.simulation)
      parts.push_back(fmt::format("{} strateg{} compared on simulated runs{}", rep.simulation->rows.size(),
                                  rep.simulation->rows.size() == 1 ? "y" : "ies",
                                  rep.simulation->mutants.empty()
                                      ? std::string()
                                      : fmt::format(" and {} mutants", rep.simulation->mutants.size())));
    if (rep.cover)
      parts.push_back(fmt::format("an edge-coverage tour of {} steps in {} segments", rep.cover->tour().steps.size(),
                                  rep.cover->segments().count()));
    if (rep.solve) parts.push_back(fmt::format("the {} strategy", rep.solve->objective));
    headline = parts.empty() ? std::string("no test runs in this report") : join_limited(parts, 3);
  } else if (overall == Verdict::pass) {
    headline = total == 1 ? "the run passed" : fmt::format("all {} runs passed", total);
  } else if (rep.runs_missing != 0 && counts[1] + counts[2] + counts[3] + unfinished == 0) {
    headline = fmt::format("{} run{} passed{}", total, total == 1 ? "" : "s", missing);
  } else {
    std::vector<std::string> parts;
    const char* names[4] = {"passed", "failed", "inconclusive", "ended in ERROR"};
    for (int k : {1, 3, 2, 0})
      if (counts[k]) parts.push_back(fmt::format("{} {}", counts[k], names[k]));
    if (unfinished) parts.push_back(fmt::format("{} without a verdict", unfinished));
    headline = fmt::format("{} run{}: {}{}", total, total == 1 ? "" : "s", join_limited(parts, 10), missing);
  }
  page.set("has_overall", total > 0);
  page.set("overall", total ? std::string(to_string(*overall)) : std::string());
  page.set("overall_class", total ? lower(to_string(*overall)) : std::string("none"));
  page.set("headline", headline);

  Data facts = list();
  if (!rep.model_name.empty() || g)
    facts.push_back(facts_item("model", rep.model_name.empty() ? std::string("(given)") : rep.model_name));
  if (g)
    facts.push_back(
        facts_item(part ? "seen" : "size", fmt::format("{} vertices ({} choice points), {} edges{}", g->num_vertices(),
                                                       g->num_passive(), g->num_edges(), part ? " of the model" : "")));
  std::vector<std::string> strategies;
  for (const RunRecord& r : rep.runs)
    if (!r.strategy.empty() && std::find(strategies.begin(), strategies.end(), r.strategy) == strategies.end())
      strategies.push_back(r.strategy);
  if (!strategies.empty()) facts.push_back(facts_item("strategy", join_limited(strategies, 6)));
  if (g && total) {
    cov = coverage_of(*g, visits);
    facts.push_back(facts_item(
        "coverage", fmt::format("{}/{} edges, {}/{} labels{}", cov.edges_covered, cov.edges_total, cov.labels_covered,
                                cov.labels_total, part ? " (of those the traces saw)" : "")));
  }
  if (sources.size() == 1 && !sources.begin()->first.empty())
    facts.push_back(facts_item("trace", sources.begin()->first));
  page.set("facts", facts);
}

void PageBuilder::runs_tables() {
  // The runs table.
  Data runs = list();
  Data failures = list();
  Data others = list();
  for (std::size_t i = 0; i < rep.runs.size(); ++i) {
    const RunRecord& r = rep.runs[i];
    const std::string anchor = fmt::format("run-{}", i + 1);
    Data row;
    row.set("anchor", anchor);
    row.set("name", run_name(r, with_source, full_path));
    row.set("verdict", verdict_name(r.verdict));
    row.set("verdict_class", verdict_class(r.verdict));
    row.set("steps", fmt::format("{}", r.steps));
    row.set("resets", fmt::format("{}", r.resets));
    row.set("time", ms_text(r.elapsed_ms));
    row.set("seed", fmt::format("{}", r.seed));
    row.set("strategy", r.strategy);
    row.set("message", r.message);
    Data notes = list();
    for (const std::string& n : r.notes) notes.push_back(Data("note", n));
    row.set("run_notes", notes);
    row.set("has_replay", !r.replay.empty());
    row.set("replay", r.replay);
    row.set("replay_hint", replay_hint(r));
    runs.push_back(row);

    const bool detailed = r.verdict == Verdict::fail || r.verdict == Verdict::error || !r.verdict;
    const Resolved* res = g ? &resolved[i] : nullptr;
    if (!detailed) {
      Data other;
      other.set("anchor", anchor);
      other.set("name", run_name(r, with_source, full_path));
      other.set("verdict", verdict_name(r.verdict));
      other.set("verdict_class", verdict_class(r.verdict));
      other.set("steps", fmt::format("{}", r.trace.size()));
      other.set("steps_html", steps_html(r, g, res, "", r.trace.size(), o));
      others.push_back(other);
      continue;
    }
    failures.push_back(failure(i, anchor));
    toc.push_back(toc_item(anchor, fmt::format("{} {}", verdict_name(r.verdict), run_name(r, with_source, full_path))));
  }
  page.set("has_runs", !rep.runs.empty());
  page.set("runs", runs);
  page.set("failures", failures);
  page.set("has_other_runs", !others.is_empty_list());
  page.set("other_runs", others);
}

// A failing (or broken, or unfinished) run: what happened, the path on the picture, the steps.
Data PageBuilder::failure(std::size_t i, const std::string& anchor) {
  const RunRecord& r = rep.runs[i];
  const Resolved* res = g ? &resolved[i] : nullptr;
  Data f;
  const std::string prefix = fmt::format("f{}_", i + 1);
  f.set("anchor", anchor);
  f.set("name", run_name(r, true, full_path));
  f.set("verdict", verdict_name(r.verdict));
  f.set("verdict_class", verdict_class(r.verdict));
  f.set("has_replay", !r.replay.empty());
  f.set("replay", r.replay);
  f.set("replay_hint", replay_hint(r));
  std::string head, got, tail;
  if (r.verdict == Verdict::fail) {
    std::vector<std::string> allowed = r.allowed;
    if (allowed.empty() && res && !res->fail_vertex.is_none()) allowed = allowed_at(*g, res->fail_vertex);
    head = fmt::format("After {} steps, at vertex '{}' the model allowed {{{}}}; the system", r.steps, r.fail_vertex,
                       join_limited(allowed, 12));
    got = r.observed ? fmt::format("sent '{}'", *r.observed) : std::string("stayed silent");
    tail = ".";
  } else if (r.verdict == Verdict::error) {
    head = fmt::format("After {} steps the test could not go on: {}", r.steps, r.message);
  } else {
    head = fmt::format(
        "The trace ends after {} steps without a verdict: playtest, the adapter or the machine stopped "
        "during the run.",
        r.trace.empty() ? 0 : r.trace.back().step);
  }
  f.set("explain_head", head);
  f.set("has_got", !got.empty());
  f.set("got", got);
  f.set("explain_tail", tail);
  const std::size_t begin = path_begin(r);
  FailurePicture pic;
  if (!g) {
    pic.pic.message = "No model was given (--model MODEL), so the path cannot be drawn; the steps are on the right.";
  } else if (pictures_of_failures >= o.max_failure_pictures) {
    pic.pic.message = fmt::format("Only the first {} failing runs are drawn; the steps of this one are on the right.",
                                  o.max_failure_pictures);
  } else {
    pic = failure_picture(r, *res, prefix, begin);
  }
  f.set("picture", pic.pic.svg);
  f.set("has_picture_message", !pic.pic.message.empty());
  f.set("picture_message", pic.pic.message);
  f.set("caption", pic.pic.svg.empty() ? std::string() : pic.caption);
  f.set("steps_html", steps_html(r, g, res, pic.prefix, begin, o));
  return f;
}

// The path of a failing run on the model (or on the neighbourhood of its end, for a large model).
PageBuilder::FailurePicture PageBuilder::failure_picture(const RunRecord& r, const Resolved& resolved_run,
                                                         const std::string& prefix, std::size_t begin) {
  const Resolved* res = &resolved_run;
  FailurePicture out;
  Picture& pic = out.pic;
  std::string& caption = out.caption;
  // The path: every step since the last reset, its edges red with their step numbers.
  std::map<std::uint32_t, std::vector<std::uint64_t>> on_path;
  std::vector<VertexId> path_vertices;
  for (std::size_t k = begin; k < r.trace.size(); ++k) {
    if (!res->edge[k].is_none()) on_path[res->edge[k].value].push_back(r.trace[k].step);
    path_vertices.push_back(res->from[k]);
    if (!res->to[k].is_none()) path_vertices.push_back(res->to[k]);
  }
  const VertexId at = !res->fail_vertex.is_none() ? res->fail_vertex
                      : r.trace.empty()           ? g->initial()
                                                  : (res->to.back().is_none() ? res->from.back() : res->to.back());
  std::vector<std::uint8_t> shown;
  DotOptions d;
  d.id_prefix = prefix;
  name_vertices(d, *g, o);
  // What to draw, from the most to the least: the whole model (when small), the neighbourhood
  // of the failure and of the path's last vertices, then smaller ones, until the picture is
  // narrow enough to read at a page 1280 px wide (max_failure_picture_pt).
  struct Level {
    std::uint32_t radius, max_vertices, seeds;
  };
  std::vector<Level> levels;
  if (whole && g->num_vertices() <= o.max_failure_whole_vertices) levels.push_back({0, 0, 0});  // whole
  levels.push_back({o.neighbourhood_radius, o.max_neighbourhood, 24});
  if (o.max_neighbourhood > 12) levels.push_back({1, 12, 6});
  if (o.max_neighbourhood > 6) levels.push_back({1, 6, 3});
  auto show_level = [&](const Level& l) {
    if (l.max_vertices == 0) {
      d.show_vertex = nullptr;
      caption.clear();
      return;
    }
    std::vector<VertexId> seeds{at};
    for (std::size_t k = path_vertices.size(); k-- > 0 && seeds.size() < l.seeds;) seeds.push_back(path_vertices[k]);
    shown = neighbourhood(*g, seeds, l.radius, l.max_vertices);
    d.show_vertex = [&](VertexId v) { return shown[v.index()] != 0; };
    const auto drawn = std::count(shown.begin(), shown.end(), std::uint8_t{1});
    caption = g->num_vertices() > static_cast<std::uint32_t>(drawn)
                  ? fmt::format(
                        "The model has {} vertices, too many to draw readably here; this is the "
                        "neighbourhood of '{}' ({} vertices within {} step{}, and the last vertices of "
                        "the path). ",
                        g->num_vertices(), d.vertex_name ? d.vertex_name(at) : std::string(g->name(at)), drawn,
                        l.radius, l.radius == 1 ? "" : "s")
                  : std::string();
  };
  d.edge_style = [&](EdgeId e) {
    DotStyle s;
    auto it = on_path.find(e.value);
    if (it == on_path.end()) {
      s.color = "#b8c0c8";
      return s;
    }
    s.color = fail_red;
    s.penwidth = 2.6;
    s.css_class = "path";
    std::vector<std::string> nums;
    const auto& steps = it->second;
    const std::size_t from = steps.size() > 3 ? steps.size() - 3 : 0;
    for (std::size_t k = from; k < steps.size(); ++k) nums.push_back(fmt::format("{}", steps[k]));
    s.note = (from ? "#…" : "#") + join_limited(nums, 3);
    return s;
  };
  d.vertex_style = [&](VertexId v) {
    DotStyle s;
    if (v == at) {
      s.fillcolor = "#ffd7d5";
      s.color = fail_red;
      s.penwidth = 2.5;
      s.css_class = "failvertex";
    }
    return s;
  };
  FallbackFailureBox box;
  if (r.verdict == Verdict::fail) {
    const std::string what =
        r.observed ? fmt::format("got '{}'\nnot allowed", *r.observed) : std::string("silence\nno timeout edge");
    box = {.at = at,
           .text = what,
           .edge_label = r.trace.empty() ? std::string("") : fmt::format("#{}", r.trace.back().step),
           .color = fail_red};
    d.extra_statements = fmt::format(
        "  __failure [shape=box, style=\"filled,dashed\", fillcolor=\"#ffebe9\", color=\"{0}\", fontcolor=\"{0}\", "
        "label={1}, id=\"{2}failure\", class=\"failure\"];\n"
        "  v{3} -> __failure [color=\"{0}\", style=dashed, penwidth=2.6, fontcolor=\"{0}\", label={4}, "
        "id=\"{2}failure_edge\", class=\"path failure\"];\n",
        fail_red, dot_quote(what), prefix, at.value,
        dot_quote(r.trace.empty() ? std::string("") : fmt::format("#{}", r.trace.back().step)));
  }
  for (std::size_t li = 0; li < levels.size(); ++li) {
    if (li > 0) drawer.discard();
    show_level(levels[li]);
    pic = drawer.draw(*g, d, r.verdict == Verdict::fail ? &box : nullptr);
    if (pic.svg.empty() || svg_width_pt(pic.svg) <= max_failure_picture_pt) break;
  }
  if (!pic.fallback.empty()) caption = pic.fallback + " " + caption;
  if (!pic.svg.empty()) {
    ++pictures_of_failures;
    out.prefix = prefix;
  }
  caption += r.verdict == Verdict::fail
                 ? "The path to the failure (every step since the run's last reset) is red, each edge with the "
                   "numbers of the steps that took it; the failing vertex is filled, the dashed box is what the "
                   "system did there. Hover a step to find its edge."
                 : "The path of the run since its last reset is red; the filled vertex is where it stopped.";
  if (d.vertex_name) {
    std::vector<VertexId> named{at};
    for (std::size_t k = path_vertices.size(); k-- > 0;) named.push_back(path_vertices[k]);
    caption += " Vertices are drawn by number: " + name_list(*g, named, 12) + ".";
  }
  return out;
}

// Claims about the system (strategy/claims.hpp): why runs stopped early (each claim once, with
// the runs it concerns), and the model's slack, made here from what the traces hold.
void PageBuilder::claims() {
  if (!g || total == 0) return;
  slack_edge.assign(g->num_edges(), 0);
  Evidence evidence;
  for (std::size_t i = 0; i < rep.runs.size() && i < resolved.size(); ++i)
    add_evidence(evidence, *g, rep.runs[i], resolved[i]);
  struct Stop {
    const ClaimRecord* claim;
    std::string runs;
  };
  std::vector<Stop> stops;
  for (const RunRecord& r : rep.runs)
    for (const ClaimRecord& c : r.stopped_by) {
      auto it = std::find_if(stops.begin(), stops.end(),
                             [&](const Stop& s) { return s.claim->vertex == c.vertex && s.claim->label == c.label; });
      const std::string run = fmt::format("{}", r.run);
      if (it == stops.end())
        stops.push_back({&c, run});
      else {
        it->claim = &c;  // the latest run's: the most evidence
        it->runs += ", " + run;
      }
    }
  Data stop_rows = list();
  for (const Stop& s : stops) {
    Data row;
    // A later run may have seen what an earlier one stopped waiting for: said, never hidden.
    std::uint64_t seen = 0;
    if (const auto v = g->find_vertex(s.claim->vertex))
      for (EdgeId e : g->out_edges(*v))
        if (g->label(e) == s.claim->label) seen += evidence.count(*v, e);
    row.set("text", seen == 0 ? s.claim->text
                              : fmt::format("{}; these traces show it {} time{} in all: that stop was premature",
                                            s.claim->text, seen, seen == 1 ? "" : "s"));
    row.set("runs", s.runs);
    row.set("behind", fmt::format("{}", s.claim->edges_behind));
    stop_rows.push_back(row);
  }
  page.set("has_stops", !stops.empty());
  page.set("stops", stop_rows);
  const HistoryModel history = learn_history(*g, evidence);
  const std::vector<OutcomeClaim> slack = model_slack(*g, evidence, &history);
  Data never = list(), some = list();
  std::size_t n_never = 0, n_some = 0;
  for (const OutcomeClaim& c : slack) {
    const bool at_vertex = c.kind == OutcomeClaim::Kind::never_at_vertex;
    slack_edge[c.outcome.index()] = at_vertex ? 1 : 2;
    std::size_t& n = at_vertex ? n_never : n_some;
    if (n++ >= o.max_listed_edges) continue;
    Data row;
    row.set("label", std::string(g->label(c.outcome)));
    row.set("vertex", std::string(g->name(c.vertex)));
    row.set("visits", fmt::format("{}", c.visits));
    row.set("histories", fmt::format("{}", c.histories));
    row.set("rate", fmt::format("{:.2g}%", c.rate * 100));
    row.set("text", describe_claim(*g, c));
    (at_vertex ? never : some).push_back(row);
  }
  page.set("has_slack", !slack.empty());
  page.set("slack_count", fmt::format("{}", slack.size()));
  page.set("has_never", n_never > 0);
  page.set("never", never);
  page.set("never_count", fmt::format("{}", n_never));
  page.set("has_some", n_some > 0);
  page.set("some", some);
  page.set("some_count", fmt::format("{}", n_some));
  page.set("slack_more", n_never > o.max_listed_edges || n_some > o.max_listed_edges
                             ? fmt::format("(The first {} of each kind are listed.)", o.max_listed_edges)
                             : std::string());
}

// The model with coverage (the model section belongs to runs; simulate, cover and solve draw the
// model in their own sections).
void PageBuilder::model() {
  page.set("has_model", g != nullptr && total > 0);
  page.set("has_model_part", part);
  if (part)
    page.set("model_part",
             fmt::format("Coverage of the {} edges the trace{} saw (every edge of the states {} passed through): {}.",
                         g->num_edges(), rep.runs.size() == 1 ? "" : "s", rep.runs.size() == 1 ? "it" : "they",
                         rep.model_part));
  if (!g || total == 0) return;
  page.set("model_summary",
           fmt::format("{}{}: {} vertices ({} active, {} choice points, {} goals), {} edges, {} labels; "
                       "initial vertex '{}'.",
                       rep.model_name.empty() ? std::string("The model") : rep.model_name,
                       part ? ", the part the traces saw" : "", g->num_vertices(), g->num_vertices() - g->num_passive(),
                       g->num_passive(), g->num_goals(), g->num_edges(), g->num_labels(), g->name(g->initial())));
  std::uint32_t max_visits = 0;
  for (std::uint32_t v : visits) max_visits = std::max(max_visits, v);
  page.set("coverage_summary",
           total == 0 ? std::string("No runs: nothing was covered.")
                      : fmt::format("The runs took {} of {} edges ({:.1f}%) and {} of {} labels at least once; the "
                                    "most used edge {} times.",
                                    cov.edges_covered, cov.edges_total,
                                    cov.edges_total ? 100.0 * cov.edges_covered / cov.edges_total : 0.0,
                                    cov.labels_covered, cov.labels_total, max_visits));
  const Scale scale(max_visits);
  page.set("has_legend", total > 0);
  page.set("legend", model_legend(max_visits, scale));
  const std::string model_message = model_picture(scale);
  page.set("has_model_picture", whole && model_message.empty());
  page.set("has_model_message", !model_message.empty());
  page.set("model_message", model_message);
  if (total) toc.push_back(toc_item("model", "model and coverage"));
  if (const auto n = std::count(slack_edge.begin(), slack_edge.end(), std::uint8_t{1}) +
                     std::count(slack_edge.begin(), slack_edge.end(), std::uint8_t{2}))
    toc.push_back(toc_item("slack", fmt::format("model slack: {} outcome{}", n, n == 1 ? "" : "s")));
  uncovered_edges();
}

Data PageBuilder::model_legend(std::uint32_t max_visits, const Scale& scale) const {
  Data legend = list();
  if (total) {
    Data never;
    never.set("color", uncovered_orange);
    never.set("dash", "dashed");
    never.set("text", "never taken");
    legend.push_back(never);
    if (std::find(slack_edge.begin(), slack_edge.end(), std::uint8_t{1}) != slack_edge.end()) {
      Data item;
      item.set("color", slack_purple);
      item.set("dash", "dashed");
      item.set("text", "never chosen by the system at its vertex");
      legend.push_back(item);
    }
    if (std::find(slack_edge.begin(), slack_edge.end(), std::uint8_t{2}) != slack_edge.end()) {
      Data item;
      item.set("color", history_teal);
      item.set("dash", "dashed");
      item.set("text", "chosen only after some histories");
      legend.push_back(item);
    }
    std::uint32_t lo = 1;
    for (std::size_t b = 0; b < scale.upper.size() && max_visits > 0; ++b) {
      Data item;
      item.set("color", scale.color(b));
      item.set("dash", "");
      const std::uint32_t hi = scale.upper[b];
      item.set("text", lo == hi ? fmt::format("taken {}×", lo) : fmt::format("taken {}–{}×", lo, hi));
      legend.push_back(item);
      lo = hi + 1;
    }
  }
  return legend;
}

// The whole model with its coverage, when it is small enough to draw; else the message why not.
std::string PageBuilder::model_picture(const Scale& scale) {
  std::string model_message;
  if (whole) {
    DotOptions d;
    d.id_prefix = "m_";
    name_vertices(d, *g, o);
    if (total)
      d.edge_style = [&](EdgeId e) {
        DotStyle s;
        if (slack_edge[e.index()] == 1) {  // an outcome the system never chose at its vertex
          s.color = slack_purple;
          s.dashed = true;
          s.penwidth = 2.2;
          s.note = "never chosen";
          s.css_class = "slack";
          return s;
        }
        const std::uint32_t c = visits[e.index()];
        if (slack_edge[e.index()] == 2) {  // chosen, but never in some histories
          s.color = history_teal;
          s.dashed = true;
          s.penwidth = 2.0;
          s.note = fmt::format("×{}, only after some histories", c);
          s.css_class = "history-only";
          return s;
        }
        if (c == 0) {
          s.color = uncovered_orange;
          s.dashed = true;
          s.css_class = "uncovered";
          return s;
        }
        const std::size_t b = scale.bucket(c);
        s.color = scale.color(b);
        s.penwidth = 1.2 + 0.6 * static_cast<double>(b);
        s.note = fmt::format("×{}", c);
        s.css_class = "covered";
        return s;
      };
    Picture pic = drawer.draw(*g, d);
    // Short names in the picture: the table that says which state each one is.
    Data states = list();
    if (d.vertex_name && !pic.svg.empty())
      for (VertexId v : g->vertices()) {
        Data row;
        row.set("short", d.vertex_name(v));
        row.set("anchor", fmt::format("state-v{}", v.value));
        row.set("kind", g->is_passive(v) ? "choice point" : "active");
        row.set("state", std::string(g->name(v)));
        states.push_back(row);
      }
    page.set("has_state_table", !states.is_empty_list());
    page.set("state_table", states);
    page.set("state_count", fmt::format("{}", g->num_vertices()));
    page.set("model_picture", pic.svg);
    page.set("model_fallback", pic.fallback);
    model_message = pic.message;
  } else {
    model_message = fmt::format(
        "The model has {} vertices and {} edges: pictures of the whole model are drawn up to {} vertices and {} "
        "edges (a larger layout takes Graphviz minutes and stalls a browser). The failures above show their "
        "neighbourhoods; the uncovered edges are listed below.",
        g->num_vertices(), g->num_edges(), o.max_drawn_vertices, o.max_drawn_edges);
    summary.messages.push_back(
        fmt::format("the model has {} vertices: only neighbourhoods of failures are drawn", g->num_vertices()));
  }
  return model_message;
}

void PageBuilder::uncovered_edges() {
  Data uncovered = list();
  std::uint32_t n_uncovered = 0;
  for (EdgeId e : g->edges()) {
    if (visits[e.index()]) continue;
    if (n_uncovered++ >= o.max_listed_edges) continue;
    Data row;
    row.set("label", std::string(g->label(e)));
    row.set("from", std::string(g->name(g->source(e))));
    row.set("to", std::string(g->name(g->target(e))));
    row.set("edge", std::string(g->name(e)));
    uncovered.push_back(row);
  }
  page.set("uncovered_count", fmt::format("{} of {}", n_uncovered, g->num_edges()));
  page.set("has_uncovered", n_uncovered > 0);
  page.set("uncovered", uncovered);
  page.set("has_uncovered_more", n_uncovered > o.max_listed_edges);
  page.set("uncovered_more",
           fmt::format("{}", n_uncovered > o.max_listed_edges ? n_uncovered - o.max_listed_edges : 0));
  if (total && n_uncovered) toc.push_back(toc_item("uncovered", fmt::format("{} edges never covered", n_uncovered)));
}

void PageBuilder::simulation() {
  if (!rep.simulation) return;
  const StrategyComparison& sc = *rep.simulation;
  Data s;
  std::uint32_t runs_each = sc.rows.empty() ? 0 : sc.rows.front().stats.runs;
  s.set("runs_text", fmt::format("{} run{}", runs_each, runs_each == 1 ? "" : "s"));
  s.set("seed", fmt::format("{}", sc.seed));
  s.set("max_steps", sc.max_steps ? fmt::format("{}", sc.max_steps) : std::string("unlimited"));
  // Each row's purpose in words (campaign/simulation.hpp's describe_purpose needs the model).
  std::vector<std::string> row_purpose, purposes;
  for (const StrategyComparison::Row& row : sc.rows) {
    row_purpose.push_back(g ? describe_purpose(*g, row.purpose) : std::string(to_string(row.purpose.kind)));
    if (std::find(purposes.begin(), purposes.end(), row_purpose.back()) == purposes.end())
      purposes.push_back(row_purpose.back());
  }
  s.set("one_purpose", purposes.size() == 1);
  s.set("purpose", purposes.size() == 1 ? purposes[0] : std::string());
  const bool has_mutants = !sc.mutants.empty();
  s.set("has_mutants", has_mutants);
  Data rows = list();
  Histograms hist;
  hist.x_label = "steps to meet the purpose";
  const char* palette[] = {"#1f6feb", "#bf3989", "#1a7f37", "#9a6700", "#8250df", "#0a7ea4", "#cf222e", "#57606a"};
  bool any_sample = false;
  for (std::size_t k = 0; k < sc.rows.size(); ++k) {
    const SimulationStats& st = sc.rows[k].stats;
    Data row;
    row.set("strategy", sc.rows[k].strategy);
    row.set("row_purpose", row_purpose[k]);
    row.set("runs", fmt::format("{}", st.runs));
    row.set("success", fmt::format("{:.1f}%", 100.0 * st.success_rate));
    row.set("mean", st.success_rate > 0 ? fmt::format("{:.2f}", st.mean_steps) : std::string("–"));
    row.set("sd", st.success_rate > 0 ? fmt::format("{:.2f}", st.sd_steps) : std::string("–"));
    row.set("passed", fmt::format("{}", st.passed));
    row.set("failed", fmt::format("{}", st.failed));
    row.set("inconclusive", fmt::format("{}", st.inconclusive));
    row.set("errors", fmt::format("{}", st.errors));
    row.set("detected",
            fmt::format("{}/{} ({:.0f}%)", st.mutants_detected, st.mutants, 100.0 * st.detected_fraction()));
    row.set("detect_steps", st.mutant_runs_failed ? fmt::format("{:.1f}", st.mean_steps_to_detect) : std::string("–"));
    rows.push_back(row);
    HistogramRow h;
    h.name = sc.rows[k].strategy;
    h.color = palette[k % std::size(palette)];
    for (std::uint64_t x : st.steps_to_purpose) h.values.push_back(static_cast<double>(x));
    any_sample = any_sample || !h.values.empty();
    h.note = st.success_rate > 0 ? fmt::format("mean {:.1f}, sd {:.1f}, {:.0f}% met", st.mean_steps, st.sd_steps,
                                               100.0 * st.success_rate)
                                 : std::string("purpose never met");
    hist.rows.push_back(std::move(h));
  }
  s.set("rows", rows);
  s.set("has_histograms", any_sample);
  s.set("histograms", any_sample ? svg_histograms(hist) : std::string());
  bool table = has_mutants;
  for (const StrategyComparison::Row& row : sc.rows)
    table = table && row.stats.mutant_detected.size() == sc.mutants.size();
  s.set("has_mutant_table", table);
  if (table) {
    Data heads = list();
    for (const StrategyComparison::Row& row : sc.rows) heads.push_back(Data("head", row.strategy));
    s.set("mutant_heads", heads);
    Data mrows = list();
    for (std::size_t m = 0; m < sc.mutants.size(); ++m) {
      Data mr;
      mr.set("description", sc.mutants[m].description);
      Data cells = list();
      for (const StrategyComparison::Row& row : sc.rows) {
        Data c;
        const bool killed = row.stats.mutant_detected[m] != 0;
        c.set("cell", killed ? "killed" : "survived");
        c.set("cell_class", killed ? "killed" : "survived");
        cells.push_back(c);
      }
      mr.set("cells", cells);
      mrows.push_back(mr);
    }
    s.set("mutant_rows", mrows);
  }
  page.set("simulation", s);
  toc.push_back(toc_item("simulate", "strategies compared"));
}

// The edge-coverage tour of `cover`, its bound and the simulated convergence.
void PageBuilder::cover() {
  if (!rep.cover) return;
  const CoverReport& cs = *rep.cover;
  const PostmanTour& tour = cs.tour();
  const TourSegments& segments = cs.segments();
  Data c;
  c.set("tour_steps", fmt::format("{}", tour.steps.size()));
  c.set("start", g && !tour.start.is_none() ? std::string(g->name(tour.start)) : std::string("?"));
  c.set("cost", short_number(tour.cost));
  c.set("lower_bound", short_number(tour.lower_bound));
  c.set("has_uncoverable", !tour.uncoverable.empty());
  c.set("uncoverable", fmt::format("{}", tour.uncoverable.size()));
  c.set("segments", fmt::format("{}", segments.count()));
  const CoverBound& b = cs.bound;
  std::string bound_text;
  if (!b.computed) {
    bound_text = "The bound of seed 000 Proposition 2 was not computed (too much work for this tour).";
  } else if (b.cyclic) {
    bound_text = "The tour has no choice point: following it covers every edge in one round (p = 1).";
  } else {
    const std::uint64_t m99 = cs.rounds_99.value_or(0);
    bound_text = fmt::format(
        "Seed 000, Proposition 2: with n = {} segments and p = min p_i,v = {:.4g}, Cover(v, m n) covers every edge "
        "with probability at least 1 − n (1 − p)^m{}.",
        b.num_segments, b.p, m99 ? fmt::format("; at least 0.99 from m = {}", m99) : std::string());
  }
  c.set("bound_text", bound_text);
  const bool plot = cs.options.sim_runs > 0 && !cs.table.rows.empty();
  c.set("has_plot", plot);
  if (plot) {
    LinePlot lp;
    lp.title = "Probability that every edge is covered";
    lp.x_label = "k: visits of choice points";
    lp.y_label = "P(all edges covered)";
    PlotSeries est{.name = fmt::format("simulated ({} runs, 95% interval)", cs.table.runs)};
    PlotSeries bnd{.name = "bound 1 − n (1 − p)^m (Proposition 2)",
                   .color = fail_red,
                   .dashed = true,
                   .steps = true,
                   .markers = false};
    for (const ConvergenceRow& row : cs.table.rows) {
      est.x.push_back(row.visits);
      est.y.push_back(row.estimate);
      est.low.push_back(row.low);
      est.high.push_back(row.high);
      if (b.computed) {
        bnd.x.push_back(row.visits);
        bnd.y.push_back(b.bound_after_visits(row.visits));
      }
    }
    lp.series.push_back(std::move(est));
    if (b.computed) lp.series.push_back(std::move(bnd));
    c.set("plot", svg_line_plot(lp));
    c.set("plot_caption",
          fmt::format("{} seeded runs of the cover strategy ({} segment choice, seed {}) against a system that picks "
                      "with the model's probabilities; the band is the 95% Wilson interval. The bound holds for the "
                      "paper's random segment choice.",
                      cs.table.runs, cs.options.cover.choice == SegmentChoice::random ? "random" : "prefer-uncovered",
                      cs.options.seed));
  }
  std::vector<std::string> steps;
  auto step_text = [&](const TourStep& t) {
    if (!g) return t.is_reset() ? std::string("reset") : fmt::format("e{}", t.edge.value);
    return t.is_reset() ? fmt::format("reset({})", g->name(t.from)) : std::string(g->name(t.edge));
  };
  for (const TourStep& t : tour.steps) steps.push_back(step_text(t));
  std::string tour_text;
  for (std::size_t k = 0; k < steps.size() && k < 2000; ++k) tour_text += (k ? " " : "") + steps[k];
  if (steps.size() > 2000) tour_text += fmt::format(" … ({} more)", steps.size() - 2000);
  c.set("tour_text", tour_text);
  Data seg_rows = list();
  for (std::uint32_t k = 0; k < segments.count() && k < 500; ++k) {
    std::vector<std::string> e;
    for (const TourStep& t : segments.segment(k)) e.push_back(step_text(t));
    Data row;
    row.set("name", fmt::format("T{}", k + 1));
    row.set("edges", join_limited(e, 200));
    seg_rows.push_back(row);
  }
  c.set("segment_rows", seg_rows);
  // The tour on the model: edges taken more than once bold, with how often.
  const bool has_tour = g && tour.multiplicity.size() == g->num_edges();
  section_picture(c, "cover", "the tour", has_tour, [&](DotOptions& d) {
    d.id_prefix = "c_";
    d.edge_style = [&](EdgeId e) {
      DotStyle st;
      const std::uint32_t m = tour.multiplicity[e.index()];
      if (m == 0) {
        st.color = uncovered_orange;
        st.dashed = true;
        st.css_class = "untoured";
      } else if (m > 1) {
        st.color = blues[3];
        st.penwidth = 2.6;
        st.note = fmt::format("×{}", m);
        st.css_class = "repeated";
      }
      return st;
    };
  });
  page.set("cover", c);
  toc.push_back(toc_item("cover", "cover convergence"));
}

void PageBuilder::solve() {
  if (!rep.solve) return;
  const SolveSection& ss = *rep.solve;
  Data s;
  s.set("objective", ss.objective);
  Data lines = list();
  for (const std::string& l : ss.summary) lines.push_back(Data("line", l));
  s.set("summary", lines);
  section_picture(s, "solve", "the strategy", true, [&](DotOptions& d) {
    d.id_prefix = "s_";
    d.vertex_note = [&](VertexId v) { return v.index() < ss.vertex_value.size() ? ss.vertex_value[v.index()] : ""; };
    d.dim_vertex = [&](VertexId v) { return v.index() < ss.losing.size() && ss.losing[v.index()]; };
    d.edge_style = [&](EdgeId e) {
      DotStyle st;
      const VertexId from = g->source(e);
      if (from.index() < ss.strategy.size() && ss.strategy[from.index()] == e) {
        st.color = strategy_green;
        st.penwidth = 2.6;
        st.css_class = "strategy";
      }
      return st;
    };
  });
  page.set("solve", s);
  toc.push_back(toc_item("solve", "strategy"));
}

// A section's picture of the model (cover's tour, solve's strategy) styled by `style`, when there is
// a model small enough to draw and `drawn` (there is something to draw); else the message why not.
// Sets has_KEY_picture, KEY_picture, KEY_fallback, has_KEY_message and KEY_message of `section`.
void PageBuilder::section_picture(Data& section, const std::string& key, const std::string& what, bool drawn,
                                  const std::function<void(DotOptions&)>& style) {
  std::string svg, message;
  if (!g) {
    message = fmt::format("No model was given, so {} cannot be drawn.", what);
  } else if (!drawable(*g, o)) {
    message = fmt::format("The model has {} vertices: {} is drawn up to {} vertices.", g->num_vertices(), what,
                          o.max_drawn_vertices);
  } else if (drawn) {
    DotOptions d;
    style(d);
    Picture pic = drawer.draw(*g, d);
    svg = pic.svg;
    section.set(key + "_fallback", pic.fallback);
    message = pic.message;
  }
  section.set("has_" + key + "_picture", !svg.empty());
  section.set(key + "_picture", svg);
  section.set("has_" + key + "_message", !message.empty());
  section.set(key + "_message", message);
}

}  // namespace

ReportSummary write_html_report(std::ostream& out, const Report& rep, const ReportOptions& o) {
  ReportSummary summary;
  PageBuilder b(rep, o, summary);
  b.verdict_and_facts();
  b.runs_tables();
  b.claims();
  b.model();
  b.simulation();
  b.cover();
  b.solve();
  b.page.set("toc", b.toc);
  out << render(detail::page_template(), b.page);
  return summary;
}

}  // namespace playtest::report
