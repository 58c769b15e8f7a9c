#include "playtest/report/svg_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "playtest/report/html_report.hpp"

namespace playtest::report {

namespace {

// "Nice" tick positions covering [lo, hi] (about `count` of them).
std::vector<double> ticks(double lo, double hi, int count) {
  std::vector<double> t;
  if (!(hi > lo)) {
    t.push_back(lo);
    return t;
  }
  const double raw = (hi - lo) / std::max(1, count);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
    if (m * mag >= raw) {
      step = m * mag;
      break;
    }
  for (double x = std::ceil(lo / step - 1e-9) * step; x <= hi + step * 1e-9; x += step)
    t.push_back(std::abs(x) < step * 1e-9 ? 0.0 : x);
  return t;
}

std::string num(double x) { return fmt::format("{:.1f}", x); }

}  // namespace

std::string short_number(double x) {
  if (!std::isfinite(x)) return x > 0 ? "inf" : (x < 0 ? "-inf" : "nan");
  if (x == std::round(x) && std::abs(x) < 1e6) return fmt::format("{}", static_cast<long long>(x));
  return fmt::format("{:.3g}", x);
}

std::string svg_line_plot(const LinePlot& p) {
  const double left = 56, right = 16, top = p.title.empty() ? 14 : 34, bottom = 64;
  const double w = p.width - left - right, h = p.height - top - bottom;
  double x_min = 0, x_max = 1;
  bool first = true;
  for (const PlotSeries& s : p.series)
    for (double x : s.x) {
      if (!std::isfinite(x)) continue;
      x_min = first ? x : std::min(x_min, x);
      x_max = first ? x : std::max(x_max, x);
      first = false;
    }
  if (!(x_max > x_min)) x_max = x_min + 1;
  const double y_min = p.y_min, y_max = p.y_max > p.y_min ? p.y_max : p.y_min + 1;
  auto X = [&](double x) { return left + (x - x_min) / (x_max - x_min) * w; };
  auto Y = [&](double y) { return top + (1 - (std::clamp(y, y_min, y_max) - y_min) / (y_max - y_min)) * h; };

  std::string s = fmt::format(
      "<svg class=\"plot\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"{}\" "
      "xmlns=\"http://www.w3.org/2000/svg\">\n",
      p.width, p.height, p.width, p.height, escape_html(p.title));
  if (!p.title.empty())
    s += fmt::format("<text x=\"{}\" y=\"20\" class=\"plot-title\">{}</text>\n", num(left), escape_html(p.title));
  // Grid and axes.
  for (double t : ticks(y_min, y_max, 5)) {
    s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"grid\"/>", num(left), num(Y(t)),
                     num(left + w), num(Y(t)));
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"end\">{}</text>\n", num(left - 6),
                     num(Y(t) + 4), short_number(t));
  }
  for (double t : ticks(x_min, x_max, 8)) {
    s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"grid\"/>", num(X(t)), num(top), num(X(t)),
                     num(top + h));
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">{}</text>\n", num(X(t)),
                     num(top + h + 16), short_number(t));
  }
  s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" class=\"frame\"/>\n", num(left), num(top),
                   num(w), num(h));
  s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"axis\" text-anchor=\"middle\">{}</text>\n", num(left + w / 2),
                   num(top + h + 34), escape_html(p.x_label));
  s += fmt::format("<text class=\"axis\" text-anchor=\"middle\" transform=\"translate(14 {}) rotate(-90)\">{}</text>\n",
                   num(top + h / 2), escape_html(p.y_label));
  // Bands, then lines, then markers.
  for (const PlotSeries& ser : p.series) {
    const std::size_t n = std::min(ser.x.size(), ser.y.size());
    if (ser.low.size() >= n && ser.high.size() >= n && n > 0) {
      std::string pts;
      for (std::size_t i = 0; i < n; ++i) pts += num(X(ser.x[i])) + "," + num(Y(ser.high[i])) + " ";
      for (std::size_t i = n; i-- > 0;) pts += num(X(ser.x[i])) + "," + num(Y(ser.low[i])) + " ";
      s += fmt::format("<polygon points=\"{}\" fill=\"{}\" fill-opacity=\"0.18\" stroke=\"none\"/>\n", pts,
                       escape_html(ser.color));
    }
  }
  for (const PlotSeries& ser : p.series) {
    const std::size_t n = std::min(ser.x.size(), ser.y.size());
    if (n == 0) continue;
    std::string d;
    for (std::size_t i = 0; i < n; ++i) {
      if (i == 0) {
        d += fmt::format("M{},{}", num(X(ser.x[i])), num(Y(ser.y[i])));
      } else if (ser.steps) {
        d += fmt::format(" H{} V{}", num(X(ser.x[i])), num(Y(ser.y[i])));
      } else {
        d += fmt::format(" L{},{}", num(X(ser.x[i])), num(Y(ser.y[i])));
      }
    }
    s += fmt::format("<path d=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}/>\n", d, escape_html(ser.color),
                     ser.dashed ? " stroke-dasharray=\"6 4\"" : "");
    if (ser.markers)
      for (std::size_t i = 0; i < n; ++i)
        s += fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"2.5\" fill=\"{}\"/>", num(X(ser.x[i])), num(Y(ser.y[i])),
                         escape_html(ser.color));
    s += "\n";
  }
  // Legend under the axis label.
  double lx = left;
  for (const PlotSeries& ser : p.series) {
    const double ly = p.height - 10;
    s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"{}/>", num(lx),
                     num(ly - 4), num(lx + 22), num(ly - 4), escape_html(ser.color),
                     ser.dashed ? " stroke-dasharray=\"6 4\"" : "");
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"legend\">{}</text>\n", num(lx + 28), num(ly),
                     escape_html(ser.name));
    lx += 40 + 7.0 * static_cast<double>(ser.name.size());
  }
  s += "</svg>";
  return s;
}

std::string svg_histograms(const Histograms& hs) {
  const double name_w = 110, note_w = 190, pad = 8;
  const double plot_w = hs.width - name_w - note_w - 2 * pad;
  const double axis_h = 40;
  const int height = static_cast<int>(hs.rows.size()) * hs.row_height + static_cast<int>(axis_h) + 8;
  double lo = 0, hi = 1;
  bool any = false;
  for (const HistogramRow& r : hs.rows)
    for (double v : r.values) {
      if (!std::isfinite(v)) continue;
      lo = any ? std::min(lo, v) : v;
      hi = any ? std::max(hi, v) : v;
      any = true;
    }
  lo = std::min(lo, 0.0);
  if (!(hi > lo)) hi = lo + 1;
  const int bins = std::max(1, hs.bins);
  const double bin_w = (hi - lo) / bins;
  auto X = [&](double x) { return name_w + pad + (x - lo) / (hi - lo) * plot_w; };

  std::string s = fmt::format(
      "<svg class=\"plot\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"{}\" "
      "xmlns=\"http://www.w3.org/2000/svg\">\n",
      hs.width, height, hs.width, height, escape_html(hs.x_label));
  for (std::size_t i = 0; i < hs.rows.size(); ++i) {
    const HistogramRow& r = hs.rows[i];
    const double y0 = static_cast<double>(i) * hs.row_height, base = y0 + hs.row_height - 8;
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"row-name\" text-anchor=\"end\">{}</text>\n", num(name_w),
                     num(base - 8), escape_html(r.name));
    s += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" class=\"baseline\"/>\n", num(X(lo)), num(base),
                     num(X(hi)), num(base));
    std::vector<std::uint32_t> count(static_cast<std::size_t>(bins), 0);
    double sum = 0;
    std::size_t n = 0;
    for (double v : r.values) {
      if (!std::isfinite(v)) continue;
      const auto b = std::min<std::size_t>(static_cast<std::size_t>((v - lo) / bin_w), count.size() - 1);
      ++count[b];
      sum += v;
      ++n;
    }
    const std::uint32_t top = *std::max_element(count.begin(), count.end());
    if (n == 0) {
      s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"empty\">no run met the purpose</text>\n", num(X(lo) + 6),
                       num(base - 8));
    } else {
      const double bar_h = hs.row_height - 16;
      for (std::size_t b = 0; b < count.size(); ++b) {
        if (!count[b]) continue;
        const double hgt = std::max(1.5, bar_h * count[b] / top);
        const double x = X(lo + static_cast<double>(b) * bin_w);
        s += fmt::format(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"><title>{} runs in [{}, {})</title></rect>",
            num(x + 0.5), num(base - hgt), num(std::max(1.0, X(lo + bin_w) - X(lo) - 1)), num(hgt),
            escape_html(r.color), count[b], short_number(lo + static_cast<double>(b) * bin_w),
            short_number(lo + static_cast<double>(b + 1) * bin_w));
      }
      const double mean = sum / static_cast<double>(n);
      s += fmt::format(
          "\n<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" class=\"mean\"><title>mean {3}</title></line>\n",
          num(X(mean)), num(y0 + 4), num(base + 3), short_number(mean));
    }
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"row-note\">{}</text>\n", num(X(hi) + pad), num(base - 8),
                     escape_html(r.note));
  }
  const double axis_y = static_cast<double>(hs.rows.size()) * hs.row_height;
  for (double t : ticks(lo, hi, 8)) {
    s += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" class=\"grid\"/>", num(X(t)), num(axis_y - 6),
                     num(axis_y));
    s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">{}</text>\n", num(X(t)),
                     num(axis_y + 12), short_number(t));
  }
  s += fmt::format("<text x=\"{}\" y=\"{}\" class=\"axis\" text-anchor=\"middle\">{}</text>\n", num(X((lo + hi) / 2)),
                   num(axis_y + 30), escape_html(hs.x_label));
  s += "</svg>";
  return s;
}

}  // namespace playtest::report
