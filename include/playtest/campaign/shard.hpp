// A shard of a campaign: the runs one job of a CI matrix plays, so that M jobs cover the campaign
// exactly once and `playtest merge` can put their results back together. Shard K of M holds run i
// (1-based) iff (i - 1) mod M == K - 1: the M shards partition the runs, each run keeps the index
// and the seed it has in the whole campaign, and the shards differ by at most one run (round robin,
// so no shard gets only the early or only the late runs).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

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

// What a shard's outputs say about the runs they hold, to tell a shard that was cut short (a job
// killed by SIGKILL, an output truncated or edited) from one that stopped on purpose.
struct ShardRuns {
  std::vector<std::uint32_t> present;  // the runs the outputs hold
  // A signal stopped the shard: the runs after the last one it started were never started.
  bool interrupted = false;
  // --fail-fast stopped the shard at this failing run (0: it did not): the runs after it may be
  // missing.
  std::uint32_t failed_fast = 0;
};

// The runs of `shard` (of a campaign of `runs` runs) that are missing with no reason given: not
// present, and not after the last present run of an interrupted shard nor after the failing run of
// a fail-fast one. `count` of them, the first `listed` in `first`, ascending.
struct MissingRuns {
  std::uint64_t count = 0;
  std::vector<std::uint32_t> first;
};
MissingRuns runs_missing(const Shard& shard, std::uint32_t runs, const ShardRuns& held, std::size_t listed = 20);

// "K/M" with 1 <= K <= M; throws UsageError("shard") for anything else.
Shard parse_shard(std::string_view text);
std::string to_string(const Shard& s);  // "K/M"

}  // namespace playtest
