#include "sim/replay/trace_recorder.hpp"

#include <fmt/format.h>

#include "sim/replay/dispatcher_common.hpp"

namespace coinfer::replay {
namespace {

// Values of a radio's state counter.
constexpr int kAsleep = 0;
constexpr int kWaking = 1;
constexpr int kOn = 2;

}  // namespace

TraceRecorder::TraceRecorder(const Topology& topology, std::vector<BandwidthSeries>& series,
                             double radios_idle_since_s, TraceWriter* writer, bool record_frame0,
                             SimulationResult& out)
    : topology_(topology),
      series_(series),
      writer_(writer),
      record_frame0_(record_frame0),
      tracing_(writer != nullptr || record_frame0),
      out_(out) {
  const Platform& platform = topology.platform();
  // Per radio (Topology::radio_of), kept only when traced.
  const auto radios = topology.radio_count();
  if (!tracing_) return;
  radio_track_.assign(radios, kNone);
  if (writer_ != nullptr) radio_trace_.assign(radios, {});
  for (const auto& d : platform.devices) add_track(TraceGroup::Devices, d.name);
  first_link_track_ = out_.trace_tracks.size();
  for (const auto& l : topology.links()) add_track(TraceGroup::Network, l.name());
  if (writer_ != nullptr) declare_counters(radios_idle_since_s);
}

void TraceRecorder::declare_counters(double radios_idle_since_s) {
  const Platform& platform = topology_.platform();
  std::size_t id = 0;
  for (std::size_t l = 0; l < topology_.links().size(); ++l) {
    writer_->add_counter(id, TraceGroup::Network, topology_.links()[l].name() + " rate", "mbps");
    RateTrace& rate = rate_trace_.emplace_back();
    const BandwidthSeries::Segment first = *series_[l].segment(0);
    rate.rate_bps = first.rate_bps;
    writer_->sample(id++, first.start_s, first.rate_bps / 1e6);
    const auto* next = series_[l].segment(1);
    rate.next_s = next == nullptr ? kInf : next->start_s;
    if (next != nullptr) varying_links_.push_back(l);
  }
  first_queue_counter_ = id;
  for (const auto& d : platform.devices) {
    writer_->add_counter(id, TraceGroup::Devices, d.name + " queue", "tasks");
    writer_->sample(id++, 0.0, 0.0);
  }
  queue_sampled_.assign(platform.devices.size(), 0);
  admission_counter_ = id;
  writer_->add_counter(id, TraceGroup::Devices, "admission queue", "frames");
  writer_->sample(id++, 0.0, 0.0);
  for (std::size_t radio = 0; radio < topology_.radio_count(); ++radio) {
    const Topology::RadioEnd& end = topology_.radio_end(radio);
    const Network& network = platform.networks[end.network];
    if (!(network.wake_up_s > 0.0)) continue;
    writer_->add_counter(id, TraceGroup::Network,
                         fmt::format("radio {}@{}", platform.devices[end.device].name, network.name),
                         "state");
    radio_trace_[radio].counter = id++;
    sample_radio(radio, 0.0, {false, 0, radios_idle_since_s});
  }
  batch_counter_.assign(platform.devices.size(), kNone);
  batch_sampled_.assign(platform.devices.size(), 0);
  for (std::size_t d = 0; d < platform.devices.size(); ++d) {
    if (!platform.devices[d].batching) continue;
    writer_->add_counter(id, TraceGroup::Devices, platform.devices[d].name + " batch", "tasks");
    writer_->sample(id, 0.0, 0.0);
    batch_counter_[d] = id++;
  }
}

void TraceRecorder::add_track(TraceGroup group, const std::string& name) {
  const auto id = out_.trace_tracks.size();
  out_.trace_tracks.push_back(name);
  if (writer_ != nullptr) writer_->add_track(id, group, name);
}

std::size_t TraceRecorder::radio_track(std::size_t radio) {
  if (radio_track_[radio] == kNone) {
    const Platform& platform = topology_.platform();
    const Topology::RadioEnd& end = topology_.radio_end(radio);
    radio_track_[radio] = out_.trace_tracks.size();
    add_track(TraceGroup::Network, fmt::format("radio {}@{}", platform.devices[end.device].name,
                                               platform.networks[end.network].name));
  }
  return radio_track_[radio];
}

void TraceRecorder::slice(std::size_t track, std::string_view name, const char* category, double start_s,
                          double end_s, std::size_t frame, std::string_view label) {
  if (record_frame0_ && frame == 0)
    out_.trace.push_back({track, std::string(name), category, start_s, end_s, frame, std::string(label)});
  if (writer_ != nullptr) writer_->slice({track, name, category, start_s, end_s, frame, label});
}

void TraceRecorder::compute(std::size_t device, std::string_view id, double start_s, double end_s,
                            std::size_t frame, std::string_view label) {
  if (tracing_) slice(device, id, "compute", start_s, end_s, frame, label);
}

void TraceRecorder::transfer(std::span<const std::uint32_t> links, std::string_view id, double start_s,
                             double end_s, std::size_t frame, std::string_view label) {
  if (!tracing_) return;
  for (auto l : links) slice(first_link_track_ + l, id, "transfer", start_s, end_s, frame, label);
}

// A background job belongs to no frame either.
void TraceRecorder::background(std::size_t device, std::string_view label, double start_s, double end_s) {
  if (tracing_) slice(device, label, "background", start_s, end_s, kNoFrame, label);
}

// A probe belongs to no frame, so it never lands among frame 0's slices.
void TraceRecorder::probe(std::span<const std::uint32_t> links, double start_s, double end_s) {
  if (!tracing_) return;
  for (auto l : links) slice(first_link_track_ + l, "probe", "probe", start_s, end_s, kNoFrame, "");
}

void TraceRecorder::wake_up(std::size_t radio, double start_s, double end_s, std::size_t frame,
                            std::string_view label) {
  if (tracing_) slice(radio_track(radio), "wake-up", "wake-up", start_s, end_s, frame, label);
}

// A segment with the rate of the one before is no change.
void TraceRecorder::sample_rates(double t) {
  for (auto l : varying_links_) {
    RateTrace& rate = rate_trace_[l];
    while (rate.next_s <= t) {
      ++rate.segment;
      const BandwidthSeries::Segment segment = *series_[l].segment(rate.segment);
      if (segment.rate_bps != rate.rate_bps) {
        rate.rate_bps = segment.rate_bps;
        writer_->sample(l, segment.start_s, segment.rate_bps / 1e6);
      }
      const auto* next = series_[l].segment(rate.segment + 1);
      rate.next_s = next == nullptr ? kInf : next->start_s;
    }
  }
}

void TraceRecorder::queue(std::size_t device, double t, std::size_t tasks) {
  if (writer_ == nullptr || tasks == queue_sampled_[device]) return;
  queue_sampled_[device] = tasks;
  writer_->sample(first_queue_counter_ + device, t, static_cast<double>(tasks));
}

void TraceRecorder::batch(std::size_t device, double t, std::size_t tasks) {
  if (writer_ == nullptr || batch_counter_[device] == kNone || tasks == batch_sampled_[device]) return;
  batch_sampled_[device] = tasks;
  writer_->sample(batch_counter_[device], t, static_cast<double>(tasks));
}

void TraceRecorder::admission(double t, std::size_t frames) {
  if (writer_ == nullptr || frames == admission_sampled_) return;
  admission_sampled_ = frames;
  writer_->sample(admission_counter_, t, static_cast<double>(frames));
}

// Falling asleep is no event of the replay (a radio is asleep once idle longer than the timeout),
// so it is sampled late, at the time it happened, when the next change (or the end of the run)
// shows that the radio stayed idle that long.
void TraceRecorder::sample_radio(std::size_t radio, double t, const RadioActivity& now) {
  RadioTrace& s = radio_trace_[radio];
  const double timeout_s =
      topology_.platform().networks[topology_.radio_end(radio).network].power_save_timeout_s;
  if (s.sleep_at_s < t && s.state != kAsleep) {
    s.state = kAsleep;
    writer_->sample(s.counter, s.sleep_at_s, kAsleep);
  }
  const int state = now.waking                                               ? kWaking
                    : (now.active > 0 || t - now.last_active_s <= timeout_s) ? kOn
                                                                             : kAsleep;
  if (state != s.state) {
    s.state = state;
    writer_->sample(s.counter, t, state);
  }
  s.sleep_at_s = !now.waking && now.active == 0 ? now.last_active_s + timeout_s : kInf;
}

void TraceRecorder::finish(double end_s) {
  if (writer_ == nullptr) return;
  sample_rates(end_s);
  for (const auto& s : radio_trace_)
    if (s.counter != kNone && s.state != kAsleep && s.sleep_at_s < end_s)
      writer_->sample(s.counter, s.sleep_at_s, kAsleep);
  writer_->finish();
}

}  // namespace coinfer::replay
