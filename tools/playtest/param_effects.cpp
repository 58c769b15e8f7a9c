#include "param_effects.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

#include "playtest/base/error.hpp"
#include "playtest/base/numbers.hpp"
#include "playtest/explore/explorer.hpp"

namespace playtest::cli {
namespace {

std::vector<ModelParam> with(const std::vector<ModelParam>& given, const std::string& name, const std::string& value) {
  std::vector<ModelParam> out;
  for (const ModelParam& p : given)
    if (p.name != name) out.push_back(p);
  out.push_back({name, value});
  return out;
}

// The neighbouring values to try, in order: a boolean's other value; an integer's lower, then higher.
std::vector<std::string> neighbours(const std::string& value) {
  if (value == "true") return {"false"};
  if (value == "false") return {"true"};
  const auto n = read_integer<std::int64_t>(value);
  if (!n.ok()) return {};
  std::vector<std::string> out;
  if (n.value > std::numeric_limits<std::int64_t>::min()) out.push_back(std::to_string(n.value - 1));
  if (n.value < std::numeric_limits<std::int64_t>::max()) out.push_back(std::to_string(n.value + 1));
  return out;
}

}  // namespace

std::vector<ParamEffect> param_effects(const std::string& path, const std::vector<ModelParam>& given,
                                       const std::vector<std::pair<std::string, std::string>>& values,
                                       std::uint64_t vertices) {
  std::vector<ParamEffect> out;
  if (vertices == 0) return out;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point until = Clock::now() + std::chrono::seconds(3);
  const std::uint64_t cap = std::max<std::uint64_t>(100'000, 50 * vertices);
  for (const auto& [name, value] : values) {
    for (const std::string& other : neighbours(value)) {
      const double left = std::chrono::duration<double>(until - Clock::now()).count();
      if (left <= 0) return out;
      std::unique_ptr<Model> model;
      try {
        model = load_model(path, with(given, name, other));
      } catch (const Error&) {
        continue;  // out of the parameter's range: the next neighbour
      }
      ExploreResult r;
      try {
        r = explore(*model, {.max_states = cap, .max_seconds = std::min(1.0, left), .partial_graph = false});
      } catch (const Error&) {
        break;  // the model fails with this value: nothing to compare
      }
      ParamEffect e{name, value, other, vertices, 0, r.status != ExploreStatus::complete};
      e.other_vertices = e.other_capped ? std::max<std::uint64_t>(r.states, cap) : r.graph.num_vertices();
      const double big = static_cast<double>(std::max(e.vertices, e.other_vertices));
      const double small = static_cast<double>(std::max<std::uint64_t>(1, std::min(e.vertices, e.other_vertices)));
      if (big / small >= 2) out.push_back(std::move(e));
      break;
    }
  }
  return out;
}

std::string describe(const ParamEffect& e) {
  const bool grows = e.vertices >= e.other_vertices;  // this value is the bigger one
  const std::uint64_t big = grows ? e.vertices : e.other_vertices;
  const std::uint64_t small = std::max<std::uint64_t>(1, grows ? e.other_vertices : e.vertices);
  const double factor = static_cast<double>(big) / static_cast<double>(small);
  const std::string times = factor >= 10 ? fmt::format("{:.0f}", factor) : fmt::format("{:.1f}", factor);
  if (grows)
    return fmt::format("{}={}: {}x vertices ({}; {} with {}={})", e.name, e.value, times, e.vertices, e.other_vertices,
                       e.name, e.other);
  return fmt::format("{}={}: {}{}x vertices ({}{}; {} here with {}={})", e.name, e.other, e.other_capped ? "over " : "",
                     times, e.other_capped ? "over " : "", e.other_vertices, e.vertices, e.name, e.value);
}

nlohmann::json to_json(const std::vector<ParamEffect>& effects) {
  nlohmann::json a = nlohmann::json::array();
  for (const ParamEffect& e : effects)
    a.push_back({{"param", e.name},
                 {"value", e.value},
                 {"vertices", e.vertices},
                 {"other_value", e.other},
                 {"other_vertices", e.other_vertices},
                 {"other_at_limit", e.other_capped},
                 {"text", describe(e)}});
  return a;
}

}  // namespace playtest::cli
