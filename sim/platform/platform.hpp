#pragma once
/// A platform in memory: devices (each with its calibration) and the networks joining them.
/// Plain structs, no SimGrid: `sim/replay` builds the SimGrid platform from them, the analytic
/// cost reads nominal rates from them. Loaded from YAML by `load_platform_file`
/// (platform_yaml.hpp, schema documented there and in README "Platform files").
///
/// Rates are in bits per second (`rate_bps`); a transfer of S bytes alone on a link of rate R
/// and latency L takes L + 8 S / R seconds.
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "sim/calibration/device_calibration.hpp"
#include "sim/core/optional_box.hpp"
#include "sim/core/shared_value.hpp"

namespace coinfer {

enum class NetworkKind { Wifi, WifiDirect, Lte, Cellular3g, Cellular4g, Wired };

/// What a network's wake-up is paid per (`Network::wake_up_per`).
/// - Radio: a transfer waits `wake_up_s` when its sender's radio has been idle (no transfer
///   sending or receiving) for longer than `power_save_timeout_s`.
/// - Channel: a transfer waits `wake_up_s` when its *channel* (`Task::channel`, by default the
///   endpoint pair) has carried no transfer for longer than the timeout; a radio sets up one
///   channel at a time, so a device opening n channels waits n wake-ups ([MoDNN §4.1-4.2]:
///   wake-up time grows with the number of transmission channels to establish).
enum class WakeUpPer { Radio, Channel };

/// How a link's rate varies over time. Random models draw one value per `period_s` from a
/// generator seeded by the scenario seed and the link name (BandwidthSeries).
struct BandwidthModel {
  enum class Kind { Constant, Normal, Uniform, Empirical, Trace };
  Kind kind = Kind::Constant;
  double mean_bps = 0.0;           ///< Normal (defaults to the link's rate_bps)
  double stddev_bps = 0.0;         ///< Normal
  double floor_bps = 0.0;          ///< Normal: draws below the floor are raised to it
  double low_bps = 0.0;            ///< Uniform
  double high_bps = 0.0;           ///< Uniform
  std::vector<double> values_bps;  ///< Empirical: each period draws one of them uniformly
  /// Random models: the length of one period. Trace: the repeat period (0: no repeat).
  double period_s = 0.0;
  /// Trace: (time_s, rate_bps) points, times increasing from 0; the rate holds until the next
  /// point and after the last one (or the trace repeats every period_s).
  std::vector<std::pair<double, double>> trace;
  std::string trace_file;  ///< where the trace was read from (informational)
};

/// One direction (or both, for shared media) of a network: nominal rate, latency, variation.
struct LinkSpec {
  double rate_bps = 0.0;
  double latency_s = 0.0;
  BandwidthModel bandwidth;
};

/// A network joining devices.
/// - wifi / wifi_direct without a base: one shared medium; every member reaches every other
///   through it, all transfers in the cell share `link` (max-min fair, SimGrid's sharing).
/// - access networks: lte / 3g / 4g (always) and wifi / wifi_direct with a `base`: each member
///   has its own `uplink` (member -> base) and `downlink` (base -> member), e.g. a phone
///   reaching an edge server through an access point; member -> member goes up then down
///   (latencies add).
/// - wired: each member has a full-duplex port of rate `link.rate_bps`; a transfer a -> b uses
///   a's outgoing and b's incoming port; `link.latency_s` is end to end.
struct Network {
  std::string name;
  NetworkKind kind = NetworkKind::Wifi;
  std::vector<std::string> members;  ///< device names (cellular: the radio side)
  std::string base;                  ///< access networks: the wired-side device (e.g. the server)
  std::string owner;                 ///< wifi: access point / group owner (informational)
  LinkSpec link;                     ///< shared wifi cells, wired
  LinkSpec uplink;                   ///< access networks
  LinkSpec downlink;                 ///< access networks
  /// Radio power save: a member's radio idle for longer than `power_save_timeout_s` sleeps,
  /// and its next transfer first waits `wake_up_s` (MoDNN: wake-up vs transmission time).
  double wake_up_s = 0.0;
  double power_save_timeout_s = std::numeric_limits<double>::infinity();
  WakeUpPer wake_up_per = WakeUpPer::Radio;
  /// The owner's radio handles one transfer at a time (MoDNN / AdaLearner FIFO radio):
  /// transfers in this network run one after another in the order they became ready.
  bool serialized_radio = false;

  bool is_cellular() const;
  bool is_wireless() const;
  /// Members reach a base through their own uplink and downlink (cellular, or wifi with a base).
  bool is_access() const { return !base.empty(); }
  /// One medium every transfer in it shares, up and down (Wi-Fi or Wi-Fi Direct without a base).
  bool is_shared_medium() const {
    return !is_access() && (kind == NetworkKind::Wifi || kind == NetworkKind::WifiDirect);
  }
  /// Whether a transfer waits for its channel's wake-up rather than its radio's (WakeUpPer).
  bool wakes_per_channel() const { return wake_up_s > 0.0 && wake_up_per == WakeUpPer::Channel; }
  /// Members plus the base: every device this network reaches.
  std::vector<std::string> endpoints() const;
  bool has_endpoint(const std::string& device) const;
};

/// The order in which a device serves its ready tasks (`queue:` in a platform file).
/// - fifo: by the release time of the task's frame (whichever stream released it).
/// - edf: earliest deadline first, by release time + the stream's deadline_s (a stream without a
///   deadline comes after every stream with one); ties by release time.
enum class QueueDiscipline { Fifo, Edf };

/// Dynamic batching (`batching: {max_batch, max_wait_ms}`), as serving systems batch requests:
/// when a unit is free, the oldest ready task starts together with up to max_batch - 1 ready tasks
/// doing the same work (the same task id and duration, whichever frame or user they belong to);
/// while fewer than max_batch are ready, the oldest waits at most max_wait_s from when it became
/// ready. A batch of b takes time_ratio[b - 1] times one task's duration.
struct Batching {
  std::size_t max_batch = 1;
  double max_wait_s = 0.0;
  /// A batch of b tasks takes time_ratio[b - 1] x one task's time (time_ratio[0] = 1). Scenarios
  /// fill it from the cost model: the model's forward time at batch b over batch 1 on the device's
  /// calibration (batched kernels, DeviceCalibration::batch_lanes). Empty until filled: the replay
  /// refuses a batching device without it.
  std::vector<double> time_ratio;
};

struct Device {
  std::string name;
  std::string calibration_file;  ///< as resolved (relative to the platform file's folder)
  std::string role;              ///< free text: "phone", "worker", "server", ...
  /// Compute tasks it runs at once (default 1: one at a time). A GPU server answering several
  /// requests concurrently (one inference per CUDA stream) has more; each runs at full speed.
  std::size_t slots = 1;
  QueueDiscipline queue = QueueDiscipline::Fifo;
  OptionalBox<Batching> batching;  ///< none: one task per execution (on the heap: most devices have none)
  /// Admission control: a task whose frame's deadline (release + the stream's deadline_s) has
  /// passed when its turn comes is not run, and its frame is dropped (DropReason::Expired); the
  /// frame's tasks already queued or running elsewhere finish, none after them starts.
  bool drop_expired = false;
  /// Copies of a device share it until one changes it (`calibration.edit()`): the devices of a
  /// `count` group hold one. Reads as `const DeviceCalibration&` (`calibration->power`).
  SharedValue<DeviceCalibration> calibration;
};

/// Identical devices declared once (`count` in a platform file): devices[first, first + count),
/// named `<name>1` ... `<name><count>`. A network's members may name the group for all of them.
struct DeviceGroup {
  std::string name;
  std::size_t first = 0;
  std::size_t count = 0;
};

struct Platform {
  std::string name;
  std::string file;  ///< the YAML file it came from ("" when built in code)
  std::vector<Device> devices;
  std::vector<Network> networks;
  std::vector<DeviceGroup> groups;

  /// The device names for an error message: groups as `w1..w8`, at most 12 entries then a count.
  std::string describe_devices() const;

  /// Index of a device; throws `InputError` listing the known names.
  std::size_t device_index(const std::string& name) const;
  std::optional<std::size_t> device_index_or_null(const std::string& name) const;
  std::optional<std::size_t> network_index_or_null(const std::string& name) const;
  /// The first network (in file order) reaching both devices, or null.
  std::optional<std::size_t> network_between(const std::string& a, const std::string& b) const;
};

/// "wifi", "wifi_direct", "lte", "3g", "4g", "wired".
std::string network_kind_name(NetworkKind kind);
/// Key of the calibration's radio power table for this kind ("wifi", "wifi_direct", "lte",
/// "3g", "4g"); empty for wired networks (no radio).
std::string radio_power_key(NetworkKind kind);
/// The device's radio power model for this kind of network (wifi_direct falls back to wifi,
/// lte to 4g), or null when the calibration has none.
const RadioPowerModel* radio_power_model(const DeviceCalibration& calibration, NetworkKind kind);

}  // namespace coinfer
