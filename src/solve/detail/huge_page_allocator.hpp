// An allocator for large arrays read at random (the solvers' value arrays): blocks of 2 MiB or more
// are 2 MiB aligned and, on Linux, advised to use transparent huge pages, so random reads over tens
// of megabytes do not miss the TLB on nearly every access. Smaller blocks use operator new.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace playtest::detail {

template <class T>
struct HugePageAllocator {
  using value_type = T;
  static constexpr std::size_t huge_page = std::size_t{2} << 20;

  HugePageAllocator() = default;
  template <class U>
  constexpr HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = n * sizeof(T);
    if (bytes < huge_page) return static_cast<T*>(::operator new(bytes));
#if defined(__linux__)
    // Map 2 MiB more than needed and trim both ends so the block is 2 MiB aligned; advise before
    // first touch so page faults fill it with huge pages.
    const std::size_t rounded = round_up(bytes);
    void* raw = ::mmap(nullptr, rounded + huge_page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED) throw std::bad_alloc();
    const auto base = reinterpret_cast<std::uintptr_t>(raw);
    const std::uintptr_t aligned = (base + huge_page - 1) / huge_page * huge_page;
    if (aligned > base) ::munmap(raw, aligned - base);
    if (const std::size_t tail = base + rounded + huge_page - (aligned + rounded); tail > 0)
      ::munmap(reinterpret_cast<void*>(aligned + rounded), tail);
    ::madvise(reinterpret_cast<void*>(aligned), rounded, MADV_HUGEPAGE);  // advice only
    return reinterpret_cast<T*>(aligned);
#else
    return static_cast<T*>(::operator new(bytes));
#endif
  }
  void deallocate(T* p, std::size_t n) noexcept {
    const std::size_t bytes = n * sizeof(T);
#if defined(__linux__)
    if (bytes >= huge_page) {
      ::munmap(p, round_up(bytes));
      return;
    }
#endif
    ::operator delete(p);
  }
  static std::size_t round_up(std::size_t bytes) { return (bytes + huge_page - 1) / huge_page * huge_page; }
  template <class U>
  friend bool operator==(const HugePageAllocator&, const HugePageAllocator<U>&) {
    return true;
  }
};

}  // namespace playtest::detail
