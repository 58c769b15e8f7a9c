#include "common.hpp"

#include "playtest/error.hpp"
#include "playtest/io/graph_json.hpp"

namespace playtest::cli {

void add_input_options(CLI::App* sub, InputOptions& opts) {
  sub->add_option("FILE", opts.path, "Test graph (graph/1 JSON); - reads standard input")->required();
}

TestGraph load_input(const InputOptions& opts) { return load_graph(opts.path); }

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
