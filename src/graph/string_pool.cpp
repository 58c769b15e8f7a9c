#include "playtest/graph/string_pool.hpp"

#include <stdexcept>

namespace playtest {

std::uint64_t StringPool::hash(std::string_view s) {
  // FNV-1a, then a final mix so that the low bits are well distributed.
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

void StringPool::reserve(std::size_t strings, std::size_t chars) {
  chars_.reserve(chars);
  offsets_.reserve(strings + 1);
}

std::size_t StringPool::memory_bytes() const {
  return chars_.capacity() + offsets_.capacity() * sizeof(std::uint64_t) + slots_.capacity() * sizeof(std::uint32_t);
}

std::uint32_t StringPool::append(std::string_view s) {
  if (offsets_.size() >= 0xFFFFFFFEu) throw std::length_error("StringPool: more than 2^32-2 strings");
  chars_.append(s);
  offsets_.push_back(chars_.size());
  return size() - 1;
}

void StringPool::grow_index() {
  std::size_t want = 16;
  while (want < 2 * static_cast<std::size_t>(size()) + 2) want *= 2;
  slots_.assign(want, 0);
  const std::size_t mask = want - 1;
  for (std::uint32_t id = 0; id < size(); ++id) {
    std::size_t i = hash(view(id)) & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = id + 1;
  }
}

void StringPool::rebuild_index() { grow_index(); }

std::optional<std::uint32_t> StringPool::find(std::string_view s) const {
  if (slots_.empty()) return std::nullopt;
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = hash(s) & mask;; i = (i + 1) & mask) {
    std::uint32_t slot = slots_[i];
    if (slot == 0) return std::nullopt;
    if (view(slot - 1) == s) return slot - 1;
  }
}

std::uint32_t StringPool::intern(std::string_view s) {
  if (slots_.size() < 2 * static_cast<std::size_t>(size()) + 2) grow_index();
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = hash(s) & mask;
  for (;; i = (i + 1) & mask) {
    std::uint32_t slot = slots_[i];
    if (slot == 0) break;
    if (view(slot - 1) == s) return slot - 1;
  }
  std::uint32_t id = append(s);
  slots_[i] = id + 1;
  return id;
}

}  // namespace playtest
