// A compact set of fixed-size byte strings: all keys in one arena, an open-addressing index of
// 32-bit ids with linear probing. A state costs its own bytes plus 11 to 21 bytes of index (64-bit
// slots holding the id and 32 hash bits, load at most 3/4), with no
// per-state heap allocation; the explorer stores millions of model states in it. Keys of at most
// 4 bytes are kept in the slot instead of the hash bits, so a lookup touches one cache line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace playtest {

class StateStore {
 public:
  explicit StateStore(std::size_t key_size = 0);

  std::size_t key_size() const { return key_size_; }
  std::uint32_t size() const { return count_; }
  // The id of `key`, adding it when new; `.second` is true when it was added.
  std::pair<std::uint32_t, bool> insert(std::span<const std::byte> key);
  // Starts loading the index slot where a lookup of `key` begins, so that several lookups that
  // follow overlap their cache misses (the explorer prefetches all successors of a state).
  void prefetch(std::span<const std::byte> key) const {
    __builtin_prefetch(&slots_[(hash(key) >> 32) & (slots_.size() - 1)]);
  }
  // The id of `key`, or UINT32_MAX when absent.
  std::uint32_t find(std::span<const std::byte> key) const;
  std::span<const std::byte> key(std::uint32_t id) const {
    return {arena_.data() + static_cast<std::size_t>(id) * key_size_, key_size_};
  }
  void reserve(std::size_t keys);
  // Bytes owned (arena and index capacity).
  std::size_t memory_bytes() const;

  static std::uint64_t hash(std::span<const std::byte> key);

 private:
  void grow();
  // What a slot keeps beside the id: the key itself when it fits in 32 bits, else 32 hash bits.
  std::uint32_t tag(std::span<const std::byte> key, std::uint64_t h) const;
  // The probe start of a slot's key (for grow()).
  std::uint64_t slot_hash(std::uint64_t slot) const;

  std::size_t key_size_;
  bool inline_keys_;  // key_size_ <= 4: the slot's upper half is the key
  std::uint32_t count_ = 0;
  std::vector<std::byte> arena_;
  // (tag << 32) | (id + 1); 0 = empty; size is a power of two; the probe starts at the upper 32
  // hash bits. Keeping the tag in the slot makes a probe touch one cache line unless the key
  // really matches (and never the arena for inline keys).
  std::vector<std::uint64_t> slots_;
};

}  // namespace playtest
