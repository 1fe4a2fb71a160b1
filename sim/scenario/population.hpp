#pragma once
/// A scenario's population: `users:` instead of one `source`, many phones' streams at once on
/// shared cells and servers (simulate_population). Each group names a platform device, or a device
/// group declared with `count` (platform.hpp DeviceGroup): one user per device.
///
///     users:
///       - name: phones                 # default: the device's name
///         device: phone                # a device, or a group: phone1 .. phone8
///         workload: {kind: stream, rate_fps: 5, frames: 50}   # default: the scenario's workload
///         phase: random                # aligned (default) | random
///
/// Every user runs the scenario's partitioner with its own device as the source, so each gets its
/// own plan. `phase: random` starts a stream user's releases at start_s + u / rate_fps, u uniform
/// in [0, 1) drawn from derive_seed(seed, "phase/<user>"); a Poisson user's gaps come from
/// derive_seed(seed, "arrivals/<user>"). A user's frames are so reproducible alone. User names are
/// `<group>/<i>` (i from 1) for a device group, the group's name for one device.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/json_access.hpp"
#include "sim/platform/platform.hpp"
#include "sim/workload/workload.hpp"

namespace coinfer {

struct UserGroupSpec {
  std::string name;    ///< empty: the device's name
  std::string device;  ///< a platform device or device group
  Json workload;       ///< null: the scenario's workload
  bool random_phase = false;
};

/// Checks `users:` (a non-empty list of groups); errors name `users[i].key`.
std::vector<UserGroupSpec> parse_user_groups(const Json& users);

struct PopulationUser {
  std::string name;
  std::string device;
  Workload workload;
};

/// The users of `groups` on `platform`, in group order then device order, each with its workload,
/// phase and arrival seed. Errors (path `users[i].device`): an unknown device or group, a device
/// two users claim.
std::vector<PopulationUser> expand_users(const std::vector<UserGroupSpec>& groups,
                                         const Json& scenario_workload, const Platform& platform,
                                         std::uint64_t seed);

}  // namespace coinfer
