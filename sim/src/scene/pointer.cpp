// JSON pointers (pointer.hpp): tokens, escaping, and the line a pointer's
// value starts on, found by a light scan of text already known to be valid.
#include "scene/pointer.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace throng::detail {

// ---- pointers ---------------------------------------------------------------

std::optional<PointerTokens> splitPointer(std::string_view p) {
  PointerTokens out;
  if (p.empty()) return out;
  if (p[0] != '/') return std::nullopt;
  std::string cur;
  for (std::size_t i = 1; i <= p.size(); ++i) {
    if (i == p.size() || p[i] == '/') {
      out.push_back(std::move(cur));
      cur.clear();
    } else if (p[i] == '~') {
      if (i + 1 >= p.size() || (p[i + 1] != '0' && p[i + 1] != '1')) return std::nullopt;
      cur += p[i + 1] == '0' ? '~' : '/';
      ++i;
    } else {
      cur += p[i];
    }
  }
  return out;
}

std::string escapeToken(std::string_view t) {
  std::string out;
  for (const char c : t) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string joinPointer(const PointerTokens& tokens) {
  std::string out;
  for (const std::string& t : tokens) {
    out += '/';
    out += escapeToken(t);
  }
  return out;
}

std::optional<std::size_t> arrayIndex(std::string_view t) {
  if (t.empty() || t.size() > 18 || (t.size() > 1 && t[0] == '0')) return std::nullopt;
  std::size_t v = 0;
  const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
  if (r.ec != std::errc() || r.ptr != t.data() + t.size()) return std::nullopt;
  return v;
}

namespace {

/// A scanner over text already known to be valid JSON: finds where the
/// value at a pointer starts (for an object member, where its key starts).
class PointerScan {
 public:
  explicit PointerScan(std::string_view t) : t_(t) {}

  std::size_t find(const std::vector<std::string>& tokens) {
    std::size_t at = 0;
    i_ = 0;
    ws();
    for (const std::string& tok : tokens) {
      if (i_ >= t_.size()) return at;
      if (t_[i_] == '{') {
        ++i_;
        bool found = false;
        for (;;) {
          ws();
          if (i_ >= t_.size() || t_[i_] == '}') break;
          const std::size_t keyAt = i_;
          const std::string key = str();
          ws();
          ++i_;  // ':'
          ws();
          if (key == tok) {
            at = keyAt;
            found = true;
            break;
          }
          skip();
          ws();
          if (i_ < t_.size() && t_[i_] == ',') ++i_;
        }
        if (!found) return at;
      } else if (t_[i_] == '[') {
        ++i_;
        std::size_t want = 0;
        std::from_chars(tok.data(), tok.data() + tok.size(), want);
        bool found = false;
        for (std::size_t k = 0;; ++k) {
          ws();
          if (i_ >= t_.size() || t_[i_] == ']') break;
          if (k == want) {
            at = i_;
            found = true;
            break;
          }
          skip();
          ws();
          if (i_ < t_.size() && t_[i_] == ',') ++i_;
        }
        if (!found) return at;
      } else {
        return at;
      }
    }
    return at;
  }

 private:
  void ws() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) ++i_;
  }
  std::string str() {
    std::string out;
    ++i_;  // opening quote
    while (i_ < t_.size() && t_[i_] != '"') {
      if (t_[i_] == '\\' && i_ + 1 < t_.size()) {
        ++i_;
        out += t_[i_] == 'n' ? '\n' : t_[i_];  // good enough for key matching
      } else {
        out += t_[i_];
      }
      ++i_;
    }
    ++i_;
    return out;
  }
  void skip() {
    if (i_ >= t_.size()) return;
    const char c = t_[i_];
    if (c == '"') {
      str();
    } else if (c == '{' || c == '[') {
      int depth = 0;
      while (i_ < t_.size()) {
        const char d = t_[i_];
        if (d == '"') {
          str();
          continue;
        }
        if (d == '{' || d == '[') ++depth;
        if (d == '}' || d == ']') {
          if (--depth == 0) {
            ++i_;
            return;
          }
        }
        ++i_;
      }
    } else {
      while (i_ < t_.size() && t_[i_] != ',' && t_[i_] != '}' && t_[i_] != ']' && t_[i_] != ' ' &&
             t_[i_] != '\n' && t_[i_] != '\t' && t_[i_] != '\r')
        ++i_;
    }
  }

  std::string_view t_;
  std::size_t i_ = 0;
};


/// A message as one printable line: control characters (a newline in a
/// key or an expression, from a JSON escape) as \xNN, at most 500
/// characters.
std::string oneLineImpl(const std::string& m) {
  std::string out;
  for (const char c : m) {
    if (out.size() >= 497) {
      out += "...";
      break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u < 32 || u == 127) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", u);
      out += hex;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::size_t lineAt(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
}

std::size_t pointerLine(std::string_view text, const PointerTokens& tokens) {
  return lineAt(text, PointerScan(text).find(tokens));
}

std::string oneLine(const std::string& message) { return oneLineImpl(message); }

}  // namespace throng::detail
