#include "sim/workload/workload.hpp"

#include <cmath>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer {

std::size_t Workload::frame_count() const {
  switch (kind) {
    case WorkloadKind::Single:
      return 1;
    case WorkloadKind::Training:
      return iterations;
    case WorkloadKind::Stream:
      break;
  }
  if (frames > 0) return frames;
  if (arrivals == Arrivals::Poisson) {  // the draws that fall before the duration ends
    ReleaseClock clock(*this);
    std::size_t n = 0;
    while (clock.next() < start_s + duration_s) ++n;
    return n;
  }
  // Frames k >= 0 with k / rate < duration.
  auto n = static_cast<std::size_t>(std::ceil(duration_s * rate_fps));
  while (n > 0 && static_cast<double>(n - 1) / rate_fps >= duration_s) --n;
  return n;
}

double Workload::release_s(std::size_t k) const {
  if (kind != WorkloadKind::Stream) return start_s;
  return start_s + static_cast<double>(k) / rate_fps;
}

ReleaseClock::ReleaseClock(const Workload& workload)
    : w_(&workload), t_(workload.start_s), engine_(workload.seed) {}

double ReleaseClock::next() {
  if (w_->kind != WorkloadKind::Stream || w_->arrivals == Arrivals::Periodic) return w_->release_s(k_++);
  const double u = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
  t_ += -std::log1p(-u) / w_->rate_fps;
  ++k_;
  return t_;
}

Workload single_workload() { return {}; }

Workload stream_workload(double rate_fps, std::size_t frames, DropPolicy policy, double deadline_s) {
  Workload w;
  w.kind = WorkloadKind::Stream;
  w.rate_fps = rate_fps;
  w.frames = frames;
  w.policy = policy;
  w.deadline_s = deadline_s;
  return w;
}

Workload training_workload(std::size_t iterations) {
  Workload w;
  w.kind = WorkloadKind::Training;
  w.iterations = iterations;
  return w;
}

namespace {

// Accepted ranges (README "Scenarios", workload ranges). Why each bound:
// - Times (start_s, duration_s, deadline_s, and the last release) lie in [0, kMaxTime_s = 1e9 s],
//   about 32 years: beyond any experiment, and a double still resolves 1e9 s to 0.2 us, finer
//   than any latency we simulate, so releases, latencies and energies stay meaningful.
// - rate_fps lies in [1e-6, 1e6] frames/s: 1e6 fps is a frame per microsecond, beyond any sensor;
//   1e-6 fps (one frame per 11.6 days) is the slowest rate for which a stream of a few frames still
//   fits the 1e9 s horizon. A rate of 1e-300 fps would release its second frame at 1e300 s, where
//   a double no longer resolves milliseconds (0 ms latencies) and idle energy explodes.
// - frames and iterations lie in [1, 1e8]: the replay keeps a record per frame (1e8 records are
//   a few GiB), and a stream given by duration_s may not release more.
constexpr double kMaxTime_s = 1e9;
constexpr double kMinRate_fps = 1e-6, kMaxRate_fps = 1e6;
constexpr std::int64_t kMaxFrames = 100'000'000;

double time_s(const Json& json, const char* key, const std::string& path, double fallback) {
  return json_number_or(json, key, path, fallback, 0.0, kMaxTime_s);
}

void check_stream_span(const Workload& w, const std::string& path) {
  const auto n = w.frame_count();
  if (n > static_cast<std::size_t>(kMaxFrames))
    throw InputError("", join_path(path, "duration_s"),
                     fmt::format("the stream would release {} frames, over the limit of {}", n, kMaxFrames));
  // A Poisson stream's last release is drawn at run time: its mean, n / rate_fps, is held here.
  const double last_s =
      w.arrivals == Arrivals::Poisson ? w.start_s + static_cast<double>(n) / w.rate_fps : w.release_s(n - 1);
  if (!(last_s <= kMaxTime_s))
    throw InputError("", join_path(path, "rate_fps"),
                     fmt::format("the last frame would be released at {:g} s, beyond the {:g} s horizon "
                                 "(raise rate_fps or release fewer frames)",
                                 last_s, kMaxTime_s));
}

}  // namespace

Workload workload_from_json(const Json& json, const std::string& path) {
  Workload w;
  const auto kind = json_enum(json, "kind", path, {"single", "stream", "training"});
  w.start_s = time_s(json, "start_s", path, 0.0);
  if (kind == "single") {
    json_reject_unknown_keys(json, path, {"kind", "start_s", "deadline_s"});
  } else if (kind == "training") {
    json_reject_unknown_keys(json, path, {"kind", "start_s", "iterations"});
    w.kind = WorkloadKind::Training;
    w.iterations = static_cast<std::size_t>(json_int(json, "iterations", path, 1, kMaxFrames));
  } else {
    json_reject_unknown_keys(json, path,
                             {"kind", "start_s", "rate_fps", "frames", "duration_s", "policy", "deadline_s",
                              "max_in_flight", "queue_capacity", "arrivals"});
    w.kind = WorkloadKind::Stream;
    if (json_find(json, "arrivals", path) != nullptr &&
        json_enum(json, "arrivals", path, {"periodic", "poisson"}) == "poisson")
      w.arrivals = Arrivals::Poisson;
    w.rate_fps = json_number(json, "rate_fps", path, kMinRate_fps, kMaxRate_fps);
    const bool has_frames = json_find(json, "frames", path) != nullptr;
    const bool has_duration = json_find(json, "duration_s", path) != nullptr;
    if (has_frames == has_duration) throw InputError("", path, "give either 'frames' or 'duration_s'");
    if (has_frames) w.frames = static_cast<std::size_t>(json_int(json, "frames", path, 1, kMaxFrames));
    if (has_duration) {
      w.duration_s = json_number(json, "duration_s", path, 0.0, kMaxTime_s);
      if (w.frame_count() == 0)
        throw InputError("", join_path(path, "duration_s"), "no frame falls in the duration");
    }
    check_stream_span(w, path);
    const bool queue = json_find(json, "policy", path) != nullptr &&
                       json_enum(json, "policy", path, {"drop", "queue"}) == "queue";
    w.policy = queue ? DropPolicy::Queue : DropPolicy::DropWhenBusy;
    if (json_find(json, "max_in_flight", path) != nullptr)
      w.max_in_flight = static_cast<std::size_t>(json_int(json, "max_in_flight", path, 1, 1'000'000));
    if (json_find(json, "queue_capacity", path) != nullptr) {
      if (!queue)
        throw InputError("", join_path(path, "queue_capacity"), "a queue capacity needs policy: queue");
      w.queue_capacity = static_cast<std::size_t>(json_int(json, "queue_capacity", path, 1, 1'000'000));
    }
  }
  if (const Json* d = json_find(json, "deadline_s", path)) {
    w.deadline_s = json_as_number(*d, join_path(path, "deadline_s"), 0.0, kMaxTime_s);
    if (!(w.deadline_s > 0.0)) throw InputError("", join_path(path, "deadline_s"), "expected a deadline > 0");
  }
  return w;
}

Json workload_to_json(const Workload& w) {
  Json j;
  switch (w.kind) {
    case WorkloadKind::Single:
      j["kind"] = "single";
      break;
    case WorkloadKind::Training:
      j["kind"] = "training";
      j["iterations"] = w.iterations;
      break;
    case WorkloadKind::Stream:
      j["kind"] = "stream";
      j["rate_fps"] = w.rate_fps;
      if (w.frames > 0)
        j["frames"] = w.frames;
      else
        j["duration_s"] = w.duration_s;
      j["policy"] = w.policy == DropPolicy::Queue ? "queue" : "drop";
      if (w.max_in_flight > 0) j["max_in_flight"] = w.max_in_flight;
      if (w.queue_capacity > 0) j["queue_capacity"] = w.queue_capacity;
      if (w.arrivals == Arrivals::Poisson) j["arrivals"] = "poisson";
      break;
  }
  if (std::isfinite(w.deadline_s) && w.kind != WorkloadKind::Training) j["deadline_s"] = w.deadline_s;
  if (w.start_s != 0.0) j["start_s"] = w.start_s;
  return j;
}

}  // namespace coinfer
