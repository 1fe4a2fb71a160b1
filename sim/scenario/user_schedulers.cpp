#include "sim/scenario/user_schedulers.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/core/json_access.hpp"

namespace coinfer {

Scheduler* UserSchedulers::make(const PopulationUser& user) {
  const UserGroupSpec& group = spec_.users[user.group];
  const auto [name, params] = group_scheduler(group, spec_.scheduler, spec_.scheduler_params);
  if (name == "none") return nullptr;
  const std::string path = group.scheduler.is_null()
                               ? std::string("scheduler.name")
                               : join_path(index_path("users", user.group), "scheduler.name");
  made_.push_back(registry_.create(name, for_user(params, group, user), "", path));
  return made_.back().get();
}

std::vector<Plan> user_scheduled_variants(Scheduler& scheduler, std::vector<Plan> partitioned,
                                          const Platform& platform, const PopulationUser& user) {
  try {
    return scheduler.plan_variants(std::move(partitioned), platform);
  } catch (const InputError& e) {
    if (!e.file().empty()) throw;
    throw InputError("", e.path(),
                     fmt::format("for user '{}' on '{}': {}", user.name, user.device, e.message()));
  }
}

}  // namespace coinfer
