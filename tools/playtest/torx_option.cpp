#include "torx_option.hpp"

#include <stdexcept>

#include "playtest/base/error.hpp"

namespace playtest::cli {

void add_torx_options(CLI::App* sub, TorxCliOptions& o) {
  sub->add_option("--torx-p", o.torx_p, "torx: STOP:INPUT:OBSERVE probabilities, summing to 1");
  sub->add_option("--torx-ratio", o.torx_ratio, "torx: N:M inputs to outputs; sets p2, p3 by Theorem 3.2");
  sub->add_option("--torx-stop", o.p_stop, "torx: p1 with --torx-ratio (default 0 with --max-length, else 0.02)");
  sub->add_option("--max-length", o.max_length, "torx: stop every run after this many inputs and outputs");
}

ioco::TorxOptions resolve_torx_options(const TorxCliOptions& o) {
  auto text = [](const std::string& s) { return s.empty() ? std::nullopt : std::optional<std::string_view>(s); };
  return ioco::resolve_torx_options(text(o.torx_p), text(o.torx_ratio),
                                    o.p_stop >= 0 ? std::optional(o.p_stop) : std::nullopt, o.max_length);
}

}  // namespace playtest::cli
