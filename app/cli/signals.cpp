#include "signals.hpp"

#include <csignal>

namespace throng::cli {

namespace {
volatile std::sig_atomic_t gStop = 0;
void onStop(int) { gStop = 1; }
}  // namespace

void installStopHandlers() {
  struct sigaction sa {};
  sa.sa_handler = onStop;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool stopRequested() { return gStop != 0; }

}  // namespace throng::cli
