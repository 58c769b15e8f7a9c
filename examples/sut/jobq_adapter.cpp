// The adapter between playtest and the work-queue server examples/sut/jobq_server.cpp, for the model
// examples/models/jobq.ptm, written with the C++ adapter kit (adapters/cpp/playtest/adapter_kit.hpp);
// examples/sut/jobq_adapter.py is the same adapter in Python.
//
// It starts a fresh server for every run (and at every reset), with the model's time-to-run
// (PLAYTEST_PARAM_TTR, which playtest passes from the model's --param), and opens three connections:
// the producer's and one per worker, each with a reader thread of its own (LineConnection): a
// worker's RESERVED may come at any time, also while another connection waits for a reply.
//
//   stimulus Put             put job on the producer's connection; output ?Inserted(ID)
//   stimulus Reserve(W)      reserve on worker W's connection; output ?Reserved(W, ID) when a job comes
//   stimulus Delete(W, ID)   delete ID on worker W's connection; output ?Deleted(W) (or ?NotFound(W))
//
// Usage: jobq_adapter SERVER [SERVER_OPTIONS...]
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "playtest/adapter_kit.hpp"

namespace pa = playtest_adapter;

namespace {

constexpr int workers = 2;

class JobQueueAdapter final : public pa::Adapter {
 public:
  explicit JobQueueAdapter(std::vector<std::string> server) : server_command_(std::move(server)) {}

  void on_start() override {
    const int port = start_server();
    producer_ = std::make_unique<pa::LineConnection>(*this, "127.0.0.1", port, "producer");
    for (int w = 0; w < workers; ++w)
      workers_.push_back(std::make_unique<pa::LineConnection>(
          *this, "127.0.0.1", port, "worker " + std::to_string(w),
          [](const std::string& line) { return line.rfind("RESERVED ", 0) != 0; },
          [this, w](const std::string& line) { reserved(w, line); }));
  }

  void on_stimulus(const pa::Label& s) override {
    if (s.name == "Put") {
      const std::string reply = producer_->request("put job");
      if (reply.rfind("INSERTED ", 0) != 0) throw std::runtime_error("put: the server answered '" + reply + "'");
      output("Inserted", {std::stoll(reply.substr(9))});
    } else if (s.name == "Reserve") {
      workers_.at(static_cast<std::size_t>(s.args.at(0).integer()))->send("reserve");  // RESERVED comes later
    } else if (s.name == "Delete") {
      const long long w = s.args.at(0).integer();
      const std::string reply =
          workers_.at(static_cast<std::size_t>(w))->request("delete " + std::to_string(s.args.at(1).integer()));
      output(reply == "DELETED" ? "Deleted" : "NotFound", {w});
    } else {
      throw pa::Refused();
    }
  }

  void on_stop() override {
    producer_.reset();
    workers_.clear();
    if (server_ > 0) {
      ::kill(server_, SIGKILL);
      ::waitpid(server_, nullptr, 0);
      server_ = -1;
    }
  }

 private:
  // In worker w's reader thread: "RESERVED ID BODY".
  void reserved(int w, const std::string& line) {
    const std::size_t id_end = line.find(' ', 9);
    output("Reserved", {w, std::stoll(line.substr(9, id_end - 9))});
  }

  // Starts the server on a free port; returns the port it printed.
  int start_server() {
    int out[2];
    if (::pipe(out) != 0) throw std::runtime_error("pipe failed");
    std::vector<std::string> args = server_command_;
    args.insert(args.end(), {"--port", "0", "--ttr", pa::param("TTR", "300")});
    server_ = ::fork();
    if (server_ < 0) throw std::runtime_error("fork failed");
    if (server_ == 0) {
      ::dup2(out[1], STDOUT_FILENO);
      ::close(out[0]);
      ::close(out[1]);
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      std::_Exit(127);
    }
    ::close(out[1]);
    std::string first;
    char c;
    while (::read(out[0], &c, 1) == 1 && c != '\n') first += c;
    ::close(out[0]);
    if (first.rfind("PORT ", 0) != 0) throw std::runtime_error("the server did not say its port (got '" + first + "')");
    return std::stoi(first.substr(5));
  }

  std::vector<std::string> server_command_;
  pid_t server_ = -1;
  std::unique_ptr<pa::LineConnection> producer_;
  std::vector<std::unique_ptr<pa::LineConnection>> workers_;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: jobq_adapter SERVER [SERVER_OPTIONS...]\n");
    return 2;
  }
  JobQueueAdapter adapter(std::vector<std::string>(argv + 1, argv + argc));
  return adapter.run();
}
