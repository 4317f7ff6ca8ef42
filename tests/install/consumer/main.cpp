// Builds against the installed headers and library and runs a head-on pair.
#include <cstdio>

#include <throng/crowd.hpp>
#include <throng/verify.hpp>

int main() {
  throng::Settings s;
  s.jitter = 0;
  throng::Crowd crowd(s);
  crowd.add({0, 0}, throng::Vec2{400, 0});
  crowd.add({400, 0}, throng::Vec2{0, 0});
  for (int i = 0; i < 600; ++i) crowd.advance();
  const bool ok = crowd.lastStats().arrived == 2;
  std::printf("consumer: %s\n", ok ? "both arrived" : "FAILED");
  return ok ? 0 : 1;
}
