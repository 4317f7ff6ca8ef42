#pragma once
// Small helpers for the subcommands' flags: `--name value` or `--name=value`,
// numbers parsed whole (no trailing junk), usage errors as one line.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace throng::cli {

/// Thrown inside a subcommand for a usage error; caught by its entry point,
/// which prints "throng SUB: message (see throng SUB --help)" and exits 2.
struct UsageError {
  std::string message;
};

/// Walks argv; `flag("--steps")` matches "--steps" and "--steps=..." and
/// `value()` then yields the value (the next argument or the inline part).
class ArgWalker {
 public:
  ArgWalker(int argc, char** argv) : argc_(argc), argv_(argv) {}
  bool next() {
    ++i_;
    inline_.reset();
    if (i_ >= argc_) return false;
    arg_ = argv_[i_];
    return true;
  }
  std::string_view arg() const { return arg_; }
  bool flag(std::string_view name) {
    if (arg_ == name) return true;
    if (arg_.size() > name.size() && arg_.starts_with(name) && arg_[name.size()] == '=') {
      inline_ = arg_.substr(name.size() + 1);
      return true;
    }
    return false;
  }
  std::string value() {
    if (inline_) return std::string(*inline_);
    const std::string name(arg_);
    if (i_ + 1 >= argc_) throw UsageError{name + " needs a value"};
    ++i_;
    return argv_[i_];
  }

 private:
  int argc_;
  char** argv_;
  int i_ = 0;
  std::string_view arg_;
  std::optional<std::string_view> inline_;
};

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

inline double positiveNumber(std::string_view flag, const std::string& v) {
  const auto d = toDouble(v);
  if (!d || !(*d > 0) || *d > 1e12) throw UsageError{std::string(flag) + " expects a positive number, got '" + v + "'"};
  return *d;
}

inline std::uint64_t wholeNumber(std::string_view flag, const std::string& v) {
  const auto n = toUnsigned(v);
  if (!n) throw UsageError{std::string(flag) + " expects a whole number >= 0, got '" + v + "'"};
  return *n;
}

}  // namespace throng::cli
