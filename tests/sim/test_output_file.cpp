// Files throng writes (throng/output_file.hpp): written whole or not at all,
// never through a link planted at the target or at a temporary's name, and
// names from people turned into path components that cannot escape a folder.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "throng/output_file.hpp"

namespace fs = std::filesystem;
using throng::OutputFile;

namespace {

/// A fresh folder under the system's temporary folder, removed at the end.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string t = (fs::temp_directory_path() / "throng-output-XXXXXX").string();
    REQUIRE(::mkdtemp(t.data()) != nullptr);
    path = t;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void spit(const std::string& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

std::vector<std::string> names(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("pathComponent: a hostile name never becomes a separator, a dot folder or a control character") {
  const std::vector<std::string> hostile = {"../../x", "../../../../tmp/pwned_by_name", "/etc/passwd", "..", ".", "",
                                            "a/b", "a\\b", "a\nb", std::string("a\0b", 3), "\x7f", ".hidden",
                                            "name.", "  ", "-rf", std::string(500, 'x'), "\xc3\xa9t\xc3\xa9",
                                            std::string(300, '/')};
  std::set<std::string> seen;
  for (const std::string& n : hostile) {
    const std::string c = throng::pathComponent(n);
    INFO("name: " << n << " -> " << c);
    CHECK(!c.empty());
    CHECK(c.size() <= throng::kMaxPathComponent);
    CHECK(c.find('/') == std::string::npos);
    CHECK(c != "." );
    CHECK(c != "..");
    CHECK(c.front() != '.');
    for (unsigned char ch : c) CHECK((ch > 0x20 && ch < 0x7f && ch != '\\'));
    CHECK(seen.insert(c).second);  // distinct names, distinct components
  }
  // Names already safe are kept as they are; two that would map alike do not.
  CHECK(throng::pathComponent("door") == "door");
  CHECK(throng::pathComponent("rimea-6_v2.1") == "rimea-6_v2.1");
  CHECK(throng::pathComponent("a_b") == "a_b");
  CHECK(throng::pathComponent("a/b") != "a_b");
  CHECK(throng::pathComponent("a/b") != throng::pathComponent("a:b"));
  CHECK(throng::pathComponent("a/b") == throng::pathComponent("a/b"));  // stable
}

TEST_CASE("OutputFile: a link planted at the target or at the old partial name is never written through") {
  TempDir d;
  spit(d / "victim", "secret");
  fs::create_symlink(d / "victim", d / "x.csv.partial");  // the name throng used to write to
  fs::create_symlink(d / "victim", d / "x.csv");          // and the target itself
  std::string err;
  OutputFile f;
  REQUIRE_MESSAGE(f.open(d / "x.csv", &err), err);
  CHECK(f.partialPath() != d / "x.csv.partial");
  CHECK(f.partialPath().rfind(d / "x.csv.", 0) == 0);
  CHECK(f.partialPath().size() == (d / "x.csv.").size() + 8 + 8);  // eight hex digits, then ".partial"
  std::fputs("new\n", f.file());
  REQUIRE_MESSAGE(f.commit(&err), err);
  CHECK(slurp(d / "victim") == "secret");
  CHECK(!fs::is_symlink(d / "x.csv"));
  CHECK(slurp(d / "x.csv") == "new\n");
  CHECK(fs::is_symlink(d / "x.csv.partial"));  // left alone, not followed
}

TEST_CASE("OutputFile: two writes to one path never share a temporary, and each lands whole") {
  TempDir d;
  std::string err;
  OutputFile a, b;
  REQUIRE(a.open(d / "out.txt", &err));
  REQUIRE(b.open(d / "out.txt", &err));
  CHECK(a.partialPath() != b.partialPath());
  std::fputs(std::string(100000, 'a').c_str(), a.file());
  std::fputs(std::string(50000, 'b').c_str(), b.file());
  REQUIRE(b.commit(&err));
  CHECK(slurp(d / "out.txt") == std::string(50000, 'b'));
  REQUIRE(a.commit(&err));
  CHECK(slurp(d / "out.txt") == std::string(100000, 'a'));
  CHECK(names(d.path) == std::vector<std::string>{"out.txt"});
}

TEST_CASE("OutputFile: an abandoned write leaves the old file and no temporary") {
  TempDir d;
  spit(d / "keep.txt", "old");
  std::string err;
  {
    OutputFile f;
    REQUIRE(f.open(d / "keep.txt", &err));
    std::fputs("half", f.file());
    CHECK(names(d.path).size() == 2);
  }  // destroyed uncommitted: as an error or Ctrl-C leaves it
  CHECK(slurp(d / "keep.txt") == "old");
  CHECK(names(d.path) == std::vector<std::string>{"keep.txt"});
  OutputFile g;
  REQUIRE(g.open(d / "keep.txt", &err));
  g.discard();
  CHECK(names(d.path) == std::vector<std::string>{"keep.txt"});
}

TEST_CASE("OutputFile: Replace::No keeps an existing file, and commitUnique picks the next free name") {
  TempDir d;
  spit(d / "shot.png", "first");
  std::string err, chosen;
  CHECK(!throng::writeFileWhole(d / "shot.png", "second", &err, OutputFile::Replace::No));
  CHECK(err.find("exists") != std::string::npos);
  CHECK(slurp(d / "shot.png") == "first");
  fs::create_symlink(d / "nowhere", d / "shot-2.png");  // a dangling link is a taken name too
  OutputFile f;
  REQUIRE(f.open(d / "shot.png", &err));
  std::fputs("third", f.file());
  REQUIRE_MESSAGE(f.commitUnique(&chosen, &err), err);
  CHECK(chosen == d / "shot-3.png");
  CHECK(slurp(d / "shot.png") == "first");
  CHECK(slurp(d / "shot-3.png") == "third");
  CHECK(!fs::exists(d / "nowhere"));
}

TEST_CASE("OutputFile: a missing folder or a folder as the target is one clear line") {
  TempDir d;
  std::string err;
  OutputFile f;
  CHECK(!f.open(d / "no/such/file.csv", &err));
  CHECK(err == "cannot write " + (d / "no/such/file.csv") + ": No such file or directory");
  fs::create_directory(d / "dir");
  CHECK(!f.open(d / "dir", &err));
  CHECK(err.find("Is a directory") != std::string::npos);
  CHECK(throng::reserveTemporary(d / "dir", &err).empty());
  CHECK(names(d.path) == std::vector<std::string>{"dir"});
}

TEST_CASE("reserveTemporary and renameOver: another process's writer gets a fresh file, moved into place") {
  TempDir d;
  spit(d / "victim", "secret");
  fs::create_symlink(d / "victim", d / "rec.mp4");
  std::string err;
  const std::string tmp = throng::reserveTemporary(d / "rec.mp4", &err);
  REQUIRE_MESSAGE(!tmp.empty(), err);
  struct stat st {};
  REQUIRE(::lstat(tmp.c_str(), &st) == 0);
  CHECK(S_ISREG(st.st_mode));
  CHECK(st.st_size == 0);
  spit(tmp, "video");
  REQUIRE(throng::renameOver(tmp, d / "rec.mp4", OutputFile::Replace::Yes, &err));
  CHECK(slurp(d / "victim") == "secret");
  CHECK(slurp(d / "rec.mp4") == "video");
  // Refused: the temporary is removed, the target kept.
  const std::string tmp2 = throng::reserveTemporary(d / "rec.mp4", &err);
  CHECK(!throng::renameOver(tmp2, d / "rec.mp4", OutputFile::Replace::No, &err));
  CHECK(!fs::exists(tmp2));
  CHECK(slurp(d / "rec.mp4") == "video");
}

TEST_CASE("OutputFile: a device or a pipe is written in place, never replaced") {
  TempDir d;
  std::string err;
  REQUIRE_MESSAGE(throng::writeFileWhole("/dev/null", "nothing\n", &err), err);
  struct stat st {};
  REQUIRE(::stat("/dev/null", &st) == 0);
  CHECK(S_ISCHR(st.st_mode));
  const std::string fifo = d / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  fs::create_symlink(fifo, d / "link-to-pipe");
  std::string got;
  std::thread reader([&] { got = slurp(fifo); });
  const bool ok = throng::writeFileWhole(d / "link-to-pipe", "through the pipe", &err);
  reader.join();
  CHECK_MESSAGE(ok, err);
  CHECK(got == "through the pipe");
  CHECK(fs::is_symlink(d / "link-to-pipe"));
  CHECK(names(d.path) == std::vector<std::string>{"link-to-pipe", "pipe"});
}
