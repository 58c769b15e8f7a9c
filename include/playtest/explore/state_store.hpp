// A compact set of fixed-size byte strings: all keys in one arena, an open-addressing index of
// 32-bit ids with linear probing. A state costs its own bytes plus 11 to 21 bytes of index (64-bit
// slots holding the id and 32 hash bits, load at most 3/4), with no
// per-state heap allocation; the explorer stores millions of model states in it.
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

  std::size_t key_size_;
  std::uint32_t count_ = 0;
  std::vector<std::byte> arena_;
  // (upper 32 hash bits << 32) | (id + 1); 0 = empty; size is a power of two. Keeping the hash in
  // the slot makes a probe touch one cache line unless the key really matches.
  std::vector<std::uint64_t> slots_;
};

}  // namespace playtest
