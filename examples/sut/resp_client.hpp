// A minimal Redis client for the example adapters (redis_adapter.cpp, redis_queue_adapter.cpp): Redis's
// wire protocol (RESP2) over a loopback TCP socket, no client library. Errors are `Failure`s with a
// message for the adapter's error line.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace resp {

struct Failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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
  Connection(const std::string& host, int port, int reply_timeout_s = 0) : reply_timeout_s_(reply_timeout_s) {
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

  // Thread-safe: a connection may be written by one thread while another reads its replies.
  void command(const std::vector<std::string>& words) {
    std::lock_guard lock(write_mutex_);
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
        const long n = length(r.text);
        if (n < 0) {
          r.null = true;
          return r;
        }
        r.text = read_exactly(static_cast<std::size_t>(n));
        if (read_exactly(2) != "\r\n") throw Failure("redis bulk string not terminated by CRLF");
        return r;
      }
      case '*': {
        const long n = length(r.text);
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
  static long length(const std::string& text) {
    long n = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec != std::errc() || end != text.data() + text.size()) throw Failure("redis sent a bad length: " + text);
    return n;
  }
  bool fill() {
    char buf[4096];
    for (;;) {
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        throw Failure("redis did not answer within " + std::to_string(reply_timeout_s_) + " s");
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
  int reply_timeout_s_ = 0;
  std::string in_;
  std::mutex write_mutex_;
};

}  // namespace resp
