// The component under test: an uploader that sends every upload as two chunks, each by a thread of
// its own. The chunk threads race: either may finish first, and the one that finishes last reports
// the upload complete. Reports go through a callback, from the chunk threads.
#pragma once

#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

class Uploader {
 public:
  using Report = std::function<void(std::string)>;
  explicit Uploader(Report report);
  ~Uploader();
  Uploader(const Uploader&) = delete;
  Uploader& operator=(const Uploader&) = delete;

  // Starts an upload: reports chunk_a and chunk_b (in any order), then complete.
  void upload();
  // Waits for the upload in progress, then reports closed.
  void close();

 private:
  void join();
  Report report_;
  std::mutex report_mutex_;
  std::atomic<int> chunks_done_{0};
  std::vector<std::thread> threads_;
};
