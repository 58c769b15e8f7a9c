#include "playtest/explore/model_values.hpp"

#include <charconv>

namespace playtest {

std::string ConcreteValue::label() const {
  if (!is_string) return std::to_string(number);
  std::string s = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') s += '\\';
    s += c;
  }
  return s + '"';
}

std::string_view label_action(std::string_view label) {
  if (label.starts_with('?')) label.remove_prefix(1);
  return label.substr(0, label.find('('));
}

std::optional<std::vector<std::string_view>> label_arguments(std::string_view label) {
  std::vector<std::string_view> args;
  const std::size_t open = label.find('(');
  if (open == std::string_view::npos) return args;
  if (!label.ends_with(')')) return std::nullopt;
  const std::string_view inner = label.substr(open + 1, label.size() - open - 2);
  int depth = 0;
  bool quoted = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < inner.size(); ++i) {
    const char c = inner[i];
    if (quoted) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        quoted = false;
      continue;
    }
    if (c == '"') {
      quoted = true;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth < 0) return std::nullopt;
    } else if (c == ',' && depth == 0) {
      args.push_back(inner.substr(start, i - start));
      start = i + 1;
      while (start < inner.size() && inner[start] == ' ') ++start, ++i;
    }
  }
  if (quoted || depth != 0) return std::nullopt;
  if (!inner.empty()) args.push_back(inner.substr(start));
  return args;
}

std::optional<std::pair<ConcreteValue, std::size_t>> read_concrete(std::string_view text) {
  ConcreteValue v;
  if (text.starts_with('"')) {
    v.is_string = true;
    for (std::size_t i = 1; i < text.size(); ++i) {
      const char c = text[i];
      if (c == '"') return std::pair{std::move(v), i + 1};
      if (c == '\\') {
        if (i + 1 >= text.size() || (text[i + 1] != '"' && text[i + 1] != '\\')) return std::nullopt;
        v.text += text[++i];
        continue;
      }
      if (c == '\n' || c == '\r') return std::nullopt;
      v.text += c;
    }
    return std::nullopt;  // unterminated
  }
  std::size_t n = 0;
  if (n < text.size() && text[n] == '-') ++n;
  const std::size_t digits = n;
  while (n < text.size() && text[n] >= '0' && text[n] <= '9') ++n;
  if (n == digits) return std::nullopt;
  if (text[digits] == '0' && n - digits > 1) return std::nullopt;  // leading zero
  if (text.substr(0, n) == "-0") return std::nullopt;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + n, v.number);
  if (ec != std::errc() || ptr != text.data() + n) return std::nullopt;  // out of 64-bit range
  return std::pair{std::move(v), n};
}

}  // namespace playtest
