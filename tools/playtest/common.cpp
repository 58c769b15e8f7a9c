#include "common.hpp"

#include "playtest/error.hpp"
#include "playtest/io/graph_json.hpp"
#include "playtest/io/prism_import.hpp"

namespace playtest::cli {

void add_input_options(CLI::App* sub, InputOptions& opts) {
  sub->add_option("FILE", opts.path, "Test graph (graph/1 JSON); - reads standard input")->required();
}

TestGraph load_input(const InputOptions& opts) {
  // A PRISM explicit MDP (docs/formats.md): BASE.tra names BASE.lab and BASE.trew too.
  if (opts.path.size() > 4 && opts.path.compare(opts.path.size() - 4, 4, ".tra") == 0)
    return load_prism(opts.path.substr(0, opts.path.size() - 4));
  return load_graph(opts.path);
}

Output::Output(const std::string& path) : path_(path) {
  if (path != "-") {
    file_ = std::make_unique<std::ofstream>(path, std::ios::binary);
    if (!*file_) throw Error(Diagnostic{{path, 0, 0, ""}, "cannot open for writing", {}});
  }
}

void Output::close() {
  stream().flush();
  if (!stream()) throw Error(Diagnostic{{path_, 0, 0, ""}, "write error", {}});
  if (file_) file_->close();
}

}  // namespace playtest::cli
