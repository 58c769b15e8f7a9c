#include "playtest/report/graphviz.hpp"

#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <set>

#include "playtest/base/subprocess.hpp"

namespace playtest::report {

namespace {

using Clock = std::chrono::steady_clock;

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
  using Fd = Subprocess::Fd;
  using Stream = SpawnOptions::Stream;
  Subprocess c;  // killed and reaped however render_svg leaves
  const ProcessEnd started =
      c.start({.argv = {options.program, "-Tsvg"}, .in = Stream::pipe, .out = Stream::pipe, .err = Stream::pipe});
  if (started.how == ProcessEnd::How::not_started) {
    const int rc = started.error;
    if (started.pipes) {
      fail.message = fmt::format("cannot start Graphviz: {}", std::strerror(rc));
      fail.reason = "it could not be started";
      return fail;
    }
    fail.reason = rc == ENOENT ? "it is not installed" : "it could not be started";
    fail.message = rc == ENOENT ? fmt::format(
                                      "Graphviz ('{}') is not installed or not on PATH (the graphviz package; "
                                      "scripts/setup.sh installs it)",
                                      options.program)
                                : fmt::format("cannot start Graphviz ('{}'): {}", options.program, std::strerror(rc));
    return fail;
  }

  std::string out, err;
  std::size_t written = 0;
  const auto deadline = Clock::now() + options.timeout;
  std::array<char, 1 << 16> buf;
  while (c.fd(Fd::out) >= 0 || c.fd(Fd::err) >= 0) {
    if (stop_requested(options)) return interrupted(options);  // ~Subprocess kills it
    std::array<pollfd, 4> fds{};
    nfds_t n = 0;
    for (Fd which : {Fd::in, Fd::out, Fd::err})
      if (c.fd(which) >= 0) fds[n++] = {c.fd(which), static_cast<short>(which == Fd::in ? POLLOUT : POLLIN), 0};
    const nfds_t watched = n;
    if (options.stop != nullptr) fds[n++] = {options.stop->fd(), POLLIN, 0};
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) {
      fail.message = fmt::format("Graphviz did not finish the layout within {} s", options.timeout.count() / 1000.0);
      fail.reason = fmt::format("it timed out after {} s", options.timeout.count() / 1000.0);
      return fail;  // ~Subprocess kills it
    }
    if (::poll(fds.data(), n, static_cast<int>(std::min<long long>(left, 1000))) < 0 && errno != EINTR) {
      fail.message = fmt::format("waiting for Graphviz failed: {}", std::strerror(errno));
      fail.reason = "waiting for it failed";
      return fail;
    }
    for (nfds_t k = 0; k < watched; ++k) {
      if (!fds[k].revents) continue;
      if (fds[k].fd == c.fd(Fd::in)) {
        const ssize_t w = ::send(fds[k].fd, dot.data() + written, dot.size() - written, MSG_NOSIGNAL);
        if (w > 0) written += static_cast<std::size_t>(w);
        if (w < 0 && errno != EAGAIN && errno != EINTR) written = dot.size();  // Graphviz stopped reading
        if (written == dot.size()) c.close(Fd::in);
        continue;
      }
      const Fd which = fds[k].fd == c.fd(Fd::out) ? Fd::out : Fd::err;
      std::string& sink = which == Fd::out ? out : err;
      const ssize_t r = ::read(fds[k].fd, buf.data(), buf.size());
      if (r > 0) {
        if (&sink == &err && err.size() > 4096) continue;
        sink.append(buf.data(), static_cast<std::size_t>(r));
      } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
        c.close(which);
      }
    }
  }
  const ProcessEnd end = c.wait();
  const bool exited = end.how != ProcessEnd::How::signaled;
  if (end.how != ProcessEnd::How::unknown && !end.exited_with(0)) {
    while (!err.empty() && (err.back() == '\n' || err.back() == '\r')) err.pop_back();
    fail.message = fmt::format("Graphviz failed ({}){}",
                               exited ? fmt::format("exit status {}", end.code) : fmt::format("signal {}", end.code),
                               err.empty() ? "" : ": " + err.substr(0, 500));
    fail.reason = exited ? fmt::format("it failed with exit status {}", end.code)
                         : fmt::format("it was killed by signal {}", end.code);
    return fail;
  }
  SvgPicture cleaned = clean_svg(out);
  if (!cleaned.ok) cleaned.reason = "its output was not a picture that is safe to show";
  return cleaned;
}

}  // namespace playtest::report
