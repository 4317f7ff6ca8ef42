#pragma once
// The visualizer's entry points, called by app/main.cpp's dispatcher.
// argv holds the arguments after the subcommand (argv[0] is the subcommand
// name, or "throng" for the default visualizer).
namespace throng::app {

/// `throng [SCENE] [options]`: the desktop visualizer. Without a display it
/// says so and runs headless. Returns the process exit code.
int runVisualizer(int argc, const char* const* argv);

/// `throng record SCENE --seconds S --out FILE.mp4 [--size WxH] [--set k=v]...`
int runRecord(int argc, const char* const* argv);

}  // namespace throng::app
