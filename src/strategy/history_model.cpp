#include "playtest/strategy/history_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

namespace playtest {

bool Memory::watches(LabelId l) const {
  return labels.empty() || std::binary_search(labels.begin(), labels.end(), l);
}

std::vector<LabelId> Memory::state_after(const GameGraph& g, std::span<const EdgeId> path) const {
  std::vector<LabelId> out;
  for (auto it = path.rbegin(); it != path.rend() && out.size() < length; ++it) {
    const LabelId l = g.label_id(*it);
    if (watches(l)) out.push_back(l);
  }
  std::reverse(out.begin(), out.end());
  return out;
}

std::uint64_t LearnedChoice::State::count(EdgeId e) const {
  for (const auto& [o, n] : outcomes)
    if (o == e) return n;
  return 0;
}

const LearnedChoice::State* LearnedChoice::find(std::span<const LabelId> history) const {
  for (const State& s : states)
    if (std::equal(s.history.begin(), s.history.end(), history.begin(), history.end())) return &s;
  return nullptr;
}

const LearnedChoice* HistoryModel::at(VertexId v) const {
  const auto it = std::lower_bound(choices.begin(), choices.end(), v,
                                   [](const LearnedChoice& c, VertexId x) { return c.vertex < x; });
  return it != choices.end() && it->vertex == v ? &*it : nullptr;
}

std::string HistoryModel::describe(const GameGraph& g, std::span<const LabelId> history) {
  std::string s = "[";
  for (std::size_t i = 0; i < history.size(); ++i) {
    if (i) s += ' ';
    s += g.label_name(history[i]);
  }
  return s + "]";
}

namespace {

// The action of a label: its direction mark and name, without arguments ("!Reserve(1)" ->
// "!Reserve").
std::string_view action_of(std::string_view label) {
  const std::size_t paren = label.find('(');
  return paren == std::string_view::npos ? label : label.substr(0, paren);
}

struct Candidate {
  Memory memory;
  std::uint32_t max_length = 0;
};

using Counts = std::vector<std::pair<EdgeId, std::uint64_t>>;

void add(Counts& c, EdgeId e) {
  for (auto& [o, n] : c)
    if (o == e) {
      ++n;
      return;
    }
  c.emplace_back(e, 1);
}

double log_likelihood(const Counts& c) {
  std::uint64_t n = 0;
  for (const auto& [o, k] : c) n += k;
  double ll = 0;
  for (const auto& [o, k] : c) ll += static_cast<double>(k) * std::log(static_cast<double>(k) / static_cast<double>(n));
  return ll;
}

struct Entry {
  VertexId vertex;
  std::vector<LabelId> history;
  Counts outcomes;
};

std::uint64_t mix(std::uint64_t h, std::uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

// One pass of a candidate over every path: the outcomes at the learned vertices per (vertex,
// memory state), for each length 1..max_length.
std::vector<std::unordered_map<std::uint64_t, Entry>> tabulate(const GameGraph& g, const Evidence& evidence,
                                                                const Candidate& c,
                                                                const std::vector<std::uint8_t>& learn) {
  std::vector<std::unordered_map<std::uint64_t, Entry>> tables(c.max_length);
  std::vector<LabelId> window;  // the watched labels so far in the segment, most recent last
  evidence.for_each_segment([&](std::span<const EdgeId> path) {
    window.clear();
    for (EdgeId e : path) {
      if (e.index() >= g.num_edges()) break;  // (on the fly: an edge of a later discovery)
      const VertexId v = g.source(e);
      if (v.index() < learn.size() && learn[v.index()]) {
        std::uint64_t h = mix(0, v.value);
        for (std::uint32_t k = 1; k <= c.max_length; ++k) {
          const bool full = window.size() >= k;
          h = mix(h, full ? window[window.size() - k].value + 1 : 0);
          auto [it, fresh] = tables[k - 1].try_emplace(h);
          if (fresh) {
            it->second.vertex = v;
            const std::size_t n = std::min<std::size_t>(k, window.size());
            it->second.history.assign(window.end() - static_cast<std::ptrdiff_t>(n), window.end());
          }
          add(it->second.outcomes, e);
          if (!full) {  // shorter histories than k are the same state for every longer length
            for (std::uint32_t j = k + 1; j <= c.max_length; ++j) {
              auto [jt, jfresh] = tables[j - 1].try_emplace(h);
              if (jfresh) {
                jt->second.vertex = v;
                jt->second.history = window;
              }
              add(jt->second.outcomes, e);
            }
            break;
          }
        }
      }
      const LabelId l = g.label_id(e);
      if (c.memory.watches(l)) {
        window.push_back(l);
        if (window.size() > c.max_length) window.erase(window.begin());
      }
    }
  });
  return tables;
}

}  // namespace

HistoryModel learn_history(const GameGraph& g, const Evidence& evidence, const HistoryLearningOptions& o) {
  HistoryModel model;
  const std::uint32_t n = g.num_vertices();
  // The vertices to learn: passive, a choice, enough visits.
  std::vector<std::uint8_t> learn(n, 0);
  std::vector<VertexId> targets;
  for (VertexId v : evidence.vertices()) {
    if (v.index() >= n || !g.is_passive(v) || g.out_degree(v) < 2) continue;
    if (!o.vertices.empty() && (v.index() >= o.vertices.size() || !o.vertices[v.index()])) continue;
    if (evidence.visits(v) < o.min_visits) continue;
    learn[v.index()] = 1;
    targets.push_back(v);
  }
  if (targets.empty() || o.max_length == 0) return model;

  // The candidates: every label (short memories only: the product grows fast), each action's
  // labels, and each learned vertex's outcomes; only labels that occur on the paths.
  std::vector<std::uint8_t> occurs(g.num_labels(), 0);
  evidence.for_each_segment([&](std::span<const EdgeId> path) {
    for (EdgeId e : path)
      if (e.index() < g.num_edges()) occurs[g.label_id(e).index()] = 1;
  });
  std::vector<Candidate> candidates;
  candidates.push_back({.memory = {.labels = {}, .name = "labels"}, .max_length = std::min(o.max_length, 3u)});
  std::map<std::string, std::vector<LabelId>, std::less<>> actions;
  for (std::uint32_t l = 0; l < g.num_labels(); ++l)
    if (occurs[l]) actions[std::string(action_of(g.label_name(LabelId{l})))].push_back(LabelId{l});
  auto add_class = [&](std::vector<LabelId> labels, std::string name) {
    std::sort(labels.begin(), labels.end());
    for (const Candidate& c : candidates)
      if (c.memory.labels == labels) return;
    candidates.push_back({.memory = {.labels = std::move(labels), .name = std::move(name)}, .max_length = o.max_length});
  };
  for (auto& [action, labels] : actions)
    add_class(labels, labels.size() == 1 ? std::string(g.label_name(labels.front())) : action + "(..)");
  for (VertexId v : targets) {
    std::vector<LabelId> outs;
    std::string name = "{";
    for (EdgeId e : g.out_edges(v)) {
      if (std::find(outs.begin(), outs.end(), g.label_id(e)) != outs.end()) continue;
      outs.push_back(g.label_id(e));
      name += (outs.size() > 1 ? ", " : "") + std::string(g.label(e));
    }
    add_class(std::move(outs), name + "}");
  }

  // The vertex alone: its log-likelihood and criterion.
  std::vector<double> ll0(n, 0), best(n, 0);
  std::vector<std::uint64_t> visits(n, 0);
  {
    std::vector<Counts> counts(n);
    evidence.for_each_segment([&](std::span<const EdgeId> path) {
      for (EdgeId e : path)
        if (e.index() < g.num_edges() && learn[g.source(e).index()]) add(counts[g.source(e).index()], e);
    });
    for (VertexId v : targets) {
      for (const auto& [e, k] : counts[v.index()]) visits[v.index()] += k;
      ll0[v.index()] = log_likelihood(counts[v.index()]);
      const double free = static_cast<double>(g.out_degree(v) - 1);
      best[v.index()] = ll0[v.index()] - 0.5 * free * std::log(std::max<double>(2, visits[v.index()]));
    }
  }
  const std::vector<double> base = best;
  struct Choice {
    std::int64_t candidate = -1;
    std::uint32_t length = 0;
  };
  std::vector<Choice> chosen(n);
  std::vector<std::vector<std::unordered_map<std::uint64_t, Entry>>> tables(candidates.size());
  for (std::size_t ci = 0; ci < candidates.size(); ++ci) {
    const Candidate& c = candidates[ci];
    tables[ci] = tabulate(g, evidence, c, learn);
    model.work += evidence.path_length() * c.max_length;
    for (std::uint32_t k = 1; k <= c.max_length; ++k) {
      std::vector<double> ll(n, 0);
      std::vector<std::uint32_t> states(n, 0);
      for (const auto& [h, entry] : tables[ci][k - 1]) {
        ll[entry.vertex.index()] += log_likelihood(entry.outcomes);
        ++states[entry.vertex.index()];
      }
      for (VertexId v : targets) {
        const std::uint32_t s = states[v.index()];
        if (s <= 1 || s > o.max_states) continue;
        const double free = static_cast<double>(s) * static_cast<double>(g.out_degree(v) - 1);
        const double bic = ll[v.index()] - 0.5 * free * std::log(std::max<double>(2, visits[v.index()]));
        if (bic > best[v.index()] + 1e-9) {
          best[v.index()] = bic;
          chosen[v.index()] = {static_cast<std::int64_t>(ci), k};
        }
      }
    }
  }
  for (VertexId v : targets) {
    const Choice ch = chosen[v.index()];
    if (ch.candidate < 0 || best[v.index()] - base[v.index()] < o.min_gain) continue;
    const Candidate& c = candidates[static_cast<std::size_t>(ch.candidate)];
    Memory m = c.memory;
    m.length = ch.length;
    m.name = fmt::format("the last {} of {}", ch.length, c.memory.labels.empty() ? std::string("labels") : c.memory.name);
    std::uint32_t mi = 0;
    while (mi < model.memories.size() && !(model.memories[mi] == m)) ++mi;
    if (mi == model.memories.size()) model.memories.push_back(std::move(m));
    LearnedChoice lc{.vertex = v, .memory = mi, .gain = best[v.index()] - base[v.index()], .visits = visits[v.index()]};
    for (const auto& [h, entry] : tables[static_cast<std::size_t>(ch.candidate)][ch.length - 1]) {
      if (entry.vertex != v) continue;
      LearnedChoice::State s{.history = entry.history, .outcomes = entry.outcomes};
      std::sort(s.outcomes.begin(), s.outcomes.end());
      for (const auto& [e, k] : s.outcomes) s.visits += k;
      lc.states.push_back(std::move(s));
    }
    std::sort(lc.states.begin(), lc.states.end(),
              [](const LearnedChoice::State& a, const LearnedChoice::State& b) { return a.history < b.history; });
    model.choices.push_back(std::move(lc));
  }
  return model;
}

}  // namespace playtest
