// Per-vertex streams of small unsigned integers (LEB128 varints) in chained 16-byte chunks, used to
// store a bounded strategy's change points compactly while the solver runs (usually one byte per
// change point) without knowing in advance how many each vertex will get.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "playtest/base/error.hpp"

namespace playtest::detail {

class ChangeLog {
 public:
  // Empties the log and makes room for streams 0..num_streams-1.
  void reset(std::uint32_t num_streams) {
    head_.assign(num_streams, 0);
    tail_.assign(num_streams, 0);
    fill_.assign(num_streams, 0);
    blocks_.clear();
    num_chunks_ = 1;  // chunk 0 stands for "no chunk"
  }

  void append(std::uint32_t s, std::uint64_t x) {
    if (x < 0x80 && head_[s] != 0 && fill_[s] < chunk_bytes) {  // the common case: one byte, room left
      chunk(tail_[s]).bytes[fill_[s]++] = static_cast<std::uint8_t>(x);
      return;
    }
    do {
      std::uint8_t byte = x & 0x7f;
      x >>= 7;
      if (x != 0) byte |= 0x80;
      push_byte(s, byte);
    } while (x != 0);
  }

  // Moves the streams of `other` into this log; both have the same number of streams, and every
  // stream with values in `other` is empty here. Chunk for chunk the result is the log one writer
  // would have made (the same bytes and memory).
  void merge(ChangeLog&& other) {
    const std::uint32_t base = num_chunks_ - 1;  // other's chunk id x >= 1 becomes base + x
    for (std::uint32_t id = 1; id < other.num_chunks_; ++id) {
      Chunk c = other.chunk(id);
      if (c.next != 0) c.next += base;
      chunk(new_chunk()) = c;
    }
    for (std::size_t s = 0; s < head_.size(); ++s) {
      if (other.head_[s] == 0) continue;
      head_[s] = other.head_[s] + base;
      tail_[s] = other.tail_[s] + base;
      fill_[s] = other.fill_[s];
    }
    other = ChangeLog();
  }

  // Frees what only appending needs; the log stays readable.
  void finish_appending() { std::vector<std::uint32_t>().swap(tail_); }

  // Calls f(x) for the values of stream s in order until f returns false.
  template <class F>
  void for_each(std::uint32_t s, F f) const {
    if (s >= head_.size()) return;
    std::uint32_t id = head_[s];
    std::uint64_t x = 0;
    unsigned shift = 0;
    while (id != 0) {
      const Chunk& c = chunk(id);
      const std::uint32_t end = c.next == 0 ? fill_[s] : chunk_bytes;
      for (std::uint32_t i = 0; i < end; ++i) {
        x |= static_cast<std::uint64_t>(c.bytes[i] & 0x7f) << shift;
        shift += 7;
        if ((c.bytes[i] & 0x80) == 0) {
          if (!f(x)) return;
          x = 0;
          shift = 0;
        }
      }
      id = c.next;
    }
  }

  // Bytes held, chunk overhead and per-stream arrays included.
  std::size_t memory_bytes() const {
    return blocks_.size() * sizeof(Chunk) * block_size + head_.size() * (sizeof(std::uint32_t) + 1) +
           tail_.size() * sizeof(std::uint32_t);
  }

 private:
  static constexpr std::uint32_t chunk_bytes = 12;
  static constexpr unsigned block_shift = 16;
  static constexpr std::uint32_t block_size = std::uint32_t{1} << block_shift;
  struct Chunk {
    std::uint8_t bytes[chunk_bytes];
    std::uint32_t next;  // 0: the stream's last chunk
  };

  const Chunk& chunk(std::uint32_t id) const { return blocks_[id >> block_shift][id & (block_size - 1)]; }
  Chunk& chunk(std::uint32_t id) { return blocks_[id >> block_shift][id & (block_size - 1)]; }

  std::uint32_t new_chunk() {
    if (num_chunks_ == UINT32_MAX)
      throw EnvironmentError("", 0,
                             "ChangeLog: more than 2^32 - 1 change points: the model is too large for one solve");
    const std::uint32_t id = num_chunks_++;
    if ((id >> block_shift) >= blocks_.size()) blocks_.emplace_back(block_size);
    chunk(id).next = 0;
    return id;
  }

  void push_byte(std::uint32_t s, std::uint8_t byte) {
    if (head_[s] == 0) {
      head_[s] = tail_[s] = new_chunk();
      fill_[s] = 0;
    } else if (fill_[s] == chunk_bytes) {
      const std::uint32_t id = new_chunk();
      chunk(tail_[s]).next = id;
      tail_[s] = id;
      fill_[s] = 0;
    }
    chunk(tail_[s]).bytes[fill_[s]++] = byte;
  }

  std::vector<std::uint32_t> head_, tail_;
  std::vector<std::uint8_t> fill_;          // bytes used in the stream's last chunk
  std::vector<std::vector<Chunk>> blocks_;  // block_size chunks each; never reallocated
  std::uint32_t num_chunks_ = 1;
};

}  // namespace playtest::detail
