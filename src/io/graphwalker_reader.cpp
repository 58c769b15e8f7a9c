// Reading GraphWalker 4 / AltWalker JSON (docs/graphwalker.md). The document is small next to the
// graphs of graph/1, so it is read twice: nlohmann's SAX interface over an iterator that tracks
// where each value starts (the JSON pointer -> line:column index every message uses), then as a
// DOM that the element readers walk.
#include <fmt/format.h>

#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <unordered_map>

#include "detail/json_positions.hpp"
#include "playtest/base/source_text.hpp"
#include "playtest/io/graphwalker.hpp"

namespace playtest {
namespace {

using nlohmann::json;

// The text, read one character at a time, remembering the line and column of the start of the
// last JSON value (a string's quote, '{', '[', the first character of a number or literal).
class Tracker {
 public:
  explicit Tracker(std::string_view text) : text_(text) {}
  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return text_[pos_]; }
  void advance() {
    track(text_[pos_]);
    ++pos_;
  }
  std::uint32_t start_line() const { return positions_.value_line(); }
  std::uint32_t start_column() const { return positions_.value_column(); }

 private:
  void track(char c) {
    // Comments (/* */ and //, which GraphWalker's reader accepts) hold no value.
    if (in_comment_ != 0) {
      if (in_comment_ == '/' ? c == '\n' : (c == '/' && prev_ == '*')) in_comment_ = 0;
      prev_ = c;
      positions_.count(c);
      return;
    }
    if (!positions_.in_string() && c == '/' && pos_ + 1 < text_.size() &&
        (text_[pos_ + 1] == '*' || text_[pos_ + 1] == '/')) {
      in_comment_ = text_[pos_ + 1];
      prev_ = 0;
      positions_.count(c);
      return;
    }
    positions_.take(c);
  }
  std::string_view text_;
  std::size_t pos_ = 0;
  char in_comment_ = 0, prev_ = 0;
  detail::JsonPositions positions_;
};

using TrackerIterator = detail::CharSourceIterator<Tracker>;

std::string pointer_escape(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

struct Position {
  std::uint32_t line, column;
};

// Records where every value starts, by JSON pointer.
class PositionIndex : public nlohmann::json_sax<json> {
 public:
  explicit PositionIndex(Tracker& t) : t_(t) {}
  std::unordered_map<std::string, Position> at;

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override {
    record();
    frames_.push_back({false, 0, {}});
    return true;
  }
  bool key(string_t& k) override {
    frames_.back().key = pointer_escape(k);
    return true;
  }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override {
    record();
    frames_.push_back({true, 0, {}});
    return true;
  }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  struct Frame {
    bool array;
    std::size_t index;
    std::string key;
  };
  std::string current() const {
    std::string p;
    for (const Frame& f : frames_) p += "/" + (f.array ? std::to_string(f.index) : f.key);
    return p;
  }
  void record() { at.emplace(current(), Position{t_.start_line(), t_.start_column()}); }
  void next() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
  }
  bool value() {
    record();
    next();
    return true;
  }
  bool close() {
    frames_.pop_back();
    next();
    return true;
  }
  Tracker& t_;
  std::vector<Frame> frames_;
};

// The column of every decoded byte of the JSON string that starts (its quote) at `quote` in `raw`.
std::vector<std::uint32_t> string_columns(std::string_view raw, std::size_t quote, std::uint32_t quote_column) {
  std::vector<std::uint32_t> cols;
  std::uint32_t col = quote_column + 1;
  std::size_t i = quote + 1;
  auto hex4 = [&](std::size_t at) -> std::uint32_t {
    std::uint32_t v = 0;
    for (std::size_t k = 0; k < 4 && at + k < raw.size(); ++k) {
      const char c = raw[at + k];
      v = v * 16 + static_cast<std::uint32_t>(c >= '0' && c <= '9'   ? c - '0'
                                              : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                              : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                                     : 0);
    }
    return v;
  };
  while (i < raw.size() && raw[i] != '"') {
    if (raw[i] == '\\' && i + 1 < raw.size()) {
      if (raw[i + 1] == 'u') {
        const std::uint32_t cp = hex4(i + 2);
        std::size_t raw_len = 6, bytes = cp < 0x80 ? 1 : cp < 0x800 ? 2 : 3;
        if (cp >= 0xD800 && cp < 0xDC00 && i + 7 < raw.size() && raw[i + 6] == '\\' && raw[i + 7] == 'u')
          raw_len = 12, bytes = 4;
        for (std::size_t b = 0; b < bytes; ++b) cols.push_back(col);
        col += static_cast<std::uint32_t>(raw_len);
        i += raw_len;
      } else {
        cols.push_back(col);
        col += 2;
        i += 2;
      }
      continue;
    }
    if ((static_cast<unsigned char>(raw[i]) & 0xC0) == 0x80)
      cols.push_back(col - 1);  // a continuation byte: its character's column
    else
      cols.push_back(col++);
    ++i;
  }
  cols.push_back(col);  // the end
  return cols;
}

class Reader {
 public:
  Reader(std::string_view text, const std::string& file, GwStart start) : text_(text), file_(file), start_(start) {}

  GwDocument read() {
    json doc;
    try {
      doc = json::parse(text_.begin(), text_.end(), nullptr, true, /*ignore_comments=*/true);
    } catch (const json::parse_error& e) {
      auto [line, col] = line_column_of(text_, e.byte == 0 ? 0 : e.byte - 1);
      throw ParseError(make_diagnostic(file_, line, col, "", "JSON syntax error", {e.what()}));
    } catch (const json::exception& e) {
      throw ParseError(make_diagnostic(file_, 0, 0, "", "JSON value out of range", {e.what()}));
    }
    Tracker t(text_);
    PositionIndex index(t);
    json::sax_parse(TrackerIterator(&t), TrackerIterator(), &index, nlohmann::json::input_format_t::json, true,
                    /*ignore_comments=*/true);
    at_ = std::move(index.at);
    // Line starts, to find a string's quote from its line and column.
    line_starts_.push_back(0);
    for (std::size_t i = 0; i < text_.size(); ++i)
      if (text_[i] == '\n') line_starts_.push_back(i + 1);

    GwDocument out;
    out.file = file_;
    if (!doc.is_object()) fail("", "a GraphWalker model file is a JSON object with a \"models\" array");
    if (!doc.contains("models")) fail("", "missing key \"models\"", {"a GraphWalker file is {\"models\": [...]}"});
    if (doc.contains("seed")) {
      if (!doc["seed"].is_number_integer()) fail("/seed", "expected an integer seed");
      out.seed = doc["seed"].get<std::int64_t>();
    }
    const json& models = doc["models"];
    if (!models.is_array()) fail("/models", "expected an array of models");
    if (models.empty()) fail("/models", "the file has no model");
    for (std::size_t i = 0; i < models.size(); ++i)
      out.models.push_back(model(models[i], fmt::format("/models/{}", i), i));
    for (std::size_t i = 0; i < out.models.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (out.models[i].name == out.models[j].name)
          graph_fail(out.models[i].where.pointer + "/name",
                     fmt::format("two models are named '{}'", out.models[i].name),
                     {fmt::format("the first is {}", out.models[j].where.pointer),
                      "element names are qualified by their model's name (Model.e_Name): give each model its own"});
    // startElementId: an element of its model, else of another (GraphWalker then ignores it there).
    bool any_start = false;
    for (std::size_t i = 0; i < models.size(); ++i) {
      const json& m = models[i];
      if (!m.contains("startElementId")) continue;
      const std::string p = fmt::format("/models/{}/startElementId", i);
      const std::string id = string_at(m["startElementId"], p);
      if (id.empty()) continue;
      GwModel& gm = out.models[i];
      gm.start_where = where_of(p);
      if (blocked_.count({i, id}))
        graph_fail(p, fmt::format("the start element '{}' is blocked (\"properties\": {{\"blocked\": true}})", id),
                   {"GraphWalker leaves blocked elements out (its default, --blocked true): start elsewhere"});
      if (auto v = find_vertex(gm, id)) {
        gm.start_kind = GwModel::StartKind::vertex, gm.start = *v;
      } else if (auto e = find_edge(gm, id)) {
        gm.start_kind = GwModel::StartKind::edge, gm.start = *e;
      } else {
        bool elsewhere = false;
        for (const GwModel& other : out.models) elsewhere = elsewhere || find_vertex(other, id) || find_edge(other, id);
        if (!elsewhere)
          graph_fail(p, fmt::format("the start element '{}' is no vertex or edge of the file", id),
                     {"startElementId names the id of a vertex or an edge"});
        continue;
      }
      if (!any_start) out.start_model = static_cast<std::uint32_t>(i);
      any_start = true;
    }
    if (!any_start && start_ == GwStart::required)
      graph_fail("/models", "no model has a start element",
                 {"set \"startElementId\" of the model to start in to the id of a vertex or an edge"});
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& pointer, std::string message, std::vector<std::string> notes = {}) const {
    const Position p = where(pointer);
    throw ParseError(make_diagnostic(file_, p.line, p.column, pointer, std::move(message), std::move(notes)));
  }
  [[noreturn]] void graph_fail(const std::string& pointer, std::string message,
                               std::vector<std::string> notes = {}) const {
    const Position p = where(pointer);
    throw GraphError(make_diagnostic(file_, p.line, p.column, pointer, std::move(message), std::move(notes)));
  }
  Position where(const std::string& pointer) const {
    auto it = at_.find(pointer);
    return it == at_.end() ? Position{0, 0} : it->second;
  }
  GwWhere where_of(const std::string& pointer) const {
    const Position p = where(pointer);
    return {p.line, p.column, pointer};
  }

  std::string string_at(const json& v, const std::string& pointer) const {
    if (!v.is_string()) fail(pointer, "expected a string");
    return v.get<std::string>();
  }

  GwScript script(const json& v, const std::string& pointer) const {
    GwScript s;
    s.text = string_at(v, pointer);
    s.where = where_of(pointer);
    if (s.where.line != 0 && s.where.line <= line_starts_.size()) {
      // Find the quote: the line's start plus (column - 1) characters.
      std::size_t off = line_starts_[s.where.line - 1];
      for (std::uint32_t c = 1; c < s.where.column && off < text_.size(); ++c) {
        ++off;
        while (off < text_.size() && (static_cast<unsigned char>(text_[off]) & 0xC0) == 0x80) ++off;
      }
      if (off < text_.size() && text_[off] == '"') s.columns = string_columns(text_, off, s.where.column);
    }
    return s;
  }

  std::vector<GwScript> scripts(const json& obj, const char* key, const std::string& pointer) const {
    std::vector<GwScript> out;
    if (!obj.contains(key)) return out;
    const json& a = obj[key];
    const std::string p = pointer + "/" + key;
    if (a.is_string()) {  // one action given as a string
      GwScript s = script(a, p);
      if (s.text.find_first_not_of(" \t\r\n;") != std::string::npos) out.push_back(std::move(s));
      return out;
    }
    if (!a.is_array()) fail(p, fmt::format("expected an array of JavaScript statements (strings) in \"{}\"", key));
    for (std::size_t i = 0; i < a.size(); ++i) {
      GwScript s = script(a[i], fmt::format("{}/{}", p, i));
      if (s.text.find_first_not_of(" \t\r\n;") != std::string::npos) out.push_back(std::move(s));
    }
    return out;
  }

  std::vector<std::string> strings(const json& obj, const char* key, const std::string& pointer) const {
    std::vector<std::string> out;
    if (!obj.contains(key)) return out;
    const json& a = obj[key];
    const std::string p = pointer + "/" + key;
    if (!a.is_array()) fail(p, fmt::format("expected an array of strings in \"{}\"", key));
    for (std::size_t i = 0; i < a.size(); ++i) out.push_back(string_at(a[i], fmt::format("{}/{}", p, i)));
    return out;
  }

  std::string optional_string(const json& obj, const char* key, const std::string& pointer) const {
    if (!obj.contains(key) || obj[key].is_null()) return "";
    return string_at(obj[key], pointer + "/" + key);
  }

  static std::optional<std::uint32_t> find_vertex(const GwModel& m, const std::string& id) {
    for (std::size_t i = 0; i < m.vertices.size(); ++i)
      if (m.vertices[i].id == id) return static_cast<std::uint32_t>(i);
    return std::nullopt;
  }
  static std::optional<std::uint32_t> find_edge(const GwModel& m, const std::string& id) {
    for (std::size_t i = 0; i < m.edges.size(); ++i)
      if (m.edges[i].id == id) return static_cast<std::uint32_t>(i);
    return std::nullopt;
  }

  GwModel model(const json& m, const std::string& p, std::size_t index) const {
    if (!m.is_object()) fail(p, "expected a model (an object with vertices and edges)");
    GwModel out;
    out.where = where_of(p);
    out.name = optional_string(m, "name", p);
    if (out.name.empty()) out.name = fmt::format("Model{}", index + 1);
    if (out.name.find_first_of(".#") != std::string::npos)
      fail(p + "/name", fmt::format("the model name '{}' has a '.' or '#'", out.name),
           {"playtest names elements Model.element: a model name with '.' or '#' would be ambiguous"});
    out.id = optional_string(m, "id", p);
    if (m.contains("generator") && !m["generator"].is_null()) out.generator = script(m["generator"], p + "/generator");
    out.actions = scripts(m, "actions", p);
    if (!m.contains("vertices")) fail(p, "missing key \"vertices\"");
    const json& vs = m["vertices"];
    if (!vs.is_array()) fail(p + "/vertices", "expected an array of vertices");
    std::unordered_map<std::string, std::string> ids;  // id -> pointer of its element
    auto claim = [&](const std::string& id, const std::string& ptr) {
      auto [it, fresh] = ids.emplace(id, ptr);
      if (!fresh)
        graph_fail(ptr + "/id", fmt::format("the id '{}' is used twice in model '{}'", id, out.name),
                   {fmt::format("first at {}", it->second)});
    };
    for (std::size_t i = 0; i < vs.size(); ++i) {
      const std::string vp = fmt::format("{}/vertices/{}", p, i);
      const json& v = vs[i];
      if (!v.is_object()) fail(vp, "expected a vertex (an object with an id)");
      GwVertex gv;
      gv.where = where_of(vp);
      if (!v.contains("id")) fail(vp, "the vertex has no \"id\"");
      gv.id = string_at(v["id"], vp + "/id");
      if (gv.id.empty()) fail(vp + "/id", "the vertex id is empty");
      claim(gv.id, vp);
      if (blocked(v, vp)) {  // left out, with its edges (GraphWalker's default, --blocked true)
        blocked_.insert({index, gv.id});
        continue;
      }
      gv.name = optional_string(v, "name", vp);
      gv.shared_state = optional_string(v, "sharedState", vp);
      gv.requirements = strings(v, "requirements", vp);
      gv.actions = scripts(v, "actions", vp);
      out.vertices.push_back(std::move(gv));
    }
    if (!m.contains("edges")) fail(p, "missing key \"edges\"");
    const json& es = m["edges"];
    if (!es.is_array()) fail(p + "/edges", "expected an array of edges");
    for (std::size_t i = 0; i < es.size(); ++i) {
      const std::string ep = fmt::format("{}/edges/{}", p, i);
      const json& e = es[i];
      if (!e.is_object()) fail(ep, "expected an edge (an object with an id and a targetVertexId)");
      GwEdge ge;
      ge.where = where_of(ep);
      if (!e.contains("id")) fail(ep, "the edge has no \"id\"");
      ge.id = string_at(e["id"], ep + "/id");
      if (ge.id.empty()) fail(ep + "/id", "the edge id is empty");
      claim(ge.id, ep);
      ge.name = optional_string(e, "name", ep);
      const std::string source = optional_string(e, "sourceVertexId", ep);
      if (!e.contains("targetVertexId")) fail(ep, "the edge has no \"targetVertexId\"");
      const std::string target = string_at(e["targetVertexId"], ep + "/targetVertexId");
      // A blocked edge, or one to or from a blocked vertex, is left out (GraphWalker's default).
      if (blocked(e, ep) || blocked_.count({index, source}) || blocked_.count({index, target})) {
        blocked_.insert({index, ge.id});
        continue;
      }
      if (!source.empty()) {
        ge.source = find_vertex(out, source);
        if (!ge.source)
          graph_fail(ep + "/sourceVertexId",
                     fmt::format("the edge's source '{}' is no vertex of model '{}'", source, out.name));
      }
      const auto t = find_vertex(out, target);
      if (!t)
        graph_fail(ep + "/targetVertexId",
                   fmt::format("the edge's target '{}' is no vertex of model '{}'", target, out.name));
      ge.target = *t;
      if (e.contains("guard") && !e["guard"].is_null()) {
        GwScript g = script(e["guard"], ep + "/guard");
        if (g.text.find_first_not_of(" \t\r\n") != std::string::npos) ge.guard = std::move(g);
      }
      ge.actions = scripts(e, "actions", ep);
      if (e.contains("weight") && !e["weight"].is_null()) {
        const json& w = e["weight"];
        if (!w.is_number() || w.get<double>() < 0 || w.get<double>() > 1)
          fail(ep + "/weight", "expected a weight between 0 and 1 (the probability of taking the edge)");
        ge.weight = w.get<double>();
      }
      if (e.contains("dependency") && !e["dependency"].is_null()) {
        // An integer from 0 to 100, or its digits in a string (as GraphWalker's own test models have).
        const json& d = e["dependency"];
        std::int64_t v = -1;
        if (d.is_number_integer()) {
          v = d.get<std::int64_t>();
        } else if (d.is_string()) {
          const std::string t = d.get<std::string>();
          if (!t.empty() && t.size() <= 3 && t.find_first_not_of("0123456789") == std::string::npos) v = std::stoll(t);
        }
        if (v < 0 || v > 100) fail(ep + "/dependency", "expected a dependency: an integer from 0 to 100");
        ge.dependency = v;
      }
      ge.requirements = strings(e, "requirements", ep);
      out.edges.push_back(std::move(ge));
    }
    if (m.contains("predefinedPathEdgeIds")) {
      const std::string pp = p + "/predefinedPathEdgeIds";
      for (std::size_t i = 0; const std::string& id : strings(m, "predefinedPathEdgeIds", p)) {
        const auto e = find_edge(out, id);
        if (!e && blocked_.count({index, id}))
          graph_fail(fmt::format("{}/{}", pp, i),
                     fmt::format("the predefined path names '{}', a blocked edge of model '{}'", id, out.name),
                     {"GraphWalker leaves blocked elements out (its default, --blocked true)"});
        if (!e)
          graph_fail(fmt::format("{}/{}", pp, i),
                     fmt::format("the predefined path names '{}', no edge of model '{}'", id, out.name));
        out.predefined_path.push_back(*e);
        ++i;
      }
    }
    return out;
  }

  // Whether the element's "properties" say "blocked": true (GraphWalker's BLOCKED in JSON).
  bool blocked(const json& el, const std::string& pointer) const {
    if (!el.contains("properties") || el["properties"].is_null()) return false;
    const json& props = el["properties"];
    if (!props.is_object()) fail(pointer + "/properties", "expected an object of properties");
    if (!props.contains("blocked")) return false;
    if (!props["blocked"].is_boolean())
      fail(pointer + "/properties/blocked", "expected true or false (whether GraphWalker leaves the element out)");
    return props["blocked"].get<bool>();
  }

  std::string_view text_;
  const std::string& file_;
  GwStart start_;
  // Blocked elements left out (model index, id): a start element or a path that names one is refused.
  mutable std::set<std::pair<std::size_t, std::string>> blocked_;
  std::unordered_map<std::string, Position> at_;
  std::vector<std::size_t> line_starts_;
};

}  // namespace

GwDocument parse_graphwalker(std::string_view text, const std::string& file, GwStart start) {
  // XML (GraphML) starts with '<' where JSON starts with '{'.
  std::size_t first = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (first < text.size() &&
         (text[first] == ' ' || text[first] == '\t' || text[first] == '\n' || text[first] == '\r'))
    ++first;
  if (first < text.size() && text[first] == '<') return parse_graphwalker_graphml(text, file, start);
  require_utf8(text, file);
  return Reader(text, file, start).read();
}

namespace {

// Every place in the model says it is in `file`.
void place_in(GwModel& m, const std::string& file) {
  auto scripts = [&](std::vector<GwScript>& v) {
    for (GwScript& s : v) s.where.file = file;
  };
  m.where.file = m.start_where.file = file;
  if (m.generator) m.generator->where.file = file;
  scripts(m.actions);
  for (GwVertex& v : m.vertices) v.where.file = file, scripts(v.actions);
  for (GwEdge& e : m.edges) {
    e.where.file = file;
    if (e.guard) e.guard->where.file = file;
    scripts(e.actions);
  }
}

[[noreturn]] void files_fail(const GwWhere& w, std::string message, std::vector<std::string> notes) {
  throw GraphError(make_diagnostic(w.file, w.line, w.column, w.pointer, std::move(message), std::move(notes)));
}

}  // namespace

GwDocument parse_graphwalker_files(const std::vector<GwFile>& files) {
  if (files.empty()) throw GraphError(make_diagnostic("", 0, 0, "", "no GraphWalker file to read"));
  if (files.size() == 1) return parse_graphwalker(files[0].text, files[0].file);
  GwDocument out;
  std::vector<std::size_t> file_of;  // per model: the index of its file
  std::optional<std::size_t> start_file;
  for (std::size_t f = 0; f < files.size(); ++f) {
    GwDocument d = parse_graphwalker(files[f].text, files[f].file, GwStart::optional);
    if (f == 0) out.file = d.file;
    if (!out.seed) out.seed = d.seed;
    for (GwModel& m : d.models) {
      place_in(m, files[f].file);
      for (std::size_t i = 0; i < out.models.size(); ++i)
        if (out.models[i].name == m.name)
          files_fail(m.where, fmt::format("two models are named '{}'", m.name),
                     {fmt::format("the first is in {}", files[file_of[i]].file),
                      "a GraphML model is named after its file: element names are qualified by their model's name "
                      "(Model.e_Name), so each model needs its own"});
      if (m.start_kind != GwModel::StartKind::none) {
        if (start_file && *start_file != f)
          files_fail(m.start_where, "a second file with a start element",
                     {fmt::format("{} has the first, at line {}; a model spread over several files starts at one place",
                                  files[*start_file].file, out.models[out.start_model].start_where.line),
                      "leave the Start vertex (or the startElementId) in one file only"});
        if (!start_file) out.start_model = static_cast<std::uint32_t>(out.models.size());
        start_file = f;
      }
      out.models.push_back(std::move(m));
      file_of.push_back(f);
    }
  }
  if (!start_file) {
    GwWhere w = out.models.front().where;
    files_fail(w, fmt::format("none of the {} files has a start element", files.size()),
               {"one of them starts the walk: a GraphML file with a vertex labelled Start, or a JSON model whose "
                "\"startElementId\" names one of its elements"});
  }
  // Shared states join the files: each is in two of them at least, and a file without the start
  // has one (else nothing leads into it).
  std::map<std::string, std::set<std::size_t>> files_of_state;
  for (std::size_t i = 0; i < out.models.size(); ++i)
    for (const GwVertex& v : out.models[i].vertices)
      if (!v.shared_state.empty()) files_of_state[v.shared_state].insert(file_of[i]);
  std::vector<bool> shares(files.size(), false);
  for (std::size_t i = 0; i < out.models.size(); ++i)
    for (const GwVertex& v : out.models[i].vertices) {
      if (v.shared_state.empty()) continue;
      if (files_of_state[v.shared_state].size() < 2)
        files_fail(v.where, fmt::format("the shared state '{}' is in no other file", v.shared_state),
                   {"a shared state joins vertices of several models: the walk may jump between them; check its "
                    "name in the other files (names are case-sensitive)"});
      shares[file_of[i]] = true;
    }
  for (std::size_t i = 0; i < out.models.size(); ++i)
    if (file_of[i] != *start_file && !shares[file_of[i]])
      files_fail(out.models[i].where, "the file has no start element and no shared state: no walk can enter it",
                 {fmt::format("the walk starts in {}; join this file's model to it with a shared state "
                              "(SHARED: NAME in GraphML, \"sharedState\" in JSON)",
                              files[*start_file].file)});
  return out;
}

bool looks_like_graphwalker_json(std::string_view head) {
  std::size_t i = 0;
  if (head.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  auto skip = [&] {
    for (;;) {
      while (i < head.size() && (head[i] == ' ' || head[i] == '\t' || head[i] == '\n' || head[i] == '\r')) ++i;
      if (head.substr(i, 2) == "/*") {
        const std::size_t end = head.find("*/", i + 2);
        i = end == std::string_view::npos ? head.size() : end + 2;
      } else if (head.substr(i, 2) == "//") {
        const std::size_t end = head.find('\n', i);
        i = end == std::string_view::npos ? head.size() : end + 1;
      } else {
        return;
      }
    }
  };
  skip();
  if (i >= head.size() || head[i] != '{') return false;
  ++i;
  // The keys of the top-level object before "models" (GraphWalker Studio writes "name" first).
  for (int keys = 0; keys < 4; ++keys) {
    skip();
    if (head.substr(i, 8) == "\"models\"") return true;
    if (i >= head.size() || head[i] != '"') return false;
    // Skip a key and a simple value (a string or a number).
    std::size_t k = head.find('"', i + 1);
    if (k == std::string_view::npos) return false;
    i = k + 1;
    skip();
    if (i >= head.size() || head[i] != ':') return false;
    ++i;
    skip();
    if (i < head.size() && head[i] == '"') {
      k = head.find('"', i + 1);
      if (k == std::string_view::npos) return false;
      i = k + 1;
    } else {
      while (i < head.size() && head[i] != ',' && head[i] != '}') ++i;
    }
    skip();
    if (i >= head.size() || head[i] != ',') return false;
    ++i;
  }
  return false;
}

}  // namespace playtest
