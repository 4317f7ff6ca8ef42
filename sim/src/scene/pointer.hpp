#pragma once
// JSON pointers (RFC 6901) as the scene loader and the scene document both
// use them: their tokens, escaping, and the line of a file a pointer's value
// starts on (for messages: "FILE:LINE: /pointer: message"). Not installed.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace throng::detail {

using PointerTokens = std::vector<std::string>;

/// A JSON pointer's reference tokens (~0 and ~1 undone); nullopt when it is
/// not a pointer ("" is the root).
std::optional<PointerTokens> splitPointer(std::string_view pointer);
/// The pointer of `tokens` ("" for the root).
std::string joinPointer(const PointerTokens& tokens);
/// One token escaped for a pointer ("a/b" -> "a~1b").
std::string escapeToken(std::string_view token);
/// The index an array token names, or nullopt ("0", "12"; no sign, no
/// leading zero).
std::optional<std::size_t> arrayIndex(std::string_view token);

/// The 1-based line of `text` that byte `offset` is on.
std::size_t lineAt(std::string_view text, std::size_t offset);
/// The 1-based line of `text` (valid JSON) where the value at `tokens`
/// starts (for an object member, where its key starts); the deepest
/// existing parent's line when the pointer leads nowhere.
std::size_t pointerLine(std::string_view text, const PointerTokens& tokens);

/// A message as one printable line: control characters (a newline in a key
/// or an expression, from a JSON escape) as \xNN, at most 500 characters.
std::string oneLine(const std::string& message);

}  // namespace throng::detail
