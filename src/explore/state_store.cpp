#include "playtest/explore/state_store.hpp"

#include <cstring>
#include <limits>
#include <stdexcept>

#include "playtest/base/error.hpp"

namespace playtest {

namespace {

inline std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ull;
  x ^= x >> 32;
  x *= 0xd6e8feb86659fd93ull;
  x ^= x >> 32;
  return x;
}

}  // namespace

StateStore::StateStore(std::size_t key_size) : key_size_(key_size), inline_keys_(key_size <= 4) {
  slots_.assign(16, 0);
}

std::uint32_t StateStore::tag(std::span<const std::byte> key, std::uint64_t h) const {
  if (!inline_keys_) return static_cast<std::uint32_t>(h >> 32);
  std::uint32_t t = 0;
  if (!key.empty()) std::memcpy(&t, key.data(), key.size());
  return t;
}

std::uint64_t StateStore::slot_hash(std::uint64_t slot) const {
  if (!inline_keys_) return slot;  // the upper half is the hash's upper half
  const auto t = static_cast<std::uint32_t>(slot >> 32);
  std::byte k[4];
  std::memcpy(k, &t, 4);
  return hash(std::span<const std::byte>(k, key_size_));
}

std::uint64_t StateStore::hash(std::span<const std::byte> key) {
  std::uint64_t h = 0x9e3779b97f4a7c15ull ^ key.size();
  std::size_t i = 0;
  for (; i + 8 <= key.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, key.data() + i, 8);
    h = mix(h ^ w) + 0x9e3779b97f4a7c15ull;
  }
  if (i < key.size()) {
    std::uint64_t w = 0;
    std::memcpy(&w, key.data() + i, key.size() - i);
    h = mix(h ^ w ^ (std::uint64_t{0xff} << 56));
  }
  return mix(h);
}

void StateStore::reserve(std::size_t keys) {
  arena_.reserve(keys * key_size_);
  std::size_t want = 16;
  while (want < keys + keys / 2 + 1) want *= 2;
  while (slots_.size() < want) grow();
}

void StateStore::grow() {
  std::vector<std::uint64_t> next(slots_.size() * 2, 0);
  const std::size_t mask = next.size() - 1;
  for (std::uint64_t s : slots_) {
    if (s == 0) continue;
    std::size_t pos = (slot_hash(s) >> 32) & mask;
    while (next[pos] != 0) pos = (pos + 1) & mask;
    next[pos] = s;
  }
  slots_.swap(next);
}

std::pair<std::uint32_t, bool> StateStore::insert(std::span<const std::byte> key) {
  if (key.size() != key_size_) throw InternalError("StateStore::insert: key of the wrong size");
  const std::uint64_t full = hash(key);
  const std::uint32_t h = tag(key, full);
  std::size_t mask = slots_.size() - 1;
  std::size_t pos = (full >> 32) & mask;
  while (true) {
    const std::uint64_t s = slots_[pos];
    if (s == 0) break;
    const auto id = static_cast<std::uint32_t>(s) - 1;
    if ((s >> 32) == h && (inline_keys_ || std::memcmp(this->key(id).data(), key.data(), key_size_) == 0))
      return {id, false};
    pos = (pos + 1) & mask;
  }
  if (count_ == std::numeric_limits<std::uint32_t>::max() - 1)
    throw ModelError("the model has more than 2^32 - 2 states: bound its variables more tightly or abstract the state");
  const std::uint32_t id = count_++;
  arena_.insert(arena_.end(), key.begin(), key.end());
  slots_[pos] = (static_cast<std::uint64_t>(h) << 32) | (id + 1);
  if (static_cast<std::size_t>(count_) * 4 > slots_.size() * 3) grow();
  return {id, true};
}

std::uint32_t StateStore::find(std::span<const std::byte> key) const {
  if (key.size() != key_size_) return std::numeric_limits<std::uint32_t>::max();
  const std::uint64_t full = hash(key);
  const std::uint32_t h = tag(key, full);
  const std::size_t mask = slots_.size() - 1;
  std::size_t pos = (full >> 32) & mask;
  while (true) {
    const std::uint64_t s = slots_[pos];
    if (s == 0) return std::numeric_limits<std::uint32_t>::max();
    const auto id = static_cast<std::uint32_t>(s) - 1;
    if ((s >> 32) == h && (inline_keys_ || std::memcmp(this->key(id).data(), key.data(), key_size_) == 0)) return id;
    pos = (pos + 1) & mask;
  }
}

std::size_t StateStore::memory_bytes() const { return arena_.capacity() + slots_.capacity() * sizeof(std::uint64_t); }

}  // namespace playtest
