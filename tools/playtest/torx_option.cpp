#include "torx_option.hpp"

#include <stdexcept>

#include "playtest/error.hpp"

namespace playtest::cli {

void add_torx_options(CLI::App* sub, TorxCliOptions& o) {
  sub->add_option("--torx-p", o.torx_p, "torx: STOP:INPUT:OBSERVE probabilities, summing to 1");
  sub->add_option("--torx-ratio", o.torx_ratio, "torx: N:M inputs to outputs; sets p2, p3 by Theorem 3.2");
  sub->add_option("--torx-stop", o.p_stop, "torx: p1 with --torx-ratio (default 0 with --max-length, else 0.02)");
  sub->add_option("--max-length", o.max_length, "torx: stop every run after this many inputs and outputs");
}

ioco::TorxOptions resolve_torx_options(const TorxCliOptions& o) {
  using ioco::TorxOptions;
  TorxOptions t;
  if (!o.torx_p.empty() && !o.torx_ratio.empty()) throw UsageError("torx_p", "use either --torx-p or --torx-ratio, not both");
  if (!o.torx_p.empty()) {
    if (o.p_stop >= 0) throw UsageError("torx_stop", "goes with --torx-ratio; --torx-p gives all three probabilities");
    t = ioco::parse_torx_p(o.torx_p, o.max_length);
  } else if (!o.torx_ratio.empty()) {
    t = ioco::parse_torx_ratio(o.torx_ratio, o.p_stop >= 0 ? o.p_stop : (o.max_length ? 0.0 : 0.02), o.max_length);
  } else {
    if (o.p_stop >= 0) return resolve_torx_options({.torx_ratio = "1:1", .p_stop = o.p_stop, .max_length = o.max_length});
    t = o.max_length ? TorxOptions{.p_stop = 0.0, .p_input = 0.5, .p_observe = 0.5, .max_length = o.max_length}
                     : TorxOptions{.max_length = 0};
  }
  ioco::validate(t);
  return t;
}

}  // namespace playtest::cli
