#pragma once
/// `coinfer make-trace video|pan`: per-frame H.264 traces for MobiEye (sim/video/video_trace.hpp).
#include <CLI/CLI.hpp>

namespace coinfer::cli {

/// Adds the `video` and `pan` subcommands to `make-trace`.
void add_make_trace_video(CLI::App& make_trace);

}  // namespace coinfer::cli
