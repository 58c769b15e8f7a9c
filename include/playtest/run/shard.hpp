// A shard of a campaign: the runs one job of a CI matrix plays, so that M jobs cover the campaign
// exactly once and `playtest merge` can put their results back together. Shard K of M holds run i
// (1-based) iff (i - 1) mod M == K - 1: the M shards partition the runs, each run keeps the index
// and the seed it has in the whole campaign, and the shards differ by at most one run (round robin,
// so no shard gets only the early or only the late runs).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace playtest {

struct Shard {
  std::uint32_t index = 1;  // K, 1-based
  std::uint32_t count = 1;  // M

  bool is_whole() const { return count == 1; }
  // Whether run `run` (1-based) belongs to this shard.
  bool contains(std::uint64_t run) const { return (run - 1) % count == index - 1; }
  // How many of the runs 1..total belong to this shard.
  std::uint32_t runs_of(std::uint32_t total) const { return total >= index ? (total - index) / count + 1 : 0; }
  friend bool operator==(const Shard&, const Shard&) = default;
};

// "K/M" with 1 <= K <= M; throws UsageError("shard") for anything else.
Shard parse_shard(std::string_view text);
std::string to_string(const Shard& s);  // "K/M"

}  // namespace playtest
