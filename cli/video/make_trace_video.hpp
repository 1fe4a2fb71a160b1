#pragma once
/// `coinfer make-trace video|pan`: per-frame H.264 traces for MobiEye (sim/video/video_trace.hpp).
/// They are the only commands that need FFmpeg, whose libraries take half of a process's start
/// (70 ms of 140, 180 ms under the sanitizers), so they live in their own program, coinfer-video
/// (cli/video/main.cpp), built next to coinfer; coinfer's `make-trace video|pan` run it
/// (cli/video_forward.hpp).
#include <CLI/CLI.hpp>

namespace coinfer::cli {

/// The two subcommands' one-line descriptions, for both programs' help.
inline constexpr const char* kVideoSummary =
    "Trace a clip (any format FFmpeg decodes) for MobiEye's VDS and SSI";
inline constexpr const char* kPanSummary = "Trace a synthetic pan/zoom over a still image (known motion)";

/// Adds the `video` and `pan` subcommands to `make-trace`.
void add_make_trace_video(CLI::App& make_trace);

}  // namespace coinfer::cli
