// An adapter (docs/adapter-protocol.md) between playtest and a real redis-server used as a work
// queue, for the model examples/models/redis_queue.ptm: one producer connection and NW worker
// connections on one Redis list. It speaks Redis's wire protocol (RESP2) itself over loopback TCP, no
// client library (as examples/sut/redis_adapter.cpp does), and the adapter protocol through the C++
// adapter kit (adapters/cpp/playtest/adapter_kit.hpp):
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
// Outputs that arrive while a stimulus is being applied are held back and printed after its ack (the
// kit does that).
//
// Usage: redis_queue_adapter --port P [--host 127.0.0.1] [--nw 2] [--key K]   (Redis 6.2 or later)
//   --nw     the number of worker connections; default the model's NW, which playtest passes as
//            PLAYTEST_PARAM_NW (else 2)
//   --key    the list; KEY:done holds the results. Default playtest:queue:$PLAYTEST_JOB (playtest
//            sets PLAYTEST_JOB per job of `run --jobs`, so parallel jobs use different lists; "{job}"
//            in --sut is replaced by the same number)
//
// By hand, without make (from the repository root; any free port instead of 6390):
//   g++ -std=c++20 -O2 -pthread -Iadapters/cpp examples/sut/redis_queue_adapter.cpp -o /tmp/redis_queue_adapter
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
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "playtest/adapter_kit.hpp"
#include "resp_client.hpp"

namespace pa = playtest_adapter;

namespace {

using Clock = std::chrono::steady_clock;

using resp::Connection;
using resp::Failure;
using resp::Reply;

// ---- the adapter ------------------------------------------------------------------------------

struct Options {
  std::string host = "127.0.0.1";
  int port = 6379;
  int workers = 2;
  std::string key;
};

// A worker's connection, its Redis client id, and the thread that reads every reply on it: a BLPOP's
// reply becomes the output ?Got(W, "J") at once (the kit holds it back during a stimulus), an
// RPUSH's wakes the stimulus waiting for it. Only the adapter's thread writes commands.
class Worker {
 public:
  Worker(pa::Adapter& adapter, const Options& o, int index)
      : adapter_(adapter), index_(index), conn_(o.host, o.port, 0), id_(client_id(conn_)) {
    thread_ = std::thread([this] { read_loop(); });
  }
  ~Worker() {
    stopping_ = true;
    conn_.shutdown();
    thread_.join();
  }
  const std::string& id() const { return id_; }
  // From now on the connection's end is expected (a reset kills it on the server's side first).
  void stop() { stopping_ = true; }

  // Whether a command sent on this connection is still unanswered (a BLPOP that blocks).
  bool busy() {
    std::lock_guard lock(m_);
    return !pending_.empty();
  }
  void blpop(const std::string& key) { send(Pending::blpop, {"BLPOP", key, "0"}); }
  // RPUSH of the job it got last to `key`, waiting (5 s) for the reply.
  void push_job(const std::string& key) {
    std::string job;
    {
      std::lock_guard lock(m_);
      if (!job_) throw Failure("worker " + std::to_string(index_) + " has no job to finish");
      job = *job_;
      job_.reset();
    }
    send(Pending::rpush, {"RPUSH", key, job});
    std::unique_lock lock(m_);
    if (!cv_.wait_for(lock, std::chrono::seconds(5), [&] { return pending_.empty(); }))
      throw Failure("redis did not answer worker " + std::to_string(index_) + "'s RPUSH within 5 s");
  }

 private:
  enum class Pending { blpop, rpush };

  static std::string client_id(Connection& c) {
    const Reply r = c.call({"CLIENT", "ID"});
    if (r.type != ':') throw Failure("redis answered CLIENT ID with " + r.describe());
    return r.text;
  }
  void send(Pending kind, const std::vector<std::string>& words) {
    {
      std::lock_guard lock(m_);
      pending_.push_back(kind);
    }
    conn_.command(words);
  }
  void read_loop() {
    const std::string who = "worker " + std::to_string(index_);
    try {
      for (;;) {
        const Reply r = conn_.read_reply();
        std::unique_lock lock(m_);
        if (pending_.empty()) throw Failure("redis sent " + who + " a reply it did not ask for: " + r.describe());
        const Pending kind = pending_.front();
        pending_.pop_front();
        if (r.type == '-') throw Failure("redis answered " + who + " with an error: " + r.text);
        if (kind == Pending::rpush) {
          if (r.type != ':') throw Failure("redis answered " + who + "'s RPUSH with " + r.describe());
          cv_.notify_all();
          continue;
        }
        // BLPOP answers [key, value]; with timeout 0 it never answers nil.
        if (r.type != '*' || r.null || r.elems.size() != 2 || r.elems[1].type != '$')
          throw Failure("redis answered " + who + "'s BLPOP with " + r.describe());
        job_ = r.elems[1].text;
        lock.unlock();
        adapter_.output("Got", {index_, r.elems[1].text});
      }
    } catch (const std::exception& e) {
      if (!stopping_) adapter_.fail(who + ": " + e.what());
    }
  }

  pa::Adapter& adapter_;
  const int index_;
  Connection conn_;
  std::string id_;
  std::mutex m_;
  std::condition_variable cv_;
  std::deque<Pending> pending_;     // commands sent and not answered, oldest first
  std::optional<std::string> job_;  // the job this worker got last and has not pushed to KEY:done
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

class RedisQueueAdapter final : public pa::Adapter {
 public:
  explicit RedisQueueAdapter(Options o) : o_(std::move(o)) {}

  void on_start() override {
    connect();
    comment("redis_queue_adapter: " + std::to_string(o_.workers) + " workers on list '" + o_.key + "' at " + o_.host +
            ":" + std::to_string(o_.port));
  }
  void on_reset() override {
    // CLIENT KILL frees the server's side of each worker connection before it answers, so a blocked
    // BLPOP of the last run cannot take a job pushed in the next one.
    for (const auto& w : workers_) {
      w->stop();
      producer_->call({"CLIENT", "KILL", "ID", w->id()});
    }
    workers_.clear();
    producer_->call({"DEL", o_.key, done_key()});
    producer_.reset();
    connect();
  }
  void on_stop() override {
    workers_.clear();
    producer_.reset();
  }

  void on_stimulus(const pa::Label& s) override {
    if ((s.name == "Pop" || s.name == "Done") && s.args.size() == 1) {
      const long long w = s.args[0].integer();
      if (w < 0 || w >= o_.workers)
        throw Failure("no worker " + std::to_string(w) + ": the adapter has " + std::to_string(o_.workers) +
                      " (--nw; give it the model's NW)");
      Worker& worker = *workers_[static_cast<std::size_t>(w)];
      if (worker.busy())
        throw Failure("worker " + std::to_string(w) + " is still waiting for its BLPOP: its connection cannot send " +
                      s.name);
      if (s.name == "Pop")
        pop(static_cast<int>(w), worker);
      else
        worker.push_job(done_key());
      return;
    }
    if (s.name == "Push" && s.args.size() == 1) {
      const Reply r = producer_->call({"RPUSH", o_.key, s.args[0].text()});
      if (r.type != ':') throw Failure("redis answered RPUSH with " + r.describe());
      return;
    }
    if (s.name == "Collect" && s.args.empty()) {
      const Reply r = producer_->call({"LPOP", done_key()});
      if (r.type != '$') throw Failure("redis answered LPOP with " + r.describe());
      // An empty list is nil: the model has no label for it, so playtest fails on the name.
      if (r.null)
        output_label("?Result(nil)");
      else
        output("Result", {r.text});
      return;
    }
    throw Failure("unknown stimulus '" + s.format() + "'");
  }

 private:
  std::string done_key() const { return o_.key + ":done"; }

  void connect() {
    producer_ = std::make_unique<Connection>(o_.host, o_.port, 5);
    producer_->call({"DEL", o_.key, done_key()});
    for (int w = 0; w < o_.workers; ++w) workers_.push_back(std::make_unique<Worker>(*this, o_, w));
  }

  // BLPOP with timeout 0. Acknowledged when the reply has come (the list had a job) or the server
  // lists the connection as blocked (flag b), whichever is first.
  void pop(int w, Worker& worker) {
    worker.blpop(o_.key);
    const auto deadline = Clock::now() + std::chrono::seconds(5);
    auto pause = std::chrono::microseconds(50);
    for (;;) {
      if (!worker.busy()) return;  // answered at once
      const Reply r = producer_->call({"CLIENT", "LIST", "ID", worker.id()});
      if (r.type != '$' || r.null) throw Failure("redis answered CLIENT LIST with " + r.describe());
      const std::size_t at = r.text.find(" flags=");
      if (at == std::string::npos) throw Failure("CLIENT LIST without flags: " + r.text);
      const std::string flags = r.text.substr(at + 7, r.text.find(' ', at + 7) - (at + 7));
      if (flags.find('b') != std::string::npos) return;  // blocked
      if (Clock::now() > deadline)
        throw Failure("worker " + std::to_string(w) + "'s BLPOP neither returned nor blocked within 5 s");
      std::this_thread::sleep_for(pause);
      pause = std::min(pause * 2, std::chrono::microseconds(2000));
    }
  }

  Options o_;
  std::unique_ptr<Connection> producer_;
  std::vector<std::unique_ptr<Worker>> workers_;
};

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
  try {
    o.workers = static_cast<int>(pa::param_int("NW", 2));  // the model's NW, from playtest run --param
  } catch (const std::exception& e) {
    return usage(e.what());
  }
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
  RedisQueueAdapter adapter(o);
  return adapter.run();
}
