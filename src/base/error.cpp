#include "playtest/base/error.hpp"

#include <fmt/format.h>

#include <cstring>

namespace playtest {

namespace {

std::string location_prefix(const SourceLocation& w) {
  std::string s = w.file.empty() ? std::string("<input>") : w.file;
  if (w.line != 0) {
    s += fmt::format(":{}", w.line);
    if (w.column != 0) s += fmt::format(":{}", w.column);
  }
  return s;
}

}  // namespace

std::string format_diagnostic(const Diagnostic& d) {
  std::string out;
  if (!d.where.file.empty() || d.where.line != 0) out = location_prefix(d.where) + ": ";
  out += "error: " + d.message;
  if (!d.where.pointer.empty()) out += fmt::format(" (at {})", d.where.pointer);
  for (const auto& n : d.notes) out += "\n  note: " + n;
  return out;
}

std::string format_diagnostic(const Diagnostic& d, std::string_view source) {
  std::string out = format_diagnostic(d);
  if (d.where.line == 0) return out;
  // Find the line.
  std::size_t start = 0;
  for (std::uint32_t l = 1; l < d.where.line; ++l) {
    auto nl = source.find('\n', start);
    if (nl == std::string_view::npos) return out;
    start = nl + 1;
  }
  auto end = source.find('\n', start);
  return format_diagnostic_with_line(
      d, source.substr(start, end == std::string_view::npos ? source.size() - start : end - start));
}

std::string format_diagnostic_with_line(const Diagnostic& d, std::string_view line) {
  std::string out = format_diagnostic(d);
  if (d.where.line == 0) return out;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  constexpr std::size_t max_shown = 160;
  std::size_t col = d.where.column == 0 ? 0 : d.where.column - 1;
  std::size_t from = 0;
  if (line.size() > max_shown && col > max_shown / 2) from = std::min(col - max_shown / 2, line.size());
  std::string_view shown = line.substr(from, max_shown);
  out += fmt::format("\n  {}{}", from > 0 ? "..." : "", shown);
  if (d.where.column != 0) {
    std::string pad(col - from + (from > 0 ? 3 : 0), ' ');
    // Keep tabs so the caret lines up.
    for (std::size_t i = 0; i < pad.size() && from + i < line.size(); ++i)
      if (line[from + i] == '\t' && from == 0) pad[i] = '\t';
    out += fmt::format("\n  {}^", pad);
  }
  return out;
}

Diagnostic make_diagnostic(std::string file, std::uint32_t line, std::uint32_t column, std::string pointer,
                           std::string message, std::vector<std::string> notes) {
  Diagnostic d;
  d.where.file = std::move(file);
  d.where.line = line;
  d.where.column = column;
  d.where.pointer = std::move(pointer);
  d.message = std::move(message);
  d.notes = std::move(notes);
  return d;
}

Error::Error(Diagnostic d) : std::runtime_error(format_diagnostic(d)), diag_(std::move(d)) {}

Error::Error(std::string message) : Error(Diagnostic{{}, std::move(message), {}}) {}

const char* error_kind_name(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::input:
      return "InputError";
    case ErrorKind::usage:
      return "UsageError";
    case ErrorKind::adapter:
      return "AdapterError";
    case ErrorKind::environment:
      return "EnvironmentError";
    case ErrorKind::stop_requested:
      return "StopRequested";
    case ErrorKind::budget_spent:
      return "BudgetSpent";
  }
  return "?";
}

namespace {

Diagnostic environment_diagnostic(std::string path, int error_number, std::string what,
                                  std::vector<std::string> notes) {
  if (error_number != 0) what += fmt::format(": {}", std::strerror(error_number));
  return make_diagnostic(std::move(path), 0, 0, "", std::move(what), std::move(notes));
}

}  // namespace

EnvironmentError::EnvironmentError(std::string path, int error_number, std::string what, std::vector<std::string> notes)
    : Error(environment_diagnostic(std::move(path), error_number, std::move(what), std::move(notes))),
      errno_(error_number) {}

UsageError::UsageError(std::string parameter, std::string message)
    : Error(std::move(message)), parameter_(std::move(parameter)) {}

UsageError::UsageError(std::string parameter, Diagnostic d) : Error(std::move(d)), parameter_(std::move(parameter)) {}

}  // namespace playtest
