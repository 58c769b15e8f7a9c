#include "playtest/campaign/simulated_sut.hpp"

#include "playtest/base/error.hpp"

namespace playtest {

SimulatedSut::SimulatedSut(const GameGraph& g, std::uint64_t seed, SimulatedSutOptions options)
    : g_(g), rng_(seed), options_(options), state_(g.initial()) {}

AdapterEvent SimulatedSut::stimulate(std::string_view label) {
  if (g_.is_active(state_))
    for (EdgeId e : g_.out_edges(state_))
      if (g_.label(e) == label && !g_.is_observe(e)) {
        state_ = g_.target(e);
        moved(e);
        return AdapterEvent::nothing();
      }
  return options_.ioco_implementation ? AdapterEvent::refusal() : AdapterEvent::nothing();
}

AdapterEvent SimulatedSut::next_event(Clock::time_point deadline) {
  // An ioco implementation gives outputs only when the tester waits for one (docs/ioco.md); the
  // runner's poll before a stimulus gets nothing. (Decided by the poll_only value, not by the
  // clock: on a loaded machine a wait's deadline can pass before this line runs.)
  if (options_.ioco_implementation && deadline == poll_only) return AdapterEvent::nothing();
  if (EdgeId observe = g_.observe_edge(state_); !observe.is_none()) {
    state_ = g_.target(observe);
    moved(observe);
  }
  if (!g_.is_passive(state_) || g_.out_degree(state_) == 0) return AdapterEvent::quiescence();
  auto out = g_.out_edges(state_);
  double x = rng_.uniform01(), acc = 0;  // drawn in both modes, so the random stream stays the same
  EdgeId pick = out[out.size() - 1];
  if (options_.choice == SimulatedSutOptions::Choice::incoming_edge) {
    std::uint64_t h = (std::uint64_t{last_.value} + 1) * 0x9e3779b97f4a7c15ull ^ state_.value;
    h ^= h >> 29;
    pick = out[static_cast<std::uint32_t>(h % out.size())];
  } else if (options_.choice == SimulatedSutOptions::Choice::history) {
    if (!options_.system) throw InternalError("SimulatedSut: Choice::history without a system function");
    pick = options_.system(g_, state_, path_);
    if (pick.is_none() || pick.index() >= g_.num_edges() || g_.source(pick) != state_)
      throw InternalError("SimulatedSut: the system function chose an edge that does not leave its state");
  } else {
    for (EdgeId e : out) {
      acc += g_.probability(e);
      if (x < acc) {
        pick = e;
        break;
      }
    }
  }
  state_ = g_.target(pick);
  moved(pick);
  if (g_.is_timeout(pick)) return AdapterEvent::quiescence();
  return AdapterEvent::output(std::string(g_.label(pick)));
}

}  // namespace playtest
