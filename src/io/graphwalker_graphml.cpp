// Reading GraphWalker's GraphML (yEd) models (docs/graphwalker.md "GraphML"). expat parses the XML
// (no DOCTYPE: no entity can expand); every byte of a node's or an edge's label keeps the line and
// column it stands at, so the label's fields (name, [guard], / actions;, SHARED:, INIT:, REQTAG:,
// BLOCKED, weight=, dependency=) and the JavaScript in them are located in the file as the JSON
// reader's are. The result is the GwDocument the JSON reader makes: everything downstream is shared.
#include <expat.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <unordered_map>

#include "playtest/io/graphwalker.hpp"

namespace playtest {
namespace {

struct Pos {
  std::uint32_t line = 0, column = 0;
};

// A label's text, each byte with its place in the file; `end` is where the label's text ends.
struct Text {
  std::string s;
  std::vector<Pos> at;
  Pos end;
};

struct RawNode {
  std::string id;
  Pos where;
  bool group = false;  // holds a subgraph: not a vertex (GraphWalker reads its members)
  Text label;
};

struct RawEdge {
  std::string id, source, target;
  Pos where;
  Text label;
};

std::string xpath(const char* kind, const std::string& id) { return fmt::format("//{}[@id='{}']", kind, id); }

// The local part of an element name ("y:NodeLabel" -> "NodeLabel").
std::string_view local_name(const XML_Char* name) {
  std::string_view n(name);
  const std::size_t colon = n.rfind(':');
  return colon == std::string_view::npos ? n : n.substr(colon + 1);
}

class XmlReader {
 public:
  XmlReader(const std::string& file) : file_(file), parser_(XML_ParserCreate(nullptr)) {
    XML_SetUserData(parser_, this);
    XML_SetElementHandler(parser_, &XmlReader::start, &XmlReader::end);
    XML_SetCharacterDataHandler(parser_, &XmlReader::text);
    XML_SetStartDoctypeDeclHandler(parser_, &XmlReader::doctype);
  }
  ~XmlReader() { XML_ParserFree(parser_); }
  XmlReader(const XmlReader&) = delete;
  XmlReader& operator=(const XmlReader&) = delete;

  void read(std::string_view text) {
    constexpr std::size_t chunk = 1 << 20;
    for (std::size_t at = 0;; at += chunk) {
      const std::size_t n = std::min(chunk, text.size() - std::min(at, text.size()));
      const bool last = at + n >= text.size();
      if (XML_Parse(parser_, text.data() + at, static_cast<int>(n), last ? 1 : 0) != XML_STATUS_OK) {
        if (problem_) throw ParseError(*problem_);
        throw ParseError(
            make_diagnostic(file_, static_cast<std::uint32_t>(XML_GetCurrentLineNumber(parser_)),
                            static_cast<std::uint32_t>(XML_GetCurrentColumnNumber(parser_)) + 1, "",
                            fmt::format("not well-formed XML: {}", XML_ErrorString(XML_GetErrorCode(parser_)))));
      }
      if (last) break;
    }
    if (!saw_root_) throw ParseError(make_diagnostic(file_, 1, 1, "", "not a GraphML document: no <graphml> element"));
    if (!saw_graph_)
      throw ParseError(
          make_diagnostic(file_, root_.line, root_.column, "", "the GraphML document has no <graph> element"));
  }

  std::vector<RawNode> nodes;
  std::vector<RawEdge> edges;
  Pos root_, graph_;

 private:
  Pos here() const {
    return {static_cast<std::uint32_t>(XML_GetCurrentLineNumber(parser_)),
            static_cast<std::uint32_t>(XML_GetCurrentColumnNumber(parser_)) + 1};
  }
  void stop(Diagnostic d) {
    if (!problem_) problem_ = std::move(d);
    XML_StopParser(parser_, XML_FALSE);
  }
  static const char* attr(const XML_Char** attrs, std::string_view name) {
    for (std::size_t i = 0; attrs[i] != nullptr; i += 2)
      if (local_name(attrs[i]) == name) return attrs[i + 1];
    return nullptr;
  }
  static void doctype(void* self, const XML_Char*, const XML_Char*, const XML_Char*, int) {
    auto* r = static_cast<XmlReader*>(self);
    const Pos p = r->here();
    r->stop((make_diagnostic(r->file_, p.line, p.column, "",
                             "a DOCTYPE declaration: GraphML files have none (no entity is expanded)")));
  }
  static void start(void* self, const XML_Char* name, const XML_Char** attrs) {
    static_cast<XmlReader*>(self)->on_start(local_name(name), attrs);
  }
  static void end(void* self, const XML_Char* name) { static_cast<XmlReader*>(self)->on_end(local_name(name)); }
  static void text(void* self, const XML_Char* s, int len) {
    static_cast<XmlReader*>(self)->on_text(std::string_view(s, static_cast<std::size_t>(len)));
  }

  void on_start(std::string_view name, const XML_Char** attrs) {
    ++depth_;
    const Pos p = here();
    if (depth_ == 1) {
      if (name != "graphml")
        return stop((make_diagnostic(file_, p.line, p.column, "",
                                     fmt::format("not a GraphML document: the root element is <{}>", name),
                                     {"GraphWalker's GraphML files (yEd) start with <graphml>"})));
      saw_root_ = true;
      root_ = p;
      return;
    }
    if (name == "graph") {
      if (!saw_graph_) graph_ = p;
      saw_graph_ = true;
      if (!open_.empty() && open_.back().kind == Open::node) nodes[open_.back().index].group = true;
      return;
    }
    if (name == "node" || name == "edge") {
      const char* id = attr(attrs, "id");
      if (id == nullptr || *id == '\0')
        return stop((make_diagnostic(file_, p.line, p.column, "", fmt::format("the <{}> has no id attribute", name))));
      if (name == "node") {
        nodes.push_back({id, p, false, {}});
        open_.push_back({Open::node, nodes.size() - 1, depth_});
      } else {
        const char* source = attr(attrs, "source");
        const char* target = attr(attrs, "target");
        if (source == nullptr || target == nullptr)
          return stop((make_diagnostic(
              file_, p.line, p.column, xpath("edge", id),
              fmt::format("the edge '{}' has no {} attribute", id, source == nullptr ? "source" : "target"))));
        edges.push_back({id, source, target, p, {}});
        open_.push_back({Open::edge, edges.size() - 1, depth_});
      }
      return;
    }
    if ((name == "NodeLabel" || name == "EdgeLabel") && !open_.empty() && label_depth_ == 0 &&
        (open_.back().kind == Open::node) == (name == "NodeLabel"))
      label_depth_ = depth_;
  }

  void on_end(std::string_view name) {
    if (label_depth_ == depth_) {
      label_depth_ = 0;
      current().end = here();
    }
    if ((name == "node" || name == "edge") && !open_.empty() && open_.back().depth == depth_) open_.pop_back();
    --depth_;
  }

  Text& current() {
    const Open& o = open_.back();
    return o.kind == Open::node ? nodes[o.index].label : edges[o.index].label;
  }

  // Text directly inside a label (not inside its child elements), with each byte's place: a run of
  // characters stands where expat says it starts; an entity or a normalised line end (its raw bytes
  // differ from the text) puts every byte at its start.
  void on_text(std::string_view s) {
    if (label_depth_ == 0 || label_depth_ != depth_) return;
    Text& t = current();
    Pos p = here();
    const bool raw = static_cast<std::size_t>(XML_GetCurrentByteCount(parser_)) == s.size();
    for (char c : s) {
      t.s += c;
      t.at.push_back(p);
      if (!raw) continue;
      if (c == '\n') {
        ++p.line, p.column = 1;
      } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
        ++p.column;
      }
    }
  }

  struct Open {
    enum Kind { node, edge } kind;
    std::size_t index;
    int depth;
  };
  const std::string& file_;
  XML_Parser parser_;
  std::optional<Diagnostic> problem_;
  std::vector<Open> open_;
  int depth_ = 0, label_depth_ = 0;
  bool saw_root_ = false, saw_graph_ = false;
};

// The fields of a label, in GraphWalker's grammar. Each field's text is a [begin, end) of the label.
struct Span {
  std::size_t begin = 0, end = 0;
};
struct LabelFields {
  bool start = false, blocked = false;
  std::optional<Span> name, guard, actions, shared;
  std::vector<Span> requirements;
  std::optional<double> weight;
  std::optional<std::int64_t> dependency;
};

bool is_letter(unsigned char c) { return std::isalpha(c) || c == '_' || c == '$' || c >= 0x80; }
bool is_letter_or_digit(unsigned char c) { return is_letter(c) || std::isdigit(c); }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

class LabelParser {
 public:
  LabelParser(const Text& t, bool edge, const std::string& file, std::string pointer)
      : t_(t), s_(t.s), edge_(edge), file_(file), pointer_(std::move(pointer)) {}

  LabelFields parse() {
    LabelFields f;
    skip();
    // A vertex labelled Start (any case, alone) is where the walk starts.
    if (!edge_ && i_ < s_.size() && is_letter(u(i_))) {
      const std::size_t b = i_;
      std::size_t e = b;
      while (e < s_.size() && is_letter_or_digit(u(e))) ++e;
      if (lower(s_.substr(b, e - b)) == "start") {
        i_ = e;
        skip();
        if (i_ < s_.size())
          fail(i_, "the Start vertex's label has more than 'Start'",
               {"the vertex labelled Start only marks where the walk starts: it has no name, action or tag"});
        f.start = true;
        return f;
      }
    }
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '[') {
        if (!edge_) fail(i_, "a guard '[...]' on a vertex: guards belong to edges");
        once(f.guard.has_value(), "guard", i_);
        f.guard = guard();
      } else if (c == '/') {
        if (!edge_) fail(i_, "actions '/ ...;' on a vertex: a vertex's actions are written INIT: ...;");
        once(f.actions.has_value(), "actions '/'", i_);
        f.actions = actions(i_ + 1);
      } else if (is_letter(static_cast<unsigned char>(c))) {
        word(f);
      } else if (std::isdigit(static_cast<unsigned char>(c))) {
        const std::size_t b = i_;
        const std::string w = read_word();
        fail(b, fmt::format("'{}' is no name: a name starts with a letter, '_' or '$'", w));
      } else {
        fail(i_, fmt::format("unexpected '{}' in the {} label", char_at(i_), edge_ ? "edge" : "vertex"),
             {edge_ ? "an edge label is: name [guard] / action; action; and optionally weight=W, dependency=N, "
                      "REQTAG: tags, BLOCKED"
                    : "a vertex label is: name and optionally SHARED: NAME, INIT: action;, REQTAG: tags, BLOCKED"});
      }
      skip();
    }
    return f;
  }

 private:
  unsigned char u(std::size_t i) const { return static_cast<unsigned char>(s_[i]); }
  std::string char_at(std::size_t i) const {
    std::size_t e = i + 1;
    while (e < s_.size() && (u(e) & 0xC0) == 0x80) ++e;
    return s_.substr(i, e - i);
  }
  Pos pos(std::size_t i) const { return i < t_.at.size() ? t_.at[i] : t_.end; }

  [[noreturn]] void fail(std::size_t i, std::string message, std::vector<std::string> notes = {}) const {
    const Pos p = pos(i);
    throw ParseError(make_diagnostic(file_, p.line, p.column, pointer_, std::move(message), std::move(notes)));
  }
  void once(bool seen, const char* what, std::size_t at) const {
    if (seen) fail(at, fmt::format("a second {} in the label", what), {"each field of a label is written once"});
  }

  // Blanks: white space, /* comments */, and // comments to the end of the line after white space.
  void skip() {
    for (;;) {
      if (i_ < s_.size() && is_space(s_[i_])) {
        ++i_;
        if (s_.compare(i_, 2, "//") == 0) {
          while (i_ < s_.size() && s_[i_] != '\n') ++i_;
        }
      } else if (s_.compare(i_, 2, "/*") == 0) {
        const std::size_t e = s_.find("*/", i_ + 2);
        if (e == std::string::npos) fail(i_, "a comment '/*' that is never closed with '*/'");
        i_ = e + 2;
      } else {
        return;
      }
    }
  }
  void skip_space() {
    while (i_ < s_.size() && is_space(s_[i_])) ++i_;
  }

  Span guard() {
    const std::size_t open = i_;
    int depth = 0;
    for (; i_ < s_.size(); ++i_) {
      if (s_[i_] == '[') ++depth;
      if (s_[i_] == ']' && --depth == 0) {
        ++i_;
        return {open + 1, i_ - 1};
      }
    }
    fail(open, "a guard '[' with no matching ']'");
  }

  // Actions run to the label's last ';' (each action ends with one).
  Span actions(std::size_t from) {
    const std::size_t last = s_.rfind(';');
    if (last == std::string::npos || last < from)
      fail(i_, "actions with no ';': each action ends with ';' (/ x = 1; y = 2;)");
    i_ = last + 1;
    return {from, last + 1};
  }

  std::string read_word() {
    const std::size_t b = i_;
    while (i_ < s_.size() && is_letter_or_digit(u(i_))) ++i_;
    return s_.substr(b, i_ - b);
  }

  // A keyword or a name.
  void word(LabelFields& f) {
    const std::size_t b = i_;
    const std::string w = read_word();
    const std::string lw = lower(w);
    if (w == "BLOCKED") {
      once(f.blocked, "BLOCKED", b);
      f.blocked = true;
    } else if (w == "REQTAG") {
      once(!f.requirements.empty(), "REQTAG", b);
      separator(b, "REQTAG", true);
      requirements(f);
    } else if (!edge_ && w == "SHARED") {
      once(f.shared.has_value(), "SHARED", b);
      separator(b, "SHARED", false);
      const std::size_t nb = i_;
      if (i_ >= s_.size() || !is_letter(u(i_))) fail(i_, "SHARED: is followed by the shared state's name");
      read_word();
      f.shared = Span{nb, i_};
    } else if (!edge_ && w == "INIT") {
      once(f.actions.has_value(), "INIT", b);
      separator(b, "INIT", false);
      f.actions = actions(i_);
    } else if (edge_ && (lw == "weight" || lw == "dependency")) {
      skip_space();
      if (i_ >= s_.size() || s_[i_] != '=') fail(i_, fmt::format("'{}' is followed by '=' and a number", w));
      ++i_;
      skip_space();
      const std::size_t nb = i_;
      while (i_ < s_.size() && (std::isdigit(u(i_)) || s_[i_] == '.')) ++i_;
      const std::string num = s_.substr(nb, i_ - nb);
      if (lw == "weight") {
        once(f.weight.has_value(), "weight", b);
        // 0, 1, 0.25, .25: GraphWalker's numbers (no sign, no exponent).
        const std::size_t dot = num.find('.');
        const bool ok = !num.empty() && num.find('.', dot == std::string::npos ? 0 : dot + 1) == std::string::npos &&
                        num != "." && (dot == std::string::npos || dot + 1 < num.size()) &&
                        !(num.size() > 1 && num[0] == '0' && num[1] != '.');
        const double v = ok ? std::strtod(num.c_str(), nullptr) : -1;
        if (!ok || v < 0 || v > 1)
          fail(nb, fmt::format("'{}' is no weight: a weight is a number from 0 to 1 (the probability of taking the "
                               "edge)",
                               num.empty() ? char_at(std::min(nb, s_.size() - 1)) : num));
        f.weight = v;
      } else {
        once(f.dependency.has_value(), "dependency", b);
        const bool ok = !num.empty() && num.size() <= 3 && num.find('.') == std::string::npos;
        const std::int64_t v = ok ? std::stoll(num) : -1;
        if (!ok || v > 100)
          fail(nb, fmt::format("'{}' is no dependency: a dependency is an integer from 0 to 100",
                               num.empty() ? char_at(std::min(nb, s_.size() - 1)) : num));
        f.dependency = v;
      }
    } else if (lw == "start" || w == "INIT" || w == "SHARED") {
      fail(b, fmt::format("'{}' is a keyword of {} labels", w, edge_ ? "vertex" : "the Start vertex's"),
           {edge_ ? "an edge label is: name [guard] / action; and optionally weight=W, dependency=N, REQTAG: tags, "
                    "BLOCKED"
                  : "a vertex labelled Start has nothing else in its label"});
    } else {
      once(f.name.has_value(), "name", b);
      // Identifier(.Identifier)*, several joined by ';' as GraphWalker reads them.
      while (i_ + 1 < s_.size() && (s_[i_] == '.' || s_[i_] == ';') && is_letter(u(i_ + 1))) {
        ++i_;
        read_word();
      }
      f.name = Span{b, i_};
      if (i_ < s_.size() && (s_[i_] == '.' || s_[i_] == ';'))
        fail(i_, fmt::format("'{}' in a name is followed by a letter, '_' or '$'", s_[i_]));
      if (i_ < s_.size() && !is_space(s_[i_]) && s_[i_] != '[' && s_[i_] != '/')
        fail(i_, fmt::format("unexpected '{}' after the name '{}'", char_at(i_), s_.substr(b, i_ - b)));
    }
  }

  void separator(std::size_t keyword, const char* name, bool or_assign) {
    skip_space();
    if (i_ >= s_.size() || !(s_[i_] == ':' || (or_assign && s_[i_] == '=')))
      fail(i_ < s_.size() ? i_ : keyword, fmt::format("'{}' is followed by ':'{}", name, or_assign ? " or '='" : ""));
    ++i_;
    skip_space();
  }

  // REQTAG: a, b, c, to the end of the label.
  void requirements(LabelFields& f) {
    for (;;) {
      std::size_t b = i_;
      std::size_t e = s_.find(',', b);
      if (e == std::string::npos) e = s_.size();
      std::size_t tb = b, te = e;
      while (tb < te && is_space(s_[tb])) ++tb;
      while (te > tb && is_space(s_[te - 1])) --te;
      if (tb == te) fail(b, "an empty requirement tag in REQTAG:", {"REQTAG: tag, tag, ... (tags separated by ',')"});
      f.requirements.push_back({tb, te});
      i_ = e;
      if (e == s_.size()) return;
      ++i_;
    }
  }

  const Text& t_;
  const std::string& s_;
  bool edge_;
  const std::string& file_;
  std::string pointer_;
  std::size_t i_ = 0;
};

GwScript script_of(const Text& t, Span sp, const std::string& pointer) {
  GwScript s;
  s.text = t.s.substr(sp.begin, sp.end - sp.begin);
  const Pos first = sp.begin < t.at.size() ? t.at[sp.begin] : t.end;
  s.where = {first.line, first.column, pointer};
  for (std::size_t i = sp.begin; i < sp.end; ++i) {
    s.columns.push_back(t.at[i].column);
    s.lines.push_back(t.at[i].line);
  }
  const Pos after = sp.end < t.at.size() ? t.at[sp.end] : t.end;
  s.columns.push_back(after.column);
  s.lines.push_back(after.line);
  return s;
}

// The model's name: the file's base name (GraphWalker's), '.' and '#' made '_'.
std::string model_name(const std::string& file) {
  std::string base = file.substr(file.find_last_of('/') == std::string::npos ? 0 : file.find_last_of('/') + 1);
  if (const std::size_t dot = base.rfind('.'); dot != std::string::npos && dot > 0) base.resize(dot);
  for (char& c : base)
    if (c == '.' || c == '#') c = '_';
  if (base.empty() || base == "-") return "Model1";
  return base;
}

[[noreturn]] void graph_fail(const std::string& file, Pos p, const std::string& pointer, std::string message,
                             std::vector<std::string> notes = {}) {
  throw GraphError(make_diagnostic(file, p.line, p.column, pointer, std::move(message), std::move(notes)));
}

}  // namespace

GwDocument parse_graphwalker_graphml(std::string_view text, const std::string& file, GwStart start) {
  XmlReader xml(file);
  xml.read(text);

  GwDocument doc;
  doc.file = file;
  GwModel m;
  m.name = model_name(file);
  m.where = {xml.graph_.line, xml.graph_.column, "//graph"};

  std::unordered_map<std::string, std::size_t> node_of;  // id -> index in xml.nodes
  for (std::size_t i = 0; i < xml.nodes.size(); ++i) {
    const RawNode& n = xml.nodes[i];
    if (auto [it, fresh] = node_of.emplace(n.id, i); !fresh)
      graph_fail(file, n.where, xpath("node", n.id), fmt::format("the node id '{}' is used twice", n.id),
                 {fmt::format("first at line {}", xml.nodes[it->second].where.line)});
  }
  std::optional<std::size_t> start_node;
  std::unordered_map<std::string, std::uint32_t> vertex_of;  // node id -> vertex index
  std::vector<bool> blocked_node(xml.nodes.size(), false);
  for (std::size_t i = 0; i < xml.nodes.size(); ++i) {
    const RawNode& n = xml.nodes[i];
    if (n.group) continue;
    const std::string ptr = xpath("node", n.id);
    const LabelFields f = LabelParser(n.label, false, file, ptr).parse();
    if (f.start) {
      if (start_node)
        graph_fail(file, n.where, ptr, "a second vertex labelled Start",
                   {fmt::format("the first is node '{}'; a model starts at one place", xml.nodes[*start_node].id)});
      start_node = i;
      continue;
    }
    if (f.blocked) {  // left out, with its edges (GraphWalker's default, --blocked true)
      blocked_node[i] = true;
      continue;
    }
    GwVertex v;
    v.id = n.id;
    v.where = {n.where.line, n.where.column, ptr};
    if (f.name) v.name = n.label.s.substr(f.name->begin, f.name->end - f.name->begin);
    if (f.shared) v.shared_state = n.label.s.substr(f.shared->begin, f.shared->end - f.shared->begin);
    for (const Span& r : f.requirements) v.requirements.push_back(n.label.s.substr(r.begin, r.end - r.begin));
    // INIT: actions are the model's (GraphWalker adds them to the model's actions).
    if (f.actions) m.actions.push_back(script_of(n.label, *f.actions, ptr));
    vertex_of.emplace(n.id, static_cast<std::uint32_t>(m.vertices.size()));
    m.vertices.push_back(std::move(v));
  }
  std::optional<std::size_t> start_edge;
  std::unordered_map<std::string, std::size_t> edge_ids;
  for (std::size_t i = 0; i < xml.edges.size(); ++i) {
    const RawEdge& e = xml.edges[i];
    const std::string ptr = xpath("edge", e.id);
    if (auto [it, fresh] = edge_ids.emplace(e.id, i); !fresh)
      graph_fail(file, e.where, ptr, fmt::format("the edge id '{}' is used twice", e.id),
                 {fmt::format("first at line {}", xml.edges[it->second].where.line)});
    if (node_of.count(e.id))
      graph_fail(file, e.where, ptr, fmt::format("the id '{}' is both a node's and an edge's", e.id));
    for (const auto* end : {&e.source, &e.target}) {
      const char* which = end == &e.source ? "source" : "target";
      auto it = node_of.find(*end);
      if (it == node_of.end())
        graph_fail(file, e.where, ptr, fmt::format("the edge's {} '{}' is no node of the file", which, *end));
      if (xml.nodes[it->second].group)
        graph_fail(file, e.where, ptr, fmt::format("the edge's {} '{}' is a group node, not a vertex", which, *end),
                   {"connect the edge to a vertex inside the group"});
    }
    const LabelFields f = LabelParser(e.label, true, file, ptr).parse();
    const std::size_t s = node_of.at(e.source), t = node_of.at(e.target);
    if (start_node && t == *start_node)
      graph_fail(file, e.where, ptr, "an edge into the Start vertex",
                 {"the vertex labelled Start only marks where the walk starts: no edge leads to it"});
    if (f.blocked || blocked_node[s] || blocked_node[t]) continue;
    GwEdge ge;
    ge.id = e.id;
    ge.where = {e.where.line, e.where.column, ptr};
    if (f.name) ge.name = e.label.s.substr(f.name->begin, f.name->end - f.name->begin);
    if (start_node && s == *start_node) {
      if (start_edge)
        graph_fail(file, e.where, ptr, "a second edge from the Start vertex",
                   {fmt::format("the first is edge '{}'; the walk starts along one edge", xml.edges[*start_edge].id)});
      start_edge = i;
      m.start_kind = GwModel::StartKind::edge;
      m.start = static_cast<std::uint32_t>(m.edges.size());
    } else {
      ge.source = vertex_of.at(e.source);
    }
    ge.target = vertex_of.at(e.target);
    if (f.guard) {
      GwScript g = script_of(e.label, *f.guard, ptr);
      if (g.text.find_first_not_of(" \t\r\n") != std::string::npos) ge.guard = std::move(g);
    }
    if (f.actions) {
      GwScript a = script_of(e.label, *f.actions, ptr);
      if (a.text.find_first_not_of(" \t\r\n;") != std::string::npos) ge.actions.push_back(std::move(a));
    }
    ge.weight = f.weight;
    ge.dependency = f.dependency;
    for (const Span& r : f.requirements) ge.requirements.push_back(e.label.s.substr(r.begin, r.end - r.begin));
    m.edges.push_back(std::move(ge));
  }
  if (!start_node && start == GwStart::required)
    graph_fail(file, xml.graph_, "//graph", "no vertex is labelled Start",
               {"GraphWalker starts a GraphML model at the edge leaving the vertex labelled Start",
                "a model spread over several files: give them together (playtest validate A.graphml B.graphml)"});
  if (start_node) {
    const RawNode& sn = xml.nodes[*start_node];
    m.start_where = {sn.where.line, sn.where.column, xpath("node", sn.id)};
  }
  if (start_node && m.start_kind == GwModel::StartKind::none)
    graph_fail(file, xml.nodes[*start_node].where, xpath("node", xml.nodes[*start_node].id),
               "no edge leaves the Start vertex (or it leads to a BLOCKED element)",
               {"GraphWalker starts a GraphML model at the edge leaving the vertex labelled Start"});
  doc.models.push_back(std::move(m));
  return doc;
}

bool looks_like_graphml(std::string_view head) {
  std::size_t i = 0;
  if (head.substr(0, 3) == "\xEF\xBB\xBF") i = 3;
  while (i < head.size() && is_space(head[i])) ++i;
  return i < head.size() && head[i] == '<' && head.find("<graphml", i) != std::string_view::npos;
}

}  // namespace playtest
