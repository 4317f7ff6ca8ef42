#pragma once
// Small text helpers the trajectory readers share: numbers from fields,
// fields quoted for a message.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace throng::cli {

/// A field as a number: the whole field, else nullopt.
inline std::optional<double> toDouble(std::string_view s) {
  double v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

inline std::optional<std::uint64_t> toUnsigned(std::string_view s) {
  std::uint64_t v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

/// A field as a message quotes it: its first 40 characters, bytes outside
/// printable ASCII as \xNN, in single quotes.
inline std::string quoted(std::string_view f) {
  std::string out = "'";
  for (const char c : f.substr(0, 40)) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 32 && u < 127) {
      out += c;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", u);
      out += hex;
    }
  }
  return out + (f.size() > 40 ? "...'" : "'");
}

/// A number in the shortest form that reads back the same.
inline std::string formatNumber(double v) {
  char b[32];
  const auto r = std::to_chars(b, b + sizeof b, v);
  return std::string(b, r.ptr);
}

}  // namespace throng::cli
