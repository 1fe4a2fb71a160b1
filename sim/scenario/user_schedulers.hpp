#pragma once
/// The schedulers of a population's users (ScenarioSpec::users with a scheduler): one instance per
/// user, so each decides for its own stream (simulate_population's UserSource::scheduler), created
/// with its group's parameters (group_scheduler) made the user's own (for_user).
///
///     UserSchedulers schedulers(spec, registry);
///     Scheduler* s = schedulers.make(user);  // null: no scheduler ("none")
///     variants = user_scheduled_variants(*s, std::move(variants), platform, user);
#include <memory>
#include <vector>

#include "sim/plan/plan.hpp"
#include "sim/platform/platform.hpp"
#include "sim/scenario/population.hpp"
#include "sim/scenario/scenario.hpp"
#include "sim/scenario/scheduler_registry.hpp"

namespace coinfer {

class UserSchedulers {
 public:
  UserSchedulers(const ScenarioSpec& spec, const SchedulerRegistry& registry)
      : spec_(spec), registry_(registry) {}
  /// User `user`'s scheduler, owned here (it lives as long as this object), or null when its group
  /// runs `none`. Bad parameters: InputError at `scheduler.<key>` or `users[i].scheduler.<key>`.
  Scheduler* make(const PopulationUser& user);

 private:
  const ScenarioSpec& spec_;
  const SchedulerRegistry& registry_;
  std::vector<std::unique_ptr<Scheduler>> made_;
};

/// `scheduler.plan_variants` for the user's plan; an InputError it throws names the user.
std::vector<Plan> user_scheduled_variants(Scheduler& scheduler, std::vector<Plan> partitioned,
                                          const Platform& platform, const PopulationUser& user);

}  // namespace coinfer
