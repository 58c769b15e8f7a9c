#include <fmt/format.h>

#include <ostream>
#include <sstream>

#include "playtest/io/graph_json.hpp"

namespace playtest {

namespace {

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20)
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        else
          out += c;
    }
  }
  out += '"';
}

}  // namespace

void write_graph(const TestGraph& g, std::ostream& out) {
  std::string buf;
  buf.reserve(1 << 16);
  auto flush = [&](bool force) {
    if (force || buf.size() > (1 << 16) - 512) {
      out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
      buf.clear();
    }
  };
  buf += "{\"playtest\": \"graph/1\",\n \"initial\": ";
  append_json_string(buf, g.name(g.initial()));
  if (auto rc = g.reset_cost()) buf += fmt::format(",\n \"reset\": {{\"cost\": {}}}", *rc);
  if (!g.meta_json().empty()) buf += fmt::format(",\n \"meta\": {}", g.meta_json());
  buf += ",\n \"vertices\": [";
  for (VertexId v : g.vertices()) {
    buf += v.value == 0 ? "\n  {\"id\": " : ",\n  {\"id\": ";
    append_json_string(buf, g.name(v));
    buf += g.is_passive(v) ? ", \"kind\": \"passive\"" : ", \"kind\": \"active\"";
    if (g.is_goal(v)) buf += ", \"goal\": true";
    if (g.timeout_ms(v) != 0) fmt::format_to(std::back_inserter(buf), ", \"timeout_ms\": {}", g.timeout_ms(v));
    buf += '}';
    flush(false);
  }
  buf += "],\n \"edges\": [";
  std::string def;
  for (EdgeId e : g.edges()) {
    buf += e.value == 0 ? "\n  {" : ",\n  {";
    def.clear();
    fmt::format_to(std::back_inserter(def), "e{}", e.value);
    if (g.name(e) != def) {
      buf += "\"id\": ";
      append_json_string(buf, g.name(e));
      buf += ", ";
    }
    buf += "\"from\": ";
    append_json_string(buf, g.name(g.source(e)));
    buf += ", \"to\": ";
    append_json_string(buf, g.name(g.target(e)));
    if (!g.label(e).empty()) {
      buf += ", \"label\": ";
      append_json_string(buf, g.label(e));
    }
    if (g.cost(e) != 1.0) fmt::format_to(std::back_inserter(buf), ", \"cost\": {}", g.cost(e));
    if (g.is_passive(g.source(e))) fmt::format_to(std::back_inserter(buf), ", \"prob\": {}", g.probability(e));
    if (g.is_timeout(e)) buf += ", \"timeout\": true";
    if (g.is_observe(e)) buf += ", \"observe\": true";
    if (g.delay_ms(e) != 0) fmt::format_to(std::back_inserter(buf), ", \"delay_ms\": {}", g.delay_ms(e));
    buf += '}';
    flush(false);
  }
  buf += "]}\n";
  flush(true);
}

std::string graph_to_json(const TestGraph& g) {
  std::ostringstream s;
  write_graph(g, s);
  return s.str();
}

}  // namespace playtest
