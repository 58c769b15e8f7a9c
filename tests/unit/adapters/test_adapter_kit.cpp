// The C++ adapter kit (adapters/cpp/playtest/adapter_kit.hpp): labels exactly as the modelling language
// writes them, and the protocol's order, played by a child process whose standard input and output
// are pipes to the test: ready first, ack after the stimulus, outputs raised meanwhile (by the
// handler and by other threads) after the ack, refused, error (exit status 1), end (on_stop, exit
// 0), one reader thread per connection with replies and pushes apart.
#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "playtest/adapter_kit.hpp"

namespace pa = playtest_adapter;

namespace {

TEST(AdapterKitLabels, FormatAsTheLanguage) {
  EXPECT_EQ(pa::format_label("Put"), "Put");
  EXPECT_EQ(pa::format_label("Put", {1, "a"}), "Put(1, \"a\")");
  EXPECT_EQ(pa::format_label("?Msg", {-3, true, false}), "?Msg(-3, true, false)");
  EXPECT_EQ(pa::format_label("S", {"say \"hi\"\\"}), "S(\"say \\\"hi\\\"\\\\\")");
  EXPECT_EQ(pa::format_label("T", {pa::Value::tuple({1, pa::Value::tuple({"x", pa::Value::name("red")})})}),
            "T((1, (\"x\", red)))");
  EXPECT_EQ(pa::format_label("Q", {pa::Value::sequence({1, 2}), pa::Value::set({3, 1}), pa::Value::set({})}),
            "Q([1, 2], {3, 1}, {})");
  EXPECT_EQ(pa::format_label("M", {pa::Value::map({{1, "a"}, {2, "b"}})}), "M({1 -> \"a\", 2 -> \"b\"})");
}

TEST(AdapterKitLabels, ParseAndRoundTrip) {
  const pa::Label l = pa::parse_label("?Msg(1, \"news\", \"a, (b)\")");
  EXPECT_EQ(l.name, "?Msg");
  ASSERT_EQ(l.args.size(), 3u);
  EXPECT_EQ(l.args[0].integer(), 1);
  EXPECT_EQ(l.args[2].text(), "a, (b)");
  for (const std::string text : {"Put", "P(-7)", "T((1, (\"x\\\"y\", red)), [true, false], {}, {1 -> [2]}, {4, 5})",
                                 "E(\"\")", "X(Job#0, \"\\\\\")"}) {
    EXPECT_EQ(pa::parse_label(text).format(), text);
  }
  EXPECT_EQ(pa::parse_label("T((1, (\"x\\\"y\", red)))").args[0].items()[1].items()[1].kind(), pa::Value::Kind::name);
  for (const std::string bad : {"P(\"open", "P(1,", "P(1) x", "P(\"\\n\")", "P(-)"})
    EXPECT_THROW(pa::parse_label(bad), std::invalid_argument) << bad;
  try {
    pa::parse_label("P(1, \"x");
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "bad label 'P(1, \"x' at column 6: unterminated string");
  }
  EXPECT_THROW((void)pa::Value(3).text(), std::logic_error);
}

TEST(AdapterKitLabels, Params) {
  ::setenv("PLAYTEST_PARAM_NW", "3", 1);
  EXPECT_EQ(pa::param("NW"), "3");
  EXPECT_EQ(pa::param_int("NW", 1), 3);
  EXPECT_EQ(pa::param_int("MISSING_ONE", 7), 7);
  ::setenv("PLAYTEST_PARAM_NW", "x", 1);
  EXPECT_THROW(pa::param_int("NW", 1), std::invalid_argument);
  ::unsetenv("PLAYTEST_PARAM_NW");
}

// A child process running an adapter on pipes.
class Child {
 public:
  explicit Child(const std::function<int()>& body) {
    int in[2], out[2];
    if (::pipe(in) != 0 || ::pipe(out) != 0) throw std::runtime_error("pipe");
    pid_ = ::fork();
    if (pid_ == 0) {
      ::dup2(in[0], STDIN_FILENO);
      ::dup2(out[1], STDOUT_FILENO);
      ::close(in[0]), ::close(in[1]), ::close(out[0]), ::close(out[1]);
      std::_Exit(body());
    }
    ::close(in[0]);
    ::close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~Child() {
    if (to_ >= 0) ::close(to_);
    ::close(from_);
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  void send(const std::string& line) {
    const std::string s = line + "\n";
    ASSERT_EQ(::write(to_, s.data(), s.size()), static_cast<ssize_t>(s.size()));
  }
  void close_input() {
    ::close(to_);
    to_ = -1;
  }
  // The next line, or "<timeout>" / "<eof>".
  std::string line(int timeout_ms = 5000) {
    for (;;) {
      if (const auto nl = buf_.find('\n'); nl != std::string::npos) {
        std::string l = buf_.substr(0, nl);
        buf_.erase(0, nl + 1);
        return l;
      }
      pollfd p{from_, POLLIN, 0};
      if (::poll(&p, 1, timeout_ms) <= 0) return "<timeout>";
      char b[512];
      const ssize_t n = ::read(from_, b, sizeof b);
      if (n <= 0) return "<eof>";
      buf_.append(b, static_cast<std::size_t>(n));
    }
  }
  int wait() {
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;
  std::string buf_;
};

struct Scripted final : pa::Adapter {
  void on_start() override { comment("started"); }
  void on_stimulus(const pa::Label& s) override {
    if (s.name == "go") {
      output("Early", {s.args.at(0).integer()});
      std::thread t([this] { output("FromThread", {"x"}); });
      t.join();
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    } else if (s.name == "no") {
      throw pa::Refused();
    } else if (s.name == "later") {
      std::thread([this] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        output("Late");
        quiet();
      }).detach();
    } else if (s.name == "boom") {
      throw std::runtime_error("the system\nfell over");
    }
  }
  void on_reset() override { comment("reset"); }
  void on_stop() override { comment("stopped"); }
};

TEST(AdapterKitProtocol, OrderOfReadyAckOutputsRefusedError) {
  Child c([] { return Scripted().run(); });
  EXPECT_EQ(c.line(), "# started");
  EXPECT_EQ(c.line(), "ready");
  c.send("stimulus go(5)");
  EXPECT_EQ(c.line(), "ack");
  EXPECT_EQ(c.line(), "output ?Early(5)");
  EXPECT_EQ(c.line(), "output ?FromThread(\"x\")");
  c.send("stimulus later");
  EXPECT_EQ(c.line(), "ack");
  EXPECT_EQ(c.line(), "output ?Late");  // raised after the ack: written at once
  EXPECT_EQ(c.line(), "quiet");
  c.send("stimulus no");
  EXPECT_EQ(c.line(), "refused");
  c.send("# a comment");
  c.send("");
  c.send("reset");
  EXPECT_EQ(c.line(), "# reset");
  EXPECT_EQ(c.line(), "ready");
  c.send("stimulus boom");
  EXPECT_EQ(c.line(), "error the system fell over");
  EXPECT_EQ(c.line(), "# stopped");
  EXPECT_EQ(c.wait(), 1);
}

// Every way out of a handler but a return or Refused: `error MESSAGE`, then on_stop (issue 36: a
// handler that threw something other than a std::exception aborted the adapter with SIGABRT).
struct Throwing final : pa::Adapter {
  void on_stimulus(const pa::Label& s) override {
    if (s.name == "int") throw 42;
    if (s.name == "cstr") throw "the system fell over";
    if (s.name == "string") throw std::string("a string");
    if (s.name == "empty") throw std::runtime_error("");
    if (s.name == "exit") std::exit(0);
  }
  void on_stop() override { comment("stopped"); }
};

TEST(AdapterKitProtocol, EveryWayOutOfAHandlerGivesErrorAndOnStop) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"int", "error an exception that is not a std::exception was thrown (of type int)"},
      {"cstr", "error the system fell over"},
      {"string", "error a string"},
      {"empty", "error an exception with an empty message was thrown"},
      {"exit", "error the adapter called exit() while it was running"},
  };
  for (const auto& [stimulus, want] : cases) {
    SCOPED_TRACE(stimulus);
    Child c([] { return Throwing().run(); });
    EXPECT_EQ(c.line(), "ready");
    c.send("stimulus " + stimulus);
    EXPECT_EQ(c.line(), want);
    EXPECT_EQ(c.line(), "# stopped");
    EXPECT_EQ(c.line(), "<eof>");
    const int status = c.wait();
    if (stimulus != "exit") {
      EXPECT_EQ(status, 1);
    }
  }
}

// A connection's reader thread that fails (its server died) while on_stop() joins that thread (the
// connection's destructor stops its reader): `error`, on_stop() and exit 1, never an abort from
// within join() (the Redis queue adapter did so when Redis was shut down under it).
struct ReaderFails final : pa::Adapter {
  struct Connection {
    std::thread reader;
    ~Connection() {
      if (reader.joinable()) reader.join();
    }
  };
  std::unique_ptr<Connection> conn;
  void on_stimulus(const pa::Label&) override {
    conn = std::make_unique<Connection>();
    conn->reader = std::thread([this] { fail("worker 0: redis closed the connection"); });
  }
  void on_stop() override {
    comment("stopping");
    conn.reset();  // joins the reader
  }
};

TEST(AdapterKitProtocol, AFailureInAReaderThreadThatOnStopJoinsEndsCleanly) {
  Child c([] { return ReaderFails().run(); });
  EXPECT_EQ(c.line(), "ready");
  c.send("stimulus go");
  std::vector<std::string> lines;
  for (std::string l = c.line(); l != "<eof>" && l != "<timeout>"; l = c.line()) lines.push_back(l);
  EXPECT_NE(std::find(lines.begin(), lines.end(), "error worker 0: redis closed the connection"), lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), "# stopping"), lines.end());
  EXPECT_EQ(c.wait(), 1);  // an abort is -1 here (not an exit)
}

// `done`: the outputs of a stimulus are complete (docs/adapter-protocol.md, "Outputs that may or
// may not come").
struct Settling final : pa::Adapter {
  void on_stimulus(const pa::Label& s) override {
    if (s.name == "answer") {
      output("Got", {1});
      done();  // held: after the ack and the output
    } else if (s.name == "maybe") {
      done_after(std::chrono::milliseconds(100));
      std::thread([this] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        output("Late", {2});  // within the settle time: before the `done`
      }).detach();
    } else if (s.name == "settle") {
      done_after(std::chrono::milliseconds(100));
    } else if (s.name == "no") {
      done();
      throw pa::Refused();
    }
  }
};

TEST(AdapterKitProtocol, DoneAfterTheOutputsOfAStimulus) {
  Child c([] { return Settling().run(); });
  EXPECT_EQ(c.line(), "ready");
  c.send("stimulus answer");
  EXPECT_EQ(c.line(), "ack");
  EXPECT_EQ(c.line(), "output ?Got(1)");
  EXPECT_EQ(c.line(), "done");
  const auto began = std::chrono::steady_clock::now();
  c.send("stimulus maybe");
  EXPECT_EQ(c.line(), "ack");
  EXPECT_EQ(c.line(), "output ?Late(2)");
  EXPECT_EQ(c.line(), "done");
  EXPECT_GE(std::chrono::steady_clock::now() - began, std::chrono::milliseconds(90));
  // A stimulus that comes before the settle time is over: the old `done` is never written.
  c.send("stimulus settle");
  EXPECT_EQ(c.line(), "ack");
  c.send("stimulus no");
  EXPECT_EQ(c.line(), "refused");
  EXPECT_EQ(c.line(300), "<timeout>");
  c.send("end");
  EXPECT_EQ(c.wait(), 0);
}

struct SettleAll final : pa::Adapter {
  SettleAll() { set_settle(std::chrono::milliseconds(10)); }
  void on_stimulus(const pa::Label&) override {}
};

TEST(AdapterKitProtocol, SetSettleGivesEveryStimulusItsDone) {
  Child c([] { return SettleAll().run(); });
  EXPECT_EQ(c.line(), "ready");
  for (int i = 0; i < 3; ++i) {
    c.send("stimulus x");
    EXPECT_EQ(c.line(), "ack");
    EXPECT_EQ(c.line(), "done");
  }
  c.send("end");
  EXPECT_EQ(c.wait(), 0);
}

TEST(AdapterKitProtocol, EndAndEndOfFileStop) {
  {
    Child c([] { return Scripted().run(); });
    EXPECT_EQ(c.line(), "# started");
    EXPECT_EQ(c.line(), "ready");
    c.send("end");
    EXPECT_EQ(c.line(), "# stopped");
    EXPECT_EQ(c.wait(), 0);
  }
  {
    Child c([] { return Scripted().run(); });
    EXPECT_EQ(c.line(), "# started");
    EXPECT_EQ(c.line(), "ready");
    c.close_input();
    EXPECT_EQ(c.line(), "# stopped");
    EXPECT_EQ(c.wait(), 0);
  }
  {
    Child c([] { return Scripted().run(); });
    (void)c.line();
    (void)c.line();
    c.send("hello");
    EXPECT_EQ(c.line(), "error cannot handle the line 'hello'");
    EXPECT_EQ(c.wait(), 1);
  }
}

// A line server on a free loopback port: "ask N" is answered "answer N" after 50 ms; "push" sends
// "pushed" on every connection at once.
class LineServer {
 public:
  LineServer() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(fd_, 8);
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    std::thread([this] { serve(); }).detach();
  }
  int port() const { return port_; }

 private:
  void serve() {
    std::vector<int> conns;
    for (;;) {
      std::vector<pollfd> p{{fd_, POLLIN, 0}};
      for (int c : conns) p.push_back({c, POLLIN, 0});
      ::poll(p.data(), p.size(), -1);
      if (p[0].revents & POLLIN) conns.push_back(::accept(fd_, nullptr, nullptr));
      for (std::size_t i = 1; i < p.size(); ++i) {
        if (!(p[i].revents & POLLIN)) continue;
        char b[256];
        const ssize_t n = ::recv(p[i].fd, b, sizeof b, 0);
        if (n <= 0) continue;
        const std::string l(b, static_cast<std::size_t>(n));
        if (l.rfind("ask ", 0) == 0) {
          std::this_thread::sleep_for(std::chrono::milliseconds(50));
          const std::string r = "answer " + l.substr(4);
          (void)!::send(p[i].fd, r.data(), r.size(), MSG_NOSIGNAL);
        } else if (l == "push\n") {
          for (int c : conns) (void)!::send(c, "pushed\n", 7, MSG_NOSIGNAL);
        }
      }
    }
  }
  int fd_, port_;
};

struct TwoConnections final : pa::Adapter {
  explicit TwoConnections(int port) : port_(port) {}
  void on_start() override {
    auto is_reply = [](const std::string& l) { return l.rfind("answer", 0) == 0; };
    a_ = std::make_unique<pa::LineConnection>(*this, "127.0.0.1", port_, "a", is_reply,
                                              [this](const std::string&) { output("Pushed", {"a"}); });
    b_ = std::make_unique<pa::LineConnection>(*this, "127.0.0.1", port_, "b", is_reply,
                                              [this](const std::string&) { output("Pushed", {"b"}); });
  }
  void on_stimulus(const pa::Label& s) override {
    // A push arrives on both connections while `a` waits for its reply: the readers keep them apart.
    b_->send("push");
    const std::string reply = a_->request("ask " + std::to_string(s.args.at(0).integer()));
    output("Answer", {std::stoll(reply.substr(7))});
  }
  void on_stop() override {
    a_.reset();
    b_.reset();
  }
  int port_;
  std::unique_ptr<pa::LineConnection> a_, b_;
};

TEST(AdapterKitProtocol, ReplyAndPushesOnTwoConnections) {
  Child c([] {
    LineServer server;
    return TwoConnections(server.port()).run();
  });
  EXPECT_EQ(c.line(), "ready");
  c.send("stimulus Ask(7)");
  EXPECT_EQ(c.line(), "ack");
  std::vector<std::string> outs{c.line(), c.line(), c.line()};
  std::sort(outs.begin(), outs.end());
  EXPECT_EQ(outs, (std::vector<std::string>{"output ?Answer(7)", "output ?Pushed(\"a\")", "output ?Pushed(\"b\")"}));
  c.send("end");
  EXPECT_EQ(c.wait(), 0);
}

}  // namespace
