// An example system under test with a planted bug that only a specific sequence of three stimuli
// triggers (docs/diagnosis.md): a door lock. When locked it takes "knock" (answered "ok" or "busy",
// at random) and "unlock" ("opened"); when open, "ping" and "status" (answered "ok" or "busy") and
// "lock" ("closed"). The model is examples/sut/lock.json. It speaks the adapter protocol through the
// C++ adapter kit (adapters/cpp/playtest/adapter_kit.hpp).
//
// The bug: right after "knock", "unlock", "ping" (in this order, nothing in between) the lock answers
// "jammed", which the model does not allow. A random tester meets it after about 50 steps on
// average; `playtest shrink` reduces such a run to the three stimuli that matter.
#include <deque>
#include <random>
#include <stdexcept>
#include <string>

#include "playtest/adapter_kit.hpp"

namespace pa = playtest_adapter;

namespace {

class Lock final : public pa::Adapter {
 public:
  void on_start() override { comment("lock example SUT (the bug: knock, unlock, ping)"); }
  void on_reset() override {
    open_ = false;
    last_.clear();
  }
  void on_stimulus(const pa::Label& stimulus) override {
    const std::string& s = stimulus.name;
    const bool accepted = open_ ? (s == "ping" || s == "status" || s == "lock") : (s == "knock" || s == "unlock");
    if (!accepted) throw std::runtime_error("the lock cannot take '" + s + "' when " + (open_ ? "open" : "locked"));
    last_.push_back(s);
    if (last_.size() > 3) last_.pop_front();
    // (model graph/1 labels: outputs without '?')
    if (last_ == std::deque<std::string>{"knock", "unlock", "ping"}) {
      output_label("jammed");  // the planted bug
    } else if (s == "unlock") {
      open_ = true;
      output_label("opened");
    } else if (s == "lock") {
      open_ = false;
      output_label("closed");
    } else {
      output_label(rng_() % 2 == 0 ? "ok" : "busy");
    }
  }

 private:
  std::mt19937 rng_{std::random_device{}()};
  bool open_ = false;
  std::deque<std::string> last_;
};

}  // namespace

int main() {
  Lock lock;
  return lock.run();
}
