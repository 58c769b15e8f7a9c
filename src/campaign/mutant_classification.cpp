#include "playtest/campaign/mutant_classification.hpp"

#include <fmt/format.h>

#include <deque>
#include <limits>
#include <ostream>
#include <unordered_map>

#include "playtest/base/error.hpp"

namespace playtest {

std::string_view to_string(MutantClass c) {
  switch (c) {
    case MutantClass::killed:
      return "killed";
    case MutantClass::equivalent:
      return "equivalent";
    case MutantClass::missed:
      return "missed";
    case MutantClass::unknown:
      break;
  }
  return "unknown";
}

MutantVerdict classify_mutant(MutantAnalysis analysis, std::vector<MutantKill> kills) {
  MutantVerdict v;
  v.killed_by = std::move(kills);
  if (!v.killed_by.empty())
    v.cls = MutantClass::killed;
  else if (analysis.distinguishable)
    v.cls = MutantClass::missed;
  else if (analysis.complete)
    v.cls = MutantClass::equivalent;
  else
    v.cls = MutantClass::unknown;
  v.analysis = std::move(analysis);
  return v;
}

double mutation_score(const std::vector<MutantVerdict>& verdicts) {
  std::size_t killed = 0, equivalent = 0;
  for (const MutantVerdict& v : verdicts) {
    killed += v.cls == MutantClass::killed;
    equivalent += v.cls == MutantClass::equivalent;
  }
  const std::size_t n = verdicts.size() - equivalent;
  return n == 0 ? 1.0 : static_cast<double>(killed) / static_cast<double>(n);
}

namespace {

std::string join(const std::vector<std::string>& v, std::string_view sep) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : std::string(sep)) + x;
  return s;
}

struct Counts {
  std::size_t killed = 0, equivalent = 0, missed = 0, unknown = 0;
  explicit Counts(const std::vector<MutantVerdict>& vs) {
    for (const auto& v : vs) {
      killed += v.cls == MutantClass::killed;
      equivalent += v.cls == MutantClass::equivalent;
      missed += v.cls == MutantClass::missed;
      unknown += v.cls == MutantClass::unknown;
    }
  }
};

}  // namespace

void write_mutant_verdict_text(std::ostream& out, const MutantVerdict& v) {
  switch (v.cls) {
    case MutantClass::killed: {
      std::vector<std::string> by;
      for (const auto& k : v.killed_by) by.push_back(fmt::format("{} after {} steps", k.strategy, k.steps));
      out << "        killed by " << join(by, ", ") << "\n";
      break;
    }
    case MutantClass::equivalent:
      out << fmt::format(
          "        equivalent: every behaviour of the mutant is allowed by the model ({} product "
          "states explored; no sound test can kill it)\n",
          v.analysis.product_states);
      break;
    case MutantClass::missed: {
      const MutantWitness& w = *v.analysis.witness;
      out << fmt::format("        missed; witness: {}{}{}\n", join(w.steps, ", "), w.steps.empty() ? "" : ", then ",
                         w.failure);
      out << fmt::format(
          "        (this path happens with probability {:.4g}; the best test kills it with probability "
          "{:.4g})\n",
          w.path_probability, w.kill_probability);
      break;
    }
    case MutantClass::unknown:
      out << fmt::format("        unknown: the product of model and mutant has more than {} states\n",
                         v.analysis.product_states - 1);
      break;
  }
}

void write_mutation_score_text(std::ostream& out, const std::vector<MutantVerdict>& verdicts) {
  const Counts c(verdicts);
  out << fmt::format("mutation score: {} killed / ({} mutants - {} equivalent) = {:.1f}% ({} missed{})\n", c.killed,
                     verdicts.size(), c.equivalent, 100.0 * mutation_score(verdicts), c.missed,
                     c.unknown ? fmt::format(", {} unknown", c.unknown) : "");
}

nlohmann::json mutant_analysis_json(const MutantAnalysis& a) {
  nlohmann::json j;
  j["product_states"] = a.product_states;
  j["product_complete"] = a.complete;
  if (a.witness) {
    const MutantWitness& w = *a.witness;
    j["witness"] = {{"steps", w.steps},
                    {"stimuli", w.stimuli},
                    {"failure", w.failure},
                    {"path_probability", w.path_probability},
                    {"kill_probability", w.kill_probability}};
  } else {
    j["witness"] = nullptr;
  }
  return j;
}

std::optional<MutantAnalysis> mutant_analysis_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("product_states") || !j["product_states"].is_number_unsigned() ||
      !j.contains("product_complete") || !j["product_complete"].is_boolean() || !j.contains("witness"))
    return std::nullopt;
  MutantAnalysis a;
  a.product_states = j["product_states"].get<std::uint32_t>();
  a.complete = j["product_complete"].get<bool>();
  const nlohmann::json& w = j["witness"];
  if (w.is_object()) {
    MutantWitness x;
    auto strings = [&](const char* key) {
      std::vector<std::string> out;
      if (w.contains(key) && w[key].is_array())
        for (const auto& s : w[key])
          if (s.is_string()) out.push_back(s.get<std::string>());
      return out;
    };
    x.steps = strings("steps");
    x.stimuli = strings("stimuli");
    x.failure = w.value("failure", std::string());
    x.path_probability = w.value("path_probability", 0.0);
    x.kill_probability = w.value("kill_probability", 0.0);
    a.witness = std::move(x);
    a.distinguishable = true;
  } else if (!w.is_null()) {
    return std::nullopt;
  }
  return a;
}

nlohmann::json mutant_verdict_json(const MutantVerdict& v) {
  nlohmann::json j = mutant_analysis_json(v.analysis);
  j["class"] = std::string(to_string(v.cls));
  nlohmann::json by = nlohmann::json::array();
  for (const auto& k : v.killed_by) by.push_back({{"strategy", k.strategy}, {"steps", k.steps}});
  j["killed_by"] = std::move(by);
  return j;
}

nlohmann::json mutation_score_json(const std::vector<MutantVerdict>& verdicts) {
  const Counts c(verdicts);
  return {{"killed", c.killed},   {"equivalent", c.equivalent}, {"missed", c.missed},
          {"unknown", c.unknown}, {"mutants", verdicts.size()}, {"score", mutation_score(verdicts)}};
}

}  // namespace playtest
