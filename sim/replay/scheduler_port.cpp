#include "sim/replay/scheduler_port.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/plan/plan.hpp"

namespace coinfer::replay {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}  // namespace

SchedulerPort::SchedulerPort(Scheduler* scheduler, const Topology& topology,
                             std::span<const CompiledPlan> plans, const Workload& workload,
                             std::vector<BandwidthSeries>& series, SimulationResult& out, PortScope scope)
    : scheduler_(scheduler),
      topology_(topology),
      plans_(plans),
      workload_(workload),
      series_(series),
      out_(out),
      scope_(std::move(scope)),
      link_names_(scope_.link_names || scheduler == nullptr ? scope_.link_names : link_names_of(topology)) {}

std::shared_ptr<const std::vector<std::string>> SchedulerPort::link_names_of(const Topology& topology) {
  auto names = std::make_shared<std::vector<std::string>>();
  for (const auto& l : topology.links()) names->push_back(l.name());
  return names;
}

SchedulerView SchedulerPort::view(const ReplaySnapshot& s) {
  SchedulerView v;
  v.now_s = s.now_s;
  v.frame = local(s.frame);
  v.variant_count = plans_.size();
  v.current_variant = s.current_variant;
  v.queued_frames = s.queued_frames;
  v.frames_in_flight = s.frames_in_flight;
  v.deadline_s = workload_.deadline_s;
  const std::span<const FrameRecord> all(out_.frames);
  v.frames = scope_.count == PortScope::kAllFrames ? all : all.subspan(scope_.first, scope_.count);
  if (!link_names_) link_names_ = link_names_of(topology_);
  v.link_names = link_names_.get();
  v.link_rates_bps.reserve(series_.size());
  for (auto& series : series_) v.link_rates_bps.push_back(series.rate_at(v.now_s));
  if (measured_.empty())
    v.measured_links.resize(series_.size());
  else
    v.measured_links = measured_;
  return v;
}

std::vector<std::pair<std::size_t, Continuation>> SchedulerPort::take_decisions(const SchedulerView& v) {
  auto decisions = scheduler_->take_decisions(v);
  for (auto& d : decisions) d.first += scope_.first;
  return decisions;
}

void SchedulerPort::add_in_flight(std::vector<MeasuredLink>& links, const InFlightTransfer& x) {
  for (auto l : x.route->links) {
    MeasuredLink& m = links[l];
    if (m.in_flight++ > 0 && !(x.elapsed_s > m.oldest_elapsed_s)) continue;
    m.oldest_bytes = x.bytes;
    m.oldest_delivered_bytes = x.delivered_bytes;
    m.oldest_elapsed_s = x.elapsed_s;
    m.oldest_latency_s = x.route->latency_s;
  }
}

std::size_t SchedulerPort::checked_variant(std::size_t variant) const {
  if (variant >= plans_.size())
    throw Error(
        fmt::format("scheduler '{}' chose variant {} of {}", scheduler_->name(), variant, plans_.size()));
  return variant;
}

FrameDecision SchedulerPort::on_frame(const SchedulerView& v) {
  FrameDecision decision = scheduler_->on_frame(v);
  if (decision.variant) checked_variant(*decision.variant);
  return decision;
}

std::optional<std::size_t> SchedulerPort::on_period(const SchedulerView& v) {
  auto choice = scheduler_->on_period(v);
  if (choice) checked_variant(*choice);
  return choice;
}

std::vector<std::pair<std::size_t, double>> SchedulerPort::take_stalls() {
  std::vector<std::pair<std::size_t, double>> stalls;
  for (const auto& stall : scheduler_->take_stalls()) {
    const auto d = topology_.platform().device_index_or_null(stall.device);
    if (!d || !(stall.seconds >= 0.0))
      throw Error(fmt::format("scheduler '{}' stalled device '{}' for {} s", scheduler_->name(), stall.device,
                              stall.seconds));
    stalls.emplace_back(*d, stall.seconds);
  }
  return stalls;
}

std::vector<ProbeRoute> SchedulerPort::take_probes(const SchedulerView& v) {
  std::vector<ProbeRoute> probes;
  const Platform& platform = topology_.platform();
  for (const auto& request : scheduler_->take_probes(v)) {
    const auto net = platform.network_index_or_null(request.network);
    const auto from = platform.device_index_or_null(request.from);
    const auto to = platform.device_index_or_null(request.to);
    const Route* route = net && from && to ? topology_.route_or_null(*net, *from, *to) : nullptr;
    if (route == nullptr || !(request.bytes > 0.0) || !std::isfinite(request.bytes))
      throw Error(fmt::format("scheduler '{}' asked for a probe of {} bytes from '{}' to '{}' over '{}': {}",
                              scheduler_->name(), request.bytes, request.from, request.to, request.network,
                              route == nullptr ? "no such route" : "the size must be > 0 and finite"));
    probes.push_back({route, pair_channel(request.from, request.to), request.bytes});
  }
  return probes;
}

void SchedulerPort::expect_held(std::size_t frame) const {
  if (!is_held(frame))
    throw Error(fmt::format("scheduler '{}' decided on frame {}, which is not held", scheduler_->name(),
                            local(frame)));
}

bool SchedulerPort::hold(std::size_t frame) {
  if (is_held(frame)) return false;
  if (!std::isfinite(workload_.deadline_s))
    throw Error(fmt::format("scheduler '{}' held frame {}, but the workload has no deadline to end the wait",
                            scheduler_->name(), local(frame)));
  held_.insert(frame);
  return true;
}

std::size_t SchedulerPort::continued_variant(std::size_t frame, const Continuation& c) const {
  if (c.variant >= plans_.size())
    throw Error(fmt::format("scheduler '{}' continued frame {} with variant {} of {}", scheduler_->name(),
                            local(frame), c.variant, plans_.size()));
  return c.variant;
}

std::vector<double> SchedulerPort::continuation_bytes(std::size_t frame, const Continuation& c) const {
  return task_values(continued_variant(frame, c), c.transfer_bytes, TaskKind::Transfer);
}

std::vector<double> SchedulerPort::continuation_seconds(std::size_t frame, const Continuation& c) const {
  return task_values(continued_variant(frame, c), c.task_seconds, TaskKind::Compute);
}

FrameTaskValues SchedulerPort::decision_values(std::size_t variant, const FrameDecision& d) const {
  return {task_values(variant, d.transfer_bytes, TaskKind::Transfer),
          task_values(variant, d.task_seconds, TaskKind::Compute)};
}

std::vector<double> SchedulerPort::task_values(std::size_t variant, const TaskValues& values,
                                               TaskKind kind) const {
  const CompiledPlan& plan = plans_[variant];
  std::vector<double> out;
  for (const auto& [id, value] : values) {
    std::size_t i = 0;
    while (i < plan.size() && plan.plan->tasks[i].id != id) ++i;
    if (i == plan.size() || plan.shape->tasks[i].kind != kind || !(value >= 0.0) || !std::isfinite(value))
      throw Error(
          kind == TaskKind::Transfer
              ? fmt::format("scheduler '{}' set {} bytes for '{}', which is no transfer of variant {}",
                            scheduler_->name(), value, id, variant)
              : fmt::format("scheduler '{}' set {} s for '{}', which is no compute task of variant {}",
                            scheduler_->name(), value, id, variant));
    if (out.empty()) out.assign(plan.size(), kNaN);
    out[i] = value;
  }
  return out;
}

std::vector<BackgroundRequest> SchedulerPort::take_background(const SchedulerView& v) {
  std::vector<BackgroundRequest> jobs;
  for (auto& job : scheduler_->take_background(v)) {
    const auto d = topology_.platform().device_index_or_null(job.device);
    if (!d || !(job.seconds > 0.0) || !std::isfinite(job.seconds))
      throw Error(fmt::format("scheduler '{}' asked for a background job of {} s on device '{}': {}",
                              scheduler_->name(), job.seconds, job.device,
                              d ? "the time must be > 0 and finite" : "no such device"));
    jobs.push_back({*d, job.seconds, job.tag, std::move(job.label)});
  }
  return jobs;
}

void SchedulerPort::measure_transfer(const Route& route, double bytes, double start_s, double end_s) {
  // Nobody reads the measurements of a port without a scheduler: a city's runs keep none.
  if (scheduler_ == nullptr) return;
  const double duration_s = end_s - start_s - route.latency_s;
  if (!(duration_s > 0.0)) return;
  const double rate_bps = 8.0 * bytes / duration_s;
  if (measured_.empty()) measured_.resize(series_.size());
  for (auto l : route.links) {
    MeasuredLink& m = measured_[l];
    m.ewma_rate_bps = m.transfers == 0
                          ? rate_bps
                          : kMeasuredEwmaWeight * rate_bps + (1.0 - kMeasuredEwmaWeight) * m.ewma_rate_bps;
    ++m.transfers;
    m.last_bytes = bytes;
    m.last_duration_s = duration_s;
    m.last_rate_bps = rate_bps;
    m.last_end_s = end_s;
  }
}

void SchedulerPort::record_score(std::size_t frame) {
  if (scheduler_ == nullptr) return;
  record_values(frame);
  const double score = scheduler_->frame_score(local(frame), out_.frames[frame]);
  if (std::isnan(score)) return;
  if (out_.frame_scores.empty()) out_.frame_scores.assign(out_.frames.size(), kNaN);
  out_.frame_scores[frame] = score;
}

void SchedulerPort::record_values(std::size_t frame) {
  if (out_.frame_columns.empty()) {
    for (auto& name : scheduler_->frame_value_names())
      out_.frame_columns.push_back({std::move(name), std::vector<double>(out_.frames.size(), kNaN)});
    if (out_.frame_columns.empty()) return;
  }
  const auto values = scheduler_->frame_values(local(frame));
  if (values.size() != out_.frame_columns.size())
    throw Error(fmt::format("scheduler '{}' gave {} values for frame {}, expected {} (frame_value_names)",
                            scheduler_->name(), values.size(), local(frame), out_.frame_columns.size()));
  for (std::size_t c = 0; c < values.size(); ++c) out_.frame_columns[c].values[frame] = values[c];
}

}  // namespace coinfer::replay
