#pragma once
/// Plans once per kind of user. Users whose devices are alike (copies of one `count` group,
/// DeviceGroup, that are endpoints of the same networks in the same places: member, base or
/// owner) and who plan with the same partitioner on the same view of the platform get one plan,
/// when the partitioner says alike sources plan alike (Partitioner::plans_alike_sources_alike) and
/// the plan names no other copy of the group (it would then be another's swapped, not renamed).
/// A city's 10,000 phones on 50 cells plan 50 times, not 10,000 times.
///
///     PlanMemo memo(platform);
///     const auto key = memo.key(partitioner, on_share, user.device);
///     if (const auto hit = memo.find(key)) return hit;           // a like user's plan
///     ... partition, PlanSharing::add ...
///     memo.keep(key, shared);                                   // if the partitioner allows
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "sim/plan/plan.hpp"
#include "sim/platform/platform.hpp"

namespace coinfer {

class Partitioner;

class PlanMemo {
 public:
  /// Which partitioner (one instance), whether on the expected share, the device's group, and its
  /// places in the networks.
  using Key = std::tuple<const Partitioner*, bool, std::size_t, std::vector<std::uint32_t>>;

  explicit PlanMemo(const Platform& platform);
  /// The kind of user on `device` planning with `partitioner`; none when the device is in no group
  /// of two or more (it has no like).
  std::optional<Key> key(const Partitioner* partitioner, bool on_share, const std::string& device) const;
  /// A like user's plans, or null.
  std::shared_ptr<const SharedPlans> find(const std::optional<Key>& key) const;
  /// Keeps `plans` (stood in for by kUserDevice, PlanSharing) for `key`'s users, unless they name
  /// another device of its group. Returns whether it kept them.
  bool keep(const std::optional<Key>& key, std::shared_ptr<const SharedPlans> plans);

 private:
  const Platform& platform_;
  std::unordered_map<std::string, std::size_t> index_;  ///< device name -> index
  std::vector<std::size_t> group_of_;                   ///< per device: its group + 1, or 0
  std::vector<std::vector<std::uint32_t>> places_;  ///< per device: 3 x network + (0 member, 1 base, 2 owner)
  std::map<Key, std::shared_ptr<const SharedPlans>> kept_;
};

}  // namespace coinfer
