#include "playtest/graph/string_pool.hpp"

#include "playtest/base/error.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <algorithm>
#include <cstdint>
#include <stdexcept>

namespace playtest {

StringPool::StringPool(const StringPool& o)
    : chars_(o.chars_), offsets_(o.offsets_), slots_(o.slots_), indexed_(o.indexed_) {
  if (o.lazy_ && o.lazy_->pending.load(std::memory_order_acquire)) lazy_ = std::make_unique<Lazy>();
}

StringPool& StringPool::operator=(const StringPool& o) {
  if (this != &o) *this = StringPool(o);
  return *this;
}

void StringPool::index_lazily() {
  slots_.clear();
  slots_.shrink_to_fit();
  indexed_ = 0;
  lazy_ = std::make_unique<Lazy>();
}

void StringPool::index_now() const {
  Lazy& l = *lazy_;
  if (!l.pending.load(std::memory_order_acquire)) return;
  std::lock_guard lock(l.mutex);
  if (!l.pending.load(std::memory_order_relaxed)) return;
  build_index();
  l.pending.store(false, std::memory_order_release);
}

std::uint32_t StringPool::hash(std::string_view s) {
  // FNV-1a, then a final mix so that the low bits are well distributed.
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return static_cast<std::uint32_t>(h);
}

void StringPool::reserve(std::size_t strings, std::size_t chars) {
  chars_.reserve(chars);
  offsets_.reserve(strings + 1);
}

std::uint64_t StringPool::short_key(std::string_view s) {
  std::uint64_t k = std::min<std::size_t>(s.size(), 255);
  const std::size_t n = std::min<std::size_t>(s.size(), 7);
  for (std::size_t i = 0; i < n; ++i)
    k |= static_cast<std::uint64_t>(static_cast<unsigned char>(s[i])) << (8 * (i + 1));
  return k;
}

std::size_t StringPool::memory_bytes() const {
  return chars_.capacity() + offsets_.capacity() * sizeof(std::uint64_t) + slots_.capacity() * sizeof(Slot);
}

std::uint32_t StringPool::append(std::string_view s) {
  if (offsets_.size() >= 0xFFFFFFFEu)
    throw GraphError("more than 2^32 - 2 distinct names or labels: the graph is too large");
  chars_.append(s);
  offsets_.push_back(chars_.size());
  return size() - 1;
}

// A zeroed index of n slots. Large ones are advised to use transparent huge pages before their
// first touch: lookups land at random in tens of megabytes, where 4 KiB pages would make nearly
// every probe miss the TLB as well as the cache.
std::vector<StringPool::Slot> StringPool::make_slots(std::size_t n) {
  std::vector<Slot> v;
  v.reserve(n);
#if defined(__linux__)
  constexpr std::uintptr_t huge = std::uintptr_t{2} << 20;
  const auto begin = reinterpret_cast<std::uintptr_t>(v.data());
  const std::uintptr_t first = (begin + huge - 1) / huge * huge, last = (begin + n * sizeof(Slot)) / huge * huge;
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);  // advice only
#endif
  v.resize(n);
  return v;
}

void StringPool::grow_index() {
  std::size_t want = slots_.empty() ? 16 : slots_.size() * 2;
  std::vector<Slot> old = make_slots(want);
  old.swap(slots_);
  const std::size_t mask = want - 1;
  for (const Slot& slot : old) {
    if (slot.id1 == 0) continue;
    std::size_t i = slot.hash & mask;
    while (slots_[i].id1 != 0) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

std::optional<std::uint32_t> StringPool::index_all() {
  lazy_.reset();
  return build_index();
}

std::optional<std::uint32_t> StringPool::build_index() const {
  std::size_t want = 16;
  while (want < 2 * static_cast<std::size_t>(size()) + 2) want *= 2;
  slots_ = make_slots(want);
  indexed_ = 0;
  std::optional<std::uint32_t> duplicate;
  const std::size_t mask = want - 1;
  for (std::uint32_t id = 0; id < size(); ++id) {
    const std::string_view s = view(id);
    const std::uint32_t h = hash(s);
    const std::uint64_t key = short_key(s);
    std::size_t i = h & mask;
    bool seen = false;
    for (; slots_[i].id1 != 0; i = (i + 1) & mask)
      if (matches(slots_[i], h, key, s)) {
        seen = true;
        break;
      }
    if (seen) {
      if (!duplicate) duplicate = id;
      continue;
    }
    slots_[i] = Slot{h, id + 1, key};
    ++indexed_;
  }
  return duplicate;
}

std::optional<std::uint32_t> StringPool::find_indexed(std::string_view s) const {
  if (slots_.empty()) return std::nullopt;
  const std::uint32_t h = hash(s);
  const std::uint64_t key = short_key(s);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.id1 == 0) return std::nullopt;
    if (matches(slot, h, key, s)) return slot.id1 - 1;
  }
}

std::uint32_t StringPool::intern(std::string_view s) { return intern(s, hash(s)); }

std::uint32_t StringPool::intern(std::string_view s, std::uint32_t h) {
  if (lazy_) {
    index_now();
    lazy_.reset();
  }
  if (slots_.size() < 2 * static_cast<std::size_t>(indexed_) + 2) grow_index();
  const std::uint64_t key = short_key(s);
  const std::size_t mask = slots_.size() - 1;
  std::size_t i = h & mask;
  for (;; i = (i + 1) & mask) {
    const Slot& slot = slots_[i];
    if (slot.id1 == 0) break;
    if (matches(slot, h, key, s)) return slot.id1 - 1;
  }
  const std::uint32_t id = append(s);
  slots_[i] = Slot{h, id + 1, key};
  ++indexed_;
  return id;
}

}  // namespace playtest
