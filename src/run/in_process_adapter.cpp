#include "playtest/run/in_process_adapter.hpp"

namespace playtest {

void InProcessAdapter::emit(std::string label) {
  {
    std::lock_guard lock(m_);
    events_.push_back(AdapterEvent::output(std::move(label)));
  }
  cv_.notify_all();
}

void InProcessAdapter::declare_quiescence() {
  {
    std::lock_guard lock(m_);
    events_.push_back(AdapterEvent::quiescence());
  }
  cv_.notify_all();
}

void InProcessAdapter::start() {
  {
    std::lock_guard lock(m_);
    events_.clear();
  }
  on_start();
}

AdapterEvent InProcessAdapter::stimulate(std::string_view label) {
  // An output already queued came before the stimulus: it is returned (the runner judges it
  // first), the stimulus is applied all the same, as a separate process would have received it.
  AdapterEvent early;
  {
    std::lock_guard lock(m_);
    for (auto it = events_.begin(); it != events_.end(); ++it)
      if (it->kind == AdapterEvent::Kind::output) {
        early = std::move(*it);
        events_.erase(it);
        break;
      }
  }
  on_stimulus(label);
  return early;
}

AdapterEvent InProcessAdapter::next_event(Clock::time_point deadline) {
  std::unique_lock lock(m_);
  cv_.wait_until(lock, deadline, [&] { return !events_.empty(); });
  if (events_.empty()) return AdapterEvent::nothing();
  AdapterEvent e = std::move(events_.front());
  events_.pop_front();
  return e;
}

void InProcessAdapter::reset() { on_reset(); }

void InProcessAdapter::clear_events() {
  std::lock_guard lock(m_);
  events_.clear();
}

void InProcessAdapter::on_reset() {
  on_finish();
  clear_events();
  on_start();
}

void InProcessAdapter::finish() noexcept { on_finish(); }

}  // namespace playtest
