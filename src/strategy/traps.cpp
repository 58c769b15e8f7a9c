#include "playtest/strategy/traps.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "playtest/base/error.hpp"

namespace playtest {

bool glob_match(std::string_view p, std::string_view t) {
  // Iterative matcher with one backtrack point for the last '*': linear in practice.
  std::size_t pi = 0, ti = 0, star = std::string_view::npos, mark = 0;
  while (ti < t.size()) {
    if (pi < p.size() && (p[pi] == '?' || p[pi] == t[ti])) {
      ++pi;
      ++ti;
    } else if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = ti;
    } else if (star != std::string_view::npos) {
      pi = star + 1;
      ti = ++mark;
    } else {
      return false;
    }
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

namespace {

bool is_pattern(std::string_view s) { return s.find_first_of("*?") != std::string_view::npos; }

void select_one(const TestGraph& g, std::string_view spec, std::span<const std::string> declared,
                std::vector<std::uint8_t>& flags, int depth) {
  auto fail = [&](std::string msg, std::vector<std::string> notes = {}) {
    throw GraphError(Diagnostic{{}, std::move(msg), std::move(notes)});
  };
  if (spec == "all") {
    std::fill(flags.begin(), flags.end(), 1);
    return;
  }
  if (spec == "model") {
    if (depth > 0) fail("the trap spec 'model' cannot appear in the model's own meta.traps");
    if (declared.empty())
      fail("the trap spec 'model': the model declares no traps (or none of its trap edges is reachable)",
           {"in a graph/1 file add \"traps\": [...] to the top-level \"meta\" object; in a model program mark actions "
            "with 'trap NAME [when E]' (docs/language.md)"});
    for (const std::string& d : declared) select_one(g, d, declared, flags, depth + 1);
    return;
  }
  bool by_id = true, by_label = true;
  std::string_view what = spec;
  if (spec.starts_with("id:")) {
    by_label = false;
    what = spec.substr(3);
  } else if (spec.starts_with("label:")) {
    by_id = false;
    what = spec.substr(6);
  }
  bool found = false;
  if (!is_pattern(what)) {
    if (by_id) {
      if (auto e = g.find_edge(what)) {
        flags[e->index()] = 1;
        return;
      }
    }
    if (by_label) {
      if (auto l = g.find_label(what)) {
        for (EdgeId e : g.edges())
          if (g.label_id(e) == *l) flags[e.index()] = found = true;
      }
    }
  } else {
    for (EdgeId e : g.edges())
      if ((by_id && glob_match(what, g.name(e))) || (by_label && glob_match(what, g.label(e))))
        flags[e.index()] = found = true;
  }
  if (!found)
    fail(fmt::format("the trap spec '{}' selects no edge", spec),
         {"a trap spec is 'all', 'model', an edge id, a label, or a glob with * and ? (prefix id: or label: to "
          "restrict)"});
}

}  // namespace

std::vector<EdgeId> select_traps(const TestGraph& g, std::span<const std::string> specs,
                                 std::span<const std::string> declared) {
  std::vector<std::uint8_t> flags(g.num_edges(), 0);
  for (const std::string& s : specs) select_one(g, s, declared, flags, 0);
  std::vector<EdgeId> out;
  for (EdgeId e : g.edges())
    if (flags[e.index()]) out.push_back(e);
  return out;
}

std::vector<std::string> declared_traps(const TestGraph& g) {
  std::vector<std::string> out;
  if (g.meta_json().empty()) return out;
  nlohmann::json j = nlohmann::json::parse(g.meta_json(), nullptr, false);
  auto meta = &j;
  if (!meta->is_object()) return out;
  auto traps = meta->find("traps");
  if (traps == meta->end()) return out;
  if (!traps->is_array())
    throw ParseError(Diagnostic{{.pointer = "/meta/traps"}, "meta.traps must be an array of trap specs (strings)", {}});
  for (std::size_t i = 0; i < traps->size(); ++i) {
    const auto& t = (*traps)[i];
    if (!t.is_string())
      throw ParseError(Diagnostic{{.pointer = fmt::format("/meta/traps/{}", i)}, "a trap spec must be a string", {}});
    out.push_back(t.get<std::string>());
  }
  return out;
}

std::vector<std::uint8_t> trap_flags(const TestGraph& g, std::span<const EdgeId> traps) {
  std::vector<std::uint8_t> flags(g.num_edges(), traps.empty() ? 1 : 0);
  for (EdgeId e : traps) {
    if (e.index() >= g.num_edges()) throw InternalError("trap_flags: edge out of range");
    flags[e.index()] = 1;
  }
  return flags;
}

}  // namespace playtest
