#include "throng/output_file.hpp"

#include <fcntl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>

namespace throng {

namespace {

bool safeByte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
         c == '.';
}

std::uint64_t fnv1a(std::string_view s) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

std::string errorText(const std::string& what, int e) { return what + ": " + std::strerror(e); }

/// Eight hex digits no other write in any process is likely to pick: from
/// the kernel's generator, else the clock, the process and a counter.
std::string randomTag() {
  std::uint32_t r = 0;
  if (::getrandom(&r, sizeof r, GRND_NONBLOCK) != static_cast<ssize_t>(sizeof r)) {
    static std::atomic<std::uint32_t> counter{0};
    const auto t = std::chrono::steady_clock::now().time_since_epoch().count();
    r = static_cast<std::uint32_t>(fnv1a(std::to_string(t) + ":" + std::to_string(::getpid()) + ":" +
                                         std::to_string(counter.fetch_add(1))));
  }
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", r);
  return buf;
}

/// Opens a new TARGET.XXXXXXXX.partial exclusively; the fd, or -1 with errno.
int createPartial(const std::string& path, std::string* partial) {
  for (int attempt = 0; attempt < 100; ++attempt) {
    *partial = path + "." + randomTag() + ".partial";
    const int fd = ::open(partial->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

/// The target must not be a folder: renaming a file over one fails late
/// with a less clear reason.
bool isFolder(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

/// Renames `from` to `to` unless `to` exists; 0, or the errno (EEXIST when
/// it does). A filesystem without RENAME_NOREPLACE gets a hard link, which
/// refuses an existing target just as well.
int renameNoReplace(const std::string& from, const std::string& to) {
  if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return errno;
  if (::link(from.c_str(), to.c_str()) != 0) return errno;
  ::unlink(from.c_str());
  return 0;
}

/// A character device or a pipe (or a link to one): written in place.
bool isStream(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode));
}

}  // namespace

std::string pathComponent(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  bool changed = false;
  for (unsigned char c : name) {
    if (safeByte(c)) {
      out += static_cast<char>(c);
    } else {
      changed = true;
      if (out.empty() || out.back() != '_') out += '_';
    }
  }
  // No leading dot (".", "..", hidden files) and no trailing one.
  std::size_t b = 0, e = out.size();
  while (b < e && out[b] == '.') ++b;
  while (e > b && out[e - 1] == '.') --e;
  if (b != 0 || e != out.size()) {
    changed = true;
    out = out.substr(b, e - b);
  }
  if (out.empty()) {
    changed = true;
    out = "unnamed";
  }
  const std::size_t keep = kMaxPathComponent - 9;  // room for "-" and eight hex digits
  if (out.size() > kMaxPathComponent) {
    changed = true;
    out.resize(keep);
  }
  if (!changed) return out;
  if (out.size() > keep) out.resize(keep);
  char tag[10];
  std::snprintf(tag, sizeof tag, "-%08x", static_cast<std::uint32_t>(fnv1a(name) >> 32));
  return out + tag;
}

bool OutputFile::open(const std::string& path, std::string* error) {
  discard();
  path_ = path;
  if (path.empty() || path.back() == '/' || isFolder(path)) {
    if (error) *error = errorText("cannot write " + path, EISDIR);
    return false;
  }
  if (isStream(path)) {
    // /dev/stdout, /dev/null, a named pipe: written in place, never replaced.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    file_ = fd >= 0 ? ::fdopen(fd, "wb") : nullptr;
    if (!file_) {
      const int e = errno;
      if (fd >= 0) ::close(fd);
      if (error) *error = errorText("cannot write " + path, e);
      return false;
    }
    direct_ = true;
    return true;
  }
  const int fd = createPartial(path, &partial_);
  if (fd < 0) {
    const int e = errno;
    partial_.clear();
    if (error) *error = errorText("cannot write " + path, e);
    return false;
  }
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    const int e = errno;
    ::close(fd);
    ::unlink(partial_.c_str());
    partial_.clear();
    if (error) *error = errorText("cannot write " + path, e);
    return false;
  }
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
  return true;
}

bool OutputFile::finishWrite(std::string* error) {
  if (!file_) {
    if (error) *error = "cannot write " + path_ + ": not open";
    return false;
  }
  const bool flushed = std::fflush(file_) == 0 && !std::ferror(file_) && (direct_ || ::fsync(::fileno(file_)) == 0);
  const int savedErrno = errno;
  const bool closed = std::fclose(file_) == 0;
  const int closeErrno = errno;
  file_ = nullptr;
  if (direct_) {
    direct_ = false;
    if (!flushed || !closed) {
      if (error) *error = errorText("writing " + path_ + " failed", flushed ? closeErrno : savedErrno);
      return false;
    }
    return true;
  }
  if (!flushed || !closed) {
    if (error) *error = errorText("writing " + partial_ + " failed", flushed ? closeErrno : savedErrno);
    ::unlink(partial_.c_str());
    partial_.clear();
    return false;
  }
  return true;
}

bool OutputFile::commit(std::string* error, Replace replace) {
  const bool direct = direct_;
  if (!finishWrite(error)) return false;
  if (direct) return true;
  const std::string from = std::move(partial_);
  partial_.clear();
  return renameOver(from, path_, replace, error);
}

bool OutputFile::commitUnique(std::string* chosen, std::string* error) {
  const bool direct = direct_;
  if (!finishWrite(error)) return false;
  if (direct) {
    if (chosen) *chosen = path_;
    return true;
  }
  const std::string from = std::move(partial_);
  partial_.clear();
  const std::size_t slash = path_.find_last_of('/');
  const std::size_t dot = path_.find_last_of('.');
  const bool hasExt = dot != std::string::npos && (slash == std::string::npos || dot > slash + 1);
  const std::string stem = hasExt ? path_.substr(0, dot) : path_;
  const std::string ext = hasExt ? path_.substr(dot) : std::string();
  for (int k = 1; k < 1000; ++k) {
    const std::string to = k == 1 ? path_ : stem + "-" + std::to_string(k) + ext;
    const int e = renameNoReplace(from, to);
    if (e == 0) {
      if (chosen) *chosen = to;
      return true;
    }
    if (e != EEXIST) {
      ::unlink(from.c_str());
      if (error) *error = errorText("cannot rename " + from + " to " + to, e);
      return false;
    }
  }
  ::unlink(from.c_str());
  if (error) *error = errorText("cannot write " + path_, EEXIST);
  return false;
}

void OutputFile::discard() {
  if (file_) {
    std::fclose(file_);
    file_ = nullptr;
  }
  direct_ = false;
  if (!partial_.empty()) {
    ::unlink(partial_.c_str());
    partial_.clear();
  }
}

bool writeFileWhole(const std::string& path, std::string_view bytes, std::string* error, OutputFile::Replace replace) {
  OutputFile f;
  if (!f.open(path, error)) return false;
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), f.file()) != bytes.size()) {
    if (error) *error = errorText("writing " + f.partialPath() + " failed", errno);
    return false;
  }
  return f.commit(error, replace);
}

std::string reserveTemporary(const std::string& path, std::string* error) {
  if (path.empty() || path.back() == '/' || isFolder(path)) {
    if (error) *error = errorText("cannot write " + path, EISDIR);
    return {};
  }
  std::string partial;
  const int fd = createPartial(path, &partial);
  if (fd < 0) {
    if (error) *error = errorText("cannot write " + path, errno);
    return {};
  }
  ::close(fd);
  return partial;
}

bool renameOver(const std::string& from, const std::string& to, OutputFile::Replace replace, std::string* error) {
  const int e = replace == OutputFile::Replace::Yes ? (std::rename(from.c_str(), to.c_str()) == 0 ? 0 : errno)
                                                    : renameNoReplace(from, to);
  if (e != 0) {
    ::unlink(from.c_str());
    if (error)
      *error = e == EEXIST ? "not writing " + to + ": it exists" : errorText("cannot rename " + from + " to " + to, e);
    return false;
  }
  return true;
}

}  // namespace throng
