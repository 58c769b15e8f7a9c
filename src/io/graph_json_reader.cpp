// graph/1 reader: nlohmann's SAX parser over a position-tracking character source, so that every
// error names file:line:column and the JSON pointer without ever building a DOM of the file.
#include <fmt/format.h>
#include <rapidjson/filereadstream.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <iterator>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "detail/json_positions.hpp"
#include "playtest/base/error.hpp"
#include "playtest/graph/graph_builder.hpp"
#include "playtest/io/graph_json.hpp"

namespace playtest {

namespace {

constexpr std::size_t max_string_bytes = 65536;
constexpr int max_meta_depth = 256;

// A character source (a file read in 1 MiB blocks, or text in memory) that tracks the line and
// column of the last character consumed and of the start of the last JSON value token.
class Source {
 public:
  explicit Source(std::FILE* f) : file_(f), storage_(std::make_unique<char[]>(block)), buf_(storage_.get()) {}
  explicit Source(std::string_view text) : buf_(text.data()), len_(text.size()) {}

  bool at_end() {
    if (pos_ < len_) return false;
    return !refill();
  }
  char peek() const { return buf_[pos_]; }
  void advance() {
    track(buf_[pos_]);
    ++pos_;
  }
  bool read_error() const { return read_error_; }
  // Whether anything but white space was read.
  bool saw_content() const { return content_; }

  std::uint32_t line() const { return positions_.line(); }
  std::uint32_t column() const { return positions_.column(); }
  std::uint32_t value_line() const { return positions_.value_line(); }
  std::uint32_t value_column() const { return positions_.value_column(); }
  std::uint64_t bytes() const { return consumed_ + pos_; }

 private:
  static constexpr std::size_t block = 1 << 20;

  bool refill() {
    if (!file_) return false;
    consumed_ += len_;
    len_ = std::fread(storage_.get(), 1, block, file_);
    pos_ = 0;
    if (len_ == 0 && std::ferror(file_)) read_error_ = true;
    return len_ > 0;
  }

  void track(char c) {
    if (!content_ && c != ' ' && c != '\t' && c != '\n' && c != '\r') content_ = true;
    positions_.take(c);
  }

  std::FILE* file_ = nullptr;
  std::unique_ptr<char[]> storage_;
  const char* buf_;
  std::size_t len_ = 0, pos_ = 0;
  std::uint64_t consumed_ = 0;
  bool read_error_ = false;
  bool content_ = false;
  detail::JsonPositions positions_;
};

using SourceIterator = detail::CharSourceIterator<Source>;

enum class Section : std::uint8_t { none, top, vertices, vertex, edges, edge, reset };

// Thrown by the fast pass at the first error it sees (see read()).
struct Relocate {};

// Thrown by the locating pass when it has found the element it looks for.
struct Found {
  std::uint32_t line, column;
};

// Vertices and edges read but not yet given to the builder, with their strings.
struct Span {
  std::uint32_t begin = 0, size = 0;
};
struct PendingVertex {
  Span id;
  VertexKind kind;
  bool goal;
  std::uint32_t timeout_ms = 0;
};
struct PendingEdge {
  Span from, to, label, id;
  double cost = 1.0;
  std::optional<double> prob, weight;
  bool has_id = false, timeout = false, observe = false;
  std::uint32_t delay_ms = 0;
};
struct Batch {
  static constexpr std::size_t capacity = 4096;  // vertices or edges (a batch holds one kind)
  std::vector<PendingVertex> vertices;
  std::vector<PendingEdge> edges;
  std::string chars;
  Span append(std::string_view s) {
    Span sp{static_cast<std::uint32_t>(chars.size()), static_cast<std::uint32_t>(s.size())};
    chars += s;
    return sp;
  }
  std::string_view view(Span sp) const { return std::string_view(chars).substr(sp.begin, sp.size); }
  bool empty() const { return vertices.empty() && edges.empty(); }
  void clear() {
    vertices.clear();
    edges.clear();
    chars.clear();
  }
};

// Hands batches to a GraphBuilder in the file's order; for large inputs on a second thread, so
// that the name lookups (hashing, probing a large index) overlap with parsing.
//
// Names of vertices are looked up in a hash index that is far larger than the caches for big
// graphs; looking them up one element at a time waits for one memory access each. A batch is
// applied by hashing every name first and then looking each up while prefetching the slot of the
// name a few places ahead, in the file's order (vertex ids, edge indexes and errors do not depend
// on the batching or the thread).
//
// Threading: the parser fills front(); flush() waits until the worker has finished the previous
// batch, swaps the two batches and wakes the worker. One batch is in flight at a time, so the
// builder sees the batches in order, and the parser never touches a batch the worker holds.
class Feed {
 public:
  Feed(GraphBuilder& b, bool threaded) : b_(b) {
    if (threaded) worker_ = std::thread([this] { work(); });
  }
  Feed(const Feed&) = delete;
  Feed& operator=(const Feed&) = delete;
  ~Feed() {
    if (!worker_.joinable()) return;
    {
      std::lock_guard lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    worker_.join();
  }

  Batch& front() { return front_; }

  void flush() {
    if (front_.empty()) return;
    if (!worker_.joinable()) {
      apply(front_);
      front_.clear();
      return;
    }
    std::unique_lock lock(m_);
    cv_.wait(lock, [&] { return !back_full_; });
    if (error_) std::rethrow_exception(error_);
    std::swap(front_, back_);
    back_full_ = true;
    lock.unlock();
    cv_.notify_all();
    front_.clear();  // the worker cleared it after applying; keeps the capacity
  }

  // The builder, once everything queued has been applied (for direct calls).
  GraphBuilder& builder() {
    flush();
    if (worker_.joinable()) {
      std::unique_lock lock(m_);
      cv_.wait(lock, [&] { return !back_full_; });
      if (error_) std::rethrow_exception(error_);
    }
    return b_;
  }

 private:
  void work() {
    std::unique_lock lock(m_);
    for (;;) {
      cv_.wait(lock, [&] { return back_full_ || stop_; });
      if (!back_full_) return;  // stopped with nothing to apply
      lock.unlock();
      try {
        apply(back_);
      } catch (...) {
        lock.lock();
        error_ = std::current_exception();
        back_full_ = false;
        lock.unlock();
        cv_.notify_all();
        lock.lock();
        continue;
      }
      back_.clear();
      lock.lock();
      back_full_ = false;
      cv_.notify_all();
    }
  }

  // Calls use(i, hash of name(i)) for i = 0..n-1 in order, prefetching the index slot of the
  // name prefetch_distance places ahead.
  template <class Name, class Use>
  void in_order_with_prefetch(std::size_t n, Name name, Use use) {
    for (std::size_t i = 0; i < n; ++i) hashes_[i] = StringPool::hash(name(i));
    for (std::size_t i = 0; i < std::min(n, prefetch_distance); ++i) b_.prefetch_vertex(hashes_[i]);
    for (std::size_t i = 0; i < n; ++i) {
      if (i + prefetch_distance < n) b_.prefetch_vertex(hashes_[i + prefetch_distance]);
      use(i, hashes_[i]);
    }
  }

  void apply(const Batch& q) {
    in_order_with_prefetch(
        q.vertices.size(), [&](std::size_t i) { return q.view(q.vertices[i].id); },
        [&](std::size_t i, std::uint32_t hash) {
          const PendingVertex& p = q.vertices[i];
          const VertexId v = b_.add_vertex(q.view(p.id), p.kind, p.goal, hash);
          if (p.timeout_ms != 0) b_.set_timeout_ms(v, p.timeout_ms);
        });
    in_order_with_prefetch(
        q.edges.size(), [&](std::size_t i) { return q.view(q.edges[i].to); },
        [&](std::size_t i, std::uint32_t hash) {
          const PendingEdge& p = q.edges[i];
          // Files list edges grouped by source more often than not: reuse the last lookup.
          const std::string_view from = q.view(p.from);
          if (last_from_.is_none() || from != last_from_name_) {
            last_from_ = b_.vertex_ref(from);
            last_from_name_ = from;
          }
          EdgeSpec e{.from = last_from_,
                     .to = b_.vertex_ref(q.view(p.to), hash),
                     .label = q.view(p.label),
                     .cost = p.cost,
                     .prob = p.prob,
                     .weight = p.weight,
                     .name = p.has_id ? std::optional<std::string_view>(q.view(p.id)) : std::nullopt,
                     .timeout = p.timeout,
                     .observe = p.observe,
                     .delay_ms = p.delay_ms};
          b_.add_edge(e);
        });
  }

  static constexpr std::size_t prefetch_distance = 16;
  GraphBuilder& b_;
  Batch front_, back_;
  std::uint32_t hashes_[Batch::capacity];
  std::string last_from_name_;
  VertexId last_from_;
  std::mutex m_;
  std::condition_variable cv_;
  bool back_full_ = false, stop_ = false;
  std::exception_ptr error_;
  std::thread worker_;  // last: started when everything else exists
};

class Handler : public nlohmann::json_sax<nlohmann::json> {
 public:
  // `src` gives positions for messages. Without it (the fast pass) the handler keeps no positions
  // and reports any error by throwing Relocate: the caller then reads the input again with a
  // position-tracking source to say where.
  // `feed` receives the vertices and edges (none: the locating pass, which only looks).
  Handler(Source* src, std::string file, Feed* feed, std::optional<ElementRef> target)
      : src_(src ? *src : no_source_), fast_(src == nullptr), file_(std::move(file)), feed_(feed), target_(target) {}

  // --- SAX callbacks -------------------------------------------------------------------------
  bool null() override { return scalar(Kind::null); }
  bool boolean(bool v) override {
    bool_ = v;
    return scalar(Kind::boolean);
  }
  bool number_integer(number_integer_t v) override {
    num_ = static_cast<double>(v);
    integral_ = true;
    return scalar(Kind::number);
  }
  bool number_unsigned(number_unsigned_t v) override {
    num_ = static_cast<double>(v);
    integral_ = true;
    return scalar(Kind::number);
  }
  bool number_float(number_float_t v, const string_t&) override {
    num_ = v;
    integral_ = std::isfinite(v) && v == std::floor(v);
    return scalar(Kind::number);
  }
  bool string(string_t& v) override { return text(v); }
  // Both passes deliver strings here (the fast pass without a std::string in between).
  bool text(std::string_view v) {
    str_ = v;
    return scalar(Kind::string);
  }
  bool binary(binary_t&) override { return scalar(Kind::null); }

  bool start_object(std::size_t) override {
    if (skip_ > 0) return meta_open(nlohmann::json::object()) && enter_skip();
    switch (section_) {
      case Section::none:
        section_ = Section::top;
        return true;
      case Section::vertices:
        begin_element(Section::vertex);
        return true;
      case Section::edges:
        begin_element(Section::edge);
        return true;
      default:
        break;
    }
    if (is_meta()) return meta_begin(nlohmann::json::object()) && enter_skip();
    if (section_ == Section::top && kbit_ == top_reset) {
      if (target_ && target_->kind == ElementRef::Kind::reset) throw Found{src_.value_line(), src_.value_column()};
      section_ = Section::reset;
      seen_ = 0;
      return true;
    }
    if (section_ == Section::top && (kbit_ == top_vertices || kbit_ == top_edges)) type_error("an array", "an object");
    type_error(expected_type(), "an object");
  }

  bool end_object() override {
    if (skip_ > 0) return meta_close() && leave_skip();
    key_.clear();  // errors found now concern the whole object
    kbit_ = 0;
    switch (section_) {
      case Section::vertex:
        finish_vertex();
        section_ = Section::vertices;
        ++index_;
        return true;
      case Section::edge:
        finish_edge();
        section_ = Section::edges;
        ++index_;
        return true;
      case Section::reset:
        section_ = Section::top;
        seen_ = top_seen_;
        return true;
      case Section::top:
        finish_top();
        section_ = Section::none;
        return true;
      default:
        return true;
    }
  }

  bool start_array(std::size_t) override {
    if (skip_ > 0) return meta_open(nlohmann::json::array()) && enter_skip();
    if (section_ == Section::none) fail_here("a graph/1 file must be a JSON object, not an array");
    if (is_meta()) return meta_begin(nlohmann::json::array()) && enter_skip();
    if (section_ == Section::top && (kbit_ == top_vertices || kbit_ == top_edges)) {
      section_ = kbit_ == top_vertices ? Section::vertices : Section::edges;
      top_seen_ = seen_;
      index_ = 0;
      return true;
    }
    if (section_ == Section::vertices || section_ == Section::edges)
      fail_here(fmt::format("each element of \"{}\" must be an object, got an array",
                            section_ == Section::vertices ? "vertices" : "edges"));
    type_error(expected_type(), "an array");
  }

  bool end_array() override {
    if (skip_ > 0) return meta_close() && leave_skip();
    if ((section_ == Section::edges || section_ == Section::vertices) && feed_) feed_->flush();
    if (section_ == Section::vertices || section_ == Section::edges) {
      section_ = Section::top;
      seen_ = top_seen_;
      key_.clear();
    }
    return true;
  }

  bool key(string_t& k) override { return key_text(k); }
  bool key_text(std::string_view k) {
    if (skip_ > 0) {
      if (!meta_stack_.empty()) meta_key_ = k;
      return true;
    }
    if (!fast_) key_ = k;  // for messages, which only the tracking pass writes
    const std::uint32_t bit = key_bit(k);
    kbit_ = bit;
    if (bit == 0) {
      fail_here(fmt::format("unknown key \"{}\" in {}; allowed: {} (put anything else inside \"meta\")", k,
                            section_name(), allowed_keys()));
    }
    if (seen_ & bit) fail_here(fmt::format("duplicate key \"{}\" in {}", k, section_name()));
    seen_ |= bit;
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& ex) override {
    std::string what = ex.what();
    // nlohmann: "[json.exception.parse_error.101] parse error at line 1, column 2: syntax error ..."
    std::string detail = what;
    if (auto colon = what.find(": ", what.find("parse error"));
        what.find("parse error") != std::string::npos && colon != std::string::npos)
      detail = what.substr(colon + 2);
    else if (auto bracket = what.find("] "); bracket != std::string::npos)
      detail = what.substr(bracket + 2);
    Diagnostic d;
    const bool eof = src_.at_end();
    d.where = {file_, src_.line(), eof ? src_.column() + 1 : std::max<std::uint32_t>(src_.column(), 1), ""};
    if (src_.read_error()) {
      d.message = fmt::format("read error: {}", std::strerror(errno));
    } else if (!src_.saw_content() && eof) {
      d.where.line = 1;
      d.where.column = 1;
      d.message = "the file is empty; expected a graph/1 JSON object";
    } else if (detail.find("number overflow") != std::string::npos) {
      d.where.line = src_.value_line();
      d.where.column = src_.value_column();
      d.where.pointer = pointer();
      d.message = "number out of range: " + detail.substr(detail.find("number overflow parsing ") == 0 ? 24 : 0);
    } else if (eof && detail.find("unexpected end of input") != std::string::npos) {
      d.message = "unexpected end of input: the file is truncated or a bracket is not closed";
      d.notes.push_back(detail);
    } else {
      d.message = "invalid JSON: " + detail;
    }
    throw ParseError(std::move(d));
  }

  std::string pointer() const {
    switch (section_) {
      case Section::top:
        return key_.empty() ? "" : "/" + escape(key_);
      case Section::vertices:
        return "/vertices";
      case Section::edges:
        return "/edges";
      case Section::vertex:
        return fmt::format("/vertices/{}{}", index_, key_.empty() ? "" : "/" + escape(key_));
      case Section::edge:
        return fmt::format("/edges/{}{}", index_, key_.empty() ? "" : "/" + escape(key_));
      case Section::reset:
        return "/reset" + (key_.empty() ? std::string() : "/" + escape(key_));
      default:
        return "";
    }
  }

 private:
  enum class Kind { null, boolean, number, string };

  static std::string escape(const std::string& k) {
    std::string out;
    for (char c : k) {
      if (c == '~')
        out += "~0";
      else if (c == '/')
        out += "~1";
      else
        out += c;
    }
    return out;
  }

  // Keys: one bit per allowed key of the current section.
  std::uint32_t key_bit(std::string_view k) const {
    // string_view comparisons check the length first: no strlen, rarely a memcmp.
    using sv = std::string_view;
    static constexpr sv top[] = {"playtest", "initial", "vertices", "edges", "reset", "meta"};
    static constexpr sv vertex[] = {"id", "kind", "goal", "meta", "timeout_ms"};
    static constexpr sv edge[] = {"id",     "from",    "to",   "label",   "cost",    "prob",
                                  "weight", "timeout", "meta", "observe", "delay_ms"};
    static constexpr sv reset[] = {"cost", "meta"};
    auto find = [&](const auto& keys) -> std::uint32_t {
      for (std::uint32_t i = 0; i < std::size(keys); ++i)
        if (k == keys[i]) return 1u << i;
      return 0;
    };
    switch (section_) {
      case Section::top:
        return find(top);
      case Section::vertex:
        return find(vertex);
      case Section::edge:
        return find(edge);
      case Section::reset:
        return find(reset);
      default:
        return 0;
    }
  }
  const char* allowed_keys() const {
    switch (section_) {
      case Section::top:
        return "playtest, initial, vertices, edges, reset, meta";
      case Section::vertex:
        return "id, kind, goal, timeout_ms, meta";
      case Section::edge:
        return "id, from, to, label, cost, prob, weight, timeout, observe, delay_ms, meta";
      case Section::reset:
        return "cost, meta";
      default:
        return "";
    }
  }
  std::string section_name() const {
    switch (section_) {
      case Section::top:
        return "the graph object";
      case Section::vertex:
      case Section::edge:
        return element_name();
      case Section::reset:
        return "\"reset\"";
      default:
        return "the file";
    }
  }
  // The vertex or edge being read, by its id once its "id" key was read (so messages name what the
  // user wrote), else by its place in the array.
  std::string element_name() const {
    const char* what = section_ == Section::vertex ? "vertex" : "edge";
    return id_.empty() ? fmt::format("{} #{}", what, index_) : fmt::format("{} '{}'", what, id_);
  }
  // An error in a field of the vertex or edge being read: "edge 'e3': ...".
  [[noreturn]] void fail_field(std::string message) const {
    if (section_ == Section::vertex || section_ == Section::edge) message = element_name() + ": " + message;
    fail_here(std::move(message));
  }

  const char* expected_type() const {
    if (key_ == "goal" || key_ == "timeout" || key_ == "observe") return "a boolean";
    if (key_ == "cost" || key_ == "prob" || key_ == "weight" || key_ == "timeout_ms" || key_ == "delay_ms")
      return "a number";
    if (key_ == "vertices" || key_ == "edges") return "an array";
    if (key_ == "reset") return "an object";
    return "a string";
  }

  [[noreturn]] void fail_at(std::uint32_t line, std::uint32_t col, std::string message) const {
    if (fast_) throw Relocate{};
    Diagnostic d;
    d.where = {file_, line, col, pointer()};
    d.message = std::move(message);
    throw ParseError(std::move(d));
  }
  [[noreturn]] void fail_here(std::string message) const {
    fail_at(src_.value_line(), src_.value_column(), std::move(message));
  }
  [[noreturn]] void type_error(const char* expected, const char* got) const {
    fail_field(fmt::format("\"{}\" must be {}, got {}", key_, expected, got));
  }

  bool enter_skip() {
    if (++skip_ > max_meta_depth) fail_here(fmt::format("nesting deeper than {} levels", max_meta_depth));
    return true;
  }
  bool leave_skip() {
    --skip_;
    return true;
  }

  // The top-level "meta" value is kept (as compact JSON text, TestGraph::meta_json); meta inside
  // vertices, edges and reset is skipped. meta_stack_ holds the open containers being filled.
  nlohmann::json scalar_json(Kind kind) const {
    switch (kind) {
      case Kind::null:
        return nullptr;
      case Kind::boolean:
        return bool_;
      case Kind::number:
        if (integral_ && std::abs(num_) < 9.0e15) return static_cast<std::int64_t>(num_);
        return num_;
      default:
        return std::string(str_);
    }
  }
  bool meta_begin(nlohmann::json value) {
    if (section_ != Section::top || !feed_) return true;  // only the top level's meta is kept
    meta_ = std::move(value);
    meta_stack_.assign(1, &meta_);
    return true;
  }
  bool meta_open(nlohmann::json value) {
    if (meta_stack_.empty()) return true;
    nlohmann::json& parent = *meta_stack_.back();
    nlohmann::json* child;
    if (parent.is_array()) {
      parent.push_back(std::move(value));
      child = &parent.back();
    } else {
      child = &(parent[meta_key_] = std::move(value));
    }
    meta_stack_.push_back(child);
    return true;
  }
  bool meta_close() {
    if (meta_stack_.empty()) return true;
    meta_stack_.pop_back();
    if (meta_stack_.empty())
      feed_->builder().set_meta_json(meta_.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    return true;
  }

  void begin_element(Section s) {
    if (target_ &&
        ((s == Section::vertex && target_->kind == ElementRef::Kind::vertex) ||
         (s == Section::edge && target_->kind == ElementRef::Kind::edge)) &&
        target_->index == index_)
      throw Found{src_.value_line(), src_.value_column()};
    section_ = s;
    seen_ = 0;
    key_.clear();
    kbit_ = 0;
    elem_line_ = src_.value_line();
    elem_col_ = src_.value_column();
    if (s == Section::vertex) {
      kind_ = VertexKind::active;
      goal_ = false;
      timeout_ms_ = 0;
      id_.clear();
    } else {
      id_.clear();
      cur_ = {};
      cost_ = 1.0;
      prob_.reset();
      weight_.reset();
      timeout_ = false;
      observe_ = false;
      delay_ms_ = 0;
    }
  }

  std::string_view take_string(const char* what) {
    if (str_.size() > max_string_bytes)
      fail_field(fmt::format("{} is {} bytes long; the limit is {}", what, str_.size(), max_string_bytes));
    return str_;
  }

  bool scalar(Kind kind) {
    if (skip_ > 0) return meta_open(scalar_json(kind)) && meta_close();
    const char* got = kind == Kind::null      ? "null"
                      : kind == Kind::boolean ? "a boolean"
                      : kind == Kind::number  ? "a number"
                                              : "a string";
    switch (section_) {
      case Section::none:
        fail_here(fmt::format("a graph/1 file must be a JSON object, got {}", got));
      case Section::vertices:
      case Section::edges:
        fail_here(fmt::format("each element of \"{}\" must be an object, got {}",
                              section_ == Section::vertices ? "vertices" : "edges", got));
      default:
        break;
    }
    if (is_meta()) return meta_begin(scalar_json(kind)) && meta_close();
    auto want = [&](Kind k) {
      if (kind != k) type_error(expected_type(), got);
    };
    if (section_ == Section::top) {
      if (kbit_ == top_playtest) {
        want(Kind::string);
        if (str_ != "graph/1")
          fail_here(fmt::format("unsupported format \"{}\"; this playtest reads \"graph/1\"", take_string("format")));
        format_seen_ = true;
      } else if (kbit_ == top_initial) {
        want(Kind::string);
        if (target_ && target_->kind == ElementRef::Kind::initial) throw Found{src_.value_line(), src_.value_column()};
        if (feed_) feed_->builder().set_initial(std::string_view(take_string("the initial vertex id")));
      } else {
        type_error(expected_type(), got);
      }
      return true;
    }
    if (section_ == Section::reset) {
      want(Kind::number);
      if (!std::isfinite(num_) || num_ < 0) fail_here(fmt::format("reset cost must be finite and >= 0, got {}", num_));
      if (feed_) feed_->builder().set_reset_cost(num_);
      return true;
    }
    if (section_ == Section::vertex) {
      if (kbit_ == v_id) {
        want(Kind::string);
        id_ = take_string("a vertex id");
        if (id_.empty()) fail_here("a vertex id must not be empty");
      } else if (kbit_ == v_kind) {
        want(Kind::string);
        if (str_ == "active")
          kind_ = VertexKind::active;
        else if (str_ == "passive")
          kind_ = VertexKind::passive;
        else
          fail_field(fmt::format("\"kind\" must be \"active\" or \"passive\", got \"{}\"", take_string("kind")));
      } else if (kbit_ == v_goal) {
        want(Kind::boolean);
        goal_ = bool_;
      } else if (kbit_ == v_timeout_ms) {
        want(Kind::number);
        timeout_ms_ = milliseconds("timeout_ms");
      }
      return true;
    }
    // Edge.
    if (kbit_ & (e_id | e_from | e_to | e_label)) {
      want(Kind::string);
      const std::string_view s = take_string(kbit_ == e_label ? "a label" : "an id");
      // Straight into the edge queue's buffer (the id also into id_, for messages).
      if (kbit_ == e_id) {
        if (s.empty()) fail_here("an edge id must not be empty");
        id_ = s;
        if (feed_) cur_.id = feed_->front().append(s);
      } else if (feed_) {
        (kbit_ == e_from ? cur_.from : kbit_ == e_to ? cur_.to : cur_.label) = feed_->front().append(s);
      }
    } else if (kbit_ == e_cost) {
      want(Kind::number);
      if (!std::isfinite(num_) || num_ < 0) fail_field(fmt::format("\"cost\" must be finite and >= 0, got {}", num_));
      cost_ = num_;
    } else if (kbit_ == e_prob) {
      want(Kind::number);
      if (!(num_ > 0 && num_ <= 1)) fail_field(fmt::format("\"prob\" must lie in (0, 1], got {}", num_));
      prob_ = num_;
    } else if (kbit_ == e_weight) {
      want(Kind::number);
      if (!(integral_ && num_ > 0 && num_ < 9007199254740992.0))
        fail_field(fmt::format("\"weight\" must be a positive integer, got {}", num_));
      weight_ = num_;
    } else if (kbit_ == e_timeout) {
      want(Kind::boolean);
      timeout_ = bool_;
    } else if (kbit_ == e_observe) {
      want(Kind::boolean);
      observe_ = bool_;
    } else if (kbit_ == e_delay_ms) {
      want(Kind::number);
      delay_ms_ = milliseconds("delay_ms");
    }
    return true;
  }

  // A duration: a positive integer number of milliseconds, below 2^31 (about 24 days).
  std::uint32_t milliseconds(const char* key) const {
    if (!(integral_ && num_ >= 1 && num_ <= 2147483647.0))
      fail_field(fmt::format("\"{}\" must be a positive integer number of milliseconds (at most 2147483647), got {}",
                             key, num_));
    return static_cast<std::uint32_t>(num_);
  }

  void finish_vertex() {
    if (id_.empty()) fail_at(elem_line_, elem_col_, fmt::format("vertex #{} has no \"id\"", index_));
    if (!feed_) return;
    Batch& q = feed_->front();
    q.vertices.push_back({q.append(id_), kind_, goal_, timeout_ms_});
    if (q.vertices.size() == Batch::capacity) feed_->flush();
  }

  void finish_edge() {
    auto name = [&] { return id_.empty() ? fmt::format("#{}", index_) : "'" + id_ + "'"; };
    if (!(seen_ & e_from)) fail_at(elem_line_, elem_col_, fmt::format("edge {} has no \"from\"", name()));
    if (!(seen_ & e_to)) fail_at(elem_line_, elem_col_, fmt::format("edge {} has no \"to\"", name()));
    if (prob_ && weight_)
      fail_at(elem_line_, elem_col_, fmt::format("edge {} has both \"prob\" and \"weight\"; give one", name()));
    if (!feed_) return;
    // Queue the edge; the feed hands the queue to the builder in order.
    cur_.cost = cost_;
    cur_.prob = prob_;
    cur_.weight = weight_;
    cur_.has_id = !id_.empty();
    cur_.timeout = timeout_;
    cur_.observe = observe_;
    cur_.delay_ms = delay_ms_;
    Batch& q = feed_->front();
    q.edges.push_back(cur_);
    if (q.edges.size() == Batch::capacity) feed_->flush();
  }

  void finish_top() {
    if (!format_seen_) fail_at(1, 1, "missing \"playtest\": \"graph/1\"; is this a playtest graph file?");
    if (!(seen_ & top_vertices)) fail_at(1, 1, "missing \"vertices\"");
  }

  inline static Source no_source_{std::string_view()};
  Source& src_;
  bool fast_;
  std::string file_;
  Feed* feed_;
  std::optional<ElementRef> target_;

  Section section_ = Section::none;
  std::uint32_t seen_ = 0, top_seen_ = 0;
  std::uint32_t index_ = 0;
  std::string key_;
  int skip_ = 0;
  bool format_seen_ = false;
  nlohmann::json meta_;
  std::vector<nlohmann::json*> meta_stack_;
  std::string meta_key_;
  std::uint32_t kbit_ = 0;  // key_bit() of key_

  // Key bits (positions in the tables of key_bit()).
  static constexpr std::uint32_t top_playtest = 1, top_initial = 2, top_vertices = 4, top_edges = 8, top_reset = 16,
                                 top_meta = 32;
  static constexpr std::uint32_t v_id = 1, v_kind = 2, v_goal = 4, v_meta = 8, v_timeout_ms = 16;
  static constexpr std::uint32_t e_id = 1, e_from = 2, e_to = 4, e_label = 8, e_cost = 16, e_prob = 32, e_weight = 64,
                                 e_timeout = 128, e_meta = 256, e_observe = 512, e_delay_ms = 1024;
  [[maybe_unused]] static constexpr std::uint32_t r_cost = 1, r_meta = 2;
  bool is_meta() const {
    switch (section_) {
      case Section::top:
        return kbit_ == top_meta;
      case Section::vertex:
        return kbit_ == v_meta;
      case Section::edge:
        return kbit_ == e_meta;
      case Section::reset:
        return kbit_ == r_meta;
      default:
        return false;
    }
  }

  // Scalar being delivered.
  bool bool_ = false;
  double num_ = 0;
  bool integral_ = false;
  std::string_view str_;

  // Element being read.
  std::uint32_t elem_line_ = 0, elem_col_ = 0;
  std::string id_;
  PendingEdge cur_;  // the edge being read (its strings are in the feed's front batch)
  VertexKind kind_ = VertexKind::active;
  bool goal_ = false, timeout_ = false, observe_ = false;
  std::uint32_t timeout_ms_ = 0, delay_ms_ = 0;
  double cost_ = 1.0;
  std::optional<double> prob_, weight_;
};

struct FileCloser {
  void operator()(std::FILE* f) const {
    if (f) std::fclose(f);
  }
};

// Where an element (the subject of a GraphBuilder error) stands in the input: a second pass.
SourceLocation locate(const std::string& file, std::string_view text, ElementRef ref) {
  std::unique_ptr<std::FILE, FileCloser> f;
  std::optional<Source> src;
  if (text.data() != nullptr) {
    src.emplace(text);
  } else {
    f.reset(std::fopen(file.c_str(), "rb"));
    if (!f) return {file, 0, 0, ""};
    src.emplace(f.get());
  }
  Handler h(&*src, file, nullptr, ref);
  std::string ptr;
  switch (ref.kind) {
    case ElementRef::Kind::vertex:
      ptr = fmt::format("/vertices/{}", ref.index);
      break;
    case ElementRef::Kind::edge:
      ptr = fmt::format("/edges/{}", ref.index);
      break;
    case ElementRef::Kind::initial:
      ptr = "/initial";
      break;
    case ElementRef::Kind::reset:
      ptr = "/reset";
      break;
    case ElementRef::Kind::graph:
      return {file, 1, 1, ""};
  }
  try {
    nlohmann::json::sax_parse(SourceIterator(&*src), SourceIterator(), &h);
  } catch (const Found& found) {
    return {file, found.line, found.column, ptr};
  } catch (const Error&) {
  }
  return {file, 1, 1, ""};  // not present (e.g. no "initial"): point at the graph object
}

// Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
bool valid_utf8(const unsigned char* p, std::size_t n) {
  std::size_t i = 0;
  while (i < n) {
    const unsigned c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len = 0;
    std::uint32_t cp = 0, min = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2, cp = c & 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3, cp = c & 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4, cp = c & 0x07, min = 0x10000;
    } else {
      return false;
    }
    if (n - i < len) return false;
    for (std::size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

// The fast pass: RapidJSON's SAX reader (several times faster than nlohmann's lexer) feeding the
// same Handler. It keeps no positions; at the first problem of any kind (invalid JSON, a value
// the handler rejects, a number RapidJSON and nlohmann might read differently) it gives up, and
// read() runs the nlohmann pass, whose verdict and message stand. So the fast pass decides only
// inputs that it accepts, and it accepts only JSON that nlohmann accepts with the same values.
class FastAdapter : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, FastAdapter> {
 public:
  explicit FastAdapter(Handler& h) : h_(h) {}

  bool Null() { return h_.null(); }
  bool Bool(bool b) { return h_.boolean(b); }
  bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
    const char* end = s + n;
    bool integer = true;
    for (const char* p = s; p != end; ++p) integer &= *p != '.' && *p != 'e' && *p != 'E';
    if (integer) {
      // An integer, as nlohmann classifies it: signed when negative, else unsigned; beyond 64
      // bits nlohmann reads it as a double.
      if (*s == '-') {
        std::int64_t v = 0;
        if (auto r = std::from_chars(s, end, v); r.ec == std::errc() && r.ptr == end) return h_.number_integer(v);
      } else {
        std::uint64_t v = 0;
        if (auto r = std::from_chars(s, end, v); r.ec == std::errc() && r.ptr == end) return h_.number_unsigned(v);
      }
    }
    double d = 0;
    auto r = std::from_chars(s, end, d);  // correctly rounded, as nlohmann's strtod
    // Out of range (overflow, or an underflow that nlohmann may read as a subnormal): let the
    // nlohmann pass decide.
    if (r.ec != std::errc() || r.ptr != end || !std::isfinite(d)) throw Relocate{};
    text_.assign(s, n);
    return h_.number_float(d, text_);
  }
  bool String(const char* s, rapidjson::SizeType n, bool) { return h_.text(checked(s, n)); }
  bool Key(const char* s, rapidjson::SizeType n, bool) { return h_.key_text(checked(s, n)); }
  bool StartObject() { return h_.start_object(static_cast<std::size_t>(-1)); }
  bool EndObject(rapidjson::SizeType) { return h_.end_object(); }
  bool StartArray() { return h_.start_array(static_cast<std::size_t>(-1)); }
  bool EndArray(rapidjson::SizeType) { return h_.end_array(); }

 private:
  static std::string_view checked(const char* s, rapidjson::SizeType n) {
    // RapidJSON runs without its UTF-8 validation (a large part of its time): names and labels
    // are nearly always ASCII, so a string is checked here only when it has other bytes. Any
    // invalid sequence sends the input to the nlohmann pass, which rejects it with a location.
    // This also catches the one escape RapidJSON accepts and nlohmann does not: an unpaired low
    // surrogate (\uDC00), which RapidJSON encodes as ED B0 80. Bytes outside strings are JSON
    // syntax, checked by RapidJSON.
    unsigned char any = 0;
    for (rapidjson::SizeType i = 0; i < n; ++i) any |= static_cast<unsigned char>(s[i]);
    if ((any & 0x80) && !valid_utf8(reinterpret_cast<const unsigned char*>(s), n)) throw Relocate{};
    return {s, n};
  }

  Handler& h_;
  std::string text_;
};

// Recursive parsing (faster than RapidJSON's iterative mode) is safe: the handler rejects any
// nesting the format does not have at its first level, and nesting inside "meta" beyond
// max_meta_depth, so the recursion depth stays below max_meta_depth + 4.
constexpr unsigned fast_flags = rapidjson::kParseNumbersAsStringsFlag;

constexpr std::uint64_t threaded_input_bytes = 256 << 10;

// The fast pass; nullopt when it gave up.
template <class Stream>
std::optional<GraphBuilder> fast_read(Stream& in, const std::string& file, std::uint64_t input_bytes) {
  GraphBuilder b;
  // Capacity for as many edges as the input could hold at most (the shortest edge object has 21
  // bytes): the builder's edge arrays then never move while they grow. Only address space is
  // reserved; pages are touched as edges arrive, and build() copies the edges into exact-size
  // arrays. (Vertex names are not reserved: their pool moves into the graph as it is.)
  try {
    b.reserve(0, std::min<std::uint64_t>(input_bytes / 22, std::uint64_t{1} << 28));
  } catch (const std::bad_alloc&) {
  }
  {
    // A second thread for the builder's side pays off only on inputs of some size.
    Feed feed(b, input_bytes >= threaded_input_bytes && std::thread::hardware_concurrency() > 1);
    Handler h(nullptr, file, &feed, std::nullopt);
    FastAdapter adapter(h);
    rapidjson::Reader reader;
    try {
      if (reader.Parse<fast_flags>(in, adapter).IsError()) return std::nullopt;
      feed.builder();  // everything applied
    } catch (const Relocate&) {
      return std::nullopt;
    }
  }  // the worker has stopped
  return b;
}

// The nlohmann pass: tracks positions, reports every error with file:line:column.
GraphBuilder located_read(Source& src, const std::string& file) {
  GraphBuilder b;
  Feed feed(b, false);
  Handler h(&src, file, &feed, std::nullopt);
  nlohmann::json::sax_parse(SourceIterator(&src), SourceIterator(), &h);
  feed.builder();
  if (src.read_error())
    throw InputError(Diagnostic{{file, 0, 0, ""}, fmt::format("read error: {}", std::strerror(errno)), {}});
  return b;
}

TestGraph read(const std::string& file, std::string_view text, std::FILE* f, bool fast = true) {
  std::optional<GraphBuilder> b;
  if (!fast) {
  } else if (f) {
    char buffer[1 << 16];
    rapidjson::FileReadStream in(f, buffer, sizeof buffer);
    struct stat st {};
    const std::uint64_t size =
        fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
    b = fast_read(in, file, size);
    if (!b || std::ferror(f)) {
      b.reset();
      if (std::fseek(f, 0, SEEK_SET) != 0)
        throw InputError(Diagnostic{{file, 0, 0, ""},
                                    "the file is not valid graph/1, and it cannot be read a second time (not seekable) "
                                    "to say where; copy it to a regular file and try again",
                                    {}});
      std::clearerr(f);
    }
  } else {
    rapidjson::MemoryStream in(text.data(), text.size());
    b = fast_read(in, file, text.size());
  }
  if (!b) {
    std::optional<Source> src;
    if (f)
      src.emplace(f);
    else
      src.emplace(text);
    b.emplace(located_read(*src, file));
  }
  BuildOptions opts;
  opts.locate = [&](ElementRef ref) { return locate(file, f ? std::string_view() : text, ref); };
  return b->build(opts);
}

}  // namespace

TestGraph parse_graph(std::string_view text, const std::string& source_name) {
  // A non-null data pointer marks "in memory" for the locating pass.
  static const char empty = 0;
  if (text.data() == nullptr) text = std::string_view(&empty, 0);
  return read(source_name, text, nullptr);
}

TestGraph detail::parse_graph_tracking_only(std::string_view text, const std::string& source_name) {
  static const char empty = 0;
  if (text.data() == nullptr) text = std::string_view(&empty, 0);
  return read(source_name, text, nullptr, false);
}

TestGraph load_graph(const std::string& path) {
  if (path == "-") {
    std::string text{std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()};
    return parse_graph(text, "-");
  }
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (!f) throw InputError(Diagnostic{{path, 0, 0, ""}, fmt::format("cannot open: {}", std::strerror(errno)), {}});
  return read(path, {}, f.get());
}

}  // namespace playtest
