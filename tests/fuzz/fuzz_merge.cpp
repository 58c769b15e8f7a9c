// libFuzzer target for `playtest merge`'s reader (src/campaign/merge.cpp): any input is a trace,
// a JUnit file (expat), run --json or simulate --json output, or a located ParseError, never a crash.
// A JUnit file that reads must write back and read again to the same test cases; a part that reads
// must merge with itself alone (or be refused as an incomplete campaign).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string_view>

#include "playtest/base/error.hpp"
#include "playtest/campaign/merge.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace playtest;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    CampaignPart p = read_campaign_part(text, "fuzz");
    if (p.kind == CampaignPartKind::junit) {
      std::ostringstream out;
      write_junit(out, p.junit);
      const CampaignPart again = read_campaign_part(out.str(), "again");
      if (again.junit.cases.size() != p.junit.cases.size()) __builtin_trap();
      for (std::size_t i = 0; i < p.junit.cases.size(); ++i)
        if (again.junit.cases[i].run != p.junit.cases[i].run ||
            again.junit.cases[i].verdict != p.junit.cases[i].verdict)
          __builtin_trap();
    }
    std::vector<CampaignPart> parts;
    parts.push_back(std::move(p));
    const MergedCampaign m = merge_campaign(std::move(parts));
    std::ostringstream out;
    write_merged_text(out, m);
  } catch (const Error&) {
    // Refused input, located: fine.
  }
  return 0;
}
