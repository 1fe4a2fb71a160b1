// coinfer-video: coinfer's commands that need FFmpeg, `make-trace video` and `make-trace pan`
// (make_trace_video.hpp says why they are a program of their own). coinfer runs it for them with
// the same command line; run alone it takes that line too: coinfer-video make-trace video CLIP -o FILE.
#include <string>

#include <CLI/CLI.hpp>

#include "cli/run_app.hpp"
#include "cli/video/make_trace_video.hpp"

int main(int argc, char** argv) {
  CLI::App app{"coinfer's video traces (coinfer make-trace video|pan run this program)"};
  app.set_version_flag("--version", std::string("coinfer ") + COINFER_VERSION);
  app.require_subcommand(1);
  auto* make_trace = app.add_subcommand("make-trace", "Write a per-frame trace of a video (video, pan)");
  make_trace->require_subcommand(1);
  coinfer::cli::add_make_trace_video(*make_trace);
  return coinfer::cli::run_app(app, argc, argv);
}
