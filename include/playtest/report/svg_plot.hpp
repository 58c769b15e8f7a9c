// Small inline SVG plots for the HTML report: a line plot with confidence bands and step lines
// (cover convergence against its bound) and histograms sharing one axis (steps to the purpose per
// strategy). Every text is escaped; sizes are in CSS pixels and the SVG scales with its viewBox.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace playtest::report {

struct PlotSeries {
  std::string name;               // in the legend
  std::vector<double> x, y;       // same length
  std::vector<double> low, high;  // a band around y (empty: none)
  std::string color = "#1f6feb";
  bool dashed = false;
  bool steps = false;   // drawn as a step function (constant until the next x)
  bool markers = true;  // a dot at every point
};

struct LinePlot {
  std::string title, x_label, y_label;
  double y_min = 0, y_max = 1;
  std::vector<PlotSeries> series;
  int width = 640, height = 320;
};
std::string svg_line_plot(const LinePlot& plot);

struct HistogramRow {
  std::string name;            // on the left of the row
  std::vector<double> values;  // the sample
  std::string note;            // on the right (e.g. "mean 12.3, sd 4.1")
  std::string color = "#1f6feb";
};

struct Histograms {
  std::string x_label;
  std::vector<HistogramRow> rows;
  int bins = 30;
  int width = 760, row_height = 56;
};
// One histogram per row over a common x range (so the rows compare side by side), with the mean
// marked; rows without values say "no run met the purpose".
std::string svg_histograms(const Histograms& h);

// "1", "2.5", "1e+06": short numbers for axes.
std::string short_number(double x);

}  // namespace playtest::report
