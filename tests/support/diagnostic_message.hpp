// The formatted diagnostic of what a call throws, for tests of located errors.
#pragma once

#include <string>

#include "playtest/base/error.hpp"

namespace playtest::testing {

// format_diagnostic of the E that `f` throws, or "" when it throws nothing.
template <class E, class F>
std::string message_of(F f) {
  try {
    f();
  } catch (const E& e) {
    return format_diagnostic(e.diagnostic());
  }
  return "";
}

}  // namespace playtest::testing
