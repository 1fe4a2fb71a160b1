#pragma once
/// coinfer's `make-trace video` and `make-trace pan`: each runs coinfer-video, the program built
/// next to coinfer's executable, in this process's place (exec) with the same arguments, so its
/// output, errors and exit code are the command's own (cli/video/make_trace_video.hpp says why
/// they are a program of their own).
#include <CLI/CLI.hpp>

namespace coinfer::cli {

/// Adds `video` and `pan` to `make-trace`. Throws `Error` naming the program's path when it cannot
/// be started (not built, not next to coinfer).
void add_make_trace_video_forwarders(CLI::App& make_trace);

}  // namespace coinfer::cli
