#pragma once
// Knob expressions: scene.hpp's grammar ("5 + doorWidth / 2": + - * /,
// unary minus, parentheses, numbers and knob names), evaluated and split
// into tokens. The loader (scene.cpp) evaluates every expression of a file
// with it, and the scene document (scene_doc*.cpp) its numbers and the
// edits that rewrite an expression (a knob's rename, a move that folds its
// constant), so a document's message is the loader's word for word. It
// knows nothing of either's types: the caller says what the knobs are.
// Not installed.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace throng::detail {

/// evalExpr reads by recursive descent, so its depth is bounded: at most
/// this many nested parentheses or unary minus signs, and this many
/// characters in all.
inline constexpr int kMaxExprDepth = 64;
inline constexpr std::size_t kMaxExprLength = 4096;

struct ExprToken {
  enum class Kind : std::uint8_t { number, name, op, open, close, other };
  Kind kind = Kind::other;
  std::size_t begin = 0, end = 0;  ///< [begin, end) in the text
};

/// The tokens of an expression as the evaluator reads it: a number as
/// std::from_chars takes it (at a digit or '.'), a name
/// [A-Za-z_][A-Za-z0-9_]*, an operator (+ - * /), a parenthesis; any other
/// character is a token of its own (kind other). Spaces separate.
std::vector<ExprToken> exprTokens(std::string_view s);

/// The knobs an expression may name, as the caller keeps them.
struct ExprKnobs {
  /// A knob's current value by name; nullopt (or no function): no such knob.
  std::function<std::optional<double>(std::string_view)> value;
  /// Every knob's name, in order, for the message of an unknown one; asked
  /// only then (no function: none).
  std::function<std::vector<std::string>()> names;
};

/// The value of `s`, or nullopt with *error (when given) the loader's
/// words: `in expression "s" at column N: what` (an expression over 80
/// characters quoted by its first 60 and "..."; an unknown knob lists the
/// names).
std::optional<double> evalExpr(std::string_view s, const ExprKnobs& knobs, std::string* error);

}  // namespace throng::detail
