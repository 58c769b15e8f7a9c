// Strong 32-bit ids for vertices, edges and interned strings, and a contiguous id range.
// Ids are dense (0..n-1) so that per-vertex and per-edge data live in plain vectors.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>

namespace playtest {

template <class Tag>
struct Id {
  std::uint32_t value = std::numeric_limits<std::uint32_t>::max();

  constexpr Id() = default;
  constexpr explicit Id(std::uint32_t v) : value(v) {}
  static constexpr Id none() { return Id{}; }
  constexpr bool is_none() const { return value == std::numeric_limits<std::uint32_t>::max(); }
  constexpr std::size_t index() const { return value; }
  friend constexpr auto operator<=>(Id, Id) = default;
};

struct VertexTag {};
struct EdgeTag {};
struct LabelTag {};
using VertexId = Id<VertexTag>;
using EdgeId = Id<EdgeTag>;
using LabelId = Id<LabelTag>;

// [first, last) as a range of ids: `for (EdgeId e : g.out_edges(v))`.
template <class IdT>
class IdRange {
 public:
  class iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = IdT;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = IdT;
    constexpr iterator() = default;
    constexpr explicit iterator(std::uint32_t v) : v_(v) {}
    constexpr IdT operator*() const { return IdT{v_}; }
    constexpr IdT operator[](difference_type n) const { return IdT{static_cast<std::uint32_t>(v_ + n)}; }
    constexpr iterator& operator++() { ++v_; return *this; }
    constexpr iterator operator++(int) { auto t = *this; ++v_; return t; }
    constexpr iterator& operator--() { --v_; return *this; }
    constexpr iterator operator--(int) { auto t = *this; --v_; return t; }
    constexpr iterator& operator+=(difference_type n) { v_ = static_cast<std::uint32_t>(v_ + n); return *this; }
    constexpr iterator& operator-=(difference_type n) { v_ = static_cast<std::uint32_t>(v_ - n); return *this; }
    friend constexpr iterator operator+(iterator i, difference_type n) { return i += n; }
    friend constexpr iterator operator+(difference_type n, iterator i) { return i += n; }
    friend constexpr iterator operator-(iterator i, difference_type n) { return i -= n; }
    friend constexpr difference_type operator-(iterator a, iterator b) {
      return static_cast<difference_type>(a.v_) - static_cast<difference_type>(b.v_);
    }
    friend constexpr auto operator<=>(iterator, iterator) = default;

   private:
    std::uint32_t v_ = 0;
  };

  constexpr IdRange() = default;
  constexpr IdRange(std::uint32_t first, std::uint32_t last) : first_(first), last_(last) {}
  constexpr iterator begin() const { return iterator{first_}; }
  constexpr iterator end() const { return iterator{last_}; }
  constexpr std::size_t size() const { return last_ - first_; }
  constexpr bool empty() const { return first_ == last_; }
  constexpr IdT operator[](std::size_t i) const { return IdT{static_cast<std::uint32_t>(first_ + i)}; }

 private:
  std::uint32_t first_ = 0, last_ = 0;
};

}  // namespace playtest

template <class Tag>
struct std::hash<playtest::Id<Tag>> {
  std::size_t operator()(playtest::Id<Tag> id) const noexcept { return std::hash<std::uint32_t>{}(id.value); }
};
