#include "playtest/ioco/torx_policy.hpp"

#include <array>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "playtest/base/error.hpp"
#include "playtest/base/numbers.hpp"
#include "playtest/ioco/ioco_graph.hpp"

namespace playtest::ioco {

void validate(const TorxOptions& o) {
  for (double p : {o.p_stop, o.p_input, o.p_observe})
    if (!(p >= 0.0 && p <= 1.0)) throw UsageError("torx_p", "the probabilities must lie in [0, 1]");
  if (std::abs(o.p_stop + o.p_input + o.p_observe - 1.0) > 1e-9)
    throw UsageError("torx_p", "the stop, input and observe probabilities must sum to 1");
  if (o.p_stop <= 0.0 && o.max_length == 0)
    throw UsageError("max_length",
                     "with stop probability 0 a run ends only with a maximal length; give one, or a "
                     "positive stop probability");
}

TorxOptions torx_options_from_ratio(double n, double m, double p_stop, std::uint32_t max_length) {
  if (!(n >= 0.0) || !(m >= 0.0) || !(n + m > 0.0))
    throw UsageError("torx_ratio", "N and M must be >= 0 and not both 0");
  if (!(p_stop >= 0.0 && p_stop < 1.0)) throw UsageError("torx_stop", "the stop probability must lie in [0, 1)");
  return {.p_stop = p_stop,
          .p_input = n / (n + m) * (1.0 - p_stop),
          .p_observe = m / (n + m) * (1.0 - p_stop),
          .max_length = max_length};
}

namespace {
std::vector<double> split_numbers(std::string_view text, std::size_t count, const char* parameter) {
  std::vector<double> r;
  std::size_t start = 0;
  for (;;) {
    auto colon = text.find(':', start);
    const std::string_view part =
        text.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start);
    const auto v = read_finite(part);
    if (!v.ok())
      throw UsageError(parameter, "'" + std::string(text) + "' is not a list of numbers separated by ':' ('" +
                                      std::string(part) + "': " + describe(v, part) + ")");
    r.push_back(v.value);
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  if (r.size() != count)
    throw UsageError(
        parameter, "expected " + std::to_string(count) + " numbers separated by ':', got '" + std::string(text) + "'");
  return r;
}
}  // namespace

TorxOptions parse_torx_p(std::string_view text, std::uint32_t max_length) {
  auto v = split_numbers(text, 3, "torx_p");
  TorxOptions o{.p_stop = v[0], .p_input = v[1], .p_observe = v[2], .max_length = max_length};
  validate(o);
  return o;
}

TorxOptions parse_torx_ratio(std::string_view text, double p_stop, std::uint32_t max_length) {
  auto v = split_numbers(text, 2, "torx_ratio");
  TorxOptions o = torx_options_from_ratio(v[0], v[1], p_stop, max_length);
  validate(o);
  return o;
}

TorxOptions resolve_torx_options(std::optional<std::string_view> torx_p, std::optional<std::string_view> torx_ratio,
                                 std::optional<double> p_stop, std::uint32_t max_length) {
  if (torx_p && torx_ratio) throw UsageError("torx_p", "use either --torx-p or --torx-ratio, not both");
  TorxOptions t;
  if (torx_p) {
    if (p_stop) throw UsageError("torx_stop", "goes with --torx-ratio; --torx-p gives all three probabilities");
    t = parse_torx_p(*torx_p, max_length);
  } else if (torx_ratio) {
    t = parse_torx_ratio(*torx_ratio, p_stop ? *p_stop : (max_length ? 0.0 : 0.02), max_length);
  } else {
    if (p_stop) return resolve_torx_options(std::nullopt, "1:1", p_stop, max_length);
    t = max_length ? TorxOptions{.p_stop = 0.0, .p_input = 0.5, .p_observe = 0.5, .max_length = max_length}
                   : TorxOptions{.max_length = 0};
  }
  validate(t);
  return t;
}

TorxPolicy::TorxPolicy(TorxOptions options) : options_(options) { validate(options_); }

void TorxPolicy::begin_run(const RunView&, Rng&) { length_ = 0; }

Decision TorxPolicy::choose(const RunView& view, Rng& rng) {
  if (options_.max_length != 0 && length_ >= options_.max_length) return Decision::stop();
  const GameGraph& g = view.graph;
  EdgeId observe = EdgeId::none();
  std::uint32_t inputs = 0;
  for (EdgeId e : g.out_edges(view.current)) {
    if (g.is_observe(e))
      observe = e;
    else
      ++inputs;
  }
  const double w_in = inputs ? options_.p_input : 0.0;
  const double w_obs = observe.is_none() ? 0.0 : options_.p_observe;
  const double total = options_.p_stop + w_in + w_obs;
  if (total <= 0.0) return Decision::stop();
  const double u = rng.uniform01() * total;
  if (u < options_.p_stop) return Decision::stop();
  if (u < options_.p_stop + w_in || observe.is_none()) {
    std::uint64_t k = rng.below(inputs);
    for (EdgeId e : g.out_edges(view.current))
      if (!g.is_observe(e) && k-- == 0) return Decision::take(e);
  }
  return Decision::take(observe);
}

bool TorxPolicy::stop_at_passive(const RunView&) { return options_.max_length != 0 && length_ >= options_.max_length; }

void TorxPolicy::observe(EdgeId taken, const RunView& view) {
  if (!view.graph.is_observe(taken)) ++length_;
}

}  // namespace playtest::ioco

namespace playtest {

namespace {

constexpr std::array<StrategyOption, 4> torx_options{
    StrategyOption{
        .name = "torx-p", .value = "STOP:INPUT:OBSERVE", .help = "torx: the three probabilities, summing to 1"},
    StrategyOption{
        .name = "torx-ratio", .value = "N:M", .help = "torx: N:M inputs to outputs; sets p2, p3 by Theorem 3.2"},
    StrategyOption{.name = "torx-stop",
                   .value = "P1",
                   .help = "torx: p1 with --torx-ratio (default 0 with --max-length, else 0.02)"},
    StrategyOption{
        .name = "max-length", .value = "L", .help = "torx: stop every run after this many inputs and outputs"}};

PreparedStrategy prepare_torx(const StrategyContext& c) {
  const auto stop = c.args.has("torx-stop") ? std::optional(c.args.number("torx-stop", 0)) : std::nullopt;
  const ioco::TorxOptions t =
      ioco::resolve_torx_options(c.args.get("torx-p"), c.args.get("torx-ratio"), stop,
                                 static_cast<std::uint32_t>(c.args.integer("max-length", 0, 0, UINT32_MAX)));
  return PreparedStrategy::play(
      [t](const GameGraph&) -> std::unique_ptr<Policy> { return std::make_unique<ioco::TorxPolicy>(t); });
}

}  // namespace

const StrategyRow& torx_strategy() {
  // Its "observe" choice needs an ioco graph's observe edges, which a model explored on the fly has not.
  static const StrategyRow row{.name = "torx",
                               .summary = "TorX's random derivation: stop, give an input or observe with p1, p2, p3",
                               .source = "seed 004 §3",
                               .default_purpose = TestPurpose::Kind::none,
                               .options = torx_options,
                               .prepare = prepare_torx};
  return row;
}

std::string_view ioco::TorxPolicy::name() const { return torx_strategy().name; }

}  // namespace playtest
