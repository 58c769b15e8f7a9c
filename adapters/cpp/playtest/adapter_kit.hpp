// The playtest adapter kit for C++ (one header, C++17, POSIX; no dependency beyond the standard
// library and the POSIX socket API). An adapter translates playtest's lines
// (docs/adapter-protocol.md) into calls of the system under test; this header implements the
// protocol, so that an adapter only says what a stimulus does and which outputs the system produces:
//
//  * `ready` after the start and after `reset`, `ack` once a stimulus is applied, `refused` when
//    the handler throws Refused, `error` when it throws anything else (a std::exception, a string,
//    anything) or calls exit(): every way out of a handler but a return or Refused ends with
//    `error` and on_stop();
//  * `done` when the outputs of a stimulus are complete: done() says so, done_after(ms) (or
//    set_settle(ms) for every stimulus) says it after a settle time, for stimuli whose answer is a
//    message or nothing;
//  * outputs raised while a stimulus is being applied (by the handler or any other thread) are held
//    back and written right after its `ack`, in the order they were raised; at any other time they
//    are written at once; every line is written whole and flushed;
//  * LineConnection gives each connection to the system a reader thread of its own that hands
//    replies to the request waiting for them and everything else to a callback (no thread ever
//    waits for another to read: the deadlock of the hand-written adapter);
//  * labels are formatted and parsed as the modelling language writes them (docs/language.md):
//    Name, Name(1, "a", (2, true), [x]); strings in double quotes with \" and \\; ", " between
//    arguments; outputs get their '?';
//  * param() reads the model's parameters, which `playtest run` passes in the adapter's
//    environment as PLAYTEST_PARAM_<NAME>.
//
// Installed as PREFIX/include/playtest/adapter_kit.hpp (the .deb: /usr/include/playtest/), with the
// CMake target playtest::adapter_kit (find_package(playtest)); playtest's own build includes it
// from adapters/cpp by the same name.
//
//   #include "playtest/adapter_kit.hpp"
//   namespace pa = playtest_adapter;
//   struct Echo : pa::Adapter {
//     void on_stimulus(const pa::Label& s) override {
//       if (s.name != "ping") throw pa::Refused();
//       output("pong");  // written after the ack
//     }
//   };
//   int main() { return Echo().run(); }
#ifndef PLAYTEST_ADAPTER_HPP
#define PLAYTEST_ADAPTER_HPP

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#if __has_include(<cxxabi.h>)
#include <cxxabi.h>
#endif

#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <iostream>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <typeinfo>
#include <utility>
#include <vector>

namespace playtest_adapter {

// Thrown by Adapter::on_stimulus: the system does not accept this stimulus now (`refused`).
struct Refused : std::runtime_error {
  Refused() : std::runtime_error("refused") {}
};

// ---------------------------------------------------------------------------------------- values

// A value of a label: an integer, a boolean, a string, a bare name (an enum member), a tuple, a
// sequence, a set (elements in the model's order) or a map.
class Value {
 public:
  enum class Kind { integer, boolean, string, name, tuple, sequence, set, map };

  Value(long long v) : kind_(Kind::integer), int_(v) {}               // NOLINT: implicit on purpose
  Value(int v) : Value(static_cast<long long>(v)) {}                  // NOLINT
  Value(long v) : Value(static_cast<long long>(v)) {}                 // NOLINT
  Value(unsigned v) : Value(static_cast<long long>(v)) {}             // NOLINT
  Value(unsigned long v) : Value(static_cast<long long>(v)) {}        // NOLINT
  Value(unsigned long long v) : Value(static_cast<long long>(v)) {}   // NOLINT
  Value(bool v) : kind_(Kind::boolean), bool_(v) {}                   // NOLINT
  Value(std::string v) : kind_(Kind::string), text_(std::move(v)) {}  // NOLINT
  Value(const char* v) : Value(std::string(v)) {}                     // NOLINT
  static Value name(std::string n) { return Value(Kind::name, std::move(n)); }
  static Value tuple(std::vector<Value> items) { return Value(Kind::tuple, std::move(items)); }
  static Value sequence(std::vector<Value> items) { return Value(Kind::sequence, std::move(items)); }
  static Value set(std::vector<Value> items) { return Value(Kind::set, std::move(items)); }
  static Value map(std::vector<std::pair<Value, Value>> entries) {
    Value v(Kind::map, std::vector<Value>{});
    for (auto& [k, x] : entries) v.items_.push_back(std::move(k)), v.items_.push_back(std::move(x));
    return v;
  }

  Kind kind() const { return kind_; }
  long long integer() const { return check(Kind::integer), int_; }
  bool boolean() const { return check(Kind::boolean), bool_; }
  // The text of a string or of a name.
  const std::string& text() const {
    if (kind_ != Kind::string && kind_ != Kind::name) throw std::logic_error("label value: not a string or a name");
    return text_;
  }
  // Elements of a tuple, a sequence or a set; keys and values alternating for a map.
  const std::vector<Value>& items() const { return items_; }

  // As the modelling language writes it.
  std::string format() const {
    switch (kind_) {
      case Kind::integer:
        return std::to_string(int_);
      case Kind::boolean:
        return bool_ ? "true" : "false";
      case Kind::name:
        return text_;
      case Kind::string: {
        std::string s = "\"";
        for (char c : text_) {
          if (c == '"' || c == '\\') s += '\\';
          s += c;
        }
        return s + '"';
      }
      case Kind::tuple:
        return "(" + join(", ") + ")";
      case Kind::sequence:
        return "[" + join(", ") + "]";
      case Kind::set:
        return "{" + join(", ") + "}";
      case Kind::map: {
        std::string s = "{";
        for (std::size_t i = 0; i + 1 < items_.size(); i += 2)
          s += (i ? ", " : "") + items_[i].format() + " -> " + items_[i + 1].format();
        return s + "}";
      }
    }
    return "?";
  }
  bool operator==(const Value& o) const {
    return kind_ == o.kind_ && int_ == o.int_ && bool_ == o.bool_ && text_ == o.text_ && items_ == o.items_;
  }
  bool operator!=(const Value& o) const { return !(*this == o); }

 private:
  Value(Kind k, std::string t) : kind_(k), text_(std::move(t)) {}
  Value(Kind k, std::vector<Value> items) : kind_(k), items_(std::move(items)) {}
  void check(Kind k) const {
    if (kind_ != k) throw std::logic_error("label value: not of the kind asked for");
  }
  std::string join(const char* sep) const {
    std::string s;
    for (std::size_t i = 0; i < items_.size(); ++i) s += (i ? sep : "") + items_[i].format();
    return s;
  }
  Kind kind_;
  long long int_ = 0;
  bool bool_ = false;
  std::string text_;
  std::vector<Value> items_;
};

// A label: its name (an output's with its '?') and its arguments.
struct Label {
  std::string name;
  std::vector<Value> args;
  std::string format() const {
    if (args.empty()) return name;
    std::string s = name + "(";
    for (std::size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i].format();
    return s + ")";
  }
};

inline std::string format_label(const std::string& name, const std::vector<Value>& args = {}) {
  return Label{name, args}.format();
}

namespace detail {

class Reader {
 public:
  explicit Reader(const std::string& t, std::size_t i) : t_(t), i_(i) {}
  std::size_t pos() const { return i_; }
  [[noreturn]] void fail(const std::string& what) const { fail_at(what, i_); }
  [[noreturn]] void fail_at(const std::string& what, std::size_t at) const {
    throw std::invalid_argument("bad label '" + t_ + "' at column " + std::to_string(at + 1) + ": " + what);
  }
  char peek() const { return i_ < t_.size() ? t_[i_] : '\0'; }
  void blanks() {
    while (peek() == ' ') ++i_;
  }
  void expect(const std::string& s) {
    if (t_.compare(i_, s.size(), s) != 0) fail("expected '" + s + "'");
    i_ += s.size();
  }
  std::vector<Value> items(char close) {
    std::vector<Value> out;
    blanks();
    if (peek() == close) {
      ++i_;
      return out;
    }
    for (;;) {
      out.push_back(value());
      blanks();
      if (peek() == close) {
        ++i_;
        return out;
      }
      expect(",");
    }
  }
  Value value() {
    blanks();
    const char c = peek();
    if (c == '"') {
      const std::size_t start = i_;
      std::string s;
      for (++i_;; ++i_) {
        if (i_ >= t_.size()) fail_at("unterminated string", start);
        const char d = t_[i_];
        if (d == '"') {
          ++i_;
          return Value(std::move(s));
        }
        if (d == '\\') {
          if (i_ + 1 >= t_.size() || (t_[i_ + 1] != '"' && t_[i_ + 1] != '\\')) fail("unknown escape");
          ++i_;
        }
        s += t_[i_];
      }
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t j = i_ + 1;
      while (j < t_.size() && t_[j] >= '0' && t_[j] <= '9') ++j;
      const std::string digits = t_.substr(i_, j - i_);
      if (digits == "-") fail("expected a number");
      errno = 0;
      char* end = nullptr;
      const long long v = std::strtoll(digits.c_str(), &end, 10);
      if (errno == ERANGE) fail("number out of range");
      i_ = j;
      return Value(v);
    }
    if (c == '(') return ++i_, Value::tuple(items(')'));
    if (c == '[') return ++i_, Value::sequence(items(']'));
    if (c == '{') {
      ++i_;
      blanks();
      if (peek() == '}') return ++i_, Value::set({});
      Value first = value();
      blanks();
      if (t_.compare(i_, 2, "->") == 0) {
        i_ += 2;
        std::vector<std::pair<Value, Value>> entries;
        entries.emplace_back(std::move(first), value());
        blanks();
        while (peek() == ',') {
          ++i_;
          Value k = value();
          blanks();
          expect("->");
          entries.emplace_back(std::move(k), value());
          blanks();
        }
        expect("}");
        return Value::map(std::move(entries));
      }
      std::vector<Value> rest{std::move(first)};
      while (peek() == ',') {
        ++i_;
        rest.push_back(value());
        blanks();
      }
      expect("}");
      return Value::set(std::move(rest));
    }
    std::size_t j = i_;
    while (j < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[j])) || t_[j] == '_' || t_[j] == '#')) ++j;
    if (j == i_) fail("expected a value");
    std::string word = t_.substr(i_, j - i_);
    i_ = j;
    if (word == "true") return Value(true);
    if (word == "false") return Value(false);
    return Value::name(std::move(word));
  }

 private:
  const std::string& t_;
  std::size_t i_;
};

}  // namespace detail

// Parses a label as the language writes it; throws std::invalid_argument when it is malformed.
inline Label parse_label(const std::string& text) {
  const std::size_t open = text.find('(');
  if (open == std::string::npos) return Label{text, {}};
  detail::Reader r(text, open + 1);
  Label l{text.substr(0, open), r.items(')')};
  if (r.pos() != text.size()) r.fail("text after the closing ')'");
  return l;
}

// The model parameter `name` (PLAYTEST_PARAM_<name> in the environment), or `fallback`.
inline std::string param(const std::string& name, const std::string& fallback = "") {
  const char* v = std::getenv(("PLAYTEST_PARAM_" + name).c_str());
  return v ? std::string(v) : fallback;
}
inline long long param_int(const std::string& name, long long fallback) {
  const char* v = std::getenv(("PLAYTEST_PARAM_" + name).c_str());
  if (!v) return fallback;
  char* end = nullptr;
  errno = 0;
  const long long x = std::strtoll(v, &end, 10);
  if (errno != 0 || end == v || *end != '\0')
    throw std::invalid_argument("PLAYTEST_PARAM_" + name + "=" + v + " is not an integer");
  return x;
}

// ---------------------------------------------------------------------------------------- protocol

// Derive, override on_stimulus (and on_start, on_reset, on_stop as needed), call run().
class Adapter {
 public:
  Adapter() = default;
  Adapter(const Adapter&) = delete;
  Adapter& operator=(const Adapter&) = delete;
  virtual ~Adapter() { end_settle(); }

  // Bring the system to its initial state (connect, start it). Called before `ready`.
  virtual void on_start() {}
  // Apply the stimulus; return once it is applied (the `ack` follows). Throw Refused when the
  // system does not take it now; any other exception ends the run with `error`.
  virtual void on_stimulus(const Label& stimulus) = 0;
  // Back to the initial state: by default on_stop() then on_start().
  virtual void on_reset() {
    on_stop();
    on_start();
  }
  // The run is over: release the system.
  virtual void on_stop() {}

  // The system produced the output ?name(args) (`name` without '?'). Any thread.
  void output(const std::string& name, const std::vector<Value>& args = {}) {
    output_label("?" + format_label(name, args));
  }
  // The output as the model writes it (with its '?'). Any thread.
  void output_label(const std::string& label) { emit("output " + label, true); }
  // The system is quiescent: playtest takes the timeout now instead of waiting. Any thread.
  void quiet() { emit("quiet", true); }
  // A '#' line, ignored by playtest. Any thread.
  void comment(const std::string& text) { emit("# " + one_line(text), false); }
  // The outputs of the last stimulus are complete: nothing more comes from it (`done`). Raised
  // during the stimulus, it is written after the `ack` and the outputs held back. Any thread.
  void done() {
    std::lock_guard<std::mutex> lock(m_);
    done_locked(stimuli_);
  }
  // `done` `settle` after the `ack` of the current (or last) stimulus, unless another stimulus
  // began meanwhile: for a stimulus whose answer may be a message or nothing, the time within which
  // the system sends it. Outputs raised meanwhile are written at once. Any thread.
  void done_after(std::chrono::milliseconds settle) {
    std::lock_guard<std::mutex> lock(m_);
    if (applying_)
      settle_for_ = settle;
    else
      start_settle(stimuli_, settle);
  }
  // Every stimulus whose handler does not call done() or done_after() gets `done` `settle` after
  // its `ack` (a negative value: none, the default).
  void set_settle(std::chrono::milliseconds settle) {
    std::lock_guard<std::mutex> lock(m_);
    settle_default_ = settle;
  }
  // The adapter cannot go on: writes `error MESSAGE` and ends the process. Any thread.
  [[noreturn]] void fail(const std::string& message) {
    {
      std::lock_guard<std::mutex> lock(m_);
      write("error " + one_line(message));
    }
    if (std::this_thread::get_id() == run_thread_ || run_thread_ == std::thread::id()) {
      stop_once();
    } else {
      // From a thread of the adapter's own (a connection's reader): on_stop() may join this very
      // thread (a destructor that stops its reader), which would abort the process from within
      // join(). It runs on a thread of its own, given a second; the process ends either way.
      std::atomic<bool> stopped{false};
      std::thread([this, &stopped] {
        stop_once();
        stopped = true;
      }).detach();
      for (int i = 0; i < 100 && !stopped; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    std::fflush(stdout);
    std::_Exit(1);  // reader threads and the stdin loop may be blocked: end them all
  }

  // Speaks the protocol on standard input and output until `end` or end of file, then calls
  // on_stop(); returns the exit status for main() (1 after an error).
  int run() {
    running() = this;
    run_thread_ = std::this_thread::get_id();
    static const bool hooked = std::atexit(exit_hook) == 0;  // exit() in a handler: `error`, on_stop()
    (void)hooked;
    bool failed = true;
    std::string error;
    try {
      on_start();
      line("ready");
      std::string l;
      while (std::getline(std::cin, l)) {
        if (!l.empty() && l.back() == '\r') l.pop_back();
        if (l.empty() || l[0] == '#') continue;
        if (l == "end") break;
        if (l == "reset") {
          {
            std::lock_guard<std::mutex> lock(m_);
            ++stimuli_;  // a pending done_after belongs to the past
          }
          on_reset();
          line("ready");
        } else if (l.compare(0, 9, "stimulus ") == 0) {
          stimulus(l.substr(9));
        } else {
          throw std::runtime_error("cannot handle the line '" + l + "'");
        }
      }
      failed = false;
    } catch (const std::exception& e) {
      error = e.what();
    } catch (const char* e) {
      error = e ? e : "a null string was thrown";
    } catch (const std::string& e) {
      error = e;
    } catch (...) {
      error = "an exception that is not a std::exception was thrown" + thrown_type();
    }
    if (failed) {
      std::lock_guard<std::mutex> lock(m_);
      write("error " + one_line(error.empty() ? "an exception with an empty message was thrown" : error));
    }
    stop_once();
    running() = nullptr;
    return failed ? 1 : 0;
  }

 private:
  static std::string one_line(const std::string& s) {
    std::string out;
    for (char c : s) out += (c == '\n' || c == '\r') ? ' ' : c;
    return out;
  }
  // " (of type T)" for the exception being handled, when the C++ runtime can tell.
  static std::string thrown_type() {
#if __has_include(<cxxabi.h>) && defined(__GLIBCXX__)
    if (const std::type_info* t = abi::__cxa_current_exception_type()) {
      int st = 0;
      char* name = abi::__cxa_demangle(t->name(), nullptr, nullptr, &st);
      std::string out = " (of type " + std::string(st == 0 && name ? name : t->name()) + ")";
      std::free(name);
      return out;
    }
#endif
    return "";
  }
  static Adapter*& running() {
    static Adapter* a = nullptr;
    return a;
  }
  static void exit_hook() {  // exit() while run() runs: a handler (or a thread) ended the process
    Adapter* a = running();
    if (!a) return;
    running() = nullptr;
    {
      std::lock_guard<std::mutex> lock(a->m_);
      if (a->stopped_) return;
      write("error the adapter called exit() while it was running");
    }
    a->stop_once();
  }
  void stimulus(const std::string& text) {
    const Label l = parse_label(text);
    {
      std::lock_guard<std::mutex> lock(m_);
      applying_ = true;
      ++stimuli_;
      settle_for_ = settle_default_;
    }
    try {
      on_stimulus(l);
    } catch (const Refused&) {
      std::lock_guard<std::mutex> lock(m_);
      write("refused");
      std::vector<std::string> kept;
      for (std::string& h : held_)
        if (h != "done") kept.push_back(std::move(h));  // nothing to complete
      held_ = std::move(kept);
      settle_for_ = std::chrono::milliseconds(-1);
      release();
      return;
    } catch (...) {
      std::lock_guard<std::mutex> lock(m_);
      applying_ = false;
      held_.clear();
      throw;
    }
    std::lock_guard<std::mutex> lock(m_);
    write("ack");
    release();
    if (settle_for_.count() >= 0 && done_for_ != stimuli_) start_settle(stimuli_, settle_for_);
    settle_for_ = std::chrono::milliseconds(-1);
  }
  void done_locked(unsigned long long stimulus) {  // (lock held) `done` once per stimulus, after its outputs
    if (stimulus != stimuli_ || done_for_ == stimulus || stopped_) return;
    done_for_ = stimulus;
    settle_for_ = std::chrono::milliseconds(-1);
    if (applying_)
      held_.push_back("done");
    else
      write("done");
  }
  void start_settle(unsigned long long stimulus, std::chrono::milliseconds settle) {  // (lock held)
    settle_stimulus_ = stimulus;
    settle_at_ = std::chrono::steady_clock::now() + settle;
    if (!settle_thread_.joinable())
      settle_thread_ = std::thread([this] {
        std::unique_lock<std::mutex> lock(m_);
        while (!stopped_ && !settle_end_) {
          if (settle_stimulus_ == 0) {
            settle_cv_.wait(lock);
          } else if (std::chrono::steady_clock::now() >= settle_at_) {
            done_locked(settle_stimulus_);
            settle_stimulus_ = 0;
          } else {
            settle_cv_.wait_until(lock, settle_at_);
          }
        }
      });
    settle_cv_.notify_all();
  }
  void end_settle() {
    {
      std::lock_guard<std::mutex> lock(m_);
      settle_end_ = true;
    }
    settle_cv_.notify_all();
    if (settle_thread_.joinable() && settle_thread_.get_id() != std::this_thread::get_id()) settle_thread_.join();
  }
  void release() {  // (lock held) the outputs raised during the stimulus, after its answer
    for (const std::string& h : held_) write(h);
    held_.clear();
    applying_ = false;
  }
  void emit(const std::string& l, bool hold) {
    std::lock_guard<std::mutex> lock(m_);
    if (hold && applying_)
      held_.push_back(l);
    else
      write(l);
  }
  void line(const std::string& l) {
    std::lock_guard<std::mutex> lock(m_);
    write(l);
  }
  static void write(const std::string& l) {  // (lock held) one write per line, flushed
    const std::string s = l + "\n";
    std::fwrite(s.data(), 1, s.size(), stdout);
    std::fflush(stdout);
  }
  void stop_once() {
    bool first = false;
    {
      std::lock_guard<std::mutex> lock(m_);
      first = !stopped_;
      stopped_ = true;
    }
    if (!first) return;
    end_settle();
    try {
      on_stop();
    } catch (...) {
    }
  }

  std::mutex m_;
  bool applying_ = false, stopped_ = false;
  std::thread::id run_thread_;  // the thread in run(): fail() from another one (see there)
  std::vector<std::string> held_;
  unsigned long long stimuli_ = 0, done_for_ = 0;  // stimuli begun; the one whose `done` was written
  std::chrono::milliseconds settle_default_{-1}, settle_for_{-1};
  std::condition_variable settle_cv_;
  std::thread settle_thread_;
  unsigned long long settle_stimulus_ = 0;  // the stimulus a pending done_after is for (0: none)
  std::chrono::steady_clock::time_point settle_at_;
  bool settle_end_ = false;
};

// A line-based TCP connection to the system with a reader thread of its own. Each line the system
// sends is a reply to request() when is_reply(line) says so, else it is handed to on_push(line) in
// the reader thread. A connection that closes (unless close() closed it) or a failing callback ends
// the adapter with `error` through Adapter::fail.
class LineConnection {
 public:
  LineConnection(Adapter& adapter, const std::string& host, int port, std::string name = "connection",
                 std::function<bool(const std::string&)> is_reply = nullptr,
                 std::function<void(const std::string&)> on_push = nullptr)
      : adapter_(adapter), name_(std::move(name)), is_reply_(std::move(is_reply)), on_push_(std::move(on_push)) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0 || !found)
      throw std::runtime_error(name_ + ": cannot resolve " + host);
    for (addrinfo* a = found; a; a = a->ai_next) {
      fd_ = ::socket(a->ai_family, a->ai_socktype, a->ai_protocol);
      if (fd_ < 0) continue;
      if (::connect(fd_, a->ai_addr, a->ai_addrlen) == 0) break;
      ::close(fd_);
      fd_ = -1;
    }
    freeaddrinfo(found);
    if (fd_ < 0) throw std::runtime_error(name_ + ": cannot connect to " + host + ":" + std::to_string(port));
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    thread_ = std::thread([this] { read_loop(); });
  }
  LineConnection(const LineConnection&) = delete;
  LineConnection& operator=(const LineConnection&) = delete;
  ~LineConnection() { close(); }

  // Sends one line (a newline is added).
  void send(const std::string& line) {
    const std::string s = line + "\n";
    std::lock_guard<std::mutex> lock(send_m_);
    for (std::size_t done = 0; done < s.size();) {
      const ssize_t n = ::send(fd_, s.data() + done, s.size() - done, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw std::runtime_error(name_ + ": cannot send: " + std::strerror(errno));
      done += static_cast<std::size_t>(n);
    }
  }
  // Sends `line` and returns the reply, waiting at most `timeout`.
  std::string request(const std::string& line, std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    {
      std::lock_guard<std::mutex> lock(m_);
      replies_.clear();
    }
    send(line);
    std::unique_lock<std::mutex> lock(m_);
    if (!cv_.wait_for(lock, timeout, [&] { return !replies_.empty() || closed_; }))
      throw std::runtime_error(name_ + ": no reply to '" + line + "' within " + std::to_string(timeout.count()) +
                               " ms");
    if (replies_.empty()) throw std::runtime_error(name_ + ": closed before the reply to '" + line + "'");
    std::string r = std::move(replies_.front());
    replies_.pop_front();
    return r;
  }
  // Closes the connection and joins its reader.
  void close() {
    {
      std::lock_guard<std::mutex> lock(m_);
      if (fd_ < 0) return;
      closing_ = true;
    }
    ::shutdown(fd_, SHUT_RDWR);
    if (thread_.joinable()) {
      if (thread_.get_id() == std::this_thread::get_id())
        thread_.detach();  // closed from its own callback (Adapter::fail): it returns by itself
      else
        thread_.join();
    }
    ::close(fd_);
    fd_ = -1;
  }

 private:
  void read_loop() {
    std::string buf;
    char chunk[4096];
    try {
      for (;;) {
        const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        buf.append(chunk, static_cast<std::size_t>(n));
        for (std::size_t nl; (nl = buf.find('\n')) != std::string::npos;) {
          std::string line = buf.substr(0, nl);
          buf.erase(0, nl + 1);
          if (!line.empty() && line.back() == '\r') line.pop_back();
          if (!is_reply_ || is_reply_(line)) {
            std::lock_guard<std::mutex> lock(m_);
            replies_.push_back(std::move(line));
            cv_.notify_all();
          } else if (on_push_) {
            on_push_(line);
          }
        }
      }
    } catch (const std::exception& e) {
      if (!closing_now()) adapter_.fail(name_ + ": " + e.what());
      return;
    }
    bool closing;
    {
      std::lock_guard<std::mutex> lock(m_);
      closing = closing_;
      closed_ = true;
      cv_.notify_all();
    }
    if (!closing) adapter_.fail(name_ + ": the system closed the connection");
  }
  bool closing_now() {
    std::lock_guard<std::mutex> lock(m_);
    return closing_;
  }

  Adapter& adapter_;
  std::string name_;
  std::function<bool(const std::string&)> is_reply_;
  std::function<void(const std::string&)> on_push_;
  int fd_ = -1;
  std::mutex m_, send_m_;
  std::condition_variable cv_;
  std::deque<std::string> replies_;
  bool closing_ = false, closed_ = false;
  std::thread thread_;
};

}  // namespace playtest_adapter

#endif  // PLAYTEST_ADAPTER_HPP
