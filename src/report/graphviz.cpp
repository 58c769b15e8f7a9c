#include "playtest/report/graphviz.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <set>

#include "playtest/exit_cleanup.hpp"

extern char** environ;

namespace playtest::report {

namespace {

using Clock = std::chrono::steady_clock;

// Closes the descriptors, kills the child's process group and reaps the child however render_svg
// leaves.
struct Child {
  pid_t pid = -1;
  int in = -1, out = -1, err = -1;
  int status = 0;
  bool reaped = false;
  TrackedProcessGroup group;
  ~Child() {
    for (int fd : {in, out, err})
      if (fd >= 0) ::close(fd);
    if (pid > 0) {
      ::kill(-pid, SIGKILL);  // also what it started
      if (!reaped)
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
  }
};

bool stop_requested(const GraphvizOptions& o) { return o.stop != nullptr && o.stop->requested(); }

SvgPicture interrupted(const GraphvizOptions& o) {
  SvgPicture p;
  p.message = fmt::format("the picture was not drawn: playtest was interrupted{}",
                          o.stop->signal() != 0 ? fmt::format(" by {}", signal_name(o.stop->signal())) : "");
  return p;
}

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ':' || c == '-' ||
         c == '_' || c == '.';
}

}  // namespace

SvgPicture clean_svg(std::string_view doc) {
  // What Graphviz 2.42 - 9 draws in SVG; anything else (script, foreignObject, image, use, style,
  // animation) is refused.
  static const std::set<std::string_view> elements = {
      "svg",  "g", "title", "polygon",        "polyline",       "ellipse", "path",
      "text", "a", "defs",  "linearGradient", "radialGradient", "stop",    "tspan"};
  SvgPicture p;
  const auto start = doc.find("<svg");
  if (start == std::string_view::npos) {
    p.message = "Graphviz produced no <svg> element";
    return p;
  }
  std::string out;
  out.reserve(doc.size() - start);
  std::size_t i = start;
  int depth = 0;
  auto refuse = [&](std::string why) {
    p.svg.clear();
    p.message = "the SVG from Graphviz was not used: " + why;
    return p;
  };
  while (i < doc.size()) {
    const std::size_t lt = doc.find('<', i);
    if (lt == std::string_view::npos) {
      if (doc.substr(i).find_first_not_of(" \t\r\n") != std::string_view::npos) return refuse("text after the picture");
      break;
    }
    out.append(doc.substr(i, lt - i));  // text: Graphviz escapes '<' and '&' in it
    if (doc.substr(lt, 4) == "<!--") {
      const auto end = doc.find("-->", lt + 4);
      if (end == std::string_view::npos) return refuse("an unterminated comment");
      i = end + 3;
      continue;
    }
    std::size_t j = lt + 1;
    const bool closing = j < doc.size() && doc[j] == '/';
    if (closing) ++j;
    const std::size_t name_start = j;
    while (j < doc.size() && is_name_char(doc[j])) ++j;
    const std::string_view name = doc.substr(name_start, j - name_start);
    if (!elements.count(name)) return refuse(fmt::format("an element <{}>", name.substr(0, 40)));
    // Attributes: name="value" (Graphviz always double-quotes and escapes '"' and '<' inside).
    bool self_closing = false;
    while (true) {
      while (j < doc.size() && (doc[j] == ' ' || doc[j] == '\n' || doc[j] == '\t' || doc[j] == '\r')) ++j;
      if (j >= doc.size()) return refuse("a tag that does not end");
      if (doc[j] == '>') break;
      if (doc[j] == '/' && j + 1 < doc.size() && doc[j + 1] == '>') {
        self_closing = true;
        ++j;
        break;
      }
      if (closing) return refuse("attributes in a closing tag");
      const std::size_t an = j;
      while (j < doc.size() && is_name_char(doc[j])) ++j;
      std::string attr(doc.substr(an, j - an));
      if (attr.empty() || j + 1 >= doc.size() || doc[j] != '=' || doc[j + 1] != '"')
        return refuse("an attribute that is not name=\"value\"");
      std::transform(attr.begin(), attr.end(), attr.begin(), [](unsigned char c) { return std::tolower(c); });
      if (attr.starts_with("on") || attr == "href" || attr == "xlink:href" || attr == "src" || attr == "style" ||
          attr == "xml:base")
        return refuse(fmt::format("an attribute {}", attr));
      const auto close = doc.find('"', j + 2);
      if (close == std::string_view::npos) return refuse("an attribute value that does not end");
      if (doc.substr(j + 2, close - j - 2).find('<') != std::string_view::npos)
        return refuse("'<' in an attribute value");
      j = close + 1;
    }
    out.append(doc.substr(lt, j + 1 - lt));
    i = j + 1;
    if (closing) {
      if (--depth == 0) break;
    } else if (!self_closing) {
      ++depth;
    }
  }
  if (depth != 0) return refuse("unbalanced tags");
  p.ok = true;
  p.svg = std::move(out);
  return p;
}

SvgPicture render_svg(std::string_view dot, const GraphvizOptions& options) {
  if (stop_requested(options)) return interrupted(options);
  SvgPicture fail;
  int in_pair[2], out_pipe[2], err_pipe[2];
  // stdin is a socket so that writing to a Graphviz that died is EPIPE (MSG_NOSIGNAL), not SIGPIPE.
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in_pair) != 0) {
    fail.message = fmt::format("cannot start Graphviz: {}", std::strerror(errno));
    fail.reason = "it could not be started";
    return fail;
  }
  Child c;
  c.in = in_pair[0];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) {
    ::close(in_pair[1]);
    fail.message = fmt::format("cannot start Graphviz: {}", std::strerror(errno));
    fail.reason = "it could not be started";
    return fail;
  }
  c.out = out_pipe[0];
  if (::pipe2(err_pipe, O_CLOEXEC) != 0) {
    ::close(in_pair[1]);
    ::close(out_pipe[1]);
    fail.message = fmt::format("cannot start Graphviz: {}", std::strerror(errno));
    fail.reason = "it could not be started";
    return fail;
  }
  c.err = err_pipe[0];
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&attr);
  posix_spawn_file_actions_adddup2(&fa, in_pair[1], 0);
  posix_spawn_file_actions_adddup2(&fa, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err_pipe[1], 2);
  sigset_t def, mask;
  sigemptyset(&def);
  sigaddset(&def, SIGPIPE);
  sigaddset(&def, SIGINT);
  sigaddset(&def, SIGTERM);
  sigemptyset(&mask);
  posix_spawnattr_setsigdefault(&attr, &def);
  posix_spawnattr_setsigmask(&attr, &mask);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::string program = options.program, flag = "-Tsvg";
  char* argv[] = {program.data(), flag.data(), nullptr};
  const int rc = ::posix_spawnp(&c.pid, program.c_str(), &fa, &attr, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(in_pair[1]);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (rc != 0) {
    c.pid = -1;
    fail.reason = rc == ENOENT ? "it is not installed" : "it could not be started";
    fail.message = rc == ENOENT ? fmt::format(
                                      "Graphviz ('{}') is not installed or not on PATH (the graphviz package; "
                                      "scripts/setup.sh installs it)",
                                      options.program)
                                : fmt::format("cannot start Graphviz ('{}'): {}", options.program, std::strerror(rc));
    return fail;
  }
  c.group.track(c.pid);
  for (int fd : {c.in, c.out, c.err}) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);

  std::string out, err;
  std::size_t written = 0;
  const auto deadline = Clock::now() + options.timeout;
  std::array<char, 1 << 16> buf;
  while (c.out >= 0 || c.err >= 0) {
    if (stop_requested(options)) return interrupted(options);  // ~Child kills it
    std::array<pollfd, 4> fds{};
    nfds_t n = 0;
    if (c.in >= 0) fds[n++] = {c.in, POLLOUT, 0};
    if (c.out >= 0) fds[n++] = {c.out, POLLIN, 0};
    if (c.err >= 0) fds[n++] = {c.err, POLLIN, 0};
    const nfds_t watched = n;
    if (options.stop != nullptr) fds[n++] = {options.stop->fd(), POLLIN, 0};
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      fail.message = fmt::format("Graphviz did not finish the layout within {} s", options.timeout.count() / 1000.0);
      fail.reason = fmt::format("it timed out after {} s", options.timeout.count() / 1000.0);
      return fail;  // ~Child kills it
    }
    if (::poll(fds.data(), n, static_cast<int>(std::min<long long>(left, 1000))) < 0 && errno != EINTR) {
      fail.message = fmt::format("waiting for Graphviz failed: {}", std::strerror(errno));
      fail.reason = "waiting for it failed";
      return fail;
    }
    for (nfds_t k = 0; k < watched; ++k) {
      if (!fds[k].revents) continue;
      if (fds[k].fd == c.in) {
        const ssize_t w = ::send(c.in, dot.data() + written, dot.size() - written, MSG_NOSIGNAL);
        if (w > 0) written += static_cast<std::size_t>(w);
        if (w < 0 && errno != EAGAIN && errno != EINTR) written = dot.size();  // Graphviz stopped reading
        if (written == dot.size()) {
          ::close(c.in);
          c.in = -1;
        }
        continue;
      }
      int& fd = fds[k].fd == c.out ? c.out : c.err;
      std::string& sink = fds[k].fd == c.out ? out : err;
      const ssize_t r = ::read(fd, buf.data(), buf.size());
      if (r > 0) {
        if (&sink == &err && err.size() > 4096) continue;
        sink.append(buf.data(), static_cast<std::size_t>(r));
      } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
        ::close(fd);
        fd = -1;
      }
    }
  }
  while (::waitpid(c.pid, &c.status, 0) < 0) {
    if (errno != EINTR) break;
  }
  c.reaped = true;
  if (!WIFEXITED(c.status) || WEXITSTATUS(c.status) != 0) {
    while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
    fail.message = fmt::format("Graphviz failed ({}){}",
                               WIFEXITED(c.status) ? fmt::format("exit status {}", WEXITSTATUS(c.status))
                                                   : fmt::format("signal {}", WTERMSIG(c.status)),
                               err.empty() ? "" : ": " + err.substr(0, 500));
    fail.reason = WIFEXITED(c.status) ? fmt::format("it failed with exit status {}", WEXITSTATUS(c.status))
                                      : fmt::format("it was killed by signal {}", WTERMSIG(c.status));
    return fail;
  }
  SvgPicture cleaned = clean_svg(out);
  if (!cleaned.ok) cleaned.reason = "its output was not a picture that is safe to show";
  return cleaned;
}

}  // namespace playtest::report
