// playtest cover FILE: the Chinese Postman tour of a test graph, cut into the segments of the cover
// strategy (seed 000 §5), the bound of Proposition 2 and a simulated convergence table.
#include <fmt/format.h>

#include "command.hpp"
#include "common.hpp"
#include "cover_options.hpp"
#include "playtest/cover/cover_report.hpp"
#include "playtest/graph/names.hpp"
#include "playtest/report/html_report.hpp"

namespace playtest::cli {
namespace {

int run(CoverCliOptions o) {
  const TestGraph g = load_test_graph(o.input);
  PostmanOptions& t = o.report.cover.tour;
  if (!o.start.empty()) t.start = vertex_named(g, o.start, "the start vertex");
  t.reset_cost = o.reset_cost;
  t.ignore_graph_reset = o.ignore_graph_reset;
  for (const std::string& name : o.reset_from) t.reset_from.push_back(vertex_named(g, name, "a vertex to reset from"));
  t.on_uncoverable = o.skip_uncoverable ? UncoverablePolicy::skip : UncoverablePolicy::fail;
  o.report.cover.choice = o.random_segments ? SegmentChoice::random : SegmentChoice::prefer_uncovered;
  const CoverReport r = analyze_cover(g, o.report);
  if (!o.dot.empty()) write_tour_dot(g, r.tour(), o.dot, o.input.path);
  if (!o.tour_out.empty()) {
    Output out(o.tour_out);
    write_tour_lines(out.stream(), g, r.tour());
    out.close();
  }
  if (!o.html.empty()) {
    Output out(o.html);
    report::write_html_report(out.stream(), {.title = "playtest cover " + o.input.path,
                                             .tool_version = PLAYTEST_VERSION,
                                             .model = &g,
                                             .model_name = o.input.path,
                                             .cover = &r});
    out.close();
  }
  if (o.json) {
    nlohmann::json j = cover_json(g, r);
    j["file"] = o.input.path;
    print_json(j);
  } else {
    // A long tour is summarised on the terminal; --tour-out has every step.
    constexpr std::size_t shown_steps = 40;
    write_cover_text(std::cout, g, r, shown_steps);
    if (r.tour().steps.size() > shown_steps)
      fmt::print("             {}\n", o.tour_out.empty() ? std::string("(--tour-out FILE writes every step)")
                                                         : fmt::format("(every step is in {})", o.tour_out));
  }
  return exit_code(Outcome::done);
}

const Registration reg{"cover", 50, [](CLI::App& app) {
                         auto o = std::make_shared<CoverCliOptions>();
                         add_cover_command(app, *o);
                         return [o] { return run(*o); };
                       }};

}  // namespace
}  // namespace playtest::cli
