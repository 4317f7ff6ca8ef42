#pragma once
// What a cached thing (a packed layer, an uploaded image) was last made from.
// The app makes each such thing again only when its key changes: a paused
// crowd then costs nothing per frame. One helper holds every key, so a
// cache is never reset field by field.
#include <optional>

namespace throng::app {

/// Key is a plain struct with operator==: everything the cached thing
/// depends on.
template <class Key>
class CacheKey {
 public:
  /// Whether `key` differs from the last one kept (or none is), keeping it
  /// for the next call: true means "make it again".
  bool changed(const Key& key) {
    if (key_ && *key_ == key) return false;
    key_ = key;
    return true;
  }
  /// The next changed() is true whatever its key.
  void forget() { key_.reset(); }
  /// Whether a key is kept (the thing was made and not forgotten since).
  bool held() const { return key_.has_value(); }
  /// The key kept, or null.
  const Key* last() const { return key_ ? &*key_ : nullptr; }

 private:
  std::optional<Key> key_;
};

}  // namespace throng::app
