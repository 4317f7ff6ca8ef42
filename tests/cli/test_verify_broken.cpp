// The suite can fail: `throng verify` under the tests' walk-straight model
// (tests/models/walk_straight.hpp: every walker at its wish, blind to walls
// and to the others) fails the checks a model that avoids nothing must fail,
// and passes those that ask only for free walking; ORCA, run the same way,
// passes them all.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "cli.hpp"
#include "../models/walk_straight.hpp"

namespace {

/// runVerify's exit status and what it printed on stdout.
std::pair<int, std::string> verify(std::vector<std::string> args) {
  std::fflush(stdout);
  char path[] = "/tmp/throng-verify-XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  const int saved = dup(STDOUT_FILENO);
  dup2(fd, STDOUT_FILENO);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int rc = throng::cli::runVerify(static_cast<int>(args.size()), argv.data());
  std::fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
  close(fd);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::remove(path);
  return {rc, text.str()};
}

/// The verdict of the row for `test` and `figure` (its first word), or "".
std::string verdictOf(const std::string& table, const std::string& test, const std::string& figure) {
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::vector<std::string> w;
    for (std::string x; words >> x;) w.push_back(x);
    if (w.size() > 5 && w[0] == test && w[4] == figure) return w.back();
  }
  return "";
}

}  // namespace

TEST_CASE("a model that avoids nothing fails RiMEA 6's walls and passes free walking, where ORCA passes both") {
  throng::test::registerWalkStraight();
  const std::pair<int, std::string> walk = verify({"verify", "rimea-1", "rimea-2", "rimea-6", "--models", "test-walk"});
  const std::string& table = walk.second;
  INFO(table);
  CHECK(walk.first == 1);
  CHECK(verdictOf(table, "rimea-1", "end.lastTime") == "pass");      // one walker, nothing in the way
  CHECK(verdictOf(table, "rimea-2", "flight.meanSpeed") == "pass");  // the stairs slow the wish itself
  CHECK(verdictOf(table, "rimea-6", "maxWallIntrusion") == "FAIL");  // it cuts the corner through the wall
  const std::pair<int, std::string> orcaRun = verify({"verify", "rimea-1", "rimea-2", "rimea-6", "--models", "orca"});
  const std::string& orca = orcaRun.second;
  INFO(orca);
  CHECK(orcaRun.first == 0);
  CHECK(verdictOf(orca, "rimea-6", "maxWallIntrusion") == "pass");
}

TEST_CASE("a model that walks through the others fails RiMEA 4's fundamental diagram where the crowd is dense") {
  // The pace still slows its wishes, but walkers that pass through one
  // another keep lanes open that a crowd would close: 15% and 34% above
  // Weidmann's at 1 and 2 per m². When sparse it walks as people do.
  throng::test::registerWalkStraight();
  const std::pair<int, std::string> ring = verify({"verify", "rimea-4", "--models", "test-walk"});
  INFO(ring.second);
  CHECK(ring.first == 1);
  CHECK(verdictOf(ring.second, "rimea-4", "diagram.0.5") == "pass");
  CHECK(verdictOf(ring.second, "rimea-4", "diagram.1") == "FAIL");
  CHECK(verdictOf(ring.second, "rimea-4", "diagram.2") == "FAIL");
}
