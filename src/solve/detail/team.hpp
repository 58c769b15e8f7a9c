// A few threads that run one function together and wait for each other, kept for the length of a
// solve (starting threads for every sweep would cost more than some sweeps), and the two ways the
// solvers share work with results that do not depend on the number of threads:
// - contiguous parts of a range, when every element's result depends only on inputs (reductions
//   that are not exact, sums, go through fixed chunks combined in order: chunked_sum);
// - a block pipeline (BlockPipeline), for Gauss-Seidel sweeps: the elements are cut into blocks
//   whose size depends only on their number, and an element reads the values its sweep has already
//   produced everywhere except in the two neighbouring blocks, whose values it reads from before
//   the sweep. Two blocks can then run at once, and one thread runs the same computation.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

namespace playtest::detail {

// 0: the machine's hardware threads, at most 8.
inline unsigned resolve_threads(unsigned requested) {
  return requested != 0 ? requested : std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
}

class Team {
 public:
  explicit Team(unsigned threads) : size_(std::max(1u, threads)) {
    for (unsigned t = 1; t < size_; ++t) workers_.emplace_back([this, t] { work(t); });
  }
  Team(const Team&) = delete;
  Team& operator=(const Team&) = delete;
  ~Team() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
      ++generation_;
    }
    wake_.notify_all();
    for (auto& w : workers_) w.join();
  }

  unsigned size() const { return size_; }

  // Runs f(t) for t = 0 .. size() - 1 (t = 0 on the calling thread) and returns when all are done;
  // then rethrows the first exception any of them threw.
  void run(const std::function<void(unsigned)>& f) {
    if (size_ == 1) {
      f(0);
      return;
    }
    {
      std::lock_guard lock(mutex_);
      job_ = &f;
      pending_ = size_ - 1;
      error_ = nullptr;
      ++generation_;
    }
    wake_.notify_all();
    call(f, 0);
    std::unique_lock lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
    job_ = nullptr;
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
  }

  // Calls f(begin, end) for `size()` contiguous parts of [0, n), in parallel.
  template <class F>
  void for_parts(std::uint32_t n, F&& f) {
    run([&](unsigned t) {
      const auto lo = static_cast<std::uint32_t>(std::uint64_t{n} * t / size_);
      const auto hi = static_cast<std::uint32_t>(std::uint64_t{n} * (t + 1) / size_);
      if (lo < hi) f(lo, hi);
    });
  }

 private:
  void call(const std::function<void(unsigned)>& f, unsigned t) {
    try {
      f(t);
    } catch (...) {
      std::lock_guard lock(mutex_);
      if (!error_) error_ = std::current_exception();
    }
  }

  void work(unsigned t) {
    std::uint64_t seen = 0;
    for (;;) {
      const std::function<void(unsigned)>* job;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return generation_ != seen; });
        seen = generation_;
        if (stop_) return;
        job = job_;
      }
      call(*job, t);
      {
        std::lock_guard lock(mutex_);
        if (--pending_ == 0) done_.notify_one();
      }
    }
  }

  unsigned size_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(unsigned)>* job_ = nullptr;
  std::uint64_t generation_ = 0;
  unsigned pending_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

// Sum over i in [0, n) of f(begin, end) for fixed chunks of `chunk` elements, added up in chunk
// order: the same double for every number of threads.
template <class F>
double chunked_sum(Team& team, std::uint32_t n, std::vector<double>& partial, F&& f) {
  constexpr std::uint32_t chunk = 4096;
  const std::uint32_t chunks = (n + chunk - 1) / chunk;
  partial.assign(chunks, 0.0);
  team.for_parts(chunks, [&](std::uint32_t c0, std::uint32_t c1) {
    for (std::uint32_t c = c0; c < c1; ++c) partial[c] = f(c * chunk, std::min(n, (c + 1) * chunk));
  });
  double s = 0;
  for (double p : partial) s += p;
  return s;
}

// Blocks of a Gauss-Seidel-like sweep over n elements: block c may start once blocks 0 .. c-2 are
// finished, so two threads (at most) work on neighbouring blocks; an element must then read the
// elements of the neighbouring blocks c - 1 and c + 1 as they were before the sweep.
class BlockPipeline {
 public:
  explicit BlockPipeline(std::uint32_t n) : n_(n), size_(block_size(n)) {}

  // The block size for n elements: about n / 256, between 1024 and 8192 (depends on n only).
  static std::uint32_t block_size(std::uint32_t n) { return std::clamp<std::uint32_t>(n / 256, 1024, 8192); }
  std::uint32_t size() const { return size_; }
  std::uint32_t blocks() const { return (n_ + size_ - 1) / size_; }
  std::uint32_t block_of(std::uint32_t i) const { return i / size_; }
  // Whether element i must read element j as it was before the sweep although j < i or j's block
  // comes before i's: j lies in a block next to i's.
  bool stale(std::uint32_t i, std::uint32_t j) const {
    const std::uint32_t bi = i / size_, bj = j / size_;
    return bj + 1 == bi || bi + 1 == bj;
  }

  // Runs f(begin, end) for every block, in order on each of at most two threads of the team.
  template <class F>
  void run(Team& team, F&& f) const {
    const std::uint32_t nb = blocks();
    if (team.size() == 1 || nb < 4) {
      for (std::uint32_t c = 0; c < nb; ++c) f(c * size_, std::min(n_, (c + 1) * size_));
      return;
    }
    std::atomic<std::uint32_t> done[2] = {0, 0};  // blocks finished by each of the two threads
    team.run([&](unsigned t) {
      if (t > 1) return;
      for (std::uint32_t c = t; c < nb; c += 2) {
        // Blocks up to c - 2 finished: the other thread's blocks are c - 1, c - 3, ...; it must
        // have finished c - 3, i.e. (c - 3) / 2 + 1 of its blocks.
        if (c >= 3) {
          const std::uint32_t need = (c - 3) / 2 + 1;
          std::uint32_t have;
          while ((have = done[1 - t].load(std::memory_order_acquire)) < need)
            done[1 - t].wait(have, std::memory_order_acquire);
        }
        f(c * size_, std::min(n_, (c + 1) * size_));
        done[t].fetch_add(1, std::memory_order_release);
        done[t].notify_one();
      }
    });
  }

 private:
  std::uint32_t n_, size_;
};

}  // namespace playtest::detail
