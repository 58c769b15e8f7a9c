// playtest learn TRACE... --model MODEL -o LEARNED: estimate the system's real choice frequencies
// at every passive vertex from recorded runs (with a prior and credible intervals), list allowed
// outcomes never seen, flag vertices whose counts contradict the model (goodness of fit), and write
// the model with the learned probabilities (docs/diagnosis.md).
#include <fmt/format.h>

#include <iostream>

#include "command.hpp"
#include "common.hpp"
#include "diagnose_options.hpp"
#include "playtest/diagnose/learn.hpp"
#include "playtest/diagnose/render.hpp"
#include "playtest/io/graph_json.hpp"

namespace playtest::cli {
namespace {

struct Options {
  std::vector<std::string> traces;
  RecordedModelOptions model;
  std::string output, prior = "model", test = "auto";
  double prior_weight = 1, confidence = 0.95, significance = 0.05;
  bool json = false;
};

int run(const Options& o) {
  std::vector<RecordedTrace> traces;
  for (const std::string& path : o.traces) traces.push_back(load_trace(path));
  refuse_repeated_runs(traces);  // a trace given twice would count its observations twice
  const InputOptions input = recorded_model_input(o.model, traces.front().runs.front());
  const std::string& model = input.path;
  const TestGraph g = load_test_graph(input);
  ObservationCounts counts(g);
  for (const RecordedTrace& t : traces) counts.add(t);
  const LearnOptions lo{.prior = parse_prior_center(o.prior),
                        .prior_weight = o.prior_weight,
                        .confidence = o.confidence,
                        .significance = o.significance,
                        .method = parse_fit_method(o.test)};
  const LearnResult r = learn(g, counts, lo, o.traces);
  if (!o.output.empty()) {
    Output out(o.output);
    write_graph(r.learned, out.stream());
    out.close();
  }
  const LearnContext c{.model = model, .output = o.output, .traces = o.traces};
  if (o.json)
    print_json(learn_json(g, r, c));
  else
    write_learn_text(std::cout, g, r, c);
  return exit_code(Outcome::done);
}

const Registration reg{
    "learn", 72, [](CLI::App& app) {
      auto o = std::make_shared<Options>();
      auto* sub = app.add_subcommand(
          "learn",
          "Estimate the outcome probabilities of every passive vertex from recorded runs (prior, credible intervals), "
          "list allowed outcomes never observed, flag vertices whose counts contradict the model (goodness-of-fit test "
          "with its p-value), and write the model with the learned probabilities (counts in meta.learned).");
      sub->add_option("TRACE", o->traces, "JSONL traces (run --trace); several runs and files add up")->required();
      add_recorded_model_options(sub, o->model,
                                 "The model the traces were recorded with (default: the one the first names)");
      sub->add_option("-o,--output", o->output, "Write the learned model (graph/1) here");
      sub->add_option("--prior", o->prior, "Centre of the Dirichlet prior: model (its probabilities) or uniform")
          ->check(CLI::IsMember({"model", "uniform"}))
          ->default_val("model");
      sub->add_option("--prior-weight", o->prior_weight, "The prior is worth this many visits")->default_val(1.0);
      sub->add_option("--confidence", o->confidence, "Level of the credible intervals")->default_val(0.95);
      sub->add_option("--significance", o->significance, "Significance level of the goodness-of-fit test")
          ->default_val(0.05);
      sub->add_option("--test", o->test,
                      "Goodness-of-fit test: auto (exact multinomial when cheap, else chi-square), exact, chi-square, "
                      "g-test")
          ->check(CLI::IsMember({"auto", "exact", "chi-square", "g-test"}))
          ->default_val("auto");
      sub->add_flag("--json", o->json, "Print the estimates as JSON");
      return [o] { return run(*o); };
    }};

}  // namespace
}  // namespace playtest::cli
