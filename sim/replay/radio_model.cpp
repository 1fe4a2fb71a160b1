#include "sim/replay/radio_model.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/cost/cost_model.hpp"
#include "sim/cost/energy.hpp"

namespace coinfer::replay {

namespace {

// One direction of a radio's eq. 21 fit: its parameters and the throughputs it is stated for.
struct RadioFit {
  double alpha_mw_per_mbps;
  double beta_mw;
  const std::optional<std::array<double, 2>>& range;
};

RadioFit radio_fit(const RadioPowerModel& m, bool sending) {
  if (sending) return {m.uplink_alpha_mw_per_mbps, m.uplink_beta_mw, m.uplink_range_mbps};
  return {m.downlink_alpha_mw_per_mbps, m.downlink_beta_mw, m.downlink_range_mbps};
}

}  // namespace

RadioModel::RadioModel(const Topology& topology, const std::vector<CompiledPlan>& plans, double idle_since_s,
                       TraceRecorder& trace, Tally& tally, SimulationResult& out)
    : topology_(topology), trace_(trace), tally_(tally), out_(out), idle_since_s_(idle_since_s) {
  radios_.resize(topology.radio_count());
  // Each radio's power model, looked up once per calibration and kind of network: a population's
  // phones share one calibration, where a look-up per radio builds a key string and searches a map.
  std::map<std::pair<const DeviceCalibration*, NetworkKind>, const RadioPowerModel*> models;
  for (std::size_t radio = 0; radio < radios_.size(); ++radio) {
    RadioState& r = radios_[radio];
    r.last_active_s = idle_since_s;
    const Topology::RadioEnd& end = topology.radio_end(radio);
    const DeviceCalibration& calibration = topology.platform().devices[end.device].calibration;
    const NetworkKind kind = topology.platform().networks[end.network].kind;
    const auto [it, fresh] = models.try_emplace({&calibration, kind}, nullptr);
    if (fresh) it->second = radio_power_model(calibration, kind);
    r.model = it->second;
  }
  const auto n_net = topology.platform().networks.size();
  network_busy_.assign(n_net, false);
  network_queue_.resize(n_net);
  per_channel_.reserve(n_net);
  for (const auto& net : topology.platform().networks) per_channel_.push_back(net.wakes_per_channel());
  // Every (network, channel name) any plan variant uses gets a ChannelState; with no network
  // paying wake-ups per channel, no variant keeps a list of its tasks' channels.
  if (std::find(per_channel_.begin(), per_channel_.end(), true) == per_channel_.end()) return;
  for (const auto& plan : plans) {
    auto& of = channel_of_.emplace_back(plan.size(), 0);
    for (std::size_t i = 0; i < plan.size(); ++i) {
      const TaskPlacement& t = plan.placements[i];
      if (t.route != nullptr) of[i] = channel_index(t.route->network, plan.channel(i));
    }
  }
}

std::size_t RadioModel::channel_index(std::size_t network, const std::string& channel) {
  if (!per_channel_[network]) return kNoChannel;
  const auto [it, added] = channel_index_.emplace(std::pair{network, channel}, channels_.size());
  if (added) {
    channels_.push_back({});
    channels_.back().last_active_s = idle_since_s_;
    channel_names_.push_back(channel);
  }
  return it->second;
}

RadioModel::Wait RadioModel::wait_for_wake_up(std::size_t slot, std::size_t frame, const Route& route,
                                              std::size_t channel, double t) {
  const Network& network = topology_.platform().networks[route.network];
  if (!(network.wake_up_s > 0.0)) return {};
  return per_channel_[route.network] ? wait_for_channel(slot, frame, route, channel, t)
                                     : wait_for_radio(slot, frame, route, t);
}

// Radio mode: the sender's radio wakes when it has been idle longer than the timeout; every
// transfer from it meanwhile waits for the same wake-up.
RadioModel::Wait RadioModel::wait_for_radio(std::size_t slot, std::size_t frame, const Route& route,
                                            double t) {
  const auto radio = route.src_radio;
  if (radio == kNoRadio) return {};
  const Network& network = topology_.platform().networks[route.network];
  RadioState& r = radio_state(radio);
  const double idle_s = t - r.last_active_s;
  if (!r.waking && (r.active > 0 || idle_s <= network.power_save_timeout_s)) return {};
  if (r.waiting.empty()) r.waiting_frame = frame;
  r.waiting.push_back(slot);
  if (r.waking) return {true, radio};
  r.waking = true;
  r.wake_start_s = t;
  ++tally_.devices[route.src].wake_ups;
  trace_.radio(radio, t, activity(r));
  return {true, radio, t + network.wake_up_s};
}

// Channel mode: a channel idle longer than the timeout is set up again by the sender's radio (the
// receiver's when the sender has none, e.g. a cellular base), one channel at a time per radio;
// transfers on a channel being set up wait for it.
RadioModel::Wait RadioModel::wait_for_channel(std::size_t slot, std::size_t frame, const Route& route,
                                              std::size_t channel, double t) {
  ChannelState& c = channels_[channel];
  if (c.pending) {
    c.waiting.push_back(slot);
    return {true, 0};
  }
  const auto net = route.network;
  const double idle_s = t - c.last_active_s;
  if (c.active > 0 || idle_s <= topology_.platform().networks[net].power_save_timeout_s) return {};
  const auto radio = route.src_radio != kNoRadio ? route.src_radio : route.dst_radio;
  if (radio == kNoRadio) return {};
  c.pending = true;
  c.waiting_frame = frame;
  c.waiting.push_back(slot);
  auto& setups = setups_[radio];
  setups.push_back(channel);
  if (setups.size() > 1) return {true, radio};
  return {true, radio, start_channel_setup(radio, t)};
}

double RadioModel::start_channel_setup(std::size_t radio, double t) {
  RadioState& r = radio_state(radio);
  r.waking = true;
  r.wake_start_s = t;
  const Topology::RadioEnd& end = topology_.radio_end(radio);
  ++tally_.devices[end.device].wake_ups;
  trace_.radio(radio, t, activity(r));
  return t + topology_.platform().networks[end.network].wake_up_s;
}

RadioModel::Awake RadioModel::on_awake(std::size_t radio, double t) {
  RadioState& r = radio_state(radio);
  r.waking = false;
  r.last_active_s = t;
  trace_.radio(radio, t, activity(r));
  if (const auto it = setups_.find(radio); it != setups_.end() && !it->second.empty())
    return on_channel_set_up(radio, t);
  trace_.wake_up(radio, r.wake_start_s, t, r.waiting_frame, "");
  Awake awake{std::move(r.waiting)};
  r.waiting.clear();
  return awake;
}

// The radio's first queued channel is up: its transfers go, the radio sets up the next one.
RadioModel::Awake RadioModel::on_channel_set_up(std::size_t radio, double t) {
  RadioState& r = radio_state(radio);
  auto& setups = setups_.at(radio);
  ChannelState& c = channels_[setups.front()];
  trace_.wake_up(radio, r.wake_start_s, t, c.waiting_frame, channel_names_[setups.front()]);
  setups.pop_front();
  c.pending = false;
  c.last_active_s = t;
  Awake awake{std::move(c.waiting)};
  c.waiting.clear();
  if (!setups.empty()) awake.next_awake_s = start_channel_setup(radio, t);
  return awake;
}

bool RadioModel::try_enter_network(std::size_t network, std::size_t slot) {
  if (!topology_.platform().networks[network].serialized_radio) return true;
  if (network_busy_[network]) {
    network_queue_[network].push_back(slot);
    return false;
  }
  network_busy_[network] = true;
  return true;
}

std::optional<std::size_t> RadioModel::leave_network(std::size_t network) {
  if (!topology_.platform().networks[network].serialized_radio) return std::nullopt;
  network_busy_[network] = false;
  if (network_queue_[network].empty()) return std::nullopt;
  const auto next = network_queue_[network].front();
  network_queue_[network].pop_front();
  network_busy_[network] = true;
  return next;
}

void RadioModel::touch_radio(std::size_t radio, bool starting, double t) {
  RadioState& r = radio_state(radio);
  if (starting) {
    ++r.active;
  } else {
    --r.active;
    r.last_active_s = t;
  }
  trace_.radio(radio, t, activity(r));
}

void RadioModel::transfer_started(const Route& route, std::size_t channel, double t) {
  for (const auto radio : {route.src_radio, route.dst_radio})
    if (radio != kNoRadio) touch_radio(radio, true, t);
  if (channel != kNoChannel) ++channels_[channel].active;
}

void RadioModel::transfer_ended(const Route& route, std::size_t channel, double t) {
  for (const auto radio : {route.src_radio, route.dst_radio})
    if (radio != kNoRadio) touch_radio(radio, false, t);
  if (channel == kNoChannel) return;
  ChannelState& c = channels_[channel];
  --c.active;
  c.last_active_s = t;
}

void RadioModel::warn_missing_model(std::size_t device, std::size_t network) {
  const Platform& platform = topology_.platform();
  const Network& net = platform.networks[network];
  auto [it, fresh] = missing_models_.try_emplace({device, net.kind});
  MissingRadioModel& m = it->second;
  if (!fresh && std::find(m.networks.begin(), m.networks.end(), network) != m.networks.end()) return;
  if (fresh) {
    m.warning = out_.warnings.size();
    out_.warnings.emplace_back();
  }
  m.networks.push_back(network);
  constexpr std::size_t kNamed = 4;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < m.networks.size() && i < kNamed; ++i)
    names.push_back(fmt::format("'{}'", platform.networks[m.networks[i]].name));
  std::string on =
      names.size() == 1
          ? names[0]
          : fmt::format("{} and {}", fmt::join(names.begin(), names.end() - 1, ", "), names.back());
  if (m.networks.size() > kNamed) {
    names.pop_back();
    on = fmt::format("{} and {} more", fmt::join(names, ", "), m.networks.size() - names.size());
  }
  out_.warnings[m.warning] =
      fmt::format("device '{}' has no '{}' radio power model: its radio energy on {} is counted as 0",
                  platform.devices[device].name, radio_power_key(net.kind), on);
}

void RadioModel::add_radio_energy(const Route& route, double bytes, double duration_s, bool probe) {
  const auto net = route.network;
  for (const bool sending : {true, false}) {
    const auto device = sending ? route.src : route.dst;
    const auto radio = sending ? route.src_radio : route.dst_radio;
    if (radio == kNoRadio) continue;
    const RadioPowerModel* model = radios_[radio].model;
    if (model == nullptr) {
      warn_missing_model(device, net);
      continue;
    }
    const RadioFit fit = radio_fit(*model, sending);
    const double energy_j = radio_energy_j(fit.alpha_mw_per_mbps, fit.beta_mw, bytes, duration_s);
    tally_.devices[device].radio_energy_j += energy_j;
    if (probe) tally_.devices[device].probe_radio_energy_j += energy_j;
    if (fit.range && duration_s > 0.0) {
      const double mbps = 8.0 * bytes / duration_s / 1e6;  // the throughput eq. 21 was given
      // Relative slack for round-off: a transfer alone on a link whose rate is the range's end
      // (JointDNN's links and fits, both from its Table 3) computes that rate give or take an ulp.
      constexpr double kSlack = 1e-9;
      if (mbps < (*fit.range)[0] * (1.0 - kSlack) || mbps > (*fit.range)[1] * (1.0 + kSlack)) {
        OutOfRange& o = out_of_range_[{device, net, sending}];
        o.model = model;
        o.low_mbps = std::min(o.low_mbps, mbps);
        o.high_mbps = std::max(o.high_mbps, mbps);
        ++o.transfers;
      }
    }
  }
}

void RadioModel::warn_out_of_range() {
  const Platform& platform = topology_.platform();
  for (const auto& [key, o] : out_of_range_) {
    const auto [device, net, sending] = key;
    const Network& network = platform.networks[net];
    const auto& range = *radio_fit(*o.model, sending).range;
    const double worst = o.high_mbps > range[1] ? o.high_mbps : o.low_mbps;
    const auto low = fmt::format("{:.3g}", o.low_mbps), high = fmt::format("{:.3g}", o.high_mbps);
    out_.warnings.push_back(fmt::format(
        "device '{}' {} on '{}' at {} Mbps in {} transfer{}, outside the [{:g}, {:g}] Mbps "
        "its radio power fit is stated for ({}_range_mbps in calibration '{}'): its radio energy there "
        "is extrapolated (eq. 21 gives {:.3g} W at {:.3g} Mbps)",
        platform.devices[device].name, sending ? "sent" : "received", network.name,
        low == high ? low : low + " to " + high, o.transfers, o.transfers == 1 ? "" : "s", range[0], range[1],
        sending ? "uplink" : "downlink", platform.devices[device].calibration->name,
        radio_power_w(*o.model, sending ? LinkDirection::Uplink : LinkDirection::Downlink, worst * 1e6),
        worst));
  }
}

}  // namespace coinfer::replay
