// A small work-queue server, written as an example system under test for values and time
// (docs/language.md, "Values the system chooses" and "Time"; the model is
// examples/models/jobq.ptm). Producers put jobs, workers reserve and delete them; the server
// invents each job's id. A reserved job that its worker does not delete within the time-to-run
// (TTR) goes back to the queue, or straight to a worker waiting in reserve: the job comes back.
//
// Line protocol over TCP (one command per line, one reply per command, like beanstalkd's):
//
//   put BODY     -> INSERTED ID
//   reserve      -> RESERVED ID BODY, once a job is ready (the connection waits until then)
//   delete ID    -> DELETED, or NOT_FOUND (no such job, or reserved by another connection)
//
// Usage: jobq_server [--port P] [--ttr MS] [--first-id N] [--negative-ids] [--no-ttr]
// With --port 0 (the default) it listens on a free loopback port and prints "PORT P" on standard
// output. The faults make it a buggy system for the tests that must see FAIL: --negative-ids answers
// every put with INSERTED -1; --no-ttr never gives a reserved job back.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  int port = 0;
  int ttr_ms = 300;
  long long first_id = -1;  // -1: a random one, so that nobody can hard-code the ids
  bool negative_ids = false;
  bool no_ttr = false;
};

struct Job {
  long long id;
  std::string body;
  int holder = -1;             // the connection that reserved it, -1 when ready
  Clock::time_point deadline;  // of its time-to-run, while reserved
};

struct Client {
  int fd;
  std::string in;
  bool waiting = false;  // blocked in reserve
};

class Server {
 public:
  explicit Server(Options o) : o_(o) {
    std::random_device rd;
    next_id_ = o_.first_id >= 0 ? o_.first_id : 1000 + static_cast<long long>(rd() % 9000);
  }

  int listen_fd() const { return listener_; }

  bool listen() {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(o_.port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listener_, 16) != 0) return false;
    socklen_t len = sizeof a;
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len);
    std::printf("PORT %d\n", ntohs(a.sin_port));
    std::fflush(stdout);
    return true;
  }

  void serve() {
    for (;;) {
      std::vector<pollfd> fds{{listener_, POLLIN, 0}};
      for (const Client& c : clients_) fds.push_back({c.fd, POLLIN, 0});
      ::poll(fds.data(), fds.size(), wait_ms());
      expire();
      if (fds[0].revents & POLLIN) {
        const int fd = ::accept(listener_, nullptr, nullptr);
        if (fd >= 0) clients_.push_back(Client{fd});
      }
      for (std::size_t i = 1; i < fds.size(); ++i)
        if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) read_from(fds[i].fd);
      std::erase_if(clients_, [](const Client& c) { return c.fd < 0; });
    }
  }

 private:
  // Until the next time-to-run ends (-1: none).
  int wait_ms() const {
    int best = -1;
    if (o_.no_ttr) return best;
    const auto now = Clock::now();
    for (const Job& j : jobs_)
      if (j.holder >= 0) {
        const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(j.deadline - now).count();
        const int w = static_cast<int>(std::max<long long>(0, ms) + 1);
        if (best < 0 || w < best) best = w;
      }
    return best;
  }

  // Jobs whose time-to-run has passed go back to the queue (and to a waiting worker).
  void expire() {
    if (o_.no_ttr) return;
    const auto now = Clock::now();
    for (Job& j : jobs_)
      if (j.holder >= 0 && j.deadline <= now) j.holder = -1;
    dispatch();
  }

  // Waiting workers get ready jobs, lowest id first, the longest-waiting worker first.
  void dispatch() {
    for (int fd : waiters_) {
      Client* c = client(fd);
      if (!c || !c->waiting) continue;
      Job* ready = nullptr;
      for (Job& j : jobs_)
        if (j.holder < 0 && (!ready || j.id < ready->id)) ready = &j;
      if (!ready) break;
      ready->holder = fd;
      ready->deadline = Clock::now() + std::chrono::milliseconds(o_.ttr_ms);
      c->waiting = false;
      say(fd, "RESERVED " + std::to_string(ready->id) + " " + ready->body);
    }
    std::erase_if(waiters_, [&](int fd) {
      const Client* c = client(fd);
      return !c || !c->waiting;
    });
  }

  Client* client(int fd) {
    for (Client& c : clients_)
      if (c.fd == fd) return &c;
    return nullptr;
  }

  static void say(int fd, const std::string& line) {
    const std::string s = line + "\n";
    (void)!::send(fd, s.data(), s.size(), MSG_NOSIGNAL);
  }

  void read_from(int fd) {
    Client* c = client(fd);
    char buf[4096];
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) {
      // A worker that leaves gives its jobs back.
      for (Job& j : jobs_)
        if (j.holder == fd) j.holder = -1;
      ::close(fd);
      c->fd = -1;
      dispatch();
      return;
    }
    c->in.append(buf, static_cast<std::size_t>(n));
    for (std::size_t nl; (nl = c->in.find('\n')) != std::string::npos;) {
      std::string line = c->in.substr(0, nl);
      c->in.erase(0, nl + 1);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      command(*c, line);
    }
  }

  void command(Client& c, const std::string& line) {
    if (line.rfind("put ", 0) == 0) {
      const long long id = next_id_++;
      jobs_.push_back(Job{id, line.substr(4)});
      say(c.fd, "INSERTED " + std::to_string(o_.negative_ids ? -1 : id));
      dispatch();
    } else if (line == "reserve") {
      c.waiting = true;
      waiters_.push_back(c.fd);
      dispatch();
    } else if (line.rfind("delete ", 0) == 0) {
      const long long id = std::atoll(line.c_str() + 7);
      for (auto it = jobs_.begin(); it != jobs_.end(); ++it)
        if (it->id == id && (it->holder < 0 || it->holder == c.fd)) {
          jobs_.erase(it);
          say(c.fd, "DELETED");
          return;
        }
      say(c.fd, "NOT_FOUND");
    } else {
      say(c.fd, "BAD_FORMAT");
    }
  }

  Options o_;
  int listener_ = -1;
  long long next_id_ = 1;
  std::vector<Job> jobs_;
  std::vector<Client> clients_;
  std::deque<int> waiters_;
};

int usage(const char* why) {
  std::fprintf(stderr,
               "jobq_server: %s\nusage: jobq_server [--port P] [--ttr MS] [--first-id N] [--negative-ids] "
               "[--no-ttr]\n",
               why);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> long long {
      if (i + 1 >= argc) return -2;
      return std::atoll(argv[++i]);
    };
    if (a == "--port")
      o.port = static_cast<int>(value());
    else if (a == "--ttr")
      o.ttr_ms = static_cast<int>(value());
    else if (a == "--first-id")
      o.first_id = value();
    else if (a == "--negative-ids")
      o.negative_ids = true;
    else if (a == "--no-ttr")
      o.no_ttr = true;
    else
      return usage(("unknown option " + a).c_str());
  }
  if (o.port < 0 || o.port > 65535 || o.ttr_ms < 1) return usage("bad --port or --ttr");
  Server s(o);
  if (!s.listen()) {
    std::perror("jobq_server: listen");
    return 1;
  }
  s.serve();
}
