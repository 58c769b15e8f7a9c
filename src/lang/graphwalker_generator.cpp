// GraphWalker's generator grammar and its mapping onto playtest's strategies and purposes
// (docs/graphwalker.md "Generators").
#include "playtest/lang/graphwalker_generator.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "playtest/base/error.hpp"

namespace playtest {
namespace {

std::string lower(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

class GenParser {
 public:
  GenParser(const std::string& text, const std::string& file, std::uint32_t line, std::uint32_t column,
            const std::string& pointer, const std::vector<std::uint32_t>* columns)
      : t_(text), file_(file), line_(line), column_(column), pointer_(pointer), columns_(columns) {}

  GwGenerator parse() {
    GwGenerator g;
    g.text = t_;
    skip();
    const std::size_t at = i_;
    const std::string name = word("a generator (random, quick_random, a_star, ...)");
    const std::string n = lower(name);
    if (n == "random" || n == "randompath")
      g.algorithm = GwGenerator::Algorithm::random;
    else if (n == "weightedrandom" || n == "weightedrandompath")
      g.algorithm = GwGenerator::Algorithm::weighted_random;
    else if (n == "quickrandom" || n == "quickrandompath")
      g.algorithm = GwGenerator::Algorithm::quick_random;
    else if (n == "astar" || n == "astarpath")
      g.algorithm = GwGenerator::Algorithm::a_star;
    else if (n == "shortestallpaths")
      g.algorithm = GwGenerator::Algorithm::shortest_all_paths;
    else if (n == "predefinedpath")
      g.algorithm = GwGenerator::Algorithm::predefined_path;
    else
      fail(at, fmt::format("unknown generator '{}'", name),
           {"generators: random, weighted_random, quick_random, a_star, shortest_all_paths, predefined_path"});
    expect('(');
    bool joined = false;
    for (;;) {
      g.stops.push_back(stop());
      skip();
      const std::size_t op_at = i_;
      std::string op;
      if (t_.compare(i_, 2, "&&") == 0 || t_.compare(i_, 2, "||") == 0) {
        op = t_.substr(i_, 2) == "&&" ? "and" : "or";
        i_ += 2;
      } else if (i_ < t_.size() && std::isalpha(static_cast<unsigned char>(t_[i_]))) {
        op = lower(word("'and' or 'or'"));
        if (op != "and" && op != "or") fail(op_at, fmt::format("expected 'and', 'or' or ')', got '{}'", op));
      } else {
        break;
      }
      const bool any = op == "or";
      if (joined && any != g.any)
        fail(op_at, "'and' and 'or' mixed in one generator",
             {"GraphWalker's stop conditions here join with one of them"});
      g.any = any;
      joined = true;
    }
    expect(')');
    skip();
    if (i_ < t_.size())
      fail(i_, "one generator only: a sequence of generators is not played",
           {"give the generator to play, e.g. random(edge_coverage(100))"});
    return g;
  }

 private:
  GwStopCondition stop() {
    skip();
    const std::size_t at = i_;
    const std::string name = word("a stop condition (edge_coverage, length, ...)");
    const std::string n = lower(name);
    GwStopCondition s;
    using K = GwStopCondition::Kind;
    struct Row {
      const char* name;
      K kind;
      int arg;  // 0 none, 1 number, 2 name
    };
    static constexpr Row rows[] = {
        {"edgecoverage", K::edge_coverage, 1},
        {"vertexcoverage", K::vertex_coverage, 1},
        {"requirementcoverage", K::requirement_coverage, 1},
        {"dependencyedgecoverage", K::dependency_edge_coverage, 1},
        {"reachedvertex", K::reached_vertex, 2},
        {"reachededge", K::reached_edge, 2},
        {"timeduration", K::time_duration, 1},
        {"length", K::length, 1},
        {"never", K::never, 0},
        {"reachedsharedstate", K::never, 3},
        {"predefinedpath", K::never, 4},
    };
    const Row* row = nullptr;
    for (const Row& r : rows)
      if (n == r.name) row = &r;
    if (!row)
      fail(at, fmt::format("unknown stop condition '{}'", name),
           {"stop conditions: edge_coverage(N), vertex_coverage(N), requirement_coverage(N), "
            "dependency_edge_coverage(N), reached_vertex(NAME), reached_edge(NAME), time_duration(S), length(N), "
            "never, predefined_path"});
    if (row->arg == 3) fail(at, "reached_shared_state is not played: name a vertex with reached_vertex(NAME)");
    s.kind = row->kind;
    skip();
    if (row->arg == 0 || row->arg == 4) {  // never, predefined_path: optional ()
      if (i_ < t_.size() && t_[i_] == '(') {
        ++i_;
        expect(')');
      }
      s.number = row->arg == 4 ? 1 : 0;
      return s;
    }
    expect('(');
    skip();
    const std::size_t arg_at = i_;
    if (row->arg == 1) {
      std::int64_t v = 0;
      std::size_t digits = 0;
      while (i_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[i_])) && digits < 12)
        v = v * 10 + (t_[i_++] - '0'), ++digits;
      if (digits == 0) fail(arg_at, fmt::format("{} takes a whole number", name));
      if ((s.kind == K::edge_coverage || s.kind == K::vertex_coverage || s.kind == K::requirement_coverage) &&
          (v < 1 || v > 100))
        fail(arg_at, fmt::format("{}({}): a percentage from 1 to 100", name, v));
      s.number = v;
    } else {
      while (i_ < t_.size() && t_[i_] != ')') s.name += t_[i_++];
      while (!s.name.empty() && std::isspace(static_cast<unsigned char>(s.name.back()))) s.name.pop_back();
      if (s.name.size() >= 2 && (s.name.front() == '"' || s.name.front() == '\'') && s.name.back() == s.name.front())
        s.name = s.name.substr(1, s.name.size() - 2);
      if (s.name.empty()) fail(arg_at, fmt::format("{} takes the name of an element", name));
    }
    expect(')');
    return s;
  }

  void skip() {
    while (i_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[i_]))) ++i_;
  }
  std::string word(const char* what) {
    skip();
    const std::size_t b = i_;
    while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_')) ++i_;
    if (b == i_) fail(b, fmt::format("expected {}", what));
    return t_.substr(b, i_ - b);
  }
  void expect(char c) {
    skip();
    if (i_ >= t_.size() || t_[i_] != c)
      fail(i_, fmt::format("expected '{}'{}", c, i_ >= t_.size() ? " at the end" : fmt::format(", got '{}'", t_[i_])));
    ++i_;
  }
  [[noreturn]] void fail(std::size_t offset, std::string message, std::vector<std::string> notes = {}) const {
    std::uint32_t col = column_ + static_cast<std::uint32_t>(offset);
    if (columns_ && !columns_->empty()) col = (*columns_)[std::min(offset, columns_->size() - 1)];
    throw ParseError(make_diagnostic(file_, line_, col, pointer_,
                                     fmt::format("in the generator '{}': {}", t_, std::move(message)),
                                     std::move(notes)));
  }

  const std::string& t_;
  const std::string& file_;
  std::uint32_t line_, column_;
  const std::string& pointer_;
  const std::vector<std::uint32_t>* columns_;
  std::size_t i_ = 0;
};

std::string_view stop_name(GwStopCondition::Kind k) {
  using K = GwStopCondition::Kind;
  switch (k) {
    case K::edge_coverage:
      return "edge_coverage";
    case K::vertex_coverage:
      return "vertex_coverage";
    case K::requirement_coverage:
      return "requirement_coverage";
    case K::dependency_edge_coverage:
      return "dependency_edge_coverage";
    case K::reached_vertex:
      return "reached_vertex";
    case K::reached_edge:
      return "reached_edge";
    case K::time_duration:
      return "time_duration";
    case K::length:
      return "length";
    case K::never:
      return "never";
  }
  return "?";
}

}  // namespace

GwGenerator parse_generator(const std::string& text, const std::string& file, std::uint32_t line, std::uint32_t column,
                            const std::string& pointer) {
  return GenParser(text, file, line, column, pointer, nullptr).parse();
}

GwGenerator parse_generator(const GwScript& s, const std::string& file) {
  return GenParser(s.text, file, s.where.line, s.where.column, s.where.pointer, &s.columns).parse();
}

GeneratorPlan plan_generator(const GwGenerator& g, const GraphWalkerImport* imported) {
  using K = GwStopCondition::Kind;
  using A = GwGenerator::Algorithm;
  GeneratorPlan p;
  // The conditions: at most one purpose (coverage of one kind of element, or reaching one element)
  // and budgets (length, time_duration, never).
  const GwStopCondition* purpose = nullptr;
  std::vector<const GwStopCondition*> coverage;
  for (const GwStopCondition& s : g.stops) {
    switch (s.kind) {
      case K::length:
        p.steps = static_cast<std::uint64_t>(s.number);
        break;
      case K::time_duration:
        p.time_s = static_cast<double>(s.number);
        break;
      case K::never:
        break;
      default:
        if (purpose && (purpose->kind == K::reached_vertex || purpose->kind == K::reached_edge ||
                        s.kind == K::reached_vertex || s.kind == K::reached_edge || purpose->number != s.number))
          throw UsageError("generator", fmt::format("'{}': {} and {} together have no playtest purpose", g.text,
                                                    stop_name(purpose->kind), stop_name(s.kind)));
        purpose = &s;
        coverage.push_back(&s);
    }
  }
  const bool budget = p.steps != 0 || p.time_s != 0;
  if (purpose && budget && !g.any)
    p.notes.push_back(fmt::format(
        "'{}': GraphWalker stops when all of its conditions hold; playtest's run ends at the first of its purpose "
        "and its budget (the budget first: INCONCLUSIVE)",
        g.text));
  if (!purpose) {
    p.purpose = "none";
  } else if (purpose->kind == K::reached_vertex || purpose->kind == K::reached_edge) {
    p.purpose = "reach";
    p.goals.push_back(purpose->name);
  } else {
    p.purpose = fmt::format("labels:{}%", purpose->number);
    std::set<std::string> labels;
    for (const GwStopCondition* c : coverage)
      for (const GraphWalkerElement& e : imported ? imported->elements : std::vector<GraphWalkerElement>{}) {
        const bool take = c->kind == K::edge_coverage              ? e.is_edge
                          : c->kind == K::vertex_coverage          ? !e.is_edge
                          : c->kind == K::requirement_coverage     ? !e.requirements.empty()
                          : c->kind == K::dependency_edge_coverage ? e.is_edge && e.dependency.value_or(0) >= c->number
                                                                   : false;
        if (take) labels.insert(e.label);
      }
    if (purpose->kind == K::dependency_edge_coverage) p.purpose = "labels";
    if (purpose->kind == K::requirement_coverage)
      p.notes.push_back("requirement_coverage is played as covering every element that carries a requirement");
    if (imported && labels.empty())
      throw UsageError("generator",
                       fmt::format("'{}': the model has no element that {} counts", g.text, stop_name(purpose->kind)));
    p.trap_labels.assign(labels.begin(), labels.end());
  }
  switch (g.algorithm) {
    case A::random:
    case A::weighted_random:
      p.strategy = "random";
      if (g.algorithm == A::weighted_random) {
        // The random walk with GraphWalker's edge weights (RandomWalkPolicy's label weights).
        p.weighted = true;
        if (imported && !imported->weight_overflows.empty())
          throw UsageError("generator",
                           fmt::format("'{}': the weights of the edges out of {} sum to more than 1 (GraphWalker's "
                                       "weighted_random stops there with an error)",
                                       g.text, imported->weight_overflows.front()));
        for (const GraphWalkerElement& e : imported ? imported->elements : std::vector<GraphWalkerElement>{})
          if (e.is_edge && e.weight) p.label_weights.emplace_back(e.label, *e.weight);
        if (imported && p.label_weights.empty())
          p.notes.push_back("no edge of the model has a weight: weighted_random is the uniform random walk");
      }
      break;
    case A::quick_random:
      // GraphWalker's quick_random walks the shortest path to an element not yet visited; playtest's
      // planner steers to the purpose's edges not yet taken.
      p.strategy = p.purpose == "none" ? "random" : p.purpose == "reach" ? "reach" : "planner";
      break;
    case A::a_star:
    case A::shortest_all_paths:
      p.strategy = p.purpose == "reach" ? "reach" : p.purpose == "none" ? "random" : "cover";
      break;
    case A::predefined_path:
      // The path is the walk (the model compiled with only its next step enabled, its end the goal:
      // GraphWalkerOptions::predefined_path); reach plays it to the end.
      if (purpose)
        throw UsageError("generator", fmt::format("'{}': predefined_path walks the model's path to its end; {} has no "
                                                  "meaning with it (GraphWalker takes only predefined_path)",
                                                  g.text, stop_name(purpose->kind)));
      p.strategy = "reach";
      p.purpose = "reach";
      p.predefined_path = true;
      p.notes.clear();
      break;
  }
  if (p.strategy == "random" && p.purpose.starts_with("labels"))
    p.better =
        "playtest's cover (--strategy cover) plays an optimal tour of the model: the same coverage in fewer steps "
        "than a random walk (docs/graphwalker.md has the numbers)";
  else if (p.strategy == "random" && p.purpose == "reach")
    p.better = "playtest's reach (--strategy reach) and planner steer to the goal instead of walking at random";
  return p;
}

}  // namespace playtest
