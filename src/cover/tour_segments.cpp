#include "playtest/cover/tour_segments.hpp"

#include <algorithm>
#include <stdexcept>

#include "playtest/base/error.hpp"

namespace playtest {

TourSegments cut_tour(const TestGraph& g, const PostmanTour& tour) {
  if (tour.steps.empty()) throw InputError("nothing to test: the tour is empty (the graph has no edges)");
  TourSegments s;
  s.steps = tour.steps;
  auto first_passive =
      std::find_if(s.steps.begin(), s.steps.end(), [&](const TourStep& t) { return g.is_passive(t.from); });
  s.cyclic = first_passive == s.steps.end();
  if (s.cyclic) {
    s.begin = {0, static_cast<std::uint32_t>(s.steps.size())};
    return s;
  }
  std::rotate(s.steps.begin(), first_passive, s.steps.end());
  for (std::uint32_t i = 0; i < s.steps.size(); ++i)
    if (g.is_passive(s.steps[i].from)) s.begin.push_back(i);
  s.begin.push_back(static_cast<std::uint32_t>(s.steps.size()));
  return s;
}

}  // namespace playtest
