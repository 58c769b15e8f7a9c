// Interned strings: one character buffer, one offset array and an open-addressing index, so that
// millions of vertex names or labels cost no per-string heap allocation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace playtest {

class StringPool {
 public:
  // The id of `s`, adding it when new.
  std::uint32_t intern(std::string_view s);
  // Adds `s` without looking it up; returns its id. For callers that know `s` is new or
  // do not need lookup by name (call rebuild_index() before the next find()).
  std::uint32_t append(std::string_view s);
  std::optional<std::uint32_t> find(std::string_view s) const;
  std::string_view view(std::uint32_t id) const {
    return std::string_view(chars_).substr(offsets_[id], offsets_[id + 1] - offsets_[id]);
  }
  std::uint32_t size() const { return static_cast<std::uint32_t>(offsets_.size() - 1); }
  void reserve(std::size_t strings, std::size_t chars);
  void rebuild_index();
  std::size_t memory_bytes() const;

 private:
  static std::uint64_t hash(std::string_view s);
  void grow_index();

  std::string chars_;
  std::vector<std::uint64_t> offsets_{0};
  std::vector<std::uint32_t> slots_;  // id + 1, 0 = empty; size is a power of two
};

}  // namespace playtest
