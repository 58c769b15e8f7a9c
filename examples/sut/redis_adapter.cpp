// An adapter (docs/adapter-protocol.md) between playtest and a real third-party system: a running
// redis-server, tested through its publish/subscribe commands with the model
// examples/models/redis_pubsub.ptm. It speaks Redis's wire protocol (RESP2) itself over loopback TCP,
// no client library:
//
//   stimulus Subscribe(C, "CH")    SUBSCRIBE CH on client C's connection; ack once Redis confirms
//   stimulus Unsubscribe(C, "CH")  UNSUBSCRIBE CH likewise
//   stimulus Publish("CH", "TEXT") PUBLISH CH TEXT on a separate publisher connection; ack on its reply
//   output ?Message(C, "CH", "TEXT")  client C's connection received TEXT on channel CH
//   reset                          reconnect every client (a fresh connection subscribes to nothing)
//
// Each subscriber connection has a reader thread of its own, so when one PUBLISH reaches two
// subscribers the order of the two ?Message outputs is decided by the network and the scheduler,
// not by this program: the nondeterminism the model allows for.
//
// Usage: redis_adapter --port P [--host 127.0.0.1] [--clients 2]
//                      [--drop-to C] [--skip-unsubscribe]
// The last two inject faults (a buggy system, for the tests that must see FAIL): --drop-to C loses
// every message delivered to client C; --skip-unsubscribe acknowledges Unsubscribe without sending it.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void say(const std::string& line) {
  std::string l = line + "\n";
  std::fwrite(l.data(), 1, l.size(), stdout);
  std::fflush(stdout);
}

// ---- RESP2 over a TCP socket ------------------------------------------------------------------

struct Reply {
  char type = 0;                     // '+', '-', ':', '$', '*'
  std::string text;                  // simple string, error, integer, bulk string
  bool null = false;                 // "$-1" or "*-1"
  std::vector<Reply> elems;          // array
};

class Connection {
 public:
  Connection(const std::string& host, int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd_ < 0) throw Failure(std::string("socket: ") + std::strerror(errno));
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    if (::inet_pton(AF_INET, host.c_str(), &addr.sin_addr) != 1) {
      ::close(fd_);
      throw Failure("not an IPv4 address: " + host);
    }
    if (::connect(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
      const std::string why = std::strerror(errno);
      ::close(fd_);
      throw Failure("cannot connect to redis at " + host + ":" + std::to_string(port) + ": " + why);
    }
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection() { ::close(fd_); }

  // Wakes a reader blocked in read_reply (it then sees end of file).
  void shutdown() { ::shutdown(fd_, SHUT_RDWR); }

  void command(const std::vector<std::string>& words) {
    std::string out = "*" + std::to_string(words.size()) + "\r\n";
    for (const std::string& w : words) out += "$" + std::to_string(w.size()) + "\r\n" + w + "\r\n";
    std::lock_guard lock(write_mutex_);
    for (std::size_t done = 0; done < out.size();) {
      const ssize_t n = ::send(fd_, out.data() + done, out.size() - done, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw Failure(std::string("cannot write to redis: ") + std::strerror(errno));
      done += static_cast<std::size_t>(n);
    }
  }

  Reply read_reply() {
    Reply r;
    const std::string line = read_line();
    if (line.empty()) throw Failure("redis sent an empty line");
    r.type = line[0];
    r.text = line.substr(1);
    switch (r.type) {
      case '+':
      case '-':
      case ':':
        return r;
      case '$': {
        const long n = std::stol(r.text);
        if (n < 0) {
          r.null = true;
          return r;
        }
        r.text = read_exactly(static_cast<std::size_t>(n));
        if (read_exactly(2) != "\r\n") throw Failure("redis bulk string not terminated by CRLF");
        return r;
      }
      case '*': {
        const long n = std::stol(r.text);
        if (n < 0) {
          r.null = true;
          return r;
        }
        for (long i = 0; i < n; ++i) r.elems.push_back(read_reply());
        return r;
      }
      default:
        throw Failure("redis sent a reply of unknown type: " + line);
    }
  }

 private:
  bool fill() {
    char buf[4096];
    for (;;) {
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      in_.append(buf, static_cast<std::size_t>(n));
      return true;
    }
  }
  std::string read_line() {
    std::size_t pos;
    while ((pos = in_.find("\r\n")) == std::string::npos)
      if (!fill()) throw Failure("redis closed the connection");
    std::string line = in_.substr(0, pos);
    in_.erase(0, pos + 2);
    return line;
  }
  std::string read_exactly(std::size_t n) {
    while (in_.size() < n)
      if (!fill()) throw Failure("redis closed the connection");
    std::string s = in_.substr(0, n);
    in_.erase(0, n);
    return s;
  }

  int fd_ = -1;
  std::string in_;
  std::mutex write_mutex_;
};

// ---- events from the reader threads -----------------------------------------------------------

struct Event {
  enum class Kind { line, message, confirmed, failed } kind;
  int client = 0;
  std::string channel, text;  // line: playtest's line; message: channel and payload;
                              // confirmed: "subscribe"/"unsubscribe"; failed: why
};

class Events {
 public:
  void push(Event e) {
    {
      std::lock_guard lock(m_);
      q_.push_back(std::move(e));
    }
    cv_.notify_all();
  }
  // The next event, or nothing once `deadline` passes.
  std::optional<Event> pop(std::chrono::steady_clock::time_point deadline) {
    std::unique_lock lock(m_);
    if (!cv_.wait_until(lock, deadline, [&] { return !q_.empty(); })) return std::nullopt;
    Event e = std::move(q_.front());
    q_.pop_front();
    return e;
  }
  std::optional<Event> try_pop() { return pop(std::chrono::steady_clock::now()); }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<Event> q_;
};

// A subscriber connection and the thread that reads what Redis pushes on it.
class Subscriber {
 public:
  Subscriber(const std::string& host, int port, int client, Events& events)
      : conn_(host, port), thread_([this, client, &events] { read_loop(client, events); }) {}
  ~Subscriber() {
    stopping_ = true;
    conn_.shutdown();
    thread_.join();
  }
  Connection& connection() { return conn_; }

 private:
  void read_loop(int client, Events& events) {
    try {
      for (;;) {
        Reply r = conn_.read_reply();
        if (r.type == '-') throw Failure("redis error on client " + std::to_string(client) + ": " + r.text);
        if (r.type != '*' || r.elems.size() != 3 || r.elems[0].type != '$')
          throw Failure("unexpected push from redis on client " + std::to_string(client));
        const std::string& kind = r.elems[0].text;
        if (kind == "message")
          events.push({Event::Kind::message, client, r.elems[1].text, r.elems[2].text});
        else if (kind == "subscribe" || kind == "unsubscribe")
          events.push({Event::Kind::confirmed, client, kind, ""});
        else
          throw Failure("unexpected push '" + kind + "' from redis on client " + std::to_string(client));
      }
    } catch (const std::exception& e) {
      if (!stopping_) events.push({Event::Kind::failed, client, e.what(), ""});
    }
  }

  Connection conn_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

// ---- labels -----------------------------------------------------------------------------------

// "Name(0, \"news\")" -> {"Name", {"0", "news"}} (string arguments unquoted).
bool parse_label(const std::string& label, std::string& name, std::vector<std::string>& args) {
  const std::size_t open = label.find('(');
  if (open == std::string::npos || label.back() != ')') {
    name = label;
    return true;
  }
  name = label.substr(0, open);
  std::size_t i = open + 1;
  const std::size_t end = label.size() - 1;
  while (i < end) {
    while (i < end && label[i] == ' ') ++i;
    std::string arg;
    if (label[i] == '"') {
      for (++i; i < end && label[i] != '"'; ++i) {
        if (label[i] == '\\' && i + 1 < end) ++i;
        arg += label[i];
      }
      if (i >= end) return false;
      ++i;
    } else {
      while (i < end && label[i] != ',') arg += label[i++];
      while (!arg.empty() && arg.back() == ' ') arg.pop_back();
    }
    args.push_back(arg);
    while (i < end && label[i] == ' ') ++i;
    if (i < end && label[i] != ',') return false;
    ++i;
  }
  return true;
}

std::string quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

// ---- the adapter ------------------------------------------------------------------------------

struct Options {
  std::string host = "127.0.0.1";
  int port = 6379;
  int clients = 2;
  int drop_to = -1;
  bool skip_unsubscribe = false;
};

class Adapter {
 public:
  explicit Adapter(Options o) : o_(std::move(o)), publisher_(o_.host, o_.port) { connect_clients(); }

  // Prints every event that has arrived (outputs are never held back).
  void flush_events() {
    while (auto e = events_.try_pop()) handle(*e, -1);
  }

  // The next line from playtest; Redis's messages that arrive meanwhile are printed.
  std::string next_command() {
    while (commands_.empty()) {
      auto e = events_.pop(std::chrono::steady_clock::now() + std::chrono::hours(1));
      if (e) handle(*e, -1);
    }
    std::string line = std::move(commands_.front());
    commands_.pop_front();
    return line;
  }

  Events& events() { return events_; }

  // Runs one stimulus; returns the error message, or "" after printing ack.
  std::string stimulus(const std::string& label) {
    flush_events();  // anything that came before this stimulus is printed before its ack
    std::string name;
    std::vector<std::string> args;
    if (!parse_label(label, name, args)) return "cannot parse the label '" + label + "'";
    if ((name == "Subscribe" || name == "Unsubscribe") && args.size() == 2) {
      const int c = client_index(args[0]);
      if (c < 0) return "no client '" + args[0] + "' (there are " + std::to_string(o_.clients) + ")";
      if (name == "Unsubscribe" && o_.skip_unsubscribe) {
        say("ack");
        return "";
      }
      subs_[static_cast<std::size_t>(c)]->connection().command({name == "Subscribe" ? "SUBSCRIBE" : "UNSUBSCRIBE", args[1]});
      // A command on one connection may overtake one sent earlier on another: wait for Redis to
      // confirm, so that a later PUBLISH certainly sees the new subscription.
      const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
      for (;;) {
        auto e = events_.pop(deadline);
        if (!e) return "redis did not confirm " + name + " within 5 s";
        if (handle(*e, c)) break;
      }
      say("ack");
      return "";
    }
    if (name == "Publish" && args.size() == 2) {
      publisher_.command({"PUBLISH", args[0], args[1]});
      Reply r = publisher_.read_reply();
      if (r.type != ':') return "redis answered PUBLISH with '" + std::string(1, r.type) + r.text + "'";
      say("ack");
      return "";
    }
    return "unknown stimulus '" + label + "'";
  }

  void reset() {
    subs_.clear();
    // Late messages of the old connections belong to no client now; playtest's lines are kept.
    while (auto e = events_.try_pop())
      if (e->kind == Event::Kind::line) commands_.push_back(e->channel);
    connect_clients();
  }

 private:
  void connect_clients() {
    for (int c = 0; c < o_.clients; ++c) subs_.push_back(std::make_unique<Subscriber>(o_.host, o_.port, c, events_));
  }

  int client_index(const std::string& s) const {
    char* end = nullptr;
    const long c = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || c < 0 || c >= o_.clients) return -1;
    return static_cast<int>(c);
  }

  // Prints a message as an output; true when `e` is the confirmation awaited from client
  // `awaiting`. A connection failure is fatal.
  bool handle(const Event& e, int awaiting) {
    switch (e.kind) {
      case Event::Kind::line:
        commands_.push_back(e.channel);
        return false;
      case Event::Kind::message:
        if (e.client != o_.drop_to) say("output ?Message(" + std::to_string(e.client) + ", " + quoted(e.channel) + ", " + quoted(e.text) + ")");
        return false;
      case Event::Kind::confirmed:
        if (e.client == awaiting) return true;
        throw Failure("redis confirmed a " + e.channel + " on client " + std::to_string(e.client) + " that nobody asked for");
      case Event::Kind::failed:
        throw Failure(e.channel);
    }
    return false;
  }

  Options o_;
  Events events_;
  std::deque<std::string> commands_;  // lines from playtest not yet carried out
  Connection publisher_;
  std::vector<std::unique_ptr<Subscriber>> subs_;
};

// Reads standard input on a thread of its own so that the main thread can wait for Redis and
// playtest at once; lines arrive as events of client -1.
class StdinReader {
 public:
  explicit StdinReader(Events& events) : thread_([&events] {
    std::string line;
    while (std::getline(std::cin, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      events.push({Event::Kind::line, -1, line, ""});
      if (line == "end") return;
    }
    events.push({Event::Kind::line, -1, "end", ""});
  }) {
    thread_.detach();  // blocked in getline until playtest closes standard input; exit() ends it
  }

 private:
  std::thread thread_;
};

int usage(const char* why) {
  std::fprintf(stderr,
               "redis_adapter: %s\nusage: redis_adapter --port P [--host 127.0.0.1] [--clients 2] [--drop-to C] "
               "[--skip-unsubscribe]\n",
               why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    try {
      if (a == "--host")
        o.host = value();
      else if (a == "--port")
        o.port = std::stoi(value());
      else if (a == "--clients")
        o.clients = std::stoi(value());
      else if (a == "--drop-to")
        o.drop_to = std::stoi(value());
      else if (a == "--skip-unsubscribe")
        o.skip_unsubscribe = true;
      else
        return usage(("unknown option " + a).c_str());
    } catch (const std::exception& e) {
      return usage(e.what());
    }
  }
  if (o.clients < 1 || o.clients > 64) return usage("--clients must be 1..64");

  // Commands from playtest and pushes from Redis share one queue of events, so the adapter waits
  // for both at once and prints messages as soon as they come.
  try {
    Adapter adapter(o);
    say("# redis_adapter: " + std::to_string(o.clients) + " clients on " + o.host + ":" + std::to_string(o.port));
    say("ready");
    StdinReader stdin_reader(adapter.events());
    for (;;) {
      const std::string line = adapter.next_command();
      if (line == "end") break;
      if (line == "reset") {
        adapter.reset();
        say("ready");
      } else if (line.rfind("stimulus ", 0) == 0) {
        const std::string err = adapter.stimulus(line.substr(9));
        if (!err.empty()) say("error " + err);
      } else if (!line.empty() && line[0] != '#') {
        say("error cannot handle '" + line + "'");
      }
    }
  } catch (const std::exception& e) {
    say(std::string("error ") + e.what());
    std::fflush(stdout);
    std::_Exit(1);  // the stdin thread may still be blocked reading
  }
  std::fflush(stdout);
  std::_Exit(0);
}
