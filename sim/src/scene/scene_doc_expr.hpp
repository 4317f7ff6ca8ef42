#pragma once
// Knob expressions for the scene document (scene_doc*.cpp): scene.hpp's
// grammar ("5 + doorWidth / 2": + - * /, unary minus, parentheses, numbers
// and knob names) evaluated, and split into tokens for the edits that
// rewrite an expression (a knob's rename, a move that folds its constant).
// Not installed.
//
// The loader (scene.cpp) reads the same grammar with its own parser, whose
// limits and messages these repeat word for word, so a document's message
// is the loader's. The two should become one: this one uses none of the
// loader's types (its Path, its JSON), so scene.cpp can take it.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace throng::detail {

/// As the loader: at most this many nested parentheses or unary minus
/// signs, and this many characters.
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

/// A knob's current value by name; nullopt: no such knob.
using KnobLookup = std::function<std::optional<double>(std::string_view)>;

/// The value of `s`, or nullopt with *error the loader's words: `in
/// expression "s" at column N: what` (an unknown knob lists `knobNames`).
std::optional<double> evalExpr(std::string_view s, const KnobLookup& knob, const std::vector<std::string>& knobNames,
                               std::string* error);

}  // namespace throng::detail
