// Lexer and recursive-descent parser of the modelling language (docs/language.md).
#include <fmt/format.h>

#include <cctype>
#include <limits>
#include <utility>

#include "lang/detail/ast.hpp"
#include "playtest/base/source_text.hpp"

namespace playtest::lang {

void fail_at(const std::string& file, Loc loc, std::string message, std::vector<std::string> notes, bool parse_error) {
  Diagnostic d{{file, loc.line, loc.column, ""}, std::move(message), std::move(notes)};
  if (parse_error) throw ParseError(std::move(d));
  throw ModelError(std::move(d));
}

namespace {

const char* tok_text(Tok t) {
  switch (t) {
    case Tok::end:
      return "end of file";
    case Tok::ident:
      return "a name";
    case Tok::integer:
      return "an integer";
    case Tok::string:
      return "a string";
    case Tok::lparen:
      return "'('";
    case Tok::rparen:
      return "')'";
    case Tok::lbrace:
      return "'{'";
    case Tok::rbrace:
      return "'}'";
    case Tok::lbracket:
      return "'['";
    case Tok::rbracket:
      return "']'";
    case Tok::comma:
      return "','";
    case Tok::semicolon:
      return "';'";
    case Tok::colon:
      return "':'";
    case Tok::dot:
      return "'.'";
    case Tok::dotdot:
      return "'..'";
    case Tok::assign:
      return "':='";
    case Tok::eq:
      return "'=='";
    case Tok::ne:
      return "'!='";
    case Tok::lt:
      return "'<'";
    case Tok::le:
      return "'<='";
    case Tok::gt:
      return "'>'";
    case Tok::ge:
      return "'>='";
    case Tok::plus:
      return "'+'";
    case Tok::minus:
      return "'-'";
    case Tok::star:
      return "'*'";
    case Tok::slash:
      return "'/'";
    case Tok::percent:
      return "'%'";
    case Tok::implies:
      return "'=>'";
    case Tok::arrow:
      return "'->'";
    case Tok::equals:
      return "'='";
  }
  return "?";
}

}  // namespace

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::ident:
      return "'" + t.text + "'";
    case Tok::integer:
      return "'" + t.text + "'";
    case Tok::string:
      return "a string";
    default:
      return tok_text(t.kind);
  }
}

namespace {

// The lexer's place in the text: the offset, and the line and where it starts (for locations).
class Lexer {
 public:
  Lexer(std::string_view s, const std::string& file) : s_(s), file_(file) {}

  // The tokens of the text, then Tok::end.
  std::vector<Token> run() {
    std::vector<Token> out;
    while (i_ < s_.size()) {
      if (skip_blank()) continue;
      const char c = s_[i_];
      Token t;
      t.loc = loc_at(i_);
      t.begin = static_cast<std::uint32_t>(i_);
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_')
        name(t);
      else if (std::isdigit(static_cast<unsigned char>(c)))
        integer_literal(t);
      else if (c == '"')
        string_literal(t);
      else
        punctuation(t);
      t.end = static_cast<std::uint32_t>(i_);
      out.push_back(std::move(t));
    }
    Token e;
    e.kind = Tok::end;
    e.loc = loc_at(i_);
    out.push_back(e);
    return out;
  }

 private:
  Loc loc_at(std::size_t p) const { return Loc{line_, static_cast<std::uint32_t>(p - line_start_ + 1)}; }
  [[noreturn]] void fail(std::size_t p, std::string msg, std::vector<std::string> notes = {}) const {
    fail_at(file_, loc_at(p), std::move(msg), std::move(notes), true);
  }

  // Skips a line break, a blank, a // comment or a /* comment */ at the offset; false when a token
  // starts there.
  bool skip_blank() {
    const char c = s_[i_];
    if (c == '\n') {
      ++line_;
      line_start_ = ++i_;
      return true;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i_;
      return true;
    }
    if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '/') {
      while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      return true;
    }
    if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '*') {
      const Loc start_loc = loc_at(i_);
      i_ += 2;
      while (i_ < s_.size() && !(s_[i_] == '*' && i_ + 1 < s_.size() && s_[i_ + 1] == '/')) {
        if (s_[i_] == '\n') {
          ++line_;
          line_start_ = i_ + 1;
        }
        ++i_;
      }
      if (i_ >= s_.size()) fail_at(file_, start_loc, "unterminated comment: '/*' has no matching '*/'", {}, true);
      i_ += 2;
      return true;
    }
    return false;
  }

  // A name (a keyword too): a letter or '_', then letters, digits and '_'.
  void name(Token& t) {
    std::size_t j = i_;
    while (j < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[j])) || s_[j] == '_')) ++j;
    t.kind = Tok::ident;
    t.text = std::string(s_.substr(i_, j - i_));
    i_ = j;
  }

  // An integer literal: decimal digits, 64-bit signed, not followed by a letter or '_'.
  void integer_literal(Token& t) {
    std::size_t j = i_;
    std::int64_t v = 0;
    while (j < s_.size() && std::isdigit(static_cast<unsigned char>(s_[j]))) {
      const int d = s_[j] - '0';
      if (v > (std::numeric_limits<std::int64_t>::max() - d) / 10)
        fail(i_, "integer literal too large", {"integers are 64-bit signed"});
      v = v * 10 + d;
      ++j;
    }
    if (j < s_.size() && (std::isalpha(static_cast<unsigned char>(s_[j])) || s_[j] == '_'))
      fail(j, fmt::format("unexpected character '{}' after the number", s_[j]));
    t.kind = Tok::integer;
    t.text = std::string(s_.substr(i_, j - i_));
    t.value = v;
    i_ = j;
  }

  // A string literal on one line, with the escapes \" \\ \n \t.
  void string_literal(Token& t) {
    std::size_t j = i_ + 1;
    std::string v;
    while (true) {
      if (j >= s_.size() || s_[j] == '\n')
        fail(i_, "unterminated string literal", {"close it with '\"' on the same line"});
      if (s_[j] == '"') break;
      if (s_[j] == '\\') {
        if (j + 1 >= s_.size()) fail(j, "unterminated string literal");
        const char e = s_[j + 1];
        if (e == 'n')
          v += '\n';
        else if (e == 't')
          v += '\t';
        else if (e == '"' || e == '\\')
          v += e;
        else
          fail(j, fmt::format("unknown escape sequence '\\{}'", e), {"known escapes: \\\" \\\\ \\n \\t"});
        j += 2;
        continue;
      }
      v += s_[j++];
    }
    t.kind = Tok::string;
    t.text = std::move(v);
    i_ = j + 1;
  }

  // An operator or a punctuation mark (two characters before one); any other character is refused.
  void punctuation(Token& t) {
    const char c = s_[i_];
    auto two = [&](char a, char b) { return c == a && i_ + 1 < s_.size() && s_[i_ + 1] == b; };
    std::size_t len = 1;
    if (two('.', '.'))
      t.kind = Tok::dotdot, len = 2;
    else if (two(':', '='))
      t.kind = Tok::assign, len = 2;
    else if (two('=', '='))
      t.kind = Tok::eq, len = 2;
    else if (two('!', '='))
      t.kind = Tok::ne, len = 2;
    else if (two('<', '='))
      t.kind = Tok::le, len = 2;
    else if (two('>', '='))
      t.kind = Tok::ge, len = 2;
    else if (two('=', '>'))
      t.kind = Tok::implies, len = 2;
    else if (two('-', '>'))
      t.kind = Tok::arrow, len = 2;
    else {
      switch (c) {
        case '(':
          t.kind = Tok::lparen;
          break;
        case ')':
          t.kind = Tok::rparen;
          break;
        case '{':
          t.kind = Tok::lbrace;
          break;
        case '}':
          t.kind = Tok::rbrace;
          break;
        case '[':
          t.kind = Tok::lbracket;
          break;
        case ']':
          t.kind = Tok::rbracket;
          break;
        case ',':
          t.kind = Tok::comma;
          break;
        case ';':
          t.kind = Tok::semicolon;
          break;
        case ':':
          t.kind = Tok::colon;
          break;
        case '.':
          t.kind = Tok::dot;
          break;
        case '<':
          t.kind = Tok::lt;
          break;
        case '>':
          t.kind = Tok::gt;
          break;
        case '+':
          t.kind = Tok::plus;
          break;
        case '-':
          t.kind = Tok::minus;
          break;
        case '*':
          t.kind = Tok::star;
          break;
        case '/':
          t.kind = Tok::slash;
          break;
        case '%':
          t.kind = Tok::percent;
          break;
        case '=':
          t.kind = Tok::equals;
          break;
        default: {
          std::vector<std::string> notes;
          if (c == '!')
            notes.push_back("write 'not' for negation and '!=' for inequality");
          else if (c == '&' || c == '|')
            notes.push_back("write 'and' / 'or'");
          if (static_cast<unsigned char>(c) < 32 || static_cast<unsigned char>(c) >= 127)
            fail(i_, fmt::format("unexpected character (byte 0x{:02x})", static_cast<unsigned char>(c)), notes);
          fail(i_, fmt::format("unexpected character '{}'", c), notes);
        }
      }
    }
    i_ += len;
  }

  std::string_view s_;
  const std::string& file_;
  std::uint32_t line_ = 1;
  std::size_t line_start_ = 0;
  std::size_t i_ = 0;
};

}  // namespace

std::vector<Token> lex(std::string_view s, const std::string& file) { return Lexer(s, file).run(); }

namespace {

bool is_keyword(std::string_view s) {
  static const char* const kws[] = {"model",      "param", "const",    "type",    "enum", "var",  "controllable",
                                    "observable", "cost",  "weight",   "require", "trap", "when", "final",
                                    "timeout",    "reset", "abstract", "if",      "then", "else", "forall",
                                    "exists",     "in",    "and",      "or",      "not",  "true", "false",
                                    "let",        "bool",  "int",      "string",  "set",  "seq",  "map"};
  for (const char* k : kws)
    if (s == k) return true;
  return false;
}

class Parser {
 public:
  Parser(std::vector<Token> toks, Program& p, std::string_view text) : t_(std::move(toks)), p_(p), text_(text) {}

  void program() {
    while (!at(Tok::end)) decl();
  }

  // One expression and nothing after it (a goal condition).
  ExprP condition() {
    ExprP e = expr();
    if (!at(Tok::end)) expected("the end of the condition", "after the expression");
    return e;
  }

 private:
  const Token& cur() const { return t_[pos_]; }
  const Token& peek(std::size_t k = 1) const { return t_[std::min(pos_ + k, t_.size() - 1)]; }
  bool at(Tok k) const { return cur().kind == k; }
  bool at_kw(std::string_view kw) const { return cur().kind == Tok::ident && cur().text == kw; }
  Token take() { return t_[pos_ < t_.size() - 1 ? pos_++ : pos_]; }
  // The source from `begin` to the end of the last token taken.
  std::string source_text(std::uint32_t begin) const {
    const std::uint32_t end = pos_ > 0 ? t_[pos_ - 1].end : begin;
    return end > begin ? std::string(text_.substr(begin, end - begin)) : std::string();
  }
  [[noreturn]] void error(const std::string& msg, std::vector<std::string> notes = {}) {
    fail_at(p_.file, cur().loc, msg, std::move(notes), true);
  }
  [[noreturn]] void expected(const std::string& what, const std::string& context) {
    std::vector<std::string> notes;
    if (what == "';'" && pos_ > 0) {
      // The ';' is missing at the end of the previous token more often than not.
      const Token& prev = t_[pos_ - 1];
      if (prev.loc.line < cur().loc.line)
        fail_at(p_.file,
                Loc{prev.loc.line,
                    prev.loc.column + static_cast<std::uint32_t>(std::max<std::size_t>(prev.text.size(), 1))},
                fmt::format("expected ';' {}, found {}", context, describe(cur())), {"add ';' at the end of this line"},
                true);
    }
    if (cur().kind == Tok::equals) notes.push_back("assignments use ':=', comparisons '=='");
    error(fmt::format("expected {} {}, found {}", what, context, describe(cur())), notes);
  }
  Token expect(Tok k, const std::string& context) {
    if (!at(k)) expected(tok_text(k), context);
    return take();
  }
  void expect_kw(std::string_view kw, const std::string& context) {
    if (!at_kw(kw)) expected(fmt::format("'{}'", kw), context);
    take();
  }
  Token ident(const std::string& context) {
    if (!at(Tok::ident)) expected("a name", context);
    if (is_keyword(cur().text))
      error(fmt::format("'{}' is a keyword and cannot be used as a name {}", cur().text, context));
    return take();
  }

  void decl() {
    if (!at(Tok::ident))
      error(fmt::format("expected a declaration (var, controllable, observable, ...), found {}", describe(cur())));
    const std::string kw = cur().text;
    const Loc loc = cur().loc;
    if (kw == "model") {
      take();
      p_.model_name = ident("after 'model'").text;
      expect(Tok::semicolon, "after the model name");
    } else if (kw == "param" || kw == "const") {
      take();
      NamedDecl d;
      d.kind = kw == "param" ? NamedDecl::Kind::param : NamedDecl::Kind::constant;
      Token n = ident("after '" + kw + "'");
      d.name = n.text;
      d.loc = n.loc;
      if (kw == "param") {
        expect(Tok::colon, "after the parameter name (param N: int = 3;)");
        d.type = type_expr();
      }
      expect(Tok::equals, kw == "param" ? "before the parameter's default value" : "after the constant name");
      d.value = expr();
      expect(Tok::semicolon, "after the " + std::string(kw == "param" ? "parameter" : "constant") + " declaration");
      p_.named.push_back(std::move(d));
    } else if (kw == "type") {
      take();
      NamedDecl d;
      d.kind = NamedDecl::Kind::type;
      Token n = ident("after 'type'");
      d.name = n.text;
      d.loc = n.loc;
      expect(Tok::equals, "after the type name");
      d.type = type_expr();
      expect(Tok::semicolon, "after the type declaration");
      p_.named.push_back(std::move(d));
    } else if (kw == "enum") {
      take();
      NamedDecl d;
      d.kind = NamedDecl::Kind::enumeration;
      Token n = ident("after 'enum'");
      d.name = n.text;
      d.loc = n.loc;
      expect(Tok::lbrace, "after the enum name");
      do {
        Token m = ident("in the enum's member list");
        d.members.emplace_back(m.text, m.loc);
      } while (at(Tok::comma) && (take(), true));
      expect(Tok::rbrace, "after the enum members");
      if (at(Tok::semicolon)) take();
      p_.named.push_back(std::move(d));
    } else if (kw == "var") {
      take();
      VarDecl v;
      Token n = ident("after 'var'");
      v.name = n.text;
      v.loc = n.loc;
      expect(Tok::colon, "after the variable name (var x: 0..9 = 0;)");
      v.type = type_expr();
      if (at(Tok::equals)) {
        take();
        v.init = expr();
      } else if (at(Tok::assign)) {
        error("a variable's initial value is given with '=', not ':='");
      }
      expect(Tok::semicolon, "after the variable declaration");
      p_.vars.push_back(std::move(v));
    } else if (kw == "controllable" || kw == "observable") {
      take();
      action(kw == "observable", loc);
    } else if (kw == "final") {
      take();
      if (p_.final_) fail_at(p_.file, loc, "'final' is declared twice", {"combine the conditions with 'and'"});
      p_.final_loc = loc;
      p_.final_ = expr();
      expect(Tok::semicolon, "after the final condition");
    } else if (kw == "timeout") {
      take();
      if (p_.has_timeout) fail_at(p_.file, loc, "'timeout' is declared twice");
      p_.has_timeout = true;
      while (!at(Tok::semicolon)) {
        if (at_kw("cost") && !p_.timeout_cost)
          take(), p_.timeout_cost = expr();
        else if (at_kw("weight") && !p_.timeout_weight)
          take(), p_.timeout_weight = expr();
        else if (at_kw("when") && !p_.timeout_when)
          take(), p_.timeout_when = expr();
        else if (at_kw("after") && !p_.timeout_after)
          take(), p_.timeout_after = expr();
        else
          expected("'cost', 'weight', 'when', 'after' or ';'", "in the timeout declaration");
      }
      take();
    } else if (kw == "reset") {
      take();
      if (p_.has_reset) fail_at(p_.file, loc, "'reset' is declared twice");
      p_.has_reset = true;
      if (at_kw("cost")) take(), p_.reset_cost = expr();
      expect(Tok::semicolon, "after the reset declaration");
    } else if (kw == "abstract") {
      take();
      if (!p_.abstract_.empty())
        fail_at(p_.file, loc, "'abstract' is declared twice", {"list every expression in one declaration"});
      do p_.abstract_.push_back(expr());
      while (at(Tok::comma) && (take(), true));
      expect(Tok::semicolon, "after the abstraction");
    } else {
      std::vector<std::string> notes;
      if (kw == "action") notes.push_back("declare actions with 'controllable NAME(...)' or 'observable NAME(...)'");
      error(fmt::format("expected a declaration (var, controllable, observable, ...), found {}", describe(cur())),
            notes);
    }
  }

  void action(bool observable, Loc loc) {
    Action a;
    a.observable = observable;
    Token n = ident(std::string("after '") + (observable ? "observable" : "controllable") + "'");
    a.name = n.text;
    a.loc = n.loc;
    (void)loc;
    if (at(Tok::lparen)) {
      take();
      if (!at(Tok::rparen)) {
        do {
          Param prm;
          Token pn = ident("as a parameter name");
          prm.name = pn.text;
          prm.loc = pn.loc;
          expect(Tok::colon, "after the parameter name (NAME: TYPE)");
          prm.type = type_expr();
          a.params.push_back(std::move(prm));
        } while (at(Tok::comma) && (take(), true));
      }
      expect(Tok::rparen, "after the parameters");
    }
    while (true) {
      if (at_kw("require")) {
        const Token req = take();
        const std::uint32_t begin = req.begin;
        a.require_locs.push_back(req.loc);
        a.requires_.push_back(expr());
        a.require_texts.push_back(source_text(begin));
      } else if (at_kw("delay")) {
        // Clause words are not reserved: a name `delay` elsewhere stays a name.
        if (observable)
          error("only controllable actions have a delay",
                {"a delay is the tester's move of waiting; outputs that may come at any time are 'anytime'"});
        if (a.delay) error("the action's delay is given twice");
        take();
        a.delay = expr();
      } else if (at_kw("anytime")) {
        if (!observable)
          error("only observable actions can be 'anytime'", {"'anytime' says an output of the system may come at "
                                                             "any time, also while the tester is about to act"});
        if (a.anytime) error("'anytime' is given twice");
        take();
        a.anytime = true;
        if (at_kw("when")) {
          take();
          a.anytime_when = expr();
        }
      } else if (at_kw("cost")) {
        if (a.cost) error("the action's cost is given twice");
        take();
        a.cost = expr();
      } else if (at_kw("weight")) {
        if (!observable)
          error("only observable actions have a weight",
                {"a weight is the relative likelihood of an output of the system"});
        if (a.weight) error("the action's weight is given twice");
        take();
        a.weight = expr();
      } else if (at_kw("trap")) {
        take();
        Trap t;
        Token tn = ident("after 'trap'");
        t.name = tn.text;
        t.loc = tn.loc;
        if (at_kw("when")) {
          take();
          t.when = expr();
        }
        a.traps.push_back(std::move(t));
      } else {
        break;
      }
    }
    if (at(Tok::semicolon)) {
      take();
    } else if (at(Tok::lbrace)) {
      a.body = block();
    } else {
      expected(observable ? "'require', 'cost', 'weight', 'trap', 'anytime', '{' or ';'"
                          : "'require', 'cost', 'trap', 'delay', '{' or ';'",
               "in the action " + a.name);
    }
    p_.actions.push_back(std::move(a));
  }

  std::vector<StmtP> block() {
    expect(Tok::lbrace, "to start a block");
    std::vector<StmtP> out;
    while (!at(Tok::rbrace)) {
      if (at(Tok::end)) error("expected '}' to close the block, found end of file");
      out.push_back(stmt());
    }
    take();
    return out;
  }

  // Nesting guards: a statement, an else-if chain or a type nested deeper than this is refused with
  // a located error (it would otherwise exhaust the stack of this parser, the checker and the
  // interpreter, which all recurse over the tree).
  static constexpr int max_nesting = 200;
  struct Nesting {
    Parser& p;
    Nesting(Parser& parser, const char* what) : p(parser) {
      if (++p.nesting_ > max_nesting)
        p.error(fmt::format("{} nested too deeply (more than {} levels)", what, max_nesting),
                {"split the model into smaller actions or flatten the nesting"});
    }
    ~Nesting() { --p.nesting_; }
  };

  StmtP stmt() {
    const Nesting guard(*this, "statements");
    auto s = std::make_unique<Stmt>();
    s->loc = cur().loc;
    if (at_kw("if")) {
      take();
      s->k = SK::if_;
      s->e = expr();
      s->then_ = block();
      if (at_kw("else")) {
        take();
        if (at_kw("if"))
          s->else_.push_back(stmt());
        else
          s->else_ = block();
      }
      return s;
    }
    if (at_kw("let")) {
      take();
      s->k = SK::let;
      Token n = ident("after 'let'");
      s->name = n.text;
      s->loc = n.loc;
      expect(Tok::equals, "after the name in 'let'");
      s->e = expr();
      expect(Tok::semicolon, "after the let statement");
      return s;
    }
    s->k = SK::assign;
    Token n = ident("at the start of a statement (x := e;, if, let)");
    s->name = n.text;
    while (at(Tok::dot) || at(Tok::lbracket)) {
      LStep st;
      st.loc = cur().loc;
      if (take().kind == Tok::dot) {
        st.field = static_cast<std::uint32_t>(expect(Tok::integer, "after '.' (tuple fields are .0, .1, ...)").value);
      } else {
        st.is_index = true;
        st.index = expr();
        expect(Tok::rbracket, "after the index");
      }
      s->path.push_back(std::move(st));
    }
    if (at(Tok::equals))
      error("expected ':=' in the assignment, found '='", {"assignments use ':=', comparisons '=='"});
    expect(Tok::assign, "in the assignment");
    s->e = expr();
    expect(Tok::semicolon, "after the assignment");
    return s;
  }

  TypeExprP type_expr() {
    const Nesting guard(*this, "types");
    auto t = std::make_unique<TypeExpr>();
    t->loc = cur().loc;
    if (at(Tok::ident) && (at_kw("bool") || at_kw("int") || at_kw("string"))) {
      const std::string w = take().text;
      t->kind = w == "bool" ? TypeExpr::Kind::boolean : w == "int" ? TypeExpr::Kind::integer : TypeExpr::Kind::string;
      return t;
    }
    if (at_kw("slot") && peek().kind == Tok::lt) {  // `slot` is not reserved: only slot<...> is a slot type
      take();
      take();
      t->kind = TypeExpr::Kind::slot;
      t->elems.push_back(type_expr());
      expect(Tok::comma, "between the values' type and the number of slots of slot<T, N>");
      t->cap = additive();
      expect(Tok::gt, "to close 'slot<'");
      return t;
    }
    if (at_kw("set") || at_kw("seq") || at_kw("map")) {
      const std::string w = take().text;
      expect(Tok::lt, "after '" + w + "'");
      t->elems.push_back(type_expr());
      if (w == "set") {
        t->kind = TypeExpr::Kind::set;
      } else if (w == "seq") {
        t->kind = TypeExpr::Kind::seq;
        if (at(Tok::comma)) {
          take();
          t->cap = additive();
        }
      } else {
        t->kind = TypeExpr::Kind::map;
        expect(Tok::comma, "between the key and value types of map<K, V>");
        t->elems.push_back(type_expr());
      }
      expect(Tok::gt, "to close '" + w + "<'");
      return t;
    }
    if (at(Tok::lparen)) {
      take();
      t->kind = TypeExpr::Kind::tuple;
      do t->elems.push_back(type_expr());
      while (at(Tok::comma) && (take(), true));
      expect(Tok::rparen, "to close the tuple type");
      if (t->elems.size() == 1) return std::move(t->elems[0]);
      return t;
    }
    if (at(Tok::lbrace) && peek().kind == Tok::string) {
      take();
      t->kind = TypeExpr::Kind::strings;
      do {
        Token s = expect(Tok::string, "in a string set type {\"a\", \"b\"}");
        std::uint32_t id = p_.intern(s.text);
        for (std::uint32_t x : t->strs)
          if (x == id) fail_at(p_.file, s.loc, fmt::format("duplicate string \"{}\" in the type", s.text), {}, true);
        t->strs.push_back(id);
      } while (at(Tok::comma) && (take(), true));
      expect(Tok::rbrace, "to close the string set type");
      return t;
    }
    if (at(Tok::ident) && !is_keyword(cur().text)) {
      const Tok next = peek().kind;
      if (next != Tok::dotdot && next != Tok::plus && next != Tok::minus && next != Tok::star && next != Tok::slash &&
          next != Tok::percent) {
        t->kind = TypeExpr::Kind::named;
        t->name = take().text;
        return t;
      }
    }
    if (at(Tok::integer) || at(Tok::minus) || at(Tok::ident) || at(Tok::lparen)) {
      t->kind = TypeExpr::Kind::range;
      t->lo = additive();
      expect(Tok::dotdot, "in the integer range type lo..hi");
      t->hi = additive();
      return t;
    }
    expected("a type (bool, lo..hi, an enum, {\"strings\"}, (T, U), set<T>, seq<T, N>, map<K, V>, slot<T, N>)", "here");
  }

  ExprP node(EK k, Loc loc) {
    auto e = std::make_unique<Expr>();
    e->k = k;
    e->loc = loc;
    return e;
  }

  ExprP expr() {
    if (++depth_ > 200) error("expression nested too deeply");
    ExprP e = implies();
    --depth_;
    return e;
  }

  ExprP implies() {
    ExprP l = or_expr();
    if (at(Tok::implies)) {
      Loc loc = take().loc;
      auto e = node(EK::binary, loc);
      e->op = Op::implies;
      e->kids.push_back(std::move(l));
      e->kids.push_back(expr());
      return e;
    }
    return l;
  }
  ExprP or_expr() {
    ExprP l = and_expr();
    while (at_kw("or")) {
      Loc loc = take().loc;
      auto e = node(EK::binary, loc);
      e->op = Op::or_;
      e->kids.push_back(std::move(l));
      e->kids.push_back(and_expr());
      l = std::move(e);
    }
    return l;
  }
  ExprP and_expr() {
    ExprP l = not_expr();
    while (at_kw("and")) {
      Loc loc = take().loc;
      auto e = node(EK::binary, loc);
      e->op = Op::and_;
      e->kids.push_back(std::move(l));
      e->kids.push_back(not_expr());
      l = std::move(e);
    }
    return l;
  }
  ExprP not_expr() {
    if (at_kw("not")) {
      if (++depth_ > 200) error("expression nested too deeply");
      Loc loc = take().loc;
      auto e = node(EK::unary, loc);
      e->op = Op::not_;
      e->kids.push_back(not_expr());
      --depth_;
      return e;
    }
    return cmp();
  }
  ExprP cmp() {
    ExprP l = additive();
    Op op;
    if (at(Tok::eq))
      op = Op::eq;
    else if (at(Tok::ne))
      op = Op::ne;
    else if (at(Tok::lt))
      op = Op::lt;
    else if (at(Tok::le))
      op = Op::le;
    else if (at(Tok::gt))
      op = Op::gt;
    else if (at(Tok::ge))
      op = Op::ge;
    else if (at_kw("in"))
      op = Op::in;
    else if (at(Tok::equals))
      error("expected '==' to compare, found '='", {"comparisons use '==', assignments ':='"});
    else
      return l;
    Loc loc = take().loc;
    auto e = node(EK::binary, loc);
    e->op = op;
    e->kids.push_back(std::move(l));
    e->kids.push_back(additive());
    if (at(Tok::eq) || at(Tok::ne) || at(Tok::lt) || at(Tok::le) || at(Tok::gt) || at(Tok::ge))
      error("comparisons do not chain", {"write 'a < b and b < c'"});
    return e;
  }
  ExprP additive() {
    ExprP l = mul();
    while (at(Tok::plus) || at(Tok::minus)) {
      Token t = take();
      auto e = node(EK::binary, t.loc);
      e->op = t.kind == Tok::plus ? Op::add : Op::sub;
      e->kids.push_back(std::move(l));
      e->kids.push_back(mul());
      l = std::move(e);
    }
    return l;
  }
  ExprP mul() {
    ExprP l = unary();
    while (at(Tok::star) || at(Tok::slash) || at(Tok::percent)) {
      Token t = take();
      auto e = node(EK::binary, t.loc);
      e->op = t.kind == Tok::star ? Op::mul : t.kind == Tok::slash ? Op::div : Op::mod;
      e->kids.push_back(std::move(l));
      e->kids.push_back(unary());
      l = std::move(e);
    }
    return l;
  }
  ExprP unary() {
    if (at(Tok::minus)) {
      if (++depth_ > 200) error("expression nested too deeply");
      Loc loc = take().loc;
      auto e = node(EK::unary, loc);
      e->op = Op::neg;
      e->kids.push_back(unary());
      --depth_;
      return e;
    }
    return postfix();
  }
  ExprP postfix() {
    ExprP e = primary();
    while (at(Tok::dot) || at(Tok::lbracket)) {
      Token t = take();
      if (t.kind == Tok::dot) {
        auto f = node(EK::field, t.loc);
        f->ival = expect(Tok::integer, "after '.' (tuple fields are .0, .1, ...)").value;
        f->kids.push_back(std::move(e));
        e = std::move(f);
      } else {
        auto f = node(EK::index, t.loc);
        f->kids.push_back(std::move(e));
        f->kids.push_back(expr());
        expect(Tok::rbracket, "after the index");
        e = std::move(f);
      }
    }
    return e;
  }
  std::vector<ExprP> list(Tok close, const std::string& context) {
    std::vector<ExprP> out;
    if (!at(close)) {
      do out.push_back(expr());
      while (at(Tok::comma) && (take(), true));
    }
    expect(close, context);
    return out;
  }
  ExprP primary() {
    const Token& t = cur();
    switch (t.kind) {
      case Tok::integer: {
        auto e = node(EK::int_lit, t.loc);
        e->ival = take().value;
        return e;
      }
      case Tok::string: {
        auto e = node(EK::str_lit, t.loc);
        e->ival = p_.intern(take().text);
        return e;
      }
      case Tok::lparen: {
        Loc loc = take().loc;
        auto items = list(Tok::rparen, "to close '('");
        if (items.size() == 1) return std::move(items[0]);
        if (items.empty()) fail_at(p_.file, loc, "empty tuple '()'", {}, true);
        auto e = node(EK::tuple_lit, loc);
        e->kids = std::move(items);
        return e;
      }
      case Tok::lbrace: {
        Loc loc = take().loc;
        auto e = node(EK::set_lit, loc);
        e->kids = list(Tok::rbrace, "to close the set literal");
        return e;
      }
      case Tok::lbracket: {
        Loc loc = take().loc;
        auto e = node(EK::seq_lit, loc);
        e->kids = list(Tok::rbracket, "to close the sequence literal");
        return e;
      }
      case Tok::ident:
        break;
      default:
        expected("an expression", "here");
    }
    if (at_kw("true") || at_kw("false")) {
      auto e = node(EK::bool_lit, t.loc);
      e->ival = take().text == "true";
      return e;
    }
    if (at_kw("forall") || at_kw("exists")) {
      Token q = take();
      auto e = node(EK::quant, q.loc);
      e->op = q.text == "forall" ? Op::forall : Op::exists;
      e->name = ident("as the quantified variable").text;
      expect_kw("in", "after the quantified variable (forall x in S : ...)");
      e->kids.push_back(additive());
      expect(Tok::colon, "after the quantifier's domain (forall x in S : ...)");
      e->kids.push_back(expr());
      return e;
    }
    if (at_kw("if")) {
      Loc loc = take().loc;
      auto e = node(EK::if_expr, loc);
      e->kids.push_back(expr());
      expect_kw("then", "in 'if c then a else b'");
      e->kids.push_back(expr());
      expect_kw("else", "in 'if c then a else b'");
      e->kids.push_back(expr());
      return e;
    }
    Token n = ident("in an expression");
    if (at(Tok::lparen)) {
      take();
      auto e = node(EK::call, n.loc);
      e->name = n.text;
      e->kids = list(Tok::rparen, "to close the call");
      return e;
    }
    auto e = node(EK::name, n.loc);
    e->name = n.text;
    return e;
  }

  std::vector<Token> t_;
  Program& p_;
  std::string_view text_;
  std::size_t pos_ = 0;
  int depth_ = 0;    // expressions
  int nesting_ = 0;  // statements and types
};

}  // namespace

ExprP parse_condition(Program& p, std::string_view text, const std::string& origin) {
  require_utf8(text, origin);
  // Errors name the condition's origin, not the model file; the program keeps its own name.
  struct Restore {
    Program& p;
    std::string file;
    ~Restore() { p.file = std::move(file); }
  } restore{p, std::exchange(p.file, origin)};
  Parser parser(lex(text, origin), p, text);
  return parser.condition();
}

bool parses_as_expression(std::string_view text) {
  try {
    Program p;
    (void)parse_condition(p, text, "-");
    return true;
  } catch (const Error&) {
    return false;
  }
}

Program parse(std::string_view text, const std::string& file) {
  require_utf8(text, file);  // strings of the model become vertex names and labels in graph/1
  Program p;
  p.file = file;
  Parser parser(lex(text, file), p, text);
  parser.program();
  return p;
}

}  // namespace playtest::lang
