// A compact set of fixed-size byte strings: all keys in one arena, an open-addressing index of
// 32-bit ids with linear probing. A state costs its own bytes plus about 8 bytes of index, with no
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
  std::vector<std::uint32_t> slots_;  // id + 1, 0 = empty; size is a power of two
  std::vector<std::uint32_t> hashes_; // upper hash bits of each id, to skip most key compares
};

}  // namespace playtest
