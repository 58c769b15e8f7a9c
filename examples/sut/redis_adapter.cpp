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
// not by this program: the nondeterminism the model allows for. The protocol side (ready, ack after
// the stimulus, outputs raised meanwhile held back until after it, labels) is the C++ adapter kit's
// (adapters/cpp/playtest/adapter_kit.hpp).
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
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "playtest/adapter_kit.hpp"
#include "resp_client.hpp"

namespace pa = playtest_adapter;

namespace {

using resp::Connection;
using resp::Failure;
using resp::Reply;

// ---- the adapter ------------------------------------------------------------------------------

struct Options {
  std::string host = "127.0.0.1";
  int port = 6379;
  int clients = 2;
  int drop_to = -1;
  bool skip_unsubscribe = false;
};

class RedisAdapter;

// A subscriber connection and the thread that reads what Redis pushes on it: messages become
// outputs at once (the kit holds those that come during a stimulus until after its ack),
// confirmations of SUBSCRIBE and UNSUBSCRIBE are counted for the stimulus that waits for them.
class Subscriber {
 public:
  Subscriber(pa::Adapter& adapter, const Options& o, int client)
      : adapter_(adapter), drop_(client == o.drop_to), client_(client), conn_(o.host, o.port), thread_([this] {
          read_loop();
        }) {}
  ~Subscriber() {
    stopping_ = true;
    conn_.shutdown();
    thread_.join();
  }

  // Sends SUBSCRIBE or UNSUBSCRIBE and waits until Redis confirms it: a command on one connection
  // may overtake one sent earlier on another, so a later PUBLISH must not go out before.
  void command_confirmed(const std::string& command, const std::string& channel) {
    std::unique_lock lock(m_);
    ++expected_;
    lock.unlock();
    conn_.command({command, channel});
    lock.lock();
    if (!cv_.wait_for(lock, std::chrono::seconds(5), [&] { return confirmed_ >= expected_; }))
      throw Failure("redis did not confirm " + command + " within 5 s");
  }

 private:
  void read_loop() {
    try {
      for (;;) {
        Reply r = conn_.read_reply();
        if (r.type == '-') throw Failure("redis error on client " + std::to_string(client_) + ": " + r.text);
        if (r.type != '*' || r.elems.size() != 3 || r.elems[0].type != '$')
          throw Failure("unexpected push from redis on client " + std::to_string(client_));
        const std::string& kind = r.elems[0].text;
        if (kind == "message") {
          if (!drop_) adapter_.output("Message", {client_, r.elems[1].text, r.elems[2].text});
        } else if (kind == "subscribe" || kind == "unsubscribe") {
          std::lock_guard lock(m_);
          if (confirmed_ >= expected_)
            throw Failure("redis confirmed a " + kind + " on client " + std::to_string(client_) +
                          " that nobody asked for");
          ++confirmed_;
          cv_.notify_all();
        } else {
          throw Failure("unexpected push '" + kind + "' from redis on client " + std::to_string(client_));
        }
      }
    } catch (const std::exception& e) {
      if (!stopping_) adapter_.fail(e.what());
    }
  }

  pa::Adapter& adapter_;
  const bool drop_;
  const int client_;
  Connection conn_;
  std::mutex m_;
  std::condition_variable cv_;
  long expected_ = 0, confirmed_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

class RedisAdapter final : public pa::Adapter {
 public:
  explicit RedisAdapter(Options o) : o_(std::move(o)) {}

  void on_start() override {
    publisher_ = std::make_unique<Connection>(o_.host, o_.port);
    connect_clients();
    comment(std::to_string(o_.clients) + " clients on " + o_.host + ":" + std::to_string(o_.port));
  }
  // Reconnects every client (a fresh connection subscribes to nothing); late messages of the old
  // connections are gone with them.
  void on_reset() override {
    subs_.clear();
    connect_clients();
  }
  void on_stop() override {
    subs_.clear();
    publisher_.reset();
  }

  void on_stimulus(const pa::Label& s) override {
    if ((s.name == "Subscribe" || s.name == "Unsubscribe") && s.args.size() == 2) {
      const long long c = s.args[0].integer();
      if (c < 0 || c >= o_.clients)
        throw Failure("no client " + std::to_string(c) + " (there are " + std::to_string(o_.clients) + ")");
      if (s.name == "Unsubscribe" && o_.skip_unsubscribe) return;  // the planted fault
      subs_[static_cast<std::size_t>(c)]->command_confirmed(s.name == "Subscribe" ? "SUBSCRIBE" : "UNSUBSCRIBE",
                                                            s.args[1].text());
      return;
    }
    if (s.name == "Publish" && s.args.size() == 2) {
      publisher_->command({"PUBLISH", s.args[0].text(), s.args[1].text()});
      const Reply r = publisher_->read_reply();
      if (r.type != ':') throw Failure("redis answered PUBLISH with '" + std::string(1, r.type) + r.text + "'");
      return;
    }
    throw Failure("unknown stimulus '" + s.format() + "'");
  }

 private:
  void connect_clients() {
    for (int c = 0; c < o_.clients; ++c) subs_.push_back(std::make_unique<Subscriber>(*this, o_, c));
  }

  Options o_;
  std::unique_ptr<Connection> publisher_;
  std::vector<std::unique_ptr<Subscriber>> subs_;
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
  RedisAdapter adapter(o);
  return adapter.run();
}
