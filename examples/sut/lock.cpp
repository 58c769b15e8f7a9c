// An example system under test with a planted bug that only a specific sequence of three stimuli
// triggers (docs/diagnosis.md): a door lock. When locked it takes "knock" (answered "ok" or "busy",
// at random) and "unlock" ("opened"); when open, "ping" and "status" (answered "ok" or "busy") and
// "lock" ("closed"). The model is examples/sut/lock.json.
//
// The bug: right after "knock", "unlock", "ping" (in this order, nothing in between) the lock answers
// "jammed", which the model does not allow. A random tester meets it after about 50 steps on
// average; `playtest shrink` reduces such a run to the three stimuli that matter.
#include <cstdio>
#include <deque>
#include <iostream>
#include <random>
#include <string>

namespace {

void say(const std::string& line) {
  std::fwrite(line.data(), 1, line.size(), stdout);
  std::fputc('\n', stdout);
  std::fflush(stdout);
}

}  // namespace

int main() {
  std::mt19937 rng(std::random_device{}());
  auto ok_or_busy = [&] { return rng() % 2 == 0 ? "output ok" : "output busy"; };
  bool open = false;
  std::deque<std::string> last;  // the last three stimuli
  say("# lock example SUT (the bug: knock, unlock, ping)");
  say("ready");
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line == "end") break;
    if (line == "reset") {
      open = false;
      last.clear();
      say("ready");
      continue;
    }
    if (line.rfind("stimulus ", 0) != 0) {
      say("error cannot handle '" + line + "'");
      continue;
    }
    const std::string s = line.substr(9);
    const bool accepted = open ? (s == "ping" || s == "status" || s == "lock") : (s == "knock" || s == "unlock");
    if (!accepted) {
      say("error the lock cannot take '" + s + "' when " + (open ? "open" : "locked"));
      continue;
    }
    last.push_back(s);
    if (last.size() > 3) last.pop_front();
    say("ack");
    if (last == std::deque<std::string>{"knock", "unlock", "ping"}) {
      say("output jammed");  // the planted bug
    } else if (s == "unlock") {
      open = true;
      say("output opened");
    } else if (s == "lock") {
      open = false;
      say("output closed");
    } else {
      say(ok_or_busy());
    }
  }
  return 0;
}
