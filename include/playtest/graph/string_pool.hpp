// Interned strings: one character buffer, one offset array and an open-addressing index, so that
// millions of vertex names or labels cost no per-string heap allocation.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace playtest {

class StringPool {
 public:
  StringPool() = default;
  StringPool(const StringPool& o);
  StringPool& operator=(const StringPool& o);
  StringPool(StringPool&&) noexcept = default;
  StringPool& operator=(StringPool&&) noexcept = default;

  // The id of `s`, adding it when new.
  std::uint32_t intern(std::string_view s);
  // Adds `s` without indexing it: find() and intern() will not see it (until index_all()).
  // For strings that need no lookup by name, or are looked up another way.
  std::uint32_t append(std::string_view s);
  // The hash that intern() and find() use, for callers that compute it ahead (see prefetch).
  static std::uint32_t hash(std::string_view s);
  // The id of `s` given hash(s) == h, adding it when new.
  std::uint32_t intern(std::string_view s, std::uint32_t h);
  // A hint that intern(s, h) follows soon: starts loading the slot it will probe first.
  // Loaders resolve names in batches, prefetching a few names ahead of the one they intern, so
  // that the cache misses of a large index overlap instead of coming one after the other.
  void prefetch(std::uint32_t h) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[h & (slots_.size() - 1)]);
  }
  // The id of an interned (indexed) string equal to `s`.
  std::optional<std::uint32_t> find(std::string_view s) const {
    if (lazy_) index_now();
    return find_indexed(s);
  }
  std::string_view view(std::uint32_t id) const {
    return std::string_view(chars_).substr(offsets_[id], offsets_[id + 1] - offsets_[id]);
  }
  std::uint32_t size() const { return static_cast<std::uint32_t>(offsets_.size() - 1); }
  void reserve(std::size_t strings, std::size_t chars);
  // Indexes every string, appended ones included. Returns the id of the first string equal to
  // an earlier one, if any (it stays unindexed: find() gives the earlier one).
  std::optional<std::uint32_t> index_all();
  // Like index_all() for strings known to be distinct, but only when first needed: by the first
  // find() (safe from several threads at once) or intern(). A pool of millions of generated names
  // that nobody looks up then never pays for an index (16 bytes per slot, two slots per string).
  void index_lazily();
  std::size_t memory_bytes() const;

 private:
  void grow_index();
  std::optional<std::uint32_t> find_indexed(std::string_view s) const;
  void index_now() const;  // builds a lazy index (once)
  std::optional<std::uint32_t> build_index() const;

  std::string chars_;
  std::vector<std::uint64_t> offsets_{0};
  // Open addressing, linear probing; size a power of two. A slot keeps the hash and a short key
  // (the first 7 bytes and the length) so that most probes, and every lookup of a string of at
  // most 7 bytes, never touch the characters: one cache miss per lookup on large pools.
  struct Slot {
    std::uint32_t hash = 0;
    std::uint32_t id1 = 0;  // id + 1, 0 = empty
    std::uint64_t key = 0;
  };
  static std::uint64_t short_key(std::string_view s);
  static std::vector<Slot> make_slots(std::size_t n);
  bool matches(const Slot& slot, std::uint32_t h, std::uint64_t key, std::string_view s) const {
    return slot.hash == h && slot.key == key && (s.size() <= 7 || view(slot.id1 - 1) == s);
  }
  // mutable: a lazy index is built by the first (const) find().
  mutable std::vector<Slot> slots_;
  mutable std::uint32_t indexed_ = 0;
  struct Lazy {
    std::mutex mutex;
    std::atomic<bool> pending{true};
  };
  mutable std::unique_ptr<Lazy> lazy_;  // set while an index_lazily() index is not built yet
};

}  // namespace playtest
