#include "sim/scenario/plan_memo.hpp"

#include <algorithm>

namespace coinfer {

PlanMemo::PlanMemo(const Platform& platform)
    : platform_(platform), group_of_(platform.devices.size(), 0), places_(platform.devices.size()) {
  index_.reserve(platform.devices.size());
  for (std::size_t d = 0; d < platform.devices.size(); ++d) index_.emplace(platform.devices[d].name, d);
  for (std::size_t g = 0; g < platform.groups.size(); ++g) {
    const DeviceGroup& group = platform.groups[g];
    if (group.count < 2) continue;
    for (std::size_t d = group.first; d < group.first + group.count; ++d) group_of_[d] = g + 1;
  }
  // Networks in order, so each device's places come out sorted.
  const auto place = [&](const std::string& device, std::size_t network, std::uint32_t role) {
    if (const auto it = index_.find(device); it != index_.end())
      places_[it->second].push_back(static_cast<std::uint32_t>(3 * network) + role);
  };
  for (std::size_t n = 0; n < platform.networks.size(); ++n) {
    const Network& net = platform.networks[n];
    for (const auto& m : net.members) place(m, n, 0);
    if (!net.base.empty()) place(net.base, n, 1);
    if (!net.owner.empty()) place(net.owner, n, 2);
  }
  for (auto& p : places_) std::sort(p.begin(), p.end());  // a member listed twice: same places
}

std::optional<PlanMemo::Key> PlanMemo::key(const Partitioner* partitioner, bool on_share,
                                           const std::string& device) const {
  const auto it = index_.find(device);
  if (it == index_.end() || group_of_[it->second] == 0) return std::nullopt;
  return Key{partitioner, on_share, group_of_[it->second], places_[it->second]};
}

std::shared_ptr<const SharedPlans> PlanMemo::find(const std::optional<Key>& key) const {
  if (!key) return nullptr;
  const auto it = kept_.find(*key);
  return it == kept_.end() ? nullptr : it->second;
}

bool PlanMemo::keep(const std::optional<Key>& key, std::shared_ptr<const SharedPlans> plans) {
  if (!key || plans->stand_in != kUserDevice) return false;
  const DeviceGroup& group = platform_.groups[std::get<2>(*key) - 1];
  const auto in_group = [&](const std::string& device) {
    const auto it = index_.find(device);
    return it != index_.end() && it->second >= group.first && it->second < group.first + group.count;
  };
  // A pair channel ("a|b", pair_channel) names two devices.
  const auto names_in_channel = [&](const std::string& channel) {
    const auto bar = channel.find('|');
    return bar != std::string::npos &&
           (in_group(channel.substr(0, bar)) || in_group(channel.substr(bar + 1)));
  };
  for (const auto& plan : plans->variants)
    for (const auto& t : plan.tasks)
      if (in_group(t.device) || in_group(t.src) || in_group(t.dst) || names_in_channel(t.channel))
        return false;
  kept_.emplace(*key, std::move(plans));
  return true;
}

}  // namespace coinfer
