// Graphviz as a subprocess: DOT in, SVG out (`dot -Tsvg`), for pictures inlined in an HTML report.
// The report area is the one place besides the adapters that starts a process (docs/design.md).
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "playtest/run/stop_signal.hpp"

namespace playtest::report {

struct GraphvizOptions {
  std::string program = "dot";  // found on PATH unless it contains a '/'
  // The layout is killed after this long. The report gives each picture a budget proportional to
  // its size (2 s and 1 ms per 20 bytes of DOT), at most this.
  std::chrono::milliseconds timeout{60000};
  // Once a stop is requested (SIGINT, SIGTERM) the layout in progress is killed and no further one
  // starts: the picture is left out with a message, the rest of the report is written.
  const StopSignal* stop = nullptr;
};

struct SvgPicture {
  bool ok = false;
  std::string svg;      // the <svg> element (prolog, doctype and comments removed) when ok
  std::string message;  // why there is no picture when !ok
  // The same in a few words for a caption ("it timed out after 2.1 s", "it is not installed"), when
  // !ok because Graphviz could not draw it (empty when a stop request ended the layout).
  std::string reason;
};

// Runs `program -Tsvg` on `dot` and checks the result with clean_svg. Never throws for a missing
// or failing Graphviz: the picture is then !ok with a message saying what happened. Graphviz runs
// in a process group of its own, killed as a whole at the timeout, at a stop request and when
// playtest exits at once (exit_cleanup.hpp), so nothing it started outlives the call.
SvgPicture render_svg(std::string_view dot, const GraphvizOptions& options = {});

// The <svg> element of a Graphviz SVG document, comments removed, checked to hold only the
// elements and attributes Graphviz draws (no script, no event handler, no link, no foreign
// content), so that it is safe to inline in HTML. !ok with the reason otherwise.
SvgPicture clean_svg(std::string_view document);

}  // namespace playtest::report
