#include "uploader.hpp"

#include <latch>
#include <memory>

Uploader::Uploader(Report report) : report_(std::move(report)) {}

Uploader::~Uploader() { join(); }

void Uploader::upload() {
  join();
  chunks_done_ = 0;
  auto both_started = std::make_shared<std::latch>(2);
  for (const char* chunk : {"chunk_a", "chunk_b"}) {
    threads_.emplace_back([this, chunk, both_started] {
#ifdef UPLOADER_PLANT_RACE
      // The planted bug: the chunk counts itself with a read and a later write instead of one
      // atomic increment. When both threads read before either writes (the latch makes them), one
      // update is lost, neither sees the count reach 2, and `complete` is never reported.
      const int done = chunks_done_.load() + 1;
      both_started->arrive_and_wait();
      std::lock_guard lock(report_mutex_);
      chunks_done_.store(done);
#else
      both_started->arrive_and_wait();
      std::lock_guard lock(report_mutex_);
      const int done = chunks_done_.fetch_add(1) + 1;
#endif
      report_(chunk);
      if (done == 2) report_("complete");
    });
  }
}

void Uploader::close() {
  join();
  std::lock_guard lock(report_mutex_);
  report_("closed");
}

void Uploader::join() {
  for (std::thread& t : threads_) t.join();
  threads_.clear();
}
