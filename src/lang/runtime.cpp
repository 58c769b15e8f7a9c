#include "lang/detail/runtime.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstring>

namespace playtest::lang {

namespace {

enum Builtin : std::uint8_t { b_len = 1, b_size, b_head, b_tail, b_last, b_keys, b_min, b_max, b_abs, b_remove, b_value };

std::uint32_t comp_offset(const Type& t, std::size_t i) {
  std::uint32_t off = 0;
  for (std::size_t k = 0; k < i; ++k) off += t.elems[k]->width;
  return off;
}

}  // namespace

TypeP finish(Type t) {
  constexpr std::uint64_t limit = std::uint64_t{1} << 40;
  auto mul = [&](std::uint64_t a, std::uint64_t b) -> std::uint64_t {
    if (a == 0 || b == 0) return 0;
    if (a > limit / b) return 0;
    return a * b;
  };
  switch (t.k) {
    case TK::boolean: t.width = 1, t.card = 2; break;
    case TK::integer: case TK::str_literal: t.width = 1, t.card = 0; break;
    case TK::range: {
      t.width = 1;
      const std::uint64_t n = static_cast<std::uint64_t>(t.hi) - static_cast<std::uint64_t>(t.lo) + 1;
      t.card = n > limit ? 0 : n;
      break;
    }
    case TK::enumeration: t.width = 1; break;  // card set by the caller
    case TK::str: t.width = 1, t.card = t.strs.size(); break;
    case TK::tuple: {
      t.width = 0;
      t.card = 1;
      for (auto& e : t.elems) t.width += e->width, t.card = mul(t.card, e->card);
      break;
    }
    case TK::set: {
      t.width = 1;
      const std::uint64_t n = t.elems[0]->card;
      t.card = (n > 0 && n <= 40) ? (std::uint64_t{1} << n) : 0;
      break;
    }
    case TK::seq: t.width = 1 + t.cap * t.elems[0]->width, t.card = 0; break;
    case TK::slot: t.width = 1, t.card = t.cap; break;
    case TK::map: t.width = 1 + static_cast<std::uint32_t>(t.elems[0]->card) * t.elems[1]->width, t.card = 0; break;
  }
  return std::make_shared<const Type>(std::move(t));
}

std::string type_name(const Type& t, const std::vector<std::vector<std::string>>& enums,
                      const std::vector<std::string>& strings) {
  (void)enums;
  switch (t.k) {
    case TK::boolean: return "bool";
    case TK::integer: return "int";
    case TK::range: return fmt::format("{}..{}", t.lo, t.hi);
    case TK::enumeration: case TK::slot: return t.alias;
    case TK::str_literal: return "string";
    case TK::str: {
      if (!t.alias.empty()) return t.alias;
      std::string s = "{";
      for (std::size_t i = 0; i < t.strs.size(); ++i) s += fmt::format("{}\"{}\"", i ? ", " : "", strings[t.strs[i]]);
      return s + "}";
    }
    case TK::tuple: {
      std::string s = "(";
      for (std::size_t i = 0; i < t.elems.size(); ++i) s += (i ? ", " : "") + type_name(*t.elems[i], enums, strings);
      return s + ")";
    }
    case TK::set: return "set<" + type_name(*t.elems[0], enums, strings) + ">";
    case TK::seq: return fmt::format("seq<{}, {}>", type_name(*t.elems[0], enums, strings), t.cap);
    case TK::map:
      return "map<" + type_name(*t.elems[0], enums, strings) + ", " + type_name(*t.elems[1], enums, strings) + ">";
  }
  return "?";
}

void fill_default(const Type& t, Word* out) {
  switch (t.k) {
    case TK::range: out[0] = t.lo; return;
    case TK::str: out[0] = t.strs.empty() ? 0 : t.strs[0]; return;
    case TK::tuple:
      for (auto& e : t.elems) fill_default(*e, out), out += e->width;
      return;
    case TK::seq:
      out[0] = 0;
      for (std::uint32_t i = 0; i < t.cap; ++i) fill_default(*t.elems[0], out + 1 + i * t.elems[0]->width);
      return;
    case TK::map:
      out[0] = 0;
      for (std::uint64_t i = 0; i < t.elems[0]->card; ++i) fill_default(*t.elems[1], out + 1 + i * t.elems[1]->width);
      return;
    default: out[0] = 0; return;
  }
}

std::optional<std::uint64_t> ordinal(const Type& t, const Word* v) {
  switch (t.k) {
    case TK::boolean: return static_cast<std::uint64_t>(v[0] != 0);
    case TK::range:
      if (v[0] < t.lo || v[0] > t.hi) return std::nullopt;
      return static_cast<std::uint64_t>(v[0] - t.lo);
    case TK::enumeration:
      if (v[0] < 0 || static_cast<std::uint64_t>(v[0]) >= t.card) return std::nullopt;
      return static_cast<std::uint64_t>(v[0]);
    case TK::str:
      for (std::size_t i = 0; i < t.strs.size(); ++i)
        if (static_cast<Word>(t.strs[i]) == v[0]) return i;
      return std::nullopt;
    case TK::tuple: {
      std::uint64_t o = 0;
      for (auto& e : t.elems) {
        auto x = ordinal(*e, v);
        if (!x) return std::nullopt;
        o = o * e->card + *x;
        v += e->width;
      }
      return o;
    }
    case TK::set:
      return static_cast<std::uint64_t>(v[0]);
    case TK::slot:
      if (v[0] < 0 || static_cast<std::uint64_t>(v[0]) >= t.card) return std::nullopt;
      return static_cast<std::uint64_t>(v[0]);
    default: return std::nullopt;
  }
}

void from_ordinal(const Type& t, std::uint64_t ord, Word* out) {
  switch (t.k) {
    case TK::boolean: case TK::enumeration: case TK::set: case TK::slot: out[0] = static_cast<Word>(ord); return;
    case TK::range: out[0] = t.lo + static_cast<Word>(ord); return;
    case TK::str: out[0] = t.strs[ord]; return;
    case TK::tuple: {
      for (std::size_t i = t.elems.size(); i-- > 0;) {
        const Type& e = *t.elems[i];
        from_ordinal(e, ord % e.card, out + comp_offset(t, i));
        ord /= e.card;
      }
      return;
    }
    default: out[0] = 0; return;
  }
}

std::string misfit(const Type& t, const Word* v, const Program& p) {
  switch (t.k) {
    case TK::slot:
      if (v[0] < 0 || static_cast<std::uint64_t>(v[0]) >= t.card)
        return fmt::format("slot {} is out of range 0..{} of {}", v[0], t.card - 1, t.alias);
      return {};
    case TK::range:
      if (v[0] < t.lo || v[0] > t.hi) return fmt::format("value {} is out of range {}..{}", v[0], t.lo, t.hi);
      return {};
    case TK::str:
      if (!ordinal(t, v)) {
        const std::string s = v[0] >= 0 && static_cast<std::size_t>(v[0]) < p.strings.size() ? p.strings[v[0]] : "?";
        return fmt::format("string \"{}\" is not in {}", s, type_name(t, p.enums, p.strings));
      }
      return {};
    case TK::tuple: {
      for (auto& e : t.elems) {
        if (auto m = misfit(*e, v, p); !m.empty()) return m;
        v += e->width;
      }
      return {};
    }
    case TK::seq: {
      for (Word i = 0; i < v[0]; ++i)
        if (auto m = misfit(*t.elems[0], v + 1 + i * t.elems[0]->width, p); !m.empty()) return m;
      return {};
    }
    case TK::map: {
      for (std::uint64_t i = 0; i < t.elems[0]->card; ++i)
        if ((static_cast<std::uint64_t>(v[0]) >> i) & 1)
          if (auto m = misfit(*t.elems[1], v + 1 + i * t.elems[1]->width, p); !m.empty()) return m;
      return {};
    }
    default: return {};
  }
}

std::string format_value(const Type& t, const Word* v, const Program& p) {
  switch (t.k) {
    case TK::boolean: return v[0] ? "true" : "false";
    case TK::integer: case TK::range: return std::to_string(v[0]);
    case TK::enumeration: {
      const auto& members = p.enums[t.enum_id];
      return v[0] >= 0 && static_cast<std::size_t>(v[0]) < members.size() ? members[v[0]] : std::to_string(v[0]);
    }
    case TK::slot: return t.alias + "#" + std::to_string(v[0]);
    case TK::str: case TK::str_literal: {
      std::string s = "\"";
      const std::string& raw = v[0] >= 0 && static_cast<std::size_t>(v[0]) < p.strings.size() ? p.strings[v[0]] : "?";
      for (char c : raw) {
        if (c == '"' || c == '\\') s += '\\';
        s += c;
      }
      return s + "\"";
    }
    case TK::tuple: {
      std::string s = "(";
      for (std::size_t i = 0; i < t.elems.size(); ++i)
        s += (i ? ", " : "") + format_value(*t.elems[i], v + comp_offset(t, i), p);
      return s + ")";
    }
    case TK::set: {
      std::string s = "{";
      std::vector<Word> tmp(t.elems[0]->width);
      bool first = true;
      for (std::uint64_t i = 0; i < t.elems[0]->card && i < 64; ++i) {
        if (!((static_cast<std::uint64_t>(v[0]) >> i) & 1)) continue;
        from_ordinal(*t.elems[0], i, tmp.data());
        s += (first ? "" : ", ") + format_value(*t.elems[0], tmp.data(), p);
        first = false;
      }
      return s + "}";
    }
    case TK::seq: {
      std::string s = "[";
      for (Word i = 0; i < v[0]; ++i)
        s += (i ? ", " : "") + format_value(*t.elems[0], v + 1 + i * t.elems[0]->width, p);
      return s + "]";
    }
    case TK::map: {
      std::string s = "{";
      std::vector<Word> tmp(t.elems[0]->width);
      bool first = true;
      for (std::uint64_t i = 0; i < t.elems[0]->card && i < 64; ++i) {
        if (!((static_cast<std::uint64_t>(v[0]) >> i) & 1)) continue;
        from_ordinal(*t.elems[0], i, tmp.data());
        s += (first ? "" : ", ") + format_value(*t.elems[0], tmp.data(), p) + " -> " +
             format_value(*t.elems[1], v + 1 + i * t.elems[1]->width, p);
        first = false;
      }
      return s + "}";
    }
  }
  return "?";
}

void Interp::fail(Loc loc, const std::string& msg) const {
  std::string m = msg;
  if (context) m += context();
  fail_at(p_.file, loc, m);
}

bool Interp::equal(const Expr& a, const Expr& b) {
  const std::uint32_t w = a.type->width;
  if (w == 1 && b.type->width == 1) return scalar(a) == scalar(b);
  std::vector<Word> x(w), y(b.type->width);
  eval(a, x.data());
  eval(b, y.data());
  return x == y;
}

Word Interp::scalar(const Expr& e) {
  switch (e.k) {
    case EK::constant: return e.value[0];
    case EK::var: case EK::local: return f_[e.slot];
    case EK::int_lit: case EK::bool_lit: case EK::str_lit: return e.ival;
    case EK::unary:
      if (e.op == Op::not_) return !scalar(*e.kids[0]);
      {
        const Word x = scalar(*e.kids[0]);
        if (x == std::numeric_limits<Word>::min()) fail(e, "integer overflow in '-'");
        return -x;
      }
    case EK::binary: return binary_scalar(e);
    case EK::quant: return quant(e);
    case EK::if_expr: return scalar(*e.kids[0]) ? scalar(*e.kids[1]) : scalar(*e.kids[2]);
    default: {
      Word out[1];
      if (e.type->width != 1) fail(e, "internal error: scalar of a composite value");
      eval(e, out);
      return out[0];
    }
  }
}

Word Interp::binary_scalar(const Expr& e) {
  const Expr& a = *e.kids[0];
  const Expr& b = *e.kids[1];
  switch (e.op) {
    case Op::and_: return scalar(a) && scalar(b);
    case Op::or_: return scalar(a) || scalar(b);
    case Op::implies: return !scalar(a) || scalar(b);
    case Op::eq: return equal(a, b);
    case Op::ne: return !equal(a, b);
    case Op::lt: return scalar(a) < scalar(b);
    case Op::le: return scalar(a) <= scalar(b);
    case Op::gt: return scalar(a) > scalar(b);
    case Op::ge: return scalar(a) >= scalar(b);
    case Op::in: {
      const Type& ct = *b.type;
      std::vector<Word> x(a.type->width);
      eval(a, x.data());
      if (ct.k == TK::seq) {
        std::vector<Word> q(ct.width);
        eval(b, q.data());
        const std::uint32_t w = ct.elems[0]->width;
        for (Word i = 0; i < q[0]; ++i)
          if (std::memcmp(q.data() + 1 + i * w, x.data(), w * sizeof(Word)) == 0) return 1;
        return 0;
      }
      const Word mask = ct.k == TK::map ? [&] {
        std::vector<Word> m(ct.width);
        eval(b, m.data());
        return m[0];
      }() : scalar(b);
      auto o = ordinal(*ct.elems[0], x.data());
      return o && ((static_cast<std::uint64_t>(mask) >> *o) & 1);
    }
    case Op::add: case Op::sub: case Op::mul: case Op::div: case Op::mod: {
      if (e.type->k == TK::set) {
        const auto x = static_cast<std::uint64_t>(scalar(a)), y = static_cast<std::uint64_t>(scalar(b));
        if (e.op == Op::add) return static_cast<Word>(x | y);
        if (e.op == Op::sub) return static_cast<Word>(x & ~y);
        return static_cast<Word>(x & y);
      }
      const Word x = scalar(a), y = scalar(b);
      Word r = 0;
      switch (e.op) {
        case Op::add:
          if (__builtin_add_overflow(x, y, &r)) fail(e, fmt::format("integer overflow in {} + {}", x, y));
          return r;
        case Op::sub:
          if (__builtin_sub_overflow(x, y, &r)) fail(e, fmt::format("integer overflow in {} - {}", x, y));
          return r;
        case Op::mul:
          if (__builtin_mul_overflow(x, y, &r)) fail(e, fmt::format("integer overflow in {} * {}", x, y));
          return r;
        case Op::div:
          if (y == 0) fail(e, fmt::format("division by zero in {} / 0", x));
          if (x == std::numeric_limits<Word>::min() && y == -1) fail(e, "integer overflow in '/'");
          return x / y;
        default:
          if (y == 0) fail(e, fmt::format("division by zero in {} % 0", x));
          if (y == -1) return 0;
          return x % y;
      }
    }
    default: fail(e, "internal error: bad binary operator");
  }
}

bool Interp::quant(const Expr& e) {
  const bool all = e.op == Op::forall;
  const Expr& dom = *e.kids[0];
  const Expr& body = *e.kids[1];
  Word* var = f_ + e.slot;
  auto test = [&] { return scalar(body) != 0; };
  if (dom.k == EK::type_ref) {
    const Type& t = *e.dom_type;
    for (std::uint64_t i = 0; i < t.card; ++i) {
      from_ordinal(t, i, var);
      if (test() != all) return !all;
    }
    return all;
  }
  const Type& ct = *dom.type;
  std::vector<Word> c(ct.width);
  eval(dom, c.data());
  const Type& et = *ct.elems[0];
  if (ct.k == TK::seq) {
    for (Word i = 0; i < c[0]; ++i) {
      std::memcpy(var, c.data() + 1 + i * et.width, et.width * sizeof(Word));
      if (test() != all) return !all;
    }
    return all;
  }
  const auto mask = static_cast<std::uint64_t>(c[0]);
  for (std::uint64_t i = 0; i < et.card && i < 64; ++i) {
    if (!((mask >> i) & 1)) continue;
    from_ordinal(et, i, var);
    if (test() != all) return !all;
  }
  return all;
}

namespace {

// The value of a call of a builtin function (len, value, size, keys, head, last, tail, remove, min,
// max, abs) into `out`.
void eval_builtin(Interp& in, const Expr& e, Word* out) {
  const Type& t = *e.type;
  const Expr& a = *e.kids[0];
  switch (e.builtin) {
    case b_len: {
      std::vector<Word> q(a.type->width);
      in.eval(a, q.data());
      out[0] = q[0];
      return;
    }
    case b_value: {
      const Word k = in.scalar(a);
      if (!in.slot_value) in.fail(e, "value() is known only while a run checks an output");
      out[0] = in.slot_value(*a.type, k, e);
      return;
    }
    case b_size: {
      std::vector<Word> q(a.type->width);
      in.eval(a, q.data());
      out[0] = std::popcount(static_cast<std::uint64_t>(q[0]));
      return;
    }
    case b_keys: {
      std::vector<Word> q(a.type->width);
      in.eval(a, q.data());
      out[0] = q[0];
      return;
    }
    case b_head:
    case b_last: {
      std::vector<Word> q(a.type->width);
      in.eval(a, q.data());
      if (q[0] == 0) in.fail(e, fmt::format("{}() of an empty sequence", e.builtin == b_head ? "head" : "last"));
      const Word i = e.builtin == b_head ? 0 : q[0] - 1;
      std::memcpy(out, q.data() + 1 + i * t.width, t.width * sizeof(Word));
      return;
    }
    case b_tail: {
      in.eval(a, out);
      if (out[0] == 0) in.fail(e, "tail() of an empty sequence");
      const std::uint32_t w = t.elems[0]->width;
      std::memmove(out + 1, out + 1 + w, (t.cap - 1) * w * sizeof(Word));
      fill_default(*t.elems[0], out + 1 + (t.cap - 1) * w);
      out[0] -= 1;
      return;
    }
    case b_remove: {
      in.eval(a, out);
      std::vector<Word> k(e.kids[1]->type->width);
      in.eval(*e.kids[1], k.data());
      auto o = ordinal(*t.elems[0], k.data());
      if (o) {
        out[0] = static_cast<Word>(static_cast<std::uint64_t>(out[0]) & ~(std::uint64_t{1} << *o));
        fill_default(*t.elems[1], out + 1 + *o * t.elems[1]->width);
      }
      return;
    }
    case b_min:
    case b_max: {
      const Word x = in.scalar(a), y = in.scalar(*e.kids[1]);
      out[0] = e.builtin == b_min ? std::min(x, y) : std::max(x, y);
      return;
    }
    case b_abs: {
      const Word x = in.scalar(a);
      if (x == std::numeric_limits<Word>::min()) in.fail(e, "integer overflow in abs()");
      out[0] = x < 0 ? -x : x;
      return;
    }
    default:
      in.fail(e, "internal error: unknown builtin");
  }
}

}  // namespace

void Interp::eval(const Expr& e, Word* out) {
  const Type& t = *e.type;
  switch (e.k) {
    case EK::constant: std::memcpy(out, e.value.data(), t.width * sizeof(Word)); return;
    case EK::var: case EK::local: std::memcpy(out, f_ + e.slot, t.width * sizeof(Word)); return;
    case EK::if_expr:
      if (scalar(*e.kids[0])) eval(*e.kids[1], out);
      else eval(*e.kids[2], out);
      return;
    case EK::tuple_lit: {
      for (auto& k : e.kids) {
        eval(*k, out);
        out += k->type->width;
      }
      return;
    }
    case EK::set_lit: {
      if (t.k == TK::map) {  // the empty map {}
        fill_default(t, out);
        return;
      }
      std::uint64_t mask = 0;
      const Type& et = *t.elems[0];
      std::vector<Word> x(et.width);
      for (auto& k : e.kids) {
        eval(*k, x.data());
        auto o = ordinal(et, x.data());
        if (!o) fail(*k, fmt::format("{} is not a value of the set's element type {}", format_value(*k->type, x.data(), p_),
                                     type_name(et, p_.enums, p_.strings)));
        mask |= std::uint64_t{1} << *o;
      }
      out[0] = static_cast<Word>(mask);
      return;
    }
    case EK::seq_lit: {
      fill_default(t, out);
      out[0] = static_cast<Word>(e.kids.size());
      const std::uint32_t w = t.elems[0]->width;
      for (std::size_t i = 0; i < e.kids.size(); ++i) {
        eval(*e.kids[i], out + 1 + i * w);
        if (auto m = misfit(*t.elems[0], out + 1 + i * w, p_); !m.empty()) fail(*e.kids[i], m);
      }
      return;
    }
    case EK::field: {
      const Expr& base = *e.kids[0];
      std::vector<Word> b(base.type->width);
      eval(base, b.data());
      std::memcpy(out, b.data() + comp_offset(*base.type, static_cast<std::size_t>(e.ival)), t.width * sizeof(Word));
      return;
    }
    case EK::index: {
      const Expr& base = *e.kids[0];
      const Type& bt = *base.type;
      std::vector<Word> b(bt.width);
      eval(base, b.data());
      if (bt.k == TK::seq) {
        const Word i = scalar(*e.kids[1]);
        if (i < 0 || i >= b[0]) fail(e, fmt::format("index {} is out of range of a sequence of length {}", i, b[0]));
        std::memcpy(out, b.data() + 1 + i * t.width, t.width * sizeof(Word));
        return;
      }
      std::vector<Word> k(e.kids[1]->type->width);
      eval(*e.kids[1], k.data());
      auto o = ordinal(*bt.elems[0], k.data());
      if (!o || !((static_cast<std::uint64_t>(b[0]) >> *o) & 1))
        fail(e, fmt::format("key {} is not in the map", format_value(*e.kids[1]->type, k.data(), p_)));
      std::memcpy(out, b.data() + 1 + *o * t.width, t.width * sizeof(Word));
      return;
    }
    case EK::binary: {
      if (t.k == TK::seq) {  // concatenation
        const Expr& a = *e.kids[0];
        const Expr& b = *e.kids[1];
        std::vector<Word> y(b.type->width);
        eval(a, out);
        eval(b, y.data());
        const std::uint32_t w = t.elems[0]->width;
        if (out[0] + y[0] > static_cast<Word>(t.cap))
          fail(e, fmt::format("sequence too long: {} elements do not fit {}", out[0] + y[0], type_name(t, p_.enums, p_.strings)));
        std::memcpy(out + 1 + out[0] * w, y.data() + 1, y[0] * w * sizeof(Word));
        out[0] += y[0];
        return;
      }
      out[0] = binary_scalar(e);
      return;
    }
    case EK::call:
      eval_builtin(*this, e, out);
      return;
    default: out[0] = scalar(e); return;
  }
}

void Interp::exec(const std::vector<StmtP>& body) {
  for (const auto& s : body) exec(*s);
}

void Interp::exec(const Stmt& s) {
  switch (s.k) {
    case SK::if_:
      if (scalar(*s.e)) exec(s.then_);
      else exec(s.else_);
      return;
    case SK::let:
      eval(*s.e, f_ + s.slot);
      return;
    case SK::assign: {
      Word* target = f_ + s.slot;
      const Type* t = s.target_type.get();
      for (std::size_t i = 0; i < s.path.size(); ++i) {
        const LStep& st = s.path[i];
        if (!st.is_index) {
          target += comp_offset(*t, st.field);
          t = t->elems[st.field].get();
        } else if (t->k == TK::seq) {
          const Word k = scalar(*st.index);
          if (k < 0 || k >= target[0])
            fail(st.loc, fmt::format("index {} is out of range of a sequence of length {}", k, target[0]));
          target += 1 + k * t->elems[0]->width;
          t = t->elems[0].get();
        } else {
          std::vector<Word> k(st.index->type->width);
          eval(*st.index, k.data());
          auto o = ordinal(*t->elems[0], k.data());
          if (!o)
            fail(st.loc, fmt::format("{} is not a key of {}", format_value(*st.index->type, k.data(), p_),
                                     type_name(*t, p_.enums, p_.strings)));
          target[0] = static_cast<Word>(static_cast<std::uint64_t>(target[0]) | (std::uint64_t{1} << *o));
          target += 1 + *o * t->elems[1]->width;
          t = t->elems[1].get();
        }
      }
      if (t->width == 1 && s.e->type->width == 1) {
        const Word v = scalar(*s.e);
        if (t->k == TK::range && (v < t->lo || v > t->hi))
          fail(s.loc, fmt::format("value {} is out of range {}..{} of '{}'", v, t->lo, t->hi, s.name));
        if (t->k == TK::str) {
          if (auto m = misfit(*t, &v, p_); !m.empty()) fail(s.loc, m + fmt::format(" (assigned to '{}')", s.name));
        }
        *target = v;
        return;
      }
      std::vector<Word> v(t->width);
      eval(*s.e, v.data());
      if (auto m = misfit(*t, v.data(), p_); !m.empty()) fail(s.loc, m + fmt::format(" (assigned to '{}')", s.name));
      std::memcpy(target, v.data(), t->width * sizeof(Word));
      return;
    }
  }
}

}  // namespace playtest::lang
