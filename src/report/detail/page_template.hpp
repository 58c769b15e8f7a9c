// The report page's Mustache templates (kainjow::mustache): {{x}} is escaped, {{{x}}} is HTML the
// report built itself (pictures, plots, tables rendered with these templates).
#pragma once

#include <string>

namespace playtest::report::detail {

const std::string& page_template();
const std::string& steps_template();

}  // namespace playtest::report::detail
