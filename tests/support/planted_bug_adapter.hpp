// A simulated system under test with a planted bug (docs/diagnosis.md): it plays a test graph's own
// probabilities (SimulatedSut), except that right after a given sequence of stimuli (consecutive,
// nothing in between) it answers "jammed", which no model allows, with probability `bug_rate`.
// Seeded: the same seed gives the same choices. examples/sut/lock.cpp is the same bug in a process.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "playtest/campaign/simulated_sut.hpp"
#include "playtest/graph/random.hpp"

namespace playtest::testing {

class PlantedBugAdapter final : public Adapter {
 public:
  PlantedBugAdapter(const TestGraph& g, std::vector<std::string> pattern, double bug_rate, std::uint64_t seed)
      : sut_(g, seed), pattern_(std::move(pattern)), bug_rate_(bug_rate), rng_(seed ^ 0x5eedULL) {}

  void start() override {
    sut_.start();
    last_.clear();
    armed_ = false;
  }
  AdapterEvent stimulate(std::string_view label) override {
    last_.emplace_back(label);
    if (last_.size() > pattern_.size()) last_.pop_front();
    armed_ = std::equal(last_.begin(), last_.end(), pattern_.begin(), pattern_.end()) && rng_.uniform01() < bug_rate_;
    return sut_.stimulate(label);
  }
  AdapterEvent next_event(Clock::time_point deadline) override {
    if (armed_ && deadline > Clock::now()) {  // the answer to the stimulus that completed the pattern
      armed_ = false;
      return AdapterEvent::output("jammed");
    }
    return sut_.next_event(deadline);
  }
  void reset() override { start(); }
  void finish() noexcept override {}

 private:
  SimulatedSut sut_;
  std::vector<std::string> pattern_;
  double bug_rate_;
  Rng rng_;
  std::deque<std::string> last_;
  bool armed_ = false;
};

}  // namespace playtest::testing
