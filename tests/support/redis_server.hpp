// A redis-server of the test's own for end-to-end tests against a real third-party program
// (test_cli_redis.cpp, test_cli_redis_queue.cpp): started in the foreground on a free loopback port,
// with no persistence, in a scratch directory, killed by the destructor (and by the kernel if the test
// process dies). Where redis-server is missing or does not start, why_not() says why, and the tests
// skip with that reason, never pass.
#pragma once

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>

#include "cli_runner.hpp"

namespace playtest::testing {

inline std::optional<std::string> find_in_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  dirs += ":/usr/sbin:/sbin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    std::size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string candidate = dirs.substr(start, end - start) + "/" + name;
    if (end > start && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

// A loopback port nobody listens on right now (the kernel's choice for port 0).
inline int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return -1;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof addr;
  int port = -1;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0)
    port = ntohs(addr.sin_port);
  ::close(fd);
  return port;
}

// True once the server at `port` answers PING with +PONG.
inline bool answers_ping(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval tv{.tv_sec = 1, .tv_usec = 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  bool ok = false;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    const char ping[] = "*1\r\n$4\r\nPING\r\n";
    char buf[16] = {};
    if (::send(fd, ping, sizeof ping - 1, MSG_NOSIGNAL) == static_cast<ssize_t>(sizeof ping - 1) &&
        ::recv(fd, buf, sizeof buf - 1, 0) >= 7)
      ok = std::string(buf, 7) == "+PONG\r\n";
  }
  ::close(fd);
  return ok;
}

// A redis-server of our own: started in the foreground (no daemon, no RDB or AOF file) and killed
// by the destructor.
class RedisServer {
 public:
  // Empty `why_not` means it runs and answers on port().
  explicit RedisServer(const ScratchDir& dir) {
    const auto binary = find_in_path("redis-server");
    if (!binary) {
      why_not_ = "redis-server not found in PATH (Debian package redis-server; scripts/setup.sh installs it)";
      return;
    }
    // The port is free when chosen but another process may take it before the server binds it:
    // try a few.
    for (int attempt = 0; attempt < 5 && port_ < 0; ++attempt) {
      const int port = free_port();
      if (port < 0) continue;
      if (start(*binary, port, dir)) port_ = port;
    }
    if (port_ < 0)
      why_not_ = "redis-server (" + *binary +
                 ") could not be started on a loopback port: " + read_file(dir.file("redis.log")).substr(0, 2000);
  }
  RedisServer(const RedisServer&) = delete;
  RedisServer& operator=(const RedisServer&) = delete;
  ~RedisServer() { stop(); }

  const std::string& why_not() const { return why_not_; }
  int port() const { return port_; }

 private:
  bool start(const std::string& binary, int port, const ScratchDir& dir) {
    const std::string port_text = std::to_string(port), dir_text = dir.file(""), log = dir.file("redis.log");
    const pid_t parent = ::getpid();
    pid_ = ::fork();
    if (pid_ < 0) return false;
    if (pid_ == 0) {
      // Dies with the test process, even when that is killed.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != parent) ::_exit(127);
      const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
      if (fd >= 0) {
        ::dup2(fd, 1);
        ::dup2(fd, 2);
      }
      ::execl(binary.c_str(), binary.c_str(), "--port", port_text.c_str(), "--bind", "127.0.0.1", "--save", "",
              "--appendonly", "no", "--daemonize", "no", "--dir", dir_text.c_str(), "--databases", "1", nullptr);
      ::_exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {  // exited: port taken, or it cannot run here
        pid_ = -1;
        return false;
      }
      if (answers_ping(port)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    stop();
    return false;
  }

  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 200; ++i) {  // 2 s, then no more patience
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  pid_t pid_ = -1;
  int port_ = -1;
  std::string why_not_;
};

}  // namespace playtest::testing
