// An adapter (docs/adapter-protocol.md) between playtest and a real redis-server used as a work
// queue, for the model examples/models/redis_queue.ptm: one producer connection and NW worker
// connections on one Redis list. It speaks Redis's wire protocol (RESP2) itself over loopback TCP, no
// client library (as examples/sut/redis_adapter.cpp does; the C++ adapter kit of issue 26 was not on
// main when this was written, so the RESP code is repeated here):
//
//   stimulus Pop(W)        worker W sends BLPOP KEY 0 (wait forever); ack once Redis has either
//                          answered it or put the connection among its blocked clients
//   stimulus Push("J")     RPUSH KEY J on the producer connection; ack on its reply
//   stimulus Done(W)       worker W sends RPUSH KEY:done J, J the job it got last; ack on the reply
//   stimulus Collect       LPOP KEY:done on the producer connection; ack, then ?Result("J")
//   output ?Got(W, "J")    worker W's BLPOP returned job J: at once, or later when a push arrived
//   output ?Result("J")    the reply to Collect
//   reset                  close every connection (CLIENT KILL, so that the server has dropped the
//                          old blocked clients before anything else happens), DEL both keys,
//                          connect again
//
// Each worker connection has a reader thread of its own: a BLPOP that blocks keeps its thread
// waiting, never the adapter's loop. When a push reaches several blocked workers, which one is
// served is the server's choice, not this program's: Redis serves the one that blocked first. So
// that this order is the order of the Pop stimuli, Pop is acknowledged only once CLIENT LIST shows the
// connection blocked (or its reply has come): a later Pop on another connection cannot overtake it.
// Outputs that arrive while a stimulus is being applied are held back and printed after its ack.
//
// Usage: redis_queue_adapter --port P [--host 127.0.0.1] [--nw 2] [--key K]   (Redis 6.2 or later)
//   --nw     the number of worker connections (the model's NW)
//   --key    the list; KEY:done holds the results. Default playtest:queue:$PLAYTEST_JOB (playtest
//            sets PLAYTEST_JOB per job of `run --jobs`, so parallel jobs use different lists; "{job}"
//            in --sut is replaced by the same number)
//
// By hand, without make (from the repository root; any free port instead of 6390):
//   g++ -std=c++20 -O2 -pthread examples/sut/redis_queue_adapter.cpp -o /tmp/redis_queue_adapter
//   redis-server --port 6390 --bind 127.0.0.1 --save '' --appendonly no --daemonize yes
//   playtest run examples/models/redis_queue.ptm --sut '/tmp/redis_queue_adapter --port 6390'
//       --strategy random --purpose none --steps 300 --seed 1      (one line)
//   redis-cli -p 6390 shutdown nosave
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
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

using Clock = std::chrono::steady_clock;

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
  char type = 0;             // '+', '-', ':', '$', '*'
  std::string text;          // simple string, error, integer, bulk string
  bool null = false;         // "$-1" or "*-1"
  std::vector<Reply> elems;  // array

  std::string describe() const {
    if (null) return "nil";
    if (type == '*') {
      std::string s = "[";
      for (std::size_t i = 0; i < elems.size(); ++i) s += (i ? ", " : "") + elems[i].describe();
      return s + "]";
    }
    return std::string(1, type) + text;
  }
};

class Connection {
 public:
  // `reply_timeout_s` > 0 bounds every wait for a reply (a synchronous connection); 0 waits forever
  // (a worker's BLPOP).
  Connection(const std::string& host, int port, int reply_timeout_s) {
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
    if (reply_timeout_s > 0) {
      timeval tv{.tv_sec = reply_timeout_s, .tv_usec = 0};
      ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    }
  }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection() { ::close(fd_); }

  // Wakes a reader blocked in read_reply (it then sees end of file).
  void shutdown() { ::shutdown(fd_, SHUT_RDWR); }

  void command(const std::vector<std::string>& words) {
    std::string out = "*" + std::to_string(words.size()) + "\r\n";
    for (const std::string& w : words) out += "$" + std::to_string(w.size()) + "\r\n" + w + "\r\n";
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

  // A command and its reply; a Redis error reply is a failure.
  Reply call(const std::vector<std::string>& words) {
    command(words);
    Reply r = read_reply();
    if (r.type == '-') throw Failure("redis answered " + words[0] + " with an error: " + r.text);
    return r;
  }

 private:
  bool fill() {
    char buf[4096];
    for (;;) {
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) throw Failure("redis did not answer within 5 s");
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
};

// ---- events: playtest's lines and the workers' replies, in one queue ----------------------------

struct Event {
  enum class Kind { line, reply, failed } kind;
  int worker = -1;          // reply, failed
  unsigned generation = 0;  // which set of connections (a reset starts a new one)
  std::string text;         // line: playtest's line; failed: why
  Reply reply;
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
  std::optional<Event> pop(Clock::time_point deadline) {
    std::unique_lock lock(m_);
    if (!cv_.wait_until(lock, deadline, [&] { return !q_.empty(); })) return std::nullopt;
    Event e = std::move(q_.front());
    q_.pop_front();
    return e;
  }
  std::optional<Event> try_pop() { return pop(Clock::now()); }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<Event> q_;
};

// A worker's connection, its Redis client id, and the thread that reads every reply on it (the main
// thread only writes).
class Worker {
 public:
  Worker(const std::string& host, int port, int index, unsigned generation, Events& events)
      : conn_(host, port, 0), id_(client_id(conn_)) {
    thread_ = std::thread([this, index, generation, &events] { read_loop(index, generation, events); });
  }
  ~Worker() {
    stopping_ = true;
    conn_.shutdown();
    thread_.join();
  }
  Connection& connection() { return conn_; }
  const std::string& id() const { return id_; }

  enum class Pending { blpop, rpush };
  std::deque<Pending> pending;     // commands sent and not answered, oldest first (main thread only)
  std::optional<std::string> job;  // the job this worker got last and has not pushed to KEY:done

 private:
  static std::string client_id(Connection& c) {
    const Reply r = c.call({"CLIENT", "ID"});
    if (r.type != ':') throw Failure("redis answered CLIENT ID with " + r.describe());
    return r.text;
  }

  void read_loop(int index, unsigned generation, Events& events) {
    try {
      for (;;) events.push({Event::Kind::reply, index, generation, "", conn_.read_reply()});
    } catch (const std::exception& e) {
      if (!stopping_) events.push({Event::Kind::failed, index, generation, e.what(), {}});
    }
  }

  Connection conn_;
  std::string id_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

// ---- labels -----------------------------------------------------------------------------------

// "Name(0, \"a\")" -> {"Name", {"0", "a"}} (string arguments unquoted).
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
  int workers = 2;
  std::string key;
};

class Adapter {
 public:
  Adapter(Options o, Events& events) : o_(std::move(o)), events_(events) { connect(); }

  // The next line from playtest; replies that arrive meanwhile are printed as outputs.
  std::string next_command() {
    while (commands_.empty()) {
      if (auto e = events_.pop(Clock::now() + std::chrono::hours(1))) handle(*e);
    }
    std::string line = std::move(commands_.front());
    commands_.pop_front();
    return line;
  }

  // Runs one stimulus; returns the error message, or "" after printing ack and the outputs held
  // back meanwhile.
  std::string stimulus(const std::string& label) {
    while (auto e = events_.try_pop()) handle(*e);  // what came before the stimulus goes before its ack
    applying_ = true;
    std::string err;
    try {
      err = apply(label);
    } catch (...) {
      applying_ = false;
      throw;
    }
    applying_ = false;
    if (!err.empty()) return err;
    say("ack");
    for (const std::string& out : held_) say(out);
    held_.clear();
    return "";
  }

  void reset() {
    // CLIENT KILL frees the server's side of each worker connection before it answers, so a blocked
    // BLPOP of the last run cannot take a job pushed in the next one.
    for (const auto& w : workers_) producer_->call({"CLIENT", "KILL", "ID", w->id()});
    workers_.clear();
    producer_->call({"DEL", o_.key, done_key()});
    producer_.reset();
    held_.clear();
    // Replies of the old connections belong to no run now; playtest's lines are kept.
    while (auto e = events_.try_pop())
      if (e->kind == Event::Kind::line) commands_.push_back(e->text);
    ++generation_;
    connect();
  }

 private:
  std::string done_key() const { return o_.key + ":done"; }

  void connect() {
    producer_ = std::make_unique<Connection>(o_.host, o_.port, 5);
    producer_->call({"DEL", o_.key, done_key()});
    for (int w = 0; w < o_.workers; ++w)
      workers_.push_back(std::make_unique<Worker>(o_.host, o_.port, w, generation_, events_));
  }

  int worker_index(const std::string& s) const {
    char* end = nullptr;
    const long w = std::strtol(s.c_str(), &end, 10);
    if (s.empty() || *end != '\0' || w < 0 || w >= o_.workers) return -1;
    return static_cast<int>(w);
  }

  std::string apply(const std::string& label) {
    std::string name;
    std::vector<std::string> args;
    if (!parse_label(label, name, args)) return "cannot parse the label '" + label + "'";
    if ((name == "Pop" || name == "Done") && args.size() == 1) {
      const int w = worker_index(args[0]);
      if (w < 0)
        return "no worker '" + args[0] + "': the adapter has " + std::to_string(o_.workers) +
               " (--nw; give it the model's NW)";
      Worker& worker = *workers_[static_cast<std::size_t>(w)];
      if (!worker.pending.empty())
        return "worker " + args[0] + " is still waiting for its BLPOP: its connection cannot send " + name;
      return name == "Pop" ? pop(w, worker) : done(w, worker);
    }
    if (name == "Push" && args.size() == 1) {
      const Reply r = producer_->call({"RPUSH", o_.key, args[0]});
      if (r.type != ':') return "redis answered RPUSH with " + r.describe();
      return "";
    }
    if (name == "Collect" && args.empty()) {
      const Reply r = producer_->call({"LPOP", done_key()});
      if (r.type != '$') return "redis answered LPOP with " + r.describe();
      // An empty list is nil: the model has no label for it, so playtest fails on the name.
      held_.push_back(r.null ? "output ?Result(nil)" : "output ?Result(" + quoted(r.text) + ")");
      return "";
    }
    return "unknown stimulus '" + label + "'";
  }

  // BLPOP with timeout 0. Acknowledged when the reply has come (the list had a job) or the server
  // lists the connection as blocked (flag b), whichever is first.
  std::string pop(int w, Worker& worker) {
    worker.connection().command({"BLPOP", o_.key, "0"});
    worker.pending.push_back(Worker::Pending::blpop);
    const auto deadline = Clock::now() + std::chrono::seconds(5);
    auto pause = std::chrono::microseconds(50);
    for (;;) {
      while (auto e = events_.try_pop()) handle(*e);
      if (worker.pending.empty()) return "";  // answered at once
      const Reply r = producer_->call({"CLIENT", "LIST", "ID", worker.id()});
      if (r.type != '$' || r.null) return "redis answered CLIENT LIST with " + r.describe();
      const std::size_t at = r.text.find(" flags=");
      if (at == std::string::npos) return "CLIENT LIST without flags: " + r.text;
      const std::string flags = r.text.substr(at + 7, r.text.find(' ', at + 7) - (at + 7));
      if (flags.find('b') != std::string::npos) return "";  // blocked
      if (Clock::now() > deadline)
        return "worker " + std::to_string(w) + "'s BLPOP neither returned nor blocked within 5 s";
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::microseconds(2000));
    }
  }

  // RPUSH KEY:done on the worker's own connection; its reader thread brings the reply.
  std::string done(int w, Worker& worker) {
    if (!worker.job) return "worker " + std::to_string(w) + " has no job to finish";
    worker.connection().command({"RPUSH", done_key(), *worker.job});
    worker.pending.push_back(Worker::Pending::rpush);
    worker.job.reset();
    const auto deadline = Clock::now() + std::chrono::seconds(5);
    while (!worker.pending.empty()) {
      auto e = events_.pop(deadline);
      if (!e) return "redis did not answer worker " + std::to_string(w) + "'s RPUSH within 5 s";
      handle(*e);
    }
    return "";
  }

  // Prints an output (or holds it back during a stimulus); notes playtest's lines; a connection
  // failure or an unexpected reply is fatal.
  void handle(const Event& e) {
    if (e.kind == Event::Kind::line) {
      commands_.push_back(e.text);
      return;
    }
    if (e.generation != generation_) return;  // a connection closed by reset
    const std::string who = "worker " + std::to_string(e.worker);
    if (e.kind == Event::Kind::failed) throw Failure(who + ": " + e.text);
    Worker& worker = *workers_[static_cast<std::size_t>(e.worker)];
    if (worker.pending.empty())
      throw Failure("redis sent " + who + " a reply it did not ask for: " + e.reply.describe());
    const Worker::Pending kind = worker.pending.front();
    worker.pending.pop_front();
    if (e.reply.type == '-') throw Failure("redis answered " + who + " with an error: " + e.reply.text);
    if (kind == Worker::Pending::rpush) {
      if (e.reply.type != ':') throw Failure("redis answered " + who + "'s RPUSH with " + e.reply.describe());
      return;
    }
    // BLPOP answers [key, value]; with timeout 0 it never answers nil.
    if (e.reply.type != '*' || e.reply.null || e.reply.elems.size() != 2 || e.reply.elems[1].type != '$')
      throw Failure("redis answered " + who + "'s BLPOP with " + e.reply.describe());
    worker.job = e.reply.elems[1].text;
    const std::string out = "output ?Got(" + std::to_string(e.worker) + ", " + quoted(*worker.job) + ")";
    if (applying_)
      held_.push_back(out);
    else
      say(out);
  }

  Options o_;
  Events& events_;
  std::deque<std::string> commands_;  // lines from playtest not yet carried out
  std::unique_ptr<Connection> producer_;
  std::vector<std::unique_ptr<Worker>> workers_;
  unsigned generation_ = 0;
  bool applying_ = false;          // a stimulus is being applied: outputs wait for its ack
  std::vector<std::string> held_;  // outputs held back until the ack
};

// Reads standard input on a thread of its own so that the main thread can wait for Redis and
// playtest at once; lines arrive as events.
void start_stdin_reader(Events& events) {
  std::thread([&events] {
    std::string line;
    while (std::getline(std::cin, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      events.push({Event::Kind::line, -1, 0, line, {}});
      if (line == "end") return;
    }
    events.push({Event::Kind::line, -1, 0, "end", {}});
  }).detach();  // blocked in getline until playtest closes standard input; _Exit ends it
}

int usage(const std::string& why) {
  std::fprintf(stderr,
               "redis_queue_adapter: %s\nusage: redis_queue_adapter --port P [--host 127.0.0.1] [--nw 2] "
               "[--key playtest:queue:$PLAYTEST_JOB]\n",
               why.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  const char* job = std::getenv("PLAYTEST_JOB");
  o.key = std::string("playtest:queue:") + (job && *job ? job : "0");
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
      else if (a == "--nw")
        o.workers = std::stoi(value());
      else if (a == "--key")
        o.key = value();
      else
        return usage("unknown option " + a);
    } catch (const std::exception& e) {
      return usage(e.what());
    }
  }
  if (o.workers < 1 || o.workers > 64) return usage("--nw must be 1..64");
  if (o.key.empty()) return usage("--key must not be empty");

  // Commands from playtest and replies from Redis share one queue of events, so the adapter waits
  // for both at once and prints a delivery as soon as it comes.
  try {
    // The queue outlives everything: the stdin thread is never joined and may still be pushing when
    // the adapter ends (so the process ends by _Exit, which destroys nothing).
    static Events events;
    Adapter adapter(o, events);
    say("# redis_queue_adapter: " + std::to_string(o.workers) + " workers on list '" + o.key + "' at " + o.host + ":" +
        std::to_string(o.port));
    say("ready");
    start_stdin_reader(events);
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
    std::_Exit(1);  // the stdin thread may still be blocked reading
  }
  std::_Exit(0);
}
