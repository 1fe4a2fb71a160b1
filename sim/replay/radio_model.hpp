#pragma once
/// Internal to sim/replay (no SimGrid): the radios and logical channels of the platform's
/// networks, and the one-at-a-time queue of a serialized radio. The dispatcher asks it whether a
/// transfer may go now (or waits for a wake-up, or for its network) and tells it when transfers
/// start and end; it keeps each radio's and channel's idle time, counts wake-ups, adds the radios'
/// JointDNN eq. 21 energy to the results and tells the TraceRecorder of every radio change.
///
/// A radio is (network, device), numbered by Topology::radio_of. Wake-ups are paid per radio or
/// per channel (Network::wake_up_per): a radio (channel) idle longer than the network's
/// power_save_timeout_s first wakes (is set up) for wake_up_s; transfers meanwhile wait for it.
///
///     RadioModel radios(topology, plans, -kInf, trace, result);
///     const auto wait = radios.wait_for_wake_up(slot, frame, route, channel, t);
///     if (wait.awake_s < kInf) /* call radios.on_awake(wait.radio, wait.awake_s) then */;
#include <cstddef>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/plan/compiled_plan.hpp"
#include "sim/platform/topology.hpp"
#include "sim/replay/dispatcher_common.hpp"
#include "sim/replay/simulation_result.hpp"
#include "sim/replay/tally.hpp"
#include "sim/replay/trace_recorder.hpp"

namespace coinfer::replay {

class RadioModel {
 public:
  /// What wait_for_wake_up answered.
  struct Wait {
    bool waits = false;  ///< the transfer waits: on_awake hands it back
    std::size_t radio = 0;
    /// A wake-up (or channel set-up) of `radio` began and ends then; inf: none began.
    double awake_s = std::numeric_limits<double>::infinity();
  };
  /// What on_awake answered.
  struct Awake {
    std::vector<std::size_t> ready;  ///< transfer slots that waited for it, in the order they came
    /// The radio's next channel set-up began and ends then; inf: none.
    double next_awake_s = std::numeric_limits<double>::infinity();
  };

  /// Radios and channels idle since `idle_since_s` (-inf: asleep); a channel for every
  /// (network, Task::channel) a plan variant uses. It counts wake-ups and radio energy in `tally`
  /// and warns in `out`; `topology`, `trace`, `tally` and `out` must outlive it.
  RadioModel(const Topology& topology, const std::vector<CompiledPlan>& plans, double idle_since_s,
             TraceRecorder& trace, Tally& tally, SimulationResult& out);

  /// The channel of transfer task `task` of plan variant `variant`.
  std::size_t channel_of(std::size_t variant, std::size_t task) const {
    return channel_of_.empty() ? kNoChannel : channel_of_[variant][task];
  }
  /// Asks the processor to load radio `radio`'s state (a hint: changes nothing; kNoRadio: none).
  void prefetch(std::uint32_t radio) const {
    if (radio != kNoRadio) __builtin_prefetch(&radios_[radio]);
  }
  /// A transfer's channel on a network that pays no wake-up per channel: it has no state.
  static constexpr std::size_t kNoChannel = static_cast<std::size_t>(-1);
  /// The channel (network, name), added when no plan variant uses it (a probe's); kNoChannel on
  /// a network without per-channel wake-ups (a city's cells keep no channel per phone).
  std::size_t channel_index(std::size_t network, const std::string& channel);

  /// Transfer `slot` (of `frame`, for the wake-up's slice) over `route` on `channel` wants to go
  /// at `t`: whether it waits for its sender's radio (or its channel) to wake first.
  Wait wait_for_wake_up(std::size_t slot, std::size_t frame, const Route& route, std::size_t channel,
                        double t);
  /// The wake-up (set-up) `radio` began ended at `t`.
  Awake on_awake(std::size_t radio, double t);

  /// A serialized radio's network carries one transfer at a time: true when `slot` may start now
  /// (it holds the network until leave_network); false when it was queued.
  bool try_enter_network(std::size_t network, std::size_t slot);
  /// The transfer holding `network` ended: the queued slot that holds it now and starts, if any.
  std::optional<std::size_t> leave_network(std::size_t network);

  /// The radios of both ends and the channel stay awake from `t` while the transfer runs.
  void transfer_started(const Route& route, std::size_t channel, double t);
  /// ...and their idle time restarts at its end `t`.
  void transfer_ended(const Route& route, std::size_t channel, double t);
  /// JointDNN eq. 21 energy of `bytes` sent over `duration_s`, added to both ends' radio energy
  /// (and their probe energy for a probe); a device without the network's radio power model
  /// counts 0 and gets one warning per network.
  void add_radio_energy(const Route& route, double bytes, double duration_s, bool probe);
  /// Once the replay has ended: one warning per device, network and direction whose transfers
  /// ran at throughputs outside the range its radio power fit is stated for (extrapolated energy).
  void warn_out_of_range();

 private:
  /// One cache line: a population keeps one per phone, and a transfer's end finds its radio's
  /// power model here, where behind its device's calibration it cost a line of the device's.
  struct alignas(64) RadioState {
    double last_active_s = -std::numeric_limits<double>::infinity();
    double wake_start_s = 0.0;
    std::size_t waiting_frame = 0;  ///< the first waiting transfer's frame (the wake-up's slice)
    std::uint32_t active = 0;       ///< transfers in flight
    bool waking = false;
    std::vector<std::size_t> waiting;  ///< transfer slots waiting for the wake-up
    /// radio_power_model of its device's calibration for its network's kind (null: none).
    const RadioPowerModel* model = nullptr;
  };
  static_assert(sizeof(RadioState) == 64);
  /// A logical channel (network, Task::channel) of a network paying wake-ups per channel.
  struct ChannelState {
    double last_active_s = -std::numeric_limits<double>::infinity();
    std::size_t active = 0;
    bool pending = false;              ///< queued on, or being set up by, a radio
    std::vector<std::size_t> waiting;  ///< transfer slots waiting for the set-up
    std::size_t waiting_frame = 0;     ///< the first one's frame (the set-up's slice)
  };

  Wait wait_for_radio(std::size_t slot, std::size_t frame, const Route& route, double t);
  Wait wait_for_channel(std::size_t slot, std::size_t frame, const Route& route, std::size_t channel,
                        double t);
  /// The radio starts setting up its first queued channel: returns when it is up.
  double start_channel_setup(std::size_t radio, double t);
  Awake on_channel_set_up(std::size_t radio, double t);
  void touch_radio(std::size_t radio, bool starting, double t);
  RadioState& radio_state(std::size_t radio) { return radios_[radio]; }
  /// The state of `r` as the trace shows it.
  static RadioActivity activity(const RadioState& r) { return {r.waking, r.active, r.last_active_s}; }

  const Topology& topology_;
  TraceRecorder& trace_;
  Tally& tally_;
  SimulationResult& out_;
  double idle_since_s_ = 0.0;
  /// Per radio (Topology::radio_of): a radio's state is where its number says, with no look-up.
  std::vector<RadioState> radios_;
  /// Per radio on a network paying wake-ups per channel: channels to set up, the first one in
  /// progress (absent or empty: none).
  std::unordered_map<std::size_t, FifoVector<std::size_t>> setups_;
  std::vector<ChannelState> channels_;
  std::vector<std::string> channel_names_;
  std::map<std::pair<std::size_t, std::string>, std::size_t> channel_index_;  ///< (network, name)
  /// Per plan variant, per task: channels_ index; empty when no network pays wake-ups per channel.
  std::vector<std::vector<std::size_t>> channel_of_;
  std::vector<bool> per_channel_;  ///< per network: whether it pays wake-ups per channel
  std::vector<bool> network_busy_;
  std::vector<FifoVector<std::size_t>> network_queue_;
  /// A device without a radio power model for a kind of network: one warning names every network
  /// of that kind it sent or received on (a server on 50 cells gets one line, not 50).
  struct MissingRadioModel {
    std::size_t warning = 0;  ///< its index in SimulationResult::warnings
    std::vector<std::size_t> networks;
  };
  std::map<std::pair<std::size_t, NetworkKind>, MissingRadioModel> missing_models_;
  void warn_missing_model(std::size_t device, std::size_t network);
  /// Throughputs outside a fit's stated range, per (device, network, sending).
  struct OutOfRange {
    const RadioPowerModel* model = nullptr;  ///< the device's fit for the network (the platform's)
    double low_mbps = std::numeric_limits<double>::infinity();
    double high_mbps = 0.0;
    std::size_t transfers = 0;
  };
  std::map<std::tuple<std::size_t, std::size_t, bool>, OutOfRange> out_of_range_;
};

}  // namespace coinfer::replay
