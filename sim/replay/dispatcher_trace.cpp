// The dispatcher's tracing: tracks, slices and counters streamed into SimOptions::trace_writer
// (format: sim/trace/chrome_trace_writer.hpp), and frame 0's slices kept for stage metrics.
// Every hook returns at once when nothing is traced.
#include <limits>

#include <fmt/format.h>

#include "sim/replay/dispatcher.hpp"
#include "sim/replay/dispatcher_common.hpp"

namespace coinfer::replay {
namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();
// Values of a radio's state counter.
constexpr int kAsleep = 0;
constexpr int kWaking = 1;
constexpr int kOn = 2;

}  // namespace

// Tracks: devices, then links (radios are added when they first wake). Counters, each sampled at
// t = 0: link rates (counter id = link index), device queues, the admission queue, then the state
// of every radio of a network with a wake-up.
void Dispatcher::init_trace() {
  writer_ = in_.options->trace_writer.get();
  tracing_ = writer_ != nullptr || in_.options->record_trace;
  radio_track_.assign(radios_.size(), kNone);
  radio_trace_.assign(radios_.size(), {});
  if (!tracing_) return;
  const Topology& topo = *in_.topology;
  const Platform& platform = topo.platform();
  for (const auto& d : platform.devices) add_track(TraceGroup::Devices, d.name);
  first_link_track_ = out_.trace_tracks.size();
  for (const auto& l : topo.links()) add_track(TraceGroup::Network, l.name);
  if (writer_ == nullptr) return;

  std::size_t id = 0;
  for (std::size_t l = 0; l < topo.links().size(); ++l) {
    writer_->add_counter(id, TraceGroup::Network, topo.links()[l].name + " rate", "mbps");
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
  for (std::size_t net = 0; net < platform.networks.size(); ++net) {
    const Network& network = platform.networks[net];
    if (!(network.wake_up_s > 0.0)) continue;
    for (std::size_t d = 0; d < platform.devices.size(); ++d) {
      if (!topo.has_radio(net, d)) continue;
      const auto radio = radio_index(net, d);
      writer_->add_counter(id, TraceGroup::Network,
                           fmt::format("radio {}@{}", platform.devices[d].name, network.name), "state");
      radio_trace_[radio].counter = id++;
      sample_radio_at(radio, 0.0);
    }
  }
}

void Dispatcher::add_track(TraceGroup group, const std::string& name) {
  const auto id = out_.trace_tracks.size();
  out_.trace_tracks.push_back(name);
  if (writer_ != nullptr) writer_->add_track(id, group, name);
}

void Dispatcher::trace(std::size_t track, std::string_view name, const char* category, double start_s,
                       double end_s, std::size_t frame, std::string_view label) {
  if (in_.options->record_trace && frame == 0)
    out_.trace.push_back({track, std::string(name), category, start_s, end_s, frame, std::string(label)});
  if (writer_ != nullptr) writer_->slice({track, name, category, start_s, end_s, frame, label});
}

std::size_t Dispatcher::radio_track(std::size_t radio) {
  if (radio_track_[radio] == kNone) {
    const auto& platform = in_.topology->platform();
    radio_track_[radio] = out_.trace_tracks.size();
    add_track(TraceGroup::Network, fmt::format("radio {}@{}", platform.devices[radio % devices_.size()].name,
                                               platform.networks[radio / devices_.size()].name));
  }
  return radio_track_[radio];
}

void Dispatcher::trace_wake_up(std::size_t radio, std::size_t frame, const std::string& label) {
  if (!tracing_) return;
  trace(radio_track(radio), "wake-up", "wake-up", radios_[radio].wake_start_s, now(), frame, label);
}

// Every rate change of a varying link up to `t`, in order; a segment with the rate of the one
// before is no change.
void Dispatcher::sample_rates(double t) {
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

void Dispatcher::sample_queue(std::size_t device) {
  if (writer_ == nullptr) return;
  const auto n = devices_[device].ready.size();
  if (n == queue_sampled_[device]) return;
  queue_sampled_[device] = n;
  writer_->sample(first_queue_counter_ + device, now(), static_cast<double>(n));
}

void Dispatcher::sample_admission() {
  if (writer_ == nullptr || waiting_.size() == admission_sampled_) return;
  admission_sampled_ = waiting_.size();
  writer_->sample(admission_counter_, now(), static_cast<double>(admission_sampled_));
}

void Dispatcher::sample_radio(std::size_t radio) {
  if (radio_trace_[radio].counter != kNone) sample_radio_at(radio, now());
}

// After a change to the radio at `t`. Falling asleep is no event of the replay (a radio is asleep
// once idle longer than the timeout), so it is sampled late, at the time it happened, when the
// next change (or the end of the run) shows that the radio stayed idle that long.
void Dispatcher::sample_radio_at(std::size_t radio, double t) {
  RadioTrace& s = radio_trace_[radio];
  const RadioState& r = radios_[radio];
  const double timeout_s = in_.topology->platform().networks[radio / devices_.size()].power_save_timeout_s;
  if (s.sleep_at_s < t && s.state != kAsleep) {
    s.state = kAsleep;
    writer_->sample(s.counter, s.sleep_at_s, kAsleep);
  }
  const int state = r.waking ? kWaking : (r.active > 0 || t - r.last_active_s <= timeout_s) ? kOn : kAsleep;
  if (state != s.state) {
    s.state = state;
    writer_->sample(s.counter, t, state);
  }
  s.sleep_at_s = !r.waking && r.active == 0 ? r.last_active_s + timeout_s : kInf;
}

void Dispatcher::finish_trace(double end_s) {
  if (writer_ == nullptr) return;
  sample_rates(end_s);
  for (const auto& s : radio_trace_)
    if (s.counter != kNone && s.state != kAsleep && s.sleep_at_s < end_s)
      writer_->sample(s.counter, s.sleep_at_s, kAsleep);
  writer_->finish();
}

}  // namespace coinfer::replay
