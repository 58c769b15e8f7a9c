#include "playtest/solve/property_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>

#include "playtest/base/error.hpp"
#include "playtest/graph/names.hpp"
#include "solve/detail/json_out.hpp"

namespace playtest {

namespace {

std::string fmt_value(double x) {
  if (std::isnan(x)) return "unknown";
  return std::isfinite(x) ? fmt::format("{:.10g}", x) : std::string("inf");
}

std::string_view filter_name(PropertyFilter f) {
  switch (f) {
    case PropertyFilter::max:
      return "max";
    case PropertyFilter::min:
      return "min";
    case PropertyFilter::avg:
      return "avg";
    case PropertyFilter::sum:
      return "sum";
    case PropertyFilter::forall:
      return "forall";
    case PropertyFilter::exists:
      return "exists";
    case PropertyFilter::first:
      return "first";
    case PropertyFilter::none:
      break;
  }
  return "";
}

bool compare(PropertyComparison c, const exact::Rational& x, const exact::Rational& t) {
  switch (c) {
    case PropertyComparison::ge:
      return x >= t;
    case PropertyComparison::gt:
      return x > t;
    case PropertyComparison::le:
      return x <= t;
    case PropertyComparison::lt:
      return x < t;
    case PropertyComparison::query:
      break;
  }
  return true;
}

using Truth = PropertyTruth;

Truth truth(bool b) { return b ? Truth::yes : Truth::no; }

using StateVerdict = PropertyVerdict;

}  // namespace

PropertyVerdict property_verdict(const PropertyResult& x, PropertyKind kind, VertexId v, PropertyComparison c,
                                 const exact::Rational& t) {
  const std::uint32_t i = v.index();
  constexpr std::string_view graph = "graph analysis";
  if (kind != PropertyKind::reward && !x.probability_class.empty()) {
    const ProbabilityClass k = x.probability_class[i];
    if (k != ProbabilityClass::between)
      return {truth(compare(c, exact::Rational(k == ProbabilityClass::one ? 1 : 0), t)), graph};
    // 0 < value < 1.
    if (sgn(t) <= 0) return {truth(c == PropertyComparison::ge || c == PropertyComparison::gt), graph};
    if (t >= 1) return {truth(c == PropertyComparison::le || c == PropertyComparison::lt), graph};
  }
  if (x.infinite[i]) return {truth(c == PropertyComparison::ge || c == PropertyComparison::gt), graph};
  if (x.has_exact) return {truth(compare(c, x.exact[i], t)), "exact values"};
  StateVerdict out;
  double lo, hi;
  if (!x.lower.empty() && !x.upper.empty()) {
    lo = x.lower[i];  // proved per vertex
    hi = x.upper[i];
  } else {
    if (!x.certified || x.error_bound < 0 || !std::isfinite(x.value[i])) return out;
    lo = x.value[i] - x.error_bound;
    hi = x.value[i] + x.error_bound;
    // Round outwards: the subtraction and addition above are rounded to nearest.
    lo = std::nextafter(lo, -std::numeric_limits<double>::infinity());
    hi = std::nextafter(hi, std::numeric_limits<double>::infinity());
  }
  if (!(lo <= hi) || !std::isfinite(lo) || !std::isfinite(hi)) return out;
  lo = std::max(lo, 0.0);
  if (kind != PropertyKind::reward) hi = std::min(hi, 1.0);
  out.lo = lo;
  out.hi = hi;
  const exact::Rational l(lo), h(hi);
  constexpr std::string_view bound = "proved error bound";
  switch (c) {
    case PropertyComparison::ge:
      if (l >= t) return {Truth::yes, bound};
      if (h < t) return {Truth::no, bound};
      break;
    case PropertyComparison::gt:
      if (l > t) return {Truth::yes, bound};
      if (h <= t) return {Truth::no, bound};
      break;
    case PropertyComparison::le:
      if (h <= t) return {Truth::yes, bound};
      if (l > t) return {Truth::no, bound};
      break;
    case PropertyComparison::lt:
      if (h < t) return {Truth::yes, bound};
      if (l >= t) return {Truth::no, bound};
      break;
    case PropertyComparison::query:
      break;
  }
  return out;
}

namespace {

std::string_view comparison_text(PropertyComparison c) {
  switch (c) {
    case PropertyComparison::ge:
      return ">=";
    case PropertyComparison::gt:
      return ">";
    case PropertyComparison::le:
      return "<=";
    case PropertyComparison::lt:
      return "<";
    case PropertyComparison::query:
      break;
  }
  return "=?";
}

}  // namespace

PropertyReport solve_property_report(const TestGraph& g, const PropertyRequest& q) {
  if (q.states.empty()) throw UsageError("states", "the property is asked of no state");
  for (VertexId v : q.states)
    if (v.index() >= g.num_vertices()) throw UsageError("states", "state id out of range");
  PropertyReport r;
  r.request = q;
  const auto t0 = std::chrono::steady_clock::now();
  r.result = solve_property(g, q.query, q.options);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const PropertyResult& x = r.result;
  r.certified = x.certified;
  r.not_certified = x.not_certified;
  const bool exact = x.has_exact;
  const double inf = std::numeric_limits<double>::infinity();
  auto is_inf = [&](VertexId v) { return x.infinite[v.index()] != 0; };
  auto exact_at = [&](VertexId v) -> std::optional<exact::Rational> {
    if (exact && !is_inf(v)) return x.exact[v.index()];
    if (!x.probability_class.empty() && x.probability_class[v.index()] != ProbabilityClass::between)
      return exact::Rational(x.probability_class[v.index()] == ProbabilityClass::one ? 1 : 0);
    return std::nullopt;
  };
  // The filter's value (none with one state: that state's value; none with several: max, and the
  // summary lists the range).
  PropertyFilter f = q.filter;
  if (f == PropertyFilter::none) f = q.states.size() == 1 ? PropertyFilter::first : PropertyFilter::max;
  const bool boolean = f == PropertyFilter::forall || f == PropertyFilter::exists;
  if (boolean || q.comparison != PropertyComparison::query) {
    // Each state's verdict, then all / some of them. A P=? filtered by forall / exists asks
    // "value > 0".
    const PropertyComparison c = q.comparison == PropertyComparison::query ? PropertyComparison::gt : q.comparison;
    const exact::Rational t = q.comparison == PropertyComparison::query ? exact::Rational(0) : q.threshold;
    std::vector<std::string_view> hows;
    auto note = [&](const StateVerdict& sv) {
      if (sv.truth == Truth::unknown) {
        if (!r.open_state) {
          r.open_lo = sv.lo;
          r.open_hi = sv.hi;
        }
        return;
      }
      if (std::find(hows.begin(), hows.end(), sv.how) == hows.end()) hows.emplace_back(sv.how);
    };
    Truth result;
    if (f == PropertyFilter::first) {
      const StateVerdict sv = property_verdict(x, q.query.kind, q.states.front(), c, t);
      note(sv);
      if (sv.truth == Truth::unknown) r.open_state = q.states.front();
      result = sv.truth;
    } else {
      // forall: false as soon as one state is false; exists: true as soon as one is true.
      const Truth decisive = f == PropertyFilter::exists ? Truth::yes : Truth::no;
      bool open = false;
      result = f == PropertyFilter::exists ? Truth::no : Truth::yes;
      for (VertexId v : q.states) {
        const StateVerdict sv = property_verdict(x, q.query.kind, v, c, t);
        if (sv.truth == decisive) {
          hows = {sv.how};
          result = decisive;
          open = false;
          break;
        }
        note(sv);
        if (sv.truth == Truth::unknown && !open) {
          open = true;
          r.open_state = v;
        }
      }
      if (open) result = Truth::unknown;
      if (result != Truth::unknown) r.open_state.reset();
    }
    r.holds = result;
    for (std::size_t i = 0; i < hows.size(); ++i) r.decided_by += fmt::format("{}{}", i ? " and " : "", hows[i]);
    r.certified = result != Truth::unknown;
    if (!r.certified) {
      const VertexId v = *r.open_state;
      r.not_certified =
          r.open_lo <= r.open_hi
              ? fmt::format("the value at {} is only known to lie in [{:.17g}, {:.17g}], on both sides of {}",
                            g.name(v), r.open_lo, r.open_hi, exact::short_string(t))
              : fmt::format("the value at {} has no proved bound ({}), so its comparison with {} is unknown", g.name(v),
                            x.not_certified.empty() ? "not certified" : x.not_certified, exact::short_string(t));
    }
  }
  // A probability that the graph says is exactly 0 or 1 at every state asked of is exact.
  if (q.query.kind != PropertyKind::reward && !x.probability_class.empty()) {
    bool all = true;
    for (VertexId v : q.states) all = all && x.probability_class[v.index()] != ProbabilityClass::between;
    r.value_by_graph = all;
  }
  if (r.value_by_graph && !r.holds && !r.certified) {
    r.certified = true;  // exact by graph analysis, whatever the numeric solver proved
    r.not_certified.clear();
  }
  // The value.
  switch (f) {
    case PropertyFilter::first:
    case PropertyFilter::none:
    case PropertyFilter::forall:
    case PropertyFilter::exists: {
      const VertexId v = q.states.front();
      r.value = x.value[v.index()];
      r.value_exact = exact_at(v);
      break;
    }
    case PropertyFilter::max:
    case PropertyFilter::min: {
      const bool max = f == PropertyFilter::max;
      VertexId best = q.states.front();
      for (VertexId v : q.states) {
        const auto a = exact_at(v), b = exact_at(best);
        const bool better =
            a && b ? (max ? *a > *b : *a < *b)
                   : (max ? x.value[v.index()] > x.value[best.index()] : x.value[v.index()] < x.value[best.index()]);
        if (better) best = v;
      }
      r.value = x.value[best.index()];
      r.value_exact = exact_at(best);
      break;
    }
    case PropertyFilter::avg:
    case PropertyFilter::sum: {
      bool any_inf = false, all_exact = true;
      exact::Rational s(0);
      double d = 0;
      for (VertexId v : q.states) {
        any_inf = any_inf || is_inf(v);
        const auto e = exact_at(v);
        if (e)
          s += *e;
        else
          all_exact = false;
        d += x.value[v.index()];
      }
      if (f == PropertyFilter::avg) {
        s /= static_cast<long>(q.states.size());
        d /= static_cast<double>(q.states.size());
      }
      r.value = any_inf ? inf : (all_exact ? exact::to_double(s) : d);
      if (all_exact && !any_inf) r.value_exact = s;
      // A sum of certified values is certified with the bounds added up.
      break;
    }
  }
  return r;
}

void write_property_text(std::ostream& out, const TestGraph& g, const PropertyReport& r, std::uint32_t limit) {
  const PropertyResult& x = r.result;
  out << fmt::format("{:<16} {:<8} {:<24} {}\n", "vertex", "kind", "value", "strategy");
  std::vector<std::uint8_t> target(g.num_vertices(), 0);
  // The targets of the path as written (a complement's inner targets are not the formula's).
  if (!r.request.query.complement && r.request.query.kind != PropertyKind::steady_state)
    for (VertexId v : r.request.query.targets) target[v.index()] = 1;
  std::uint32_t shown = 0;
  for (VertexId v : g.vertices()) {
    if (shown == limit) {
      out << fmt::format("... {} more vertices (--limit, or --json for all)\n", g.num_vertices() - shown);
      break;
    }
    ++shown;
    std::string val = x.infinite[v.index()] || std::isfinite(x.value[v.index()])
                          ? fmt_value(x.value[v.index()])
                          : exact::scientific_string(x.exact[v.index()]);  // beyond double
    if (x.has_exact && !x.infinite[v.index()]) {
      const std::string e = exact::short_string(x.exact[v.index()]);
      if (e != val) val += " = " + e;
    }
    const char* kind = target[v.index()] ? "target" : g.is_passive(v) ? "passive" : "active";
    const EdgeId e = x.strategy.empty() ? EdgeId::none() : x.strategy[v.index()];
    std::string edge_text = "-";
    if (!e.is_none() && generated_edge_id(g.name(e)))
      edge_text = fmt::format("{} -> {}", g.label(e), g.name(g.target(e)));
    else if (!e.is_none())
      edge_text = fmt::format("{} ({} -> {})", g.name(e), g.label(e), g.name(g.target(e)));
    out << fmt::format("{:<16} {:<8} {:<24} {}\n", g.name(v), kind, val, edge_text);
  }
  out << "\n";
  const PropertyRequest& q = r.request;
  out << fmt::format("property: {}\n", q.text);
  if (!q.note.empty()) out << q.note << "\n";
  std::string states;
  for (std::size_t i = 0; i < q.states.size() && i < 8; ++i)
    states += fmt::format("{}{}", i ? ", " : "", g.name(q.states[i]));
  if (q.states.size() > 8) states += fmt::format(", ... ({} states)", q.states.size());
  const std::string over =
      q.states.size() == 1
          ? fmt::format("at {}", states)
          : fmt::format("{} over {}",
                        q.filter == PropertyFilter::none ? std::string_view("max") : filter_name(q.filter), states);
  std::string value =
      r.value_exact && !std::isfinite(r.value) ? exact::scientific_string(*r.value_exact) : fmt_value(r.value);
  if (r.value_exact && exact::short_string(*r.value_exact) != value)
    value += fmt::format(" = {}", exact::short_string(*r.value_exact));
  out << fmt::format("value {}: {}\n", over, value);
  if (q.states.size() > 1 && q.filter == PropertyFilter::none) {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (VertexId v : q.states) lo = std::min(lo, x.value[v.index()]), hi = std::max(hi, x.value[v.index()]);
    out << fmt::format("values at the {} initial states range over [{}, {}] (filter(min|max|avg, ...) picks one)\n",
                       q.states.size(), fmt_value(lo), fmt_value(hi));
  }
  if (!x.probability_class.empty())
    out << fmt::format("probability exactly 0 at {} and exactly 1 at {} of {} vertices (graph analysis)\n", x.num_zero,
                       x.num_one, g.num_vertices());
  if (r.holds) {
    const std::string where = q.states.size() == 1                 ? fmt::format("at {}", states)
                              : q.filter == PropertyFilter::exists ? fmt::format("at some state of {}", states)
                                                                   : fmt::format("at every state of {}", states);
    const std::string verdict =
        *r.holds == PropertyTruth::unknown
            ? std::string("unknown")
            : fmt::format("{} ({})", *r.holds == PropertyTruth::yes ? "true" : "false", r.decided_by);
    if (q.comparison != PropertyComparison::query)
      out << fmt::format("value {} {} {}: {}\n", comparison_text(q.comparison), q.threshold_text, where, verdict);
    else
      out << fmt::format("{} (value > 0 {}): {}\n", filter_name(q.filter), where, verdict);
  }
  if (x.num_infinite > 0)
    out << fmt::format("vertices with an infinite value: {} of {}\n", x.num_infinite, g.num_vertices());
  std::string how = q.query.step_bound
                        ? fmt::format("value iteration over {} moves", *q.query.step_bound)
                        : fmt::format("{} strategy evaluations, {} improvements", x.evaluations, x.improvements);
  if (x.levels > 0) how += fmt::format(", {} reward levels", x.levels);
  if (q.query.kind == PropertyKind::probability && q.query.step_lower && !q.query.step_bound)
    how += fmt::format(", then {} moves back", *q.query.step_lower);
  if (q.query.kind == PropertyKind::steady_state ||
      (q.query.kind == PropertyKind::reward && q.query.measure == RewardMeasure::long_run))
    how =
        "bottom strongly connected components, their stationary distributions and the probabilities of reaching "
        "them";
  if (x.has_exact && x.max_bits > 0)
    out << fmt::format("exact (rational arithmetic, numbers up to {} bits); {}\n", x.max_bits, how);
  else if (x.has_exact)
    out << fmt::format("exact (rational arithmetic); {}\n", how);
  else if (x.certified)
    out << fmt::format("certified: error bound {:.3g}; {}\n", x.error_bound, how);
  else if (r.certified)
    out << fmt::format("{}; the values have no proved bound ({}), the answer is decided by {}\n", how, x.not_certified,
                       r.holds ? r.decided_by : std::string("graph analysis"));
  else
    out << how << "\n";
  out << fmt::format("solve time: {:.3f} s\n", r.seconds);
  if (!r.certified) out << fmt::format("NOT CERTIFIED: {} (exit code 5)\n", r.not_certified);
}

void write_property_json(std::ostream& out, const TestGraph& g, const PropertyReport& r, std::string_view file) {
  const PropertyResult& x = r.result;
  const PropertyRequest& q = r.request;
  auto number = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
  nlohmann::json j;
  j["file"] = std::string(file);
  j["objective"] = q.objective;
  j["property"] = q.text;
  nlohmann::json s;
  s["value"] = number(r.value);
  s["value_exact"] = r.value_exact ? nlohmann::json(exact::fraction_string(*r.value_exact)) : nlohmann::json(nullptr);
  s["infinite"] = !std::isfinite(r.value) && !r.value_exact;
  nlohmann::json st = nlohmann::json::array();
  for (VertexId v : q.states) st.push_back(std::string(g.name(v)));
  s["states"] = st;
  s["filter"] =
      q.filter == PropertyFilter::none ? nlohmann::json(nullptr) : nlohmann::json(std::string(filter_name(q.filter)));
  if (r.holds) {
    s["holds"] =
        *r.holds == PropertyTruth::unknown ? nlohmann::json(nullptr) : nlohmann::json(*r.holds == PropertyTruth::yes);
    s["decided_by"] = r.decided_by.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.decided_by);
    if (r.open_state) {
      s["open_state"] = std::string(g.name(*r.open_state));
      s["open_interval"] =
          r.open_lo <= r.open_hi ? nlohmann::json::array({r.open_lo, r.open_hi}) : nlohmann::json(nullptr);
    }
  }
  if (!x.probability_class.empty()) {
    s["probability_zero_vertices"] = x.num_zero;
    s["probability_one_vertices"] = x.num_one;
  }
  s["certified"] = r.certified;
  s["exact"] = x.has_exact;
  s["not_certified"] = r.certified ? nlohmann::json(nullptr) : nlohmann::json(r.not_certified);
  s["error_bound"] = x.error_bound < 0 ? nlohmann::json(nullptr) : nlohmann::json(x.error_bound);
  s["value_certified"] = x.certified || r.value_by_graph;
  s["evaluations"] = x.evaluations;
  s["improvements"] = x.improvements;
  s["levels"] = x.levels;
  s["infinite_vertices"] = x.num_infinite;
  s["seconds"] = r.seconds;
  j["summary"] = s;
  nlohmann::json tg = nlohmann::json::array();
  for (VertexId v : q.query.targets) tg.push_back(std::string(g.name(v)));
  j["targets"] = tg;
  // The vertices streamed (millions on a large export), keys in nlohmann's sorted order.
  detail::JsonOut o(out);
  o.document_with_vertices(j, g.num_vertices(), [&](std::uint32_t i) {
    const VertexId v{i};
    const EdgeId e = x.strategy.empty() ? EdgeId::none() : x.strategy[i];
    o.raw("  {\n   \"edge\": ");
    if (e.is_none())
      o.raw("null");
    else
      o.string(g.name(e));
    o.raw(",\n   \"id\": ");
    o.string(g.name(v));
    o.raw(",\n   \"value\": ");
    o.number(x.value[i]);
    if (x.has_exact) {
      o.raw(",\n   \"value_exact\": ");
      if (x.infinite[i])
        o.raw("null");
      else
        o.string(exact::fraction_string(x.exact[i]));
    }
    o.raw("\n  }");
  });
}

}  // namespace playtest
