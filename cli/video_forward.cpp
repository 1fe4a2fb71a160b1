#include "cli/video_forward.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli/video/make_trace_video.hpp"
#include "sim/core/error.hpp"

namespace coinfer::cli {
namespace {

// coinfer-video beside this process's executable (symbolic links to coinfer resolved).
std::filesystem::path video_program(const char* name) {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec)
    throw Error(
        fmt::format("make-trace {} runs the program coinfer-video next to coinfer, and coinfer "
                    "could not tell where it is itself (/proc/self/exe: {})",
                    name, ec.message()));
  return self.parent_path() / "coinfer-video";
}

void add_forwarder(CLI::App& make_trace, const char* name, const char* summary) {
  auto* cmd = make_trace.add_subcommand(name, summary);
  cmd->prefix_command();  // every argument after the name, options included, is coinfer-video's
  cmd->set_help_flag();   // --help too: coinfer-video prints the subcommand's options
  cmd->callback([cmd, name] {
    const std::string program = video_program(name).string();
    const CLI::App* top = cmd;
    while (top->get_parent()) top = top->get_parent();
    // argv[0] as this command line's (help's usage lines name the program as the user called it)
    std::vector<std::string> args = {top->get_name(), "make-trace", name};
    for (const auto& a : cmd->remaining()) args.push_back(a);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::cout.flush();
    std::fflush(nullptr);
    ::execv(program.c_str(), argv.data());
    throw Error(
        fmt::format("make-trace {} runs the program {}, which could not be started ({}); it is "
                    "built next to coinfer",
                    name, program, std::strerror(errno)));
  });
}

}  // namespace

void add_make_trace_video_forwarders(CLI::App& make_trace) {
  add_forwarder(make_trace, "video", kVideoSummary);
  add_forwarder(make_trace, "pan", kPanSummary);
}

}  // namespace coinfer::cli
