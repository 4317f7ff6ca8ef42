#pragma once
// Files throng writes, and the names it builds them from.
//
// Every file throng writes (trajectories, summaries, scene saves, PNGs,
// recordings, reports) goes through OutputFile: it is written under a fresh
// name of its own in the target's folder, created with O_CREAT | O_EXCL |
// O_NOFOLLOW (so a link or file planted there beforehand is never opened,
// and two writes to one path never share a temporary), then renamed over the
// target once complete. On failure, discard() or destruction it is removed,
// so a reader sees the old file, the whole new one, or none, never half.
//
// The temporary is named TARGET.XXXXXXXX.partial (eight random hex digits),
// readable as "this export, still being written", unique per write. A target
// that is a character device or a pipe (/dev/stdout, /dev/null, a FIFO, or a
// link to one) is written in place instead: it cannot be half a file, and
// replacing it would be wrong.
//
// A name that comes from a person (a scene's "name", a measurement's, a
// test's) becomes part of a path only through pathComponent(), which can
// never produce a separator, "." or "..", a leading dot or a control
// character.
#include <cstdio>
#include <string>
#include <string_view>

namespace throng {

/// The longest name pathComponent returns, in bytes.
inline constexpr std::size_t kMaxPathComponent = 80;

/// `name` as one safe path component: the letters, digits, '-', '_' and '.'
/// of ASCII kept, every other byte (or run of them) one '_', no leading '.',
/// '-' or '_' runs at the ends trimmed; "unnamed" when nothing is left. A name
/// that had to change (or be cut to kMaxPathComponent bytes) gets "-" and
/// eight hex digits of a hash of the original appended, so two different
/// names ("a/b" and "a_b") never map to one component. A name that is
/// already safe is returned unchanged.
std::string pathComponent(std::string_view name);

/// A file written whole or not at all (see the note above). Not copyable;
/// the destructor discards an uncommitted write.
class OutputFile {
 public:
  /// Whether commit() may replace an existing target.
  enum class Replace { Yes, No };

  OutputFile() = default;
  ~OutputFile() { discard(); }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// Creates the temporary beside `path` (mode 0666 less the umask), open
  /// for writing through file(). False with *error ("cannot write PATH:
  /// REASON") when the folder is missing or not writable, or `path` names a
  /// folder.
  bool open(const std::string& path, std::string* error);
  bool isOpen() const { return file_ != nullptr; }
  /// The stream to write to (buffered, 1 MiB); null when not open.
  std::FILE* file() const { return file_; }
  /// The file being written while open: the temporary, or the device or
  /// pipe written in place (empty when not open).
  const std::string& partialPath() const { return direct_ ? path_ : partial_; }
  /// The target's path.
  const std::string& path() const { return path_; }

  /// Flushes, syncs, closes and renames the temporary to the target. With
  /// Replace::No an existing target is kept and the write fails (EEXIST).
  /// False with *error on failure; the temporary is then removed.
  bool commit(std::string* error, Replace replace = Replace::Yes);
  /// Like commit(Replace::No), but an existing target makes it try
  /// STEM-2.EXT, STEM-3.EXT, ... (up to 999); *chosen gets the name used.
  bool commitUnique(std::string* chosen, std::string* error);
  /// Closes and removes the temporary; no-op when not open.
  void discard();

 private:
  bool finishWrite(std::string* error);
  std::FILE* file_ = nullptr;
  bool direct_ = false;  ///< writing a device or pipe in place
  std::string path_, partial_;
};

/// Writes `bytes` to `path` through an OutputFile; false with *error.
bool writeFileWhole(const std::string& path, std::string_view bytes, std::string* error,
                    OutputFile::Replace replace = OutputFile::Replace::Yes);

/// Creates a fresh, empty file beside `path` exclusively (as OutputFile does)
/// and returns its name, for a writer that is another process (ffmpeg): it
/// writes there, then renameOver() moves it into place. Empty with *error on
/// failure.
std::string reserveTemporary(const std::string& path, std::string* error);

/// Renames `from` to `to` (refusing an existing `to` with Replace::No);
/// false with *error on failure, when `from` is removed.
bool renameOver(const std::string& from, const std::string& to, OutputFile::Replace replace, std::string* error);

}  // namespace throng
