#pragma once
/// Platform files (`platforms/*.yaml`). Schema (unknown keys are rejected; rates may be given
/// as `<key>_bps` or `<key>_mbps`, exactly one of the two):
///
///     name: edge_wifi_lte                     # optional, default: the file name
///     notes: "..."                            # optional, free text
///     devices:
///       - name: phone                         # letters, digits, '_', '-', '.'
///         calibration: calibration/nexus5.json   # relative to this file
///         role: phone                         # optional free text
///         slots: 1                            # optional: compute tasks run at once, in [1, 1024]
///         queue: fifo                         # optional: fifo (default) | edf (platform.hpp
///                                             #   QueueDiscipline)
///         batching: {max_batch: 8, max_wait_ms: 5}   # optional dynamic batching (platform.hpp
///                                             #   Batching): max_batch in [1, 1024], wait in [0, 1e6] ms
///         drop_expired: false                 # optional: drop a frame whose deadline passed while
///                                             #   its task waited here (Device::drop_expired)
///         time_scale: 2                       # optional: every compute time of the calibration x2
///         op_time_scale: {fc: 4}              # optional: the named op classes only, x4
///         batch_lanes: 8                      # optional: a batch of B runs min(B, 8) inputs at
///                                             #   once (DeviceCalibration::batch_lanes; default 1)
///         count: 8                            # optional: 8 copies named phone1 ... phone8, in
///                                             #   [1, 16384]; members may name the group (`phone`);
///                                             #   at most 16384 devices in all
///     networks:
///       - name: wlan
///         kind: wifi                          # wifi | wifi_direct | wired | lte | 3g | 4g
///         members: [phone, server]            # >= 2 (cellular: >= 1, the radio side)
///         owner: server                       # optional, wifi: access point / group owner
///         rate_mbps: 18.88                    # wifi / wired: nominal rate
///         latency_s: 0.005                    # optional, default 0 (end to end)
///         wake_up_s: 0.1                      # optional radio wake-up (wireless only)
///         power_save_timeout_s: 0.2           # required when wake_up_s > 0
///         wake_up_per: radio                  # optional: radio (default) | channel (platform.hpp
///                                             #   WakeUpPer: idle sender radio vs idle channel)
///         serialized_radio: false             # optional: one transfer at a time
///         bandwidth:                          # optional time variation
///           model: normal                     # constant | normal | uniform | empirical | trace
///           stddev_mbps: 4                    # normal: mean_* (default: the rate), stddev_*,
///           floor_mbps: 1                     #   floor_* (> 0)
///           period_s: 1                       # one draw per period (random models)
///           # uniform: low_*, high_*; empirical: values_* (list); trace: file (two columns
///           # time_s rate_bps, '#' comments) or points [[t, bps], ...], optional period_s repeat
///         # or a public trace format (trace_formats.hpp, docs/guide/network-traces.md):
///         # bandwidth: {trace: lte.down, format: mahimahi, loop: true, start_s: 30, scale: 0.5}
///       - name: lte                           # an access network: cellular, or wifi with a base
///         kind: lte
///         members: [phone]
///         base: server                        # the wired-side device
///         uplink: {rate_mbps: 5.85, latency_s: 0.035, bandwidth: {...}}
///         downlink: {rate_mbps: 12.7, latency_s: 0.035}
///
/// Ranges: rates (rate, mean, floor, low, high, values, trace points) in [1, 1e12] bps (stddev in
/// [0, 1e12]), latency_s and wake_up_s in [0, 3600] s, power_save_timeout_s and trace times in
/// [0, 1e9] s, period_s in [1e-3, 1e9] s (a trace's repeat period: 0 = none).
///
/// Every error names the file and key path:
/// `platforms/x.yaml: networks[1].members[2]: unknown device 'phone9'; devices: a, b`.
#include <string>

#include "sim/core/json_access.hpp"
#include "sim/platform/platform.hpp"

namespace coinfer {

/// Loads and validates a platform YAML file and the calibration (and trace) files it names.
/// Throws `InputError` (malformed YAML, unknown device, negative rate, missing file, ...).
/// Example: `Platform p = load_platform_file("platforms/wlan4.yaml");`
Platform load_platform_file(const std::string& path);

/// While one lives, `load_platform_file` reads each file (by its absolute path) once and returns
/// copies of what it read: a sweep, which loads every point's platform when it checks the points,
/// so that each run (a child process, which inherits the memo) does not parse the same YAML and
/// calibrations again. A file changed while it lives is not read again. Not thread-safe; one at a
/// time (nesting throws `std::logic_error`).
class PlatformFileMemo {
 public:
  PlatformFileMemo();
  ~PlatformFileMemo();
  PlatformFileMemo(const PlatformFileMemo&) = delete;
  PlatformFileMemo& operator=(const PlatformFileMemo&) = delete;
};

/// The same from an already-parsed document (YAML turned JSON), e.g. a scenario's platform
/// after `--set` overrides. `file` names it in errors; relative calibration and trace paths
/// resolve against `base_dir`.
Platform platform_from_json(const Json& doc, const std::string& file, const std::string& base_dir);

/// Parses a bandwidth trace text (two columns `time_s rate_bps` separated by spaces or a
/// comma; blank lines, `#` comments and a non-numeric header line are skipped). Throws
/// `InputError(file, "line N", ...)` on a bad line, decreasing times or a rate <= 0.
/// The `coinfer` format of trace_formats.hpp (`parse_coinfer_trace`), its points only.
std::vector<std::pair<double, double>> parse_bandwidth_trace(const std::string& text,
                                                             const std::string& file);

}  // namespace coinfer
