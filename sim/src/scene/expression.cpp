// Knob expressions, for the loader and the scene document: see expression.hpp.
#include "scene/expression.hpp"

#include <cctype>
#include <charconv>

namespace throng::detail {

namespace {

bool nameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool nameChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool numberStart(char c) { return (c >= '0' && c <= '9') || c == '.'; }

/// Recursive descent over the text, the failure thrown as its message.
class Reader {
 public:
  Reader(std::string_view s, const ExprKnobs& knobs) : s_(s), knobs_(knobs) {}

  double all() {
    if (s_.size() > kMaxExprLength)
      stop("longer than " + std::to_string(kMaxExprLength) + " characters (" + std::to_string(s_.size()) + ")");
    const double v = terms();
    skipSpaces();
    if (at_ != s_.size()) stop("unexpected '" + std::string(1, s_[at_]) + "'");
    return v;
  }

  struct Stop {
    std::string message;
  };

 private:
  [[noreturn]] void stop(const std::string& what) const {
    const std::string shown = s_.size() <= 80 ? std::string(s_) : std::string(s_.substr(0, 60)) + "...";
    throw Stop{"in expression \"" + shown + "\" at column " + std::to_string(at_ + 1) + ": " + what};
  }
  void skipSpaces() {
    while (at_ < s_.size() && s_[at_] == ' ') ++at_;
  }
  bool take(char a, char b, char* which) {
    skipSpaces();
    if (at_ < s_.size() && (s_[at_] == a || s_[at_] == b)) {
      *which = s_[at_++];
      return true;
    }
    return false;
  }
  // terms: factors joined by + and -, left to right.
  double terms() {
    double v = factors();
    for (char op = 0; take('+', '-', &op);) {
      const double r = factors();
      v = op == '+' ? v + r : v - r;
    }
    return v;
  }
  // factors: units joined by * and /, left to right.
  double factors() {
    double v = unit();
    for (char op = 0; take('*', '/', &op);) {
      const double r = unit();
      if (op == '/' && r == 0) stop("division by zero");
      v = op == '*' ? v * r : v / r;
    }
    return v;
  }
  double nested(bool paren) {
    if (++depth_ > kMaxExprDepth) stop("nested deeper than " + std::to_string(kMaxExprDepth) + " levels");
    double v = 0;
    if (paren) {
      v = terms();
      skipSpaces();
      if (at_ >= s_.size() || s_[at_] != ')') stop("expected ')'");
      ++at_;
    } else {
      v = -unit();
    }
    --depth_;
    return v;
  }
  double unit() {
    skipSpaces();
    if (at_ >= s_.size()) stop("expected a number, knob name or '('");
    const char c = s_[at_];
    if (c == '-' || c == '(') {
      ++at_;
      return nested(c == '(');
    }
    if (numberStart(c)) {
      double v = 0;
      const auto r = std::from_chars(s_.data() + at_, s_.data() + s_.size(), v);
      if (r.ec != std::errc()) stop("bad number");
      at_ = static_cast<std::size_t>(r.ptr - s_.data());
      return v;
    }
    if (nameStart(c)) {
      const std::size_t from = at_;
      while (at_ < s_.size() && nameChar(s_[at_])) ++at_;
      if (knobs_.value)
        if (const std::optional<double> v = knobs_.value(s_.substr(from, at_ - from))) return *v;
      const std::string name(s_.substr(from, at_ - from));
      at_ = from;
      std::string list;
      if (knobs_.names)
        for (const std::string& n : knobs_.names()) list += (list.empty() ? "" : ", ") + n;
      stop("unknown knob '" + name + "' (knobs: " + (list.empty() ? "none" : list) + ")");
    }
    stop("unexpected '" + std::string(1, c) + "'");
  }

  std::string_view s_;
  const ExprKnobs& knobs_;
  std::size_t at_ = 0;
  int depth_ = 0;
};

}  // namespace

std::vector<ExprToken> exprTokens(std::string_view s) {
  std::vector<ExprToken> out;
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ') {
      ++i;
      continue;
    }
    ExprToken t;
    t.begin = i;
    if (numberStart(c)) {
      double v = 0;
      const auto r = std::from_chars(s.data() + i, s.data() + s.size(), v);
      t.kind = r.ec == std::errc() ? ExprToken::Kind::number : ExprToken::Kind::other;
      i = r.ec == std::errc() ? static_cast<std::size_t>(r.ptr - s.data()) : i + 1;
    } else if (nameStart(c)) {
      t.kind = ExprToken::Kind::name;
      while (i < s.size() && nameChar(s[i])) ++i;
    } else {
      t.kind = c == '+' || c == '-' || c == '*' || c == '/' ? ExprToken::Kind::op
               : c == '('                                   ? ExprToken::Kind::open
               : c == ')'                                   ? ExprToken::Kind::close
                                                            : ExprToken::Kind::other;
      ++i;
    }
    t.end = i;
    out.push_back(t);
  }
  return out;
}

std::optional<double> evalExpr(std::string_view s, const ExprKnobs& knobs, std::string* error) {
  try {
    return Reader(s, knobs).all();
  } catch (const Reader::Stop& e) {
    if (error) *error = e.message;
    return std::nullopt;
  }
}

}  // namespace throng::detail
