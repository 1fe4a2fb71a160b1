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
///         partitioner: {cloud: edge2, network: cell7}   # laid over the scenario's partitioner
///         scheduler: {server: edge2}     # laid over the scenario's scheduler
///
/// With a `scheduler:` each user runs its own scheduler instance (its own plan variants from
/// Scheduler::plan_variants, its own frames 0, 1, ..., what its own device measured). In a user's
/// partitioner and scheduler parameters, a string equal to its group's `device` (a device group's
/// name) stands for the user's own device (for_user): `scheduler: {name: cbo, device: phone}` with
/// `users: [{device: phone}]` runs CBO on phone1, phone2, ... each for itself.
///
/// `expected_share: true` in the scenario's `partitioner:` (or a group's) plans each user on a
/// platform where every shared cell (a Wi-Fi network without a base) its device is on runs at its
/// rate divided by the users on it (ExpectedShares), the share it can expect under max-min
/// fairness when all of them send at once.
///
/// Every user runs the scenario's partitioner with its own device as the source, so each gets its
/// own plan. `phase: random` starts a stream user's releases at start_s + u / rate_fps, u uniform
/// in [0, 1) drawn from derive_seed(seed, "phase/<user>"); a Poisson user's gaps come from
/// derive_seed(seed, "arrivals/<user>"). A user's frames are so reproducible alone. User names are
/// `<group>/<i>` (i from 1) for a device group, the group's name for one device.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "sim/core/json_access.hpp"
#include "sim/plan/plan.hpp"
#include "sim/platform/platform.hpp"
#include "sim/workload/workload.hpp"

namespace coinfer {

struct UserGroupSpec {
  std::string name;    ///< empty: the device's name
  std::string device;  ///< a platform device or device group
  Json workload;       ///< null: the scenario's workload
  bool random_phase = false;
  /// Null: the scenario's partitioner. A mapping: its keys laid over the scenario's partitioner
  /// parameters; with `name`, that partitioner with these parameters alone.
  Json partitioner;
  /// `expected_share` in the group's partitioner mapping (taken out of `partitioner`); unset: the
  /// scenario's.
  std::optional<bool> expected_share;
  /// Null: the scenario's scheduler; a mapping as `partitioner`.
  Json scheduler;
};

/// Checks `users:` (a non-empty list of groups); errors name `users[i].key`.
std::vector<UserGroupSpec> parse_user_groups(const Json& users);

struct PopulationUser {
  std::string name;
  std::string device;
  Workload workload;
  std::size_t group = 0;  ///< its index in users:
};

/// The users of `groups` on `platform`, in group order then device order, each with its workload,
/// phase and arrival seed. Errors (path `users[i].device`): an unknown device or group, a device
/// two users claim.
std::vector<PopulationUser> expand_users(const std::vector<UserGroupSpec>& groups,
                                         const Json& scenario_workload, const Platform& platform,
                                         std::uint64_t seed);

/// The partitioner name and parameters `group` runs with, given the scenario's.
std::pair<std::string, Json> group_partitioner(const UserGroupSpec& group, const std::string& name,
                                               const Json& params);
/// The scheduler name and parameters `group` runs with, given the scenario's.
std::pair<std::string, Json> group_scheduler(const UserGroupSpec& group, const std::string& name,
                                             const Json& params);
/// `params` (a mapping) for `user` of `group`: every string value equal to the group's device
/// becomes the user's device.
Json for_user(Json params, const UserGroupSpec& group, const PopulationUser& user);

/// Shares equal plans among a population's users (ScenarioPlan::user_plans): a user's plan, its
/// own device renamed kUserDevice (with_device), joins an equal plan of its group already kept, or
/// is kept as a new one. A group's users are compared with its last kCompared distinct plans only,
/// so a group whose users all plan differently costs O(users), keeping a plan each. On a platform
/// with a device called kUserDevice nothing is shared: each user's plan stands in for itself.
class PlanSharing {
 public:
  static constexpr std::size_t kCompared = 8;
  explicit PlanSharing(const Platform& platform);
  /// `user`'s plan (naming its device as itself), shared with its group's users or kept.
  std::shared_ptr<const SharedPlans> add(const PopulationUser& user, Plan plan);
  /// How many distinct plans are kept.
  std::size_t distinct() const { return distinct_; }

 private:
  bool enabled_ = true;
  std::size_t distinct_ = 0;
  std::map<std::size_t, std::vector<std::shared_ptr<const SharedPlans>>> by_group_;
};

/// `shared`'s plan variants as the user on `device` runs them: its stand-in renamed `device`.
std::vector<Plan> plans_for(const SharedPlans& shared, const std::string& device);

/// What users planning with `expected_share` see: each shared medium (a Wi-Fi or Wi-Fi Direct
/// network without a base) at its rate divided by the users whose devices it reaches (at least 1).
class ExpectedShares {
 public:
  ExpectedShares(const Platform& platform, const std::vector<PopulationUser>& users);
  /// The shared media (network indices, increasing) that reach `device`.
  std::vector<std::size_t> media_of(const std::string& device) const;
  /// The platform with those media at their expected share of the rate; other networks unchanged.
  Platform view(const std::vector<std::size_t>& media) const;
  /// The same in place, on a copy of the platform given to the constructor (which any earlier
  /// call may have changed): one copy serves every user, where a view each would copy the whole
  /// platform (a city's 10,000 devices) once per cell.
  void apply(Platform& copy, const std::vector<std::size_t>& media) const;
  /// How many users network `n` reaches.
  std::size_t users_on(std::size_t n) const { return users_on_[n]; }

 private:
  const Platform& platform_;
  std::vector<std::size_t> media_;                      ///< the shared media
  std::vector<std::unordered_set<std::string>> reach_;  ///< per medium (media_ order), its endpoints
  std::vector<std::size_t> users_on_;                   ///< per network
};

}  // namespace coinfer
