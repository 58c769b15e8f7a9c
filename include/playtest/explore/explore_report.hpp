// What `playtest explore` says about an exploration: the graph's counts, how far it went, what the
// state store costs, the traps; one text and one JSON rendering.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>

#include "playtest/explore/explorer.hpp"

namespace playtest {

struct ExploreReportInfo {
  std::string model_name;
  std::uint32_t state_bytes = 0;  // bytes of one model state (Model::state_size)
};

void write_explore_text(std::ostream& out, const ExploreResult& r, const ExploreReportInfo& info);
nlohmann::json explore_json(const ExploreResult& r, const ExploreReportInfo& info);

}  // namespace playtest
