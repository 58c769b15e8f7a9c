// GraphWalker models compiled into a model program (docs/graphwalker.md): one enum variable `at`
// (the element last visited, `start` before the first step), one state variable per JavaScript
// variable (typed by what it is given: a boolean, a number in a range, one of the strings it is
// given), one controllable action per vertex and edge. An action's JavaScript statements are
// straight-line assignments, so their effect is computed as the final value of each variable in
// terms of the state before the step, and run as the language's `let` and assignments; guards are
// the action's `require`s. The language's checker and interpreter do the rest.
#include "playtest/lang/graphwalker_model.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "lang/detail/graphwalker_script.hpp"
#include "lang/detail/program_model.hpp"
#include "playtest/base/error.hpp"

namespace playtest {
namespace {

using lang::Loc;
using lang::Op;
namespace js = lang::js;

enum class VK : std::uint8_t { unknown, boolean, number, string };

std::string_view kind_name(VK k) {
  switch (k) {
    case VK::boolean:
      return "a boolean";
    case VK::number:
      return "a number";
    case VK::string:
      return "a string";
    default:
      return "a value of unknown type";
  }
}

// Where something stands, for messages.
struct Site {
  Loc loc;
  std::string pointer;
  std::string file;  // "" for the document's
};

// A script parsed, with its scope ("Login" or "global").
struct Piece {
  const GwScript* src = nullptr;
  std::string scope;
  js::Script script;
};

struct Element {
  std::uint32_t model = 0;
  bool is_edge = false;
  std::uint32_t index = 0;  // in its model's vertices or edges
  std::string label;
  std::vector<Piece> actions;
  std::optional<Piece> guard_scope;  // the guard's scope (script empty)
  js::ExprP guard;
};

// The cost of a reset (docs/graphwalker.md "The walk as a model program").
constexpr std::int64_t reset_cost = 100;

class Compiler {
 public:
  Compiler(const GwDocument& doc, const GraphWalkerOptions& o) : doc_(doc), o_(o) {}

  GraphWalkerImport run() {
    number_elements();
    parse_scripts();
    infer();
    GraphWalkerImport out;
    build(out);
    return out;
  }

 private:
  // ------------------------------------------------------------------ elements and labels
  void number_elements() {
    std::map<std::string, int> count;
    for (std::uint32_t m = 0; m < doc_.models.size(); ++m) {
      const GwModel& gm = doc_.models[m];
      for (std::uint32_t v = 0; v < gm.vertices.size(); ++v) elements_.push_back({m, false, v, {}, {}, {}, {}});
      for (std::uint32_t e = 0; e < gm.edges.size(); ++e) elements_.push_back({m, true, e, {}, {}, {}, {}});
    }
    for (Element& el : elements_) ++count[base_label(el)];
    for (Element& el : elements_) {
      el.label = base_label(el);
      if (count[el.label] > 1 && !name_of(el).empty()) el.label += "#" + id_of(el);
    }
    first_of_model_.assign(doc_.models.size() + 1, 0);
    for (std::size_t i = 0; i < elements_.size(); ++i) first_of_model_[elements_[i].model + 1] = i + 1;
    std::uint32_t at = 0;
    for (std::size_t m = 0; m < doc_.models.size(); ++m) {
      first_of_model_[m] = at;
      at += static_cast<std::uint32_t>(doc_.models[m].vertices.size() + doc_.models[m].edges.size());
    }
    first_of_model_[doc_.models.size()] = at;
  }
  const std::string& name_of(const Element& el) const {
    const GwModel& m = doc_.models[el.model];
    return el.is_edge ? m.edges[el.index].name : m.vertices[el.index].name;
  }
  const std::string& id_of(const Element& el) const {
    const GwModel& m = doc_.models[el.model];
    return el.is_edge ? m.edges[el.index].id : m.vertices[el.index].id;
  }
  const GwWhere& where_of(const Element& el) const {
    const GwModel& m = doc_.models[el.model];
    return el.is_edge ? m.edges[el.index].where : m.vertices[el.index].where;
  }
  std::string base_label(const Element& el) const {
    const std::string& n = name_of(el);
    return doc_.models[el.model].name + "." + (n.empty() ? "#" + id_of(el) : n);
  }
  std::size_t vertex_element(std::uint32_t model, std::uint32_t v) const { return first_of_model_[model] + v; }
  std::size_t edge_element(std::uint32_t model, std::uint32_t e) const {
    return first_of_model_[model] + doc_.models[model].vertices.size() + e;
  }

  // ------------------------------------------------------------------ parsing and names
  Piece piece(const GwScript& s, const std::string& model) {
    Piece p;
    p.src = &s;
    p.scope = js::is_global_script(s.text) ? "global" : model;
    p.script = js::parse_script(s, file_of(s.where));
    for (js::Stmt& st : p.script.statements) {
      note_var(p.scope + "." + st.target.name, s, st.target.offset);
      if (st.value) st.value = resolve(st.value, p);
    }
    return p;
  }

  const std::string& file_of(const GwWhere& w) const { return w.file.empty() ? doc_.file : w.file; }
  Loc loc_in(const GwScript& s, std::size_t offset) const { return {s.line_of(offset), s.column_of(offset)}; }

  // A copy of `e` with every variable's key and every node's location filled in.
  js::ExprP resolve(const js::ExprP& e, const Piece& p) {
    auto r = std::make_shared<js::Expr>(*e);
    r->loc = loc_in(*p.src, e->offset);
    if (r->kind == js::Expr::Kind::variable) {
      r->key = p.scope + "." + r->var.name;
      note_var(r->key, *p.src, r->var.offset);
    }
    for (auto& k : r->kids) k = resolve(k, p);
    return r;
  }

  void note_var(const std::string& key, const GwScript& s, std::size_t offset) {
    if (vars_.count(key)) return;
    Var v;
    v.site = {loc_in(s, offset), s.where.pointer, s.where.file};
    v.parent = static_cast<std::uint32_t>(var_keys_.size());
    vars_.emplace(key, static_cast<std::uint32_t>(var_keys_.size()));
    var_keys_.push_back(key);
    var_info_.push_back(std::move(v));
  }

  void parse_scripts() {
    for (std::uint32_t m = 0; m < doc_.models.size(); ++m) {
      const GwModel& gm = doc_.models[m];
      auto& init = init_.emplace_back();
      for (const GwScript& s : gm.actions) init.push_back(piece(s, gm.name));
    }
    for (Element& el : elements_) {
      const GwModel& gm = doc_.models[el.model];
      const auto& scripts = el.is_edge ? gm.edges[el.index].actions : gm.vertices[el.index].actions;
      for (const GwScript& s : scripts) el.actions.push_back(piece(s, gm.name));
      if (el.is_edge && gm.edges[el.index].guard) {
        const GwScript& g = *gm.edges[el.index].guard;
        Piece p;
        p.src = &g;
        p.scope = js::is_global_script(g.text) ? "global" : gm.name;
        el.guard = resolve(js::parse_guard(g, file_of(g.where)), p);
        el.guard_scope = std::move(p);
      }
    }
  }

  // ------------------------------------------------------------------ types
  struct Var {
    Site site;  // first use
    std::uint32_t parent = 0;
    bool assigned = false;
    VK kind = VK::unknown;
    Site kind_site;
    std::int64_t lo = 0, hi = 0;
    bool ranged = false;
    std::set<std::string> strings;
  };

  std::uint32_t find(std::uint32_t v) {
    while (var_info_[v].parent != v) v = var_info_[v].parent = var_info_[var_info_[v].parent].parent;
    return v;
  }
  std::uint32_t id(const std::string& key) const { return vars_.at(key); }

  [[noreturn]] void fail_at(const Site& s, std::string message, std::vector<std::string> notes = {}) const {
    throw ModelError(make_diagnostic(s.file.empty() ? doc_.file : s.file, s.loc.line, s.loc.column, s.pointer,
                                     std::move(message), std::move(notes)));
  }

  void set_kind(std::uint32_t v, VK k, const Site& at) {
    if (k == VK::unknown) return;
    const std::uint32_t r = find(v);
    Var& c = var_info_[r];
    if (c.kind == VK::unknown) {
      c.kind = k, c.kind_site = at;
      changed_ = true;
    } else if (c.kind != k) {
      fail_at(at,
              fmt::format("'{}' is given {} here and {} at line {}, column {}", var_keys_[v], kind_name(k),
                          kind_name(c.kind), c.kind_site.loc.line, c.kind_site.loc.column),
              {"a variable keeps one type (a boolean, a number or a string), as the state it is part of"});
    }
  }
  void unite(std::uint32_t a, std::uint32_t b, const Site& at) {
    a = find(a), b = find(b);
    if (a == b) return;
    const VK kb = var_info_[b].kind;
    const Site sb = var_info_[b].kind_site;
    var_info_[b].parent = a;
    var_info_[a].lo = std::min(var_info_[a].lo, var_info_[b].lo);
    var_info_[a].hi = std::max(var_info_[a].hi, var_info_[b].hi);
    var_info_[a].strings.insert(var_info_[b].strings.begin(), var_info_[b].strings.end());
    changed_ = true;
    if (kb != VK::unknown) set_kind(a, kb, var_info_[a].kind == VK::unknown ? sb : at);
  }
  void literal(std::uint32_t v, const js::Expr& lit) {
    Var& c = var_info_[find(v)];
    if (lit.kind == js::Expr::Kind::number) {
      c.lo = std::min(c.lo, lit.value), c.hi = std::max(c.hi, lit.value);
    } else if (lit.kind == js::Expr::Kind::string) {
      c.strings.insert(lit.text);
    }
  }

  static Site site_of(const js::Expr& e, const GwWhere& w) { return {e.loc, w.pointer, w.file}; }

  VK kind_of(const js::Expr& e) {
    switch (e.kind) {
      case js::Expr::Kind::number:
        return VK::number;
      case js::Expr::Kind::boolean:
        return VK::boolean;
      case js::Expr::Kind::string:
        return VK::string;
      case js::Expr::Kind::variable:
        return var_info_[find(id(e.key))].kind;
      case js::Expr::Kind::unary:
        return e.op == Op::not_ ? VK::boolean : VK::number;
      case js::Expr::Kind::binary:
        switch (e.op) {
          case Op::add:
          case Op::sub:
          case Op::mul:
            return VK::number;
          default:
            return VK::boolean;
        }
      case js::Expr::Kind::conditional: {
        const VK a = kind_of(*e.kids[1]);
        return a != VK::unknown ? a : kind_of(*e.kids[2]);
      }
    }
    return VK::unknown;
  }

  // The variables a value may come from directly (x = y, x = c ? y : z) and its literals.
  void sources(const js::Expr& e, std::vector<const js::Expr*>& vars, std::vector<const js::Expr*>& lits) {
    switch (e.kind) {
      case js::Expr::Kind::variable:
        vars.push_back(&e);
        return;
      case js::Expr::Kind::number:
      case js::Expr::Kind::string:
        lits.push_back(&e);
        return;
      case js::Expr::Kind::conditional:
        sources(*e.kids[1], vars, lits);
        sources(*e.kids[2], vars, lits);
        return;
      case js::Expr::Kind::binary:
        if (e.op == Op::add || e.op == Op::sub || e.op == Op::mul)
          for (auto& k : e.kids) sources(*k, vars, lits);
        return;
      case js::Expr::Kind::unary:
        if (e.op == Op::neg) {
          // -5: the literal -5
          if (e.kids[0]->kind == js::Expr::Kind::number) {
            neg_lits_.push_back(std::make_shared<js::Expr>(*e.kids[0]));
            auto& n = const_cast<js::Expr&>(*neg_lits_.back());
            n.value = -n.value;
            lits.push_back(&n);
          } else {
            sources(*e.kids[0], vars, lits);
          }
        }
        return;
      default:
        return;
    }
  }

  // Comparisons in an expression tie their sides' types (and give variables the literals compared).
  void comparisons(const js::Expr& e, const GwWhere& pointer) {
    for (auto& k : e.kids) comparisons(*k, pointer);
    if (e.kind != js::Expr::Kind::binary) return;
    if (e.op != Op::eq && e.op != Op::ne && e.op != Op::lt && e.op != Op::le && e.op != Op::gt && e.op != Op::ge)
      return;
    std::vector<const js::Expr*> va, la, vb, lb;
    sources(*e.kids[0], va, la);
    sources(*e.kids[1], vb, lb);
    for (auto* x : va) {
      for (auto* y : vb) unite(id(x->key), id(y->key), site_of(e, pointer));
      for (auto* l : lb) literal(id(x->key), *l), set_kind(id(x->key), kind_of(*l), site_of(*l, pointer));
      if (e.op != Op::eq && e.op != Op::ne) set_kind(id(x->key), VK::number, site_of(*x, pointer));
    }
    for (auto* y : vb) {
      for (auto* l : la) literal(id(y->key), *l), set_kind(id(y->key), kind_of(*l), site_of(*l, pointer));
      if (e.op != Op::eq && e.op != Op::ne) set_kind(id(y->key), VK::number, site_of(*y, pointer));
    }
    if (e.op != Op::eq && e.op != Op::ne)
      for (auto& k : e.kids) expect(*k, VK::number, pointer, "an operand of a comparison < <= > >=");
  }

  // Operands whose own type is known: a variable used where a type is expected gets it.
  void expect(const js::Expr& e, VK k, const GwWhere& pointer, const char* what) {
    if (e.kind == js::Expr::Kind::variable) return set_kind(id(e.key), k, site_of(e, pointer));
    const VK have = kind_of(e);
    if (have != VK::unknown && have != k)
      fail_at(site_of(e, pointer),
              fmt::format("{} is {} here, where {} is needed ({})", "this value", kind_name(have), kind_name(k), what));
  }

  void operands(const js::Expr& e, const GwWhere& pointer) {
    for (auto& k : e.kids) operands(*k, pointer);
    if (e.kind == js::Expr::Kind::unary) {
      expect(*e.kids[0], e.op == Op::not_ ? VK::boolean : VK::number, pointer,
             e.op == Op::not_ ? "the operand of '!'" : "the operand of '-'");
    } else if (e.kind == js::Expr::Kind::binary) {
      if (e.op == Op::and_ || e.op == Op::or_) {
        for (auto& k : e.kids) expect(*k, VK::boolean, pointer, "an operand of && or ||");
      } else if (e.op == Op::add || e.op == Op::sub || e.op == Op::mul) {
        for (auto& k : e.kids) {
          if (e.op == Op::add && kind_of(*k) == VK::string)
            fail_at(site_of(e, pointer),
                    "'+' on strings (concatenation) is outside the JavaScript subset playtest reads",
                    {"a variable holds one of the strings it is given: assign whole strings"});
          expect(*k, VK::number, pointer, "an operand of + - *");
        }
      }
    } else if (e.kind == js::Expr::Kind::conditional) {
      expect(*e.kids[0], VK::boolean, pointer, "the condition of '?:'");
    }
  }

  void infer_piece(const Piece& p) {
    const GwWhere& ptr = p.src->where;
    for (const js::Stmt& st : p.script.statements) {
      const std::uint32_t t = id(p.scope + "." + st.target.name);
      var_info_[t].assigned = true;
      const Site at{loc_in(*p.src, st.target.offset), ptr.pointer, ptr.file};
      if (st.kind != js::Stmt::Kind::assign) set_kind(t, VK::number, at);
      if (!st.value) continue;
      comparisons(*st.value, ptr);
      operands(*st.value, ptr);
      if (st.kind == js::Stmt::Kind::assign)
        set_kind(t, kind_of(*st.value), at);
      else
        expect(*st.value, VK::number, ptr, "the value of += or -=");
      std::vector<const js::Expr*> vs, ls;
      sources(*st.value, vs, ls);
      for (auto* v : vs) unite(t, id(v->key), at);
      for (auto* l : ls) literal(t, *l);
    }
  }

  void infer() {
    for (int round = 0; round < 8; ++round) {
      changed_ = false;
      for (auto& init : init_)
        for (const Piece& p : init) infer_piece(p);
      for (const Element& el : elements_) {
        for (const Piece& p : el.actions) infer_piece(p);
        if (el.guard) {
          const GwWhere& ptr = el.guard_scope->src->where;
          comparisons(*el.guard, ptr);
          operands(*el.guard, ptr);
          expect(*el.guard, VK::boolean, ptr, "a guard");
        }
      }
      if (!changed_) break;
    }
    for (std::uint32_t v = 0; v < var_keys_.size(); ++v) {
      const Var& c = var_info_[find(v)];
      bool assigned = false;
      for (std::uint32_t w = 0; w < var_keys_.size(); ++w)
        assigned = assigned || (find(w) == find(v) && var_info_[w].assigned);
      if (!var_info_[v].assigned) {
        // Read but never assigned in its scope: GraphWalker stops with a ReferenceError.
        fail_at(
            var_info_[v].site,
            fmt::format("'{}' is read but never assigned (GraphWalker would stop with a ReferenceError)", var_keys_[v]),
            {"give it a value in the model's \"actions\" (they run before the first step)",
             "a script that mentions global. runs in the global scope, the others in their model's"});
      }
      if (c.kind == VK::unknown || !assigned)
        fail_at(var_info_[v].site,
                fmt::format("cannot tell whether '{}' holds a boolean, a number or a string", var_keys_[v]));
    }
  }

  // ------------------------------------------------------------------ building the program
  lang::ExprP lnode(lang::EK k, Loc loc) {
    auto e = std::make_unique<lang::Expr>();
    e->k = k;
    e->loc = loc;
    return e;
  }
  lang::ExprP name_expr(const std::string& n, Loc loc) {
    auto e = lnode(lang::EK::name, loc);
    e->name = n;
    return e;
  }
  lang::ExprP int_expr(std::int64_t v, Loc loc) {
    auto e = lnode(lang::EK::int_lit, loc);
    e->ival = v;
    return e;
  }
  lang::ExprP binary(Op op, lang::ExprP a, lang::ExprP b, Loc loc) {
    auto e = lnode(lang::EK::binary, loc);
    e->op = op;
    e->kids.push_back(std::move(a));
    e->kids.push_back(std::move(b));
    return e;
  }

  lang::ExprP to_lang(const js::Expr& e) {
    switch (e.kind) {
      case js::Expr::Kind::number:
        return int_expr(e.value, e.loc);
      case js::Expr::Kind::boolean: {
        auto r = lnode(lang::EK::bool_lit, e.loc);
        r->ival = e.value;
        return r;
      }
      case js::Expr::Kind::string: {
        auto r = lnode(lang::EK::str_lit, e.loc);
        r->ival = p_.intern(e.text);
        return r;
      }
      case js::Expr::Kind::variable:
        return name_expr(e.key, e.loc);
      case js::Expr::Kind::unary: {
        auto r = lnode(lang::EK::unary, e.loc);
        r->op = e.op;
        r->kids.push_back(to_lang(*e.kids[0]));
        return r;
      }
      case js::Expr::Kind::binary:
        return binary(e.op, to_lang(*e.kids[0]), to_lang(*e.kids[1]), e.loc);
      case js::Expr::Kind::conditional: {
        auto r = lnode(lang::EK::if_expr, e.loc);
        for (auto& k : e.kids) r->kids.push_back(to_lang(*k));
        return r;
      }
    }
    return int_expr(0, e.loc);
  }

  using Env = std::map<std::string, js::ExprP>;

  static js::ExprP subst(const js::ExprP& e, const Env& env) {
    if (e->kind == js::Expr::Kind::variable) {
      auto it = env.find(e->key);
      return it == env.end() ? e : it->second;
    }
    bool changed = false;
    std::vector<js::ExprP> kids;
    for (auto& k : e->kids) {
      kids.push_back(subst(k, env));
      changed = changed || kids.back() != k;
    }
    if (!changed) return e;
    auto r = std::make_shared<js::Expr>(*e);
    r->kids = std::move(kids);
    return r;
  }

  static bool reads_any(const js::Expr& e, const Env& assigned) {
    if (e.kind == js::Expr::Kind::variable) return assigned.count(e.key) != 0;
    for (auto& k : e.kids)
      if (reads_any(*k, assigned)) return true;
    return false;
  }

  // The effect of the scripts, in order: each assigned variable's final value in terms of the state
  // before them, with the place of its last assignment.
  void effect(const std::vector<const Piece*>& pieces, Env& env, std::map<std::string, Site>& last) {
    for (const Piece* p : pieces)
      for (const js::Stmt& st : p->script.statements) {
        const std::string key = p->scope + "." + st.target.name;
        const Loc loc = loc_in(*p->src, st.offset);
        js::ExprP cur;
        if (auto it = env.find(key); it != env.end()) {
          cur = it->second;
        } else {
          auto v = std::make_shared<js::Expr>();
          v->kind = js::Expr::Kind::variable;
          v->key = key;
          v->loc = loc;
          cur = v;
        }
        js::ExprP value;
        if (st.kind == js::Stmt::Kind::assign) {
          value = subst(st.value, env);
        } else {
          auto r = std::make_shared<js::Expr>();
          r->kind = js::Expr::Kind::binary;
          r->loc = loc;
          r->op = st.kind == js::Stmt::Kind::add || st.kind == js::Stmt::Kind::increment ? Op::add : Op::sub;
          r->kids.push_back(cur);
          if (st.value) {
            r->kids.push_back(subst(st.value, env));
          } else {
            auto one = std::make_shared<js::Expr>();
            one->kind = js::Expr::Kind::number;
            one->value = 1;
            one->loc = loc;
            r->kids.push_back(one);
          }
          value = r;
        }
        env[key] = value;
        last[key] = {loc, p->src->where.pointer, p->src->where.file};
      }
  }

  // The statements of a step: each variable's final value, `later` where the walk is not at
  // `start` when the step is taken (the start element visited again runs its own actions only).
  std::vector<lang::StmtP> body(const Env& first, const Env* later, const std::map<std::string, Site>& last,
                                lang::Action& a, const std::string& at_label, Loc loc) {
    std::set<std::string> keys;
    for (const auto& [k, v] : first) keys.insert(k);
    if (later)
      for (const auto& [k, v] : *later) keys.insert(k);
    Env assigned;
    for (const std::string& k : keys) assigned[k] = nullptr;
    std::vector<lang::StmtP> lets, sets;
    int temp = 0;
    for (const std::string& key : keys) {
      const Loc sloc = last.count(key) ? last.at(key).loc : loc;
      auto value_of = [&](const Env& env) -> js::ExprP {
        if (auto it = env.find(key); it != env.end()) return it->second;
        auto v = std::make_shared<js::Expr>();
        v->kind = js::Expr::Kind::variable;
        v->key = key;
        v->loc = sloc;
        return v;
      };
      const js::ExprP f = value_of(first);
      const js::ExprP l = later ? value_of(*later) : nullptr;
      auto make = [&]() -> lang::ExprP {
        if (!l) return to_lang(*f);
        auto c = lnode(lang::EK::if_expr, sloc);
        c->kids.push_back(binary(Op::eq, name_expr("at", sloc), name_expr("start", sloc), sloc));
        c->kids.push_back(to_lang(*f));
        c->kids.push_back(to_lang(*l));
        return c;
      };
      auto unchanged = [&](const js::ExprP& e) { return !e || (e->kind == js::Expr::Kind::variable && e->key == key); };
      if (unchanged(f) && unchanged(l)) continue;
      const Var& c = var_info_[find(id(key))];
      const bool literal = f->kind == js::Expr::Kind::number && (!l || l->kind == js::Expr::Kind::number);
      if (c.kind == VK::number && !literal) {
        // A step that takes a number outside its range is not enabled (docs/graphwalker.md "Numbers").
        a.requires_.push_back(binary(Op::and_, binary(Op::ge, make(), int_expr(c.lo, sloc), sloc),
                                     binary(Op::le, make(), int_expr(c.hi, sloc), sloc), sloc));
        a.require_texts.push_back(fmt::format("{} stays within {}..{}", key, c.lo, c.hi));
        a.require_locs.push_back(sloc);
      }
      auto set = std::make_unique<lang::Stmt>();
      set->k = lang::SK::assign;
      set->loc = sloc;
      set->name = key;
      if (reads_any(*f, assigned) || (l && reads_any(*l, assigned))) {
        auto let = std::make_unique<lang::Stmt>();
        let->k = lang::SK::let;
        let->loc = sloc;
        let->name = fmt::format("gw_temp_{}", temp++);
        let->e = make();
        set->e = name_expr(let->name, sloc);
        lets.push_back(std::move(let));
      } else {
        set->e = make();
      }
      sets.push_back(std::move(set));
    }
    auto move = std::make_unique<lang::Stmt>();
    move->k = lang::SK::assign;
    move->loc = loc;
    move->name = "at";
    move->e = name_expr(at_label, loc);
    sets.push_back(std::move(move));
    for (auto& st : sets) lets.push_back(std::move(st));
    return lets;
  }

  // at == l1 or at == l2 ...
  lang::ExprP at_any(const std::vector<std::string>& labels, Loc loc) {
    lang::ExprP e;
    for (const std::string& l : labels) {
      auto one = binary(Op::eq, name_expr("at", loc), name_expr(l, loc), loc);
      e = e ? binary(Op::or_, std::move(e), std::move(one), loc) : std::move(one);
    }
    return e;
  }

  // The predefined path's steps (predefinedPathEdgeIds, each edge then its target vertex); the
  // generator predefined_path refuses a model without them.
  void predefined_path(const GwModel& sm, std::size_t start_element, GraphWalkerImport& out) {
    if (!sm.predefined_path.empty()) {
      std::size_t k = 0;
      out.predefined_path.push_back(elements_[start_element].label);
      if (sm.start_kind == GwModel::StartKind::edge) {
        out.predefined_path.push_back(elements_[vertex_element(doc_.start_model, sm.edges[sm.start].target)].label);
        if (sm.predefined_path[0] == sm.start) k = 1;
      }
      for (; k < sm.predefined_path.size(); ++k) {
        const std::uint32_t e = sm.predefined_path[k];
        out.predefined_path.push_back(elements_[edge_element(doc_.start_model, e)].label);
        out.predefined_path.push_back(elements_[vertex_element(doc_.start_model, sm.edges[e].target)].label);
      }
    }
    if (o_.predefined_path && out.predefined_path.empty())
      throw ModelError(make_diagnostic(file_of(sm.where), sm.where.line, sm.where.column, sm.where.pointer,
                                       fmt::format("the generator predefined_path needs the path: model '{}' has no "
                                                   "predefinedPathEdgeIds",
                                                   sm.name),
                                       {"list the path's edge ids in the model's \"predefinedPathEdgeIds\""}));
  }

  // The element enum and the position `at` (and, on the predefined path, the step `path_step`).
  void declare_position(Loc top, std::int64_t path_steps) {
    lang::NamedDecl en;
    en.kind = lang::NamedDecl::Kind::enumeration;
    en.name = "Element";
    en.loc = top;
    en.members.emplace_back("start", top);
    for (const Element& el : elements_) {
      const GwWhere& w = where_of(el);
      en.members.emplace_back(el.label, Loc{w.line, w.column});
    }
    p_.named.push_back(std::move(en));
    for (const std::string& key : var_keys_)
      for (const Element& el : elements_)
        if (el.label == key)
          fail_at(var_info_[id(key)].site,
                  fmt::format("the variable '{}' has the name of an element of the model", key),
                  {"rename the variable or the element"});
    lang::VarDecl at;
    at.name = "at";
    at.loc = top;
    at.type = std::make_unique<lang::TypeExpr>();
    at.type->kind = lang::TypeExpr::Kind::named;
    at.type->name = "Element";
    at.type->loc = top;
    at.init = name_expr("start", top);
    p_.vars.push_back(std::move(at));
    if (o_.predefined_path) {
      // The predefined path: the step of it the walk is at (0 before the first).
      lang::VarDecl step;
      step.name = "path_step";
      step.loc = top;
      step.type = std::make_unique<lang::TypeExpr>();
      step.type->kind = lang::TypeExpr::Kind::range;
      step.type->loc = top;
      step.type->lo = int_expr(0, top);
      step.type->hi = int_expr(path_steps, top);
      step.init = int_expr(0, top);
      p_.vars.push_back(std::move(step));
    }
  }

  // One state variable per JavaScript variable, in name order: a boolean, a number in its range
  // (widened by the slack when unranged) or one of the strings it is given.
  void declare_variables(GraphWalkerImport& out) {
    std::vector<std::uint32_t> order(var_keys_.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](auto a, auto b) { return var_keys_[a] < var_keys_[b]; });
    for (std::uint32_t v : order) {
      Var& c = var_info_[find(v)];
      if (c.kind == VK::number && !c.ranged) {
        c.lo -= o_.number_slack, c.hi += o_.number_slack;
        c.ranged = true;
      }
      const Loc loc = var_info_[v].site.loc;
      lang::VarDecl d;
      d.name = var_keys_[v];
      d.loc = loc;
      d.type = std::make_unique<lang::TypeExpr>();
      d.type->loc = loc;
      switch (c.kind) {
        case VK::boolean: {
          d.type->kind = lang::TypeExpr::Kind::boolean;
          auto f = lnode(lang::EK::bool_lit, loc);
          f->ival = 0;
          d.init = std::move(f);
          break;
        }
        case VK::number:
          d.type->kind = lang::TypeExpr::Kind::range;
          d.type->lo = int_expr(c.lo, loc);
          d.type->hi = int_expr(c.hi, loc);
          d.init = int_expr(0, loc);
          out.number_ranges.push_back(fmt::format("{} in {}..{}", d.name, c.lo, c.hi));
          break;
        default: {
          d.type->kind = lang::TypeExpr::Kind::strings;
          if (c.strings.empty()) c.strings.insert("");
          for (const std::string& s : c.strings) d.type->strs.push_back(p_.intern(s));
          auto f = lnode(lang::EK::str_lit, loc);
          f->ival = p_.intern(*c.strings.begin());
          d.init = std::move(f);
          break;
        }
      }
      p_.vars.push_back(std::move(d));
    }
  }

  // Who may come before each element: the edges into a vertex, the vertices of other models with
  // its shared state, and `start` before the start element.
  std::vector<std::vector<std::string>> predecessors(std::size_t start_element) const {
    std::vector<std::vector<std::string>> before(elements_.size());
    before[start_element].push_back("start");
    std::map<std::string, std::vector<std::size_t>> shared;
    for (std::size_t i = 0; i < elements_.size(); ++i) {
      const Element& el = elements_[i];
      const GwModel& gm = doc_.models[el.model];
      if (el.is_edge) {
        const GwEdge& e = gm.edges[el.index];
        before[vertex_element(el.model, e.target)].push_back(el.label);
        if (e.source) before[i].push_back(elements_[vertex_element(el.model, *e.source)].label);
      } else if (!gm.vertices[el.index].shared_state.empty()) {
        shared[gm.vertices[el.index].shared_state].push_back(i);
      }
    }
    for (const auto& [state, members] : shared)
      for (std::size_t to : members)
        for (std::size_t from : members)
          if (elements_[from].model != elements_[to].model) before[to].push_back(elements_[from].label);
    return before;
  }

  // One action per element that can be reached: enabled after an element in `before` (and its
  // guard), on the predefined path only as the path's next step; its body the element's actions.
  void declare_actions(const std::vector<std::vector<std::string>>& before, std::size_t start_element,
                       const GraphWalkerImport& out) {
    const bool on_path = o_.predefined_path;
    const auto path_steps = static_cast<std::int64_t>(out.predefined_path.size());
    std::vector<const Piece*> init;
    for (auto& pieces : init_)
      for (const Piece& p : pieces) init.push_back(&p);

    for (std::size_t i = 0; i < elements_.size(); ++i) {
      Element& el = elements_[i];
      const GwWhere& w = where_of(el);
      const Loc loc{w.line, w.column};
      lang::Action a;
      a.name = el.label;
      a.loc = loc;
      if (before[i].empty()) continue;  // never enabled: no action (the element stays out of the graph)
      // On the predefined path: enabled only as the path's next step.
      lang::ExprP on_step;
      if (on_path) {
        for (std::int64_t k = 0; k < path_steps; ++k) {
          if (out.predefined_path[static_cast<std::size_t>(k)] != el.label) continue;
          auto one = binary(Op::eq, name_expr("path_step", loc), int_expr(k, loc), loc);
          on_step = on_step ? binary(Op::or_, std::move(on_step), std::move(one), loc) : std::move(one);
        }
        if (!on_step) continue;  // not on the path: never taken
      }
      // Enabled: after an element that leads here (and, for an edge, its guard holds there).
      std::vector<std::string> after = before[i];
      const bool starts = i == start_element;
      if (starts) after.erase(after.begin());
      lang::ExprP when = after.empty() ? nullptr : at_any(after, loc);
      if (el.guard && when) when = binary(Op::and_, std::move(when), to_lang(*el.guard), el.guard->loc);
      if (starts) {
        auto first = binary(Op::eq, name_expr("at", loc), name_expr("start", loc), loc);
        when = when ? binary(Op::or_, std::move(first), std::move(when), loc) : std::move(first);
      }
      a.requires_.push_back(std::move(when));
      a.require_texts.push_back(el.guard ? el.guard_scope->src->text : "the walk is at an element before it");
      a.require_locs.push_back(el.guard ? el.guard->loc : loc);
      std::vector<const Piece*> own;
      for (const Piece& p : el.actions) own.push_back(&p);
      Env env;
      std::map<std::string, Site> last;
      if (starts) {
        // The first step runs every model's actions, then the start element's; the start element
        // visited again later runs its own only.
        std::vector<const Piece*> all = init;
        all.insert(all.end(), own.begin(), own.end());
        effect(all, env, last);
        Env again;
        std::map<std::string, Site> last_again;
        effect(own, again, last_again);
        a.body = body(env, after.empty() || init.empty() ? nullptr : &again, last, a, el.label, loc);
      } else {
        effect(own, env, last);
        a.body = body(env, nullptr, last, a, el.label, loc);
      }
      if (on_step) {
        a.requires_.push_back(std::move(on_step));
        a.require_texts.push_back("the predefined path's next step");
        a.require_locs.push_back(loc);
        auto next = std::make_unique<lang::Stmt>();
        next->k = lang::SK::assign;
        next->loc = loc;
        next->name = "path_step";
        next->e = binary(Op::add, name_expr("path_step", loc), int_expr(1, loc), loc);
        a.body.push_back(std::move(next));
      }
      p_.actions.push_back(std::move(a));
    }
  }

  // The goals: being at one of the named elements; on the predefined path, the path walked to its end.
  void declare_goals(Loc top, std::int64_t path_steps) {
    if (!o_.goal_elements.empty()) {
      std::vector<std::string> labels;
      for (const std::string& g : o_.goal_elements) {
        bool found = false;
        for (const Element& el : elements_)
          if (el.label == g || base_label(el) == g || name_of(el) == g) labels.push_back(el.label), found = true;
        if (!found)
          throw ModelError(make_diagnostic(o_.goal_origin, 0, 0, "",
                                           fmt::format("no vertex or edge of the model is named '{}'", g),
                                           {"name an element as Model.name or name"}));
      }
      p_.goal_origin = o_.goal_origin;
      p_.goal_conditions.push_back(at_any(labels, top));
    }

    if (o_.predefined_path) {  // the goal: the path walked to its end
      if (p_.goal_origin.empty()) p_.goal_origin = "predefined_path";
      p_.goal_conditions.push_back(binary(Op::eq, name_expr("path_step", top), int_expr(path_steps, top), top));
    }
  }

  // The elements as the report lists them, and the vertices whose out-edges' weights sum to more
  // than 1 (weighted_random refuses them).
  void describe_elements(GraphWalkerImport& out) const {
    for (const Element& el : elements_) {
      const GwModel& gm = doc_.models[el.model];
      GraphWalkerElement ge;
      ge.label = el.label;
      ge.model = gm.name;
      ge.name = name_of(el);
      ge.id = id_of(el);
      ge.is_edge = el.is_edge;
      if (el.is_edge) {
        const GwEdge& e = gm.edges[el.index];
        ge.requirements = e.requirements;
        ge.dependency = e.dependency;
        ge.weight = e.weight;
      } else {
        ge.requirements = gm.vertices[el.index].requirements;
      }
      out.elements.push_back(std::move(ge));
    }
    for (std::uint32_t mi = 0; mi < doc_.models.size(); ++mi) {
      const GwModel& gm = doc_.models[mi];
      std::vector<double> sum(gm.vertices.size(), 0.0);
      for (const GwEdge& e : gm.edges)
        if (e.source && e.weight) sum[*e.source] += *e.weight;
      for (std::uint32_t v = 0; v < sum.size(); ++v)
        if (sum[v] > 1 + 1e-9)
          out.weight_overflows.push_back(fmt::format("{} ({:.6g})", elements_[vertex_element(mi, v)].label, sum[v]));
    }
  }

  // The model program: the position, the variables, one action per element, the goals.
  void build(GraphWalkerImport& out) {
    const GwModel& sm = doc_.models[doc_.start_model];
    const std::size_t start_element = sm.start_kind == GwModel::StartKind::vertex
                                          ? vertex_element(doc_.start_model, sm.start)
                                          : edge_element(doc_.start_model, sm.start);
    p_.file = file_of(sm.where);
    p_.model_name = sm.name;
    const Loc top{sm.where.line, sm.where.column};
    // A walk starts over by a reset (the test code's tearDownModel and setUpModel run again):
    // GraphWalker has none, so it costs as much as a long detour and strategies take it only where
    // the model offers no way back (the start element, a dead end).
    p_.has_reset = true;
    p_.reset_cost = int_expr(reset_cost, top);

    predefined_path(sm, start_element, out);
    const auto path_steps = static_cast<std::int64_t>(out.predefined_path.size());
    declare_position(top, path_steps);
    declare_variables(out);
    declare_actions(predecessors(start_element), start_element, out);
    declare_goals(top, path_steps);
    describe_elements(out);
    out.start_model = sm.name;
    out.generator = sm.generator;
    out.model = lang::program_model(std::move(p_));
  }

  const GwDocument& doc_;
  const GraphWalkerOptions& o_;
  std::vector<Element> elements_;
  std::vector<std::size_t> first_of_model_;
  std::vector<std::vector<Piece>> init_;
  std::unordered_map<std::string, std::uint32_t> vars_;
  std::vector<std::string> var_keys_;
  std::vector<Var> var_info_;
  std::vector<js::ExprP> neg_lits_;
  bool changed_ = false;
  lang::Program p_;
};

}  // namespace

GraphWalkerImport compile_graphwalker(const GwDocument& doc, const GraphWalkerOptions& options) {
  return Compiler(doc, options).run();
}

GraphWalkerImport load_graphwalker(std::string_view text, const std::string& file, const GraphWalkerOptions& options) {
  const GwDocument doc = parse_graphwalker(text, file);
  return compile_graphwalker(doc, options);
}

}  // namespace playtest
