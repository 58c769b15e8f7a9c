#include "progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace playtest::cli {

ProgressLine::ProgressLine(std::string what, std::string unit) : what_(std::move(what)), unit_(std::move(unit)) {
  const char* term = std::getenv("TERM");
  enabled_ = ::isatty(STDERR_FILENO) == 1 && !(term && std::string_view(term) == "dumb");
  start_ = last_ = Clock::now();
}

ProgressLine::~ProgressLine() { finish(); }

std::string ProgressLine::grouped(std::uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

namespace {
std::string duration(double s) {
  if (s < 60) return fmt::format("{:.0f} s", s);
  if (s < 3600) return fmt::format("{:.0f} min {:02.0f} s", std::floor(s / 60), std::fmod(s, 60));
  return fmt::format("{:.0f} h {:02.0f} min", std::floor(s / 3600), std::fmod(s / 60, 60));
}
}  // namespace

std::string ProgressLine::text(std::string_view what, std::string_view unit, std::uint64_t done, std::uint64_t total,
                               double seconds) {
  const double rate = seconds > 0 ? double(done) / seconds : 0;
  std::string s = fmt::format("{}: {}", what, grouped(done));
  if (total > 0)
    s += fmt::format("/{} {} ({:.0f}%)", grouped(total), unit, 100.0 * double(done) / double(total));
  else
    s += fmt::format(" {}", unit);
  s += rate >= 10 ? fmt::format(", {}/s", grouped(static_cast<std::uint64_t>(rate))) : fmt::format(", {:.2g}/s", rate);
  s += ", " + duration(seconds);
  if (total > done && rate > 0) s += ", about " + duration(double(total - done) / rate) + " left";
  return s;
}

void ProgressLine::update(std::uint64_t done, std::uint64_t total) {
  if (!enabled_) return;
  const auto now = Clock::now();
  // Nothing for the first half second (short work stays quiet), then ten lines a second at most.
  if (now - start_ < std::chrono::milliseconds(500) || (drawn_ && now - last_ < std::chrono::milliseconds(100))) return;
  last_ = now;
  drawn_ = true;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  // \r and "erase to the end of the line": the line is redrawn in place.
  std::fprintf(stderr, "\r%s\x1b[K", text(what_, unit_, done, total, seconds).c_str());
  std::fflush(stderr);
}

void ProgressLine::finish() {
  if (!drawn_) return;
  std::fputs("\r\x1b[K", stderr);
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace playtest::cli
