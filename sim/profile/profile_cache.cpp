// The profiler's disk cache (profiler.hpp: profile_cache_dir, cached_profile, cache_profile).
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "sim/core/atomic_file.hpp"
#include "sim/core/error.hpp"
#include "sim/core/hash.hpp"
#include "sim/graph/graph_json.hpp"
#include "sim/kernels/gemm.hpp"
#include "sim/profile/profiler.hpp"

namespace coinfer {
namespace {

namespace fs = std::filesystem;

Json cache_key(const Graph& graph, const ProfileOptions& o, const std::string& pass) {
  Json key{{"model", graph.name()},
           {"graph", fmt::format("{:016x}", fnv1a64(graph_to_json(graph).dump()))},
           {"build", profiler_build_id()},
           {"host_cpu", host_cpu_model()},
           {"seed", o.seed},
           {"clock", kernels::kernel_threads() == 1 ? "thread-cpu" : "wall"},
           {"warmup", o.warmup},
           {"batch", o.batch}};
  if (pass != kForwardPass) key["pass"] = pass;
  return key;
}

// `<pass>-<model>-<hash of the key>.json`; the forward pass's files are `profile-...`.
fs::path cache_file(const Json& key, const ProfileOptions& o, const std::string& pass) {
  return fs::path(profile_cache_dir(o)) / fmt::format("{}-{}-{:016x}.json",
                                                      pass == kForwardPass ? "profile" : pass,
                                                      key["model"].get<std::string>(), fnv1a64(key.dump()));
}

}  // namespace

std::string profile_cache_dir(const ProfileOptions& o) {
  if (!o.cache_dir.empty()) return o.cache_dir;
  if (const char* dir = std::getenv("COINFER_CACHE_DIR"); dir && *dir) return dir;
  if (const char* home = std::getenv("HOME"); home && *home)
    return (fs::path(home) / ".cache" / "coinfer").string();
  return (fs::temp_directory_path() / "coinfer-cache").string();
}

std::string profiler_build_id() {
  std::string exe = "unknown";
  std::error_code ec;
  const auto path = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const auto size = fs::file_size(path, ec);
    const auto mtime = fs::last_write_time(path, ec).time_since_epoch().count();
    if (!ec) exe = fmt::format("{} {} {}", path.filename().string(), size, mtime);
  }
  return fmt::format("coinfer {}; {}; exe {}", COINFER_VERSION, kernels::kernel_build_id(), exe);
}

std::optional<HostProfile> cached_profile(const Graph& graph, const ProfileOptions& o,
                                          const std::string& pass) {
  const Json key = cache_key(graph, o, pass);
  std::ifstream in(cache_file(key, o, pass));
  if (!in) return std::nullopt;
  try {
    const Json j = Json::parse(in);
    if (j.at("key") != key) return std::nullopt;
    return host_profile_from_json(j.at("profile"));
  } catch (const std::exception&) {
    return std::nullopt;  // a corrupt or foreign cache entry is re-measured and overwritten
  }
}

void cache_profile(const Graph& graph, const ProfileOptions& o, const std::string& pass,
                   const HostProfile& p) {
  const Json key = cache_key(graph, o, pass);
  const fs::path file = cache_file(key, o, pass);
  // Caching is best effort: an unwritable cache only costs time (write_file_atomic leaves no
  // temporary behind).
  try {
    write_file_atomic(file.string(), Json{{"key", key}, {"profile", host_profile_to_json(p)}}.dump());
  } catch (const Error&) {
  }
}

}  // namespace coinfer
