#pragma once
// SIGINT/SIGTERM set a flag that long loops poll between steps, so they can
// stop, clean up (remove a partial export) and exit 130.
namespace throng::cli {

/// Installs the handlers (idempotent).
void installStopHandlers();
/// True once SIGINT or SIGTERM arrived.
bool stopRequested();

}  // namespace throng::cli
