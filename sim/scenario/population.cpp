#include "sim/scenario/population.hpp"

#include <algorithm>
#include <map>
#include <random>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/kernels/tensor.hpp"

namespace coinfer {

std::vector<UserGroupSpec> parse_user_groups(const Json& users) {
  if (!users.is_array() || users.empty())
    throw InputError("", "users", "expected a non-empty list of user groups ({device, workload, phase})");
  std::vector<UserGroupSpec> groups;
  for (std::size_t i = 0; i < users.size(); ++i) {
    const auto path = index_path("users", i);
    const Json& g = users[i];
    if (!g.is_object()) throw InputError("", path, "expected a mapping {device, workload, phase}");
    json_reject_unknown_keys(g, path, {"name", "device", "workload", "phase", "partitioner", "scheduler"});
    UserGroupSpec spec;
    spec.device = json_string(g, "device", path);
    spec.name = json_string_or(g, "name", path, "");
    if (const Json* w = json_find(g, "workload", path)) {
      workload_from_json(*w, join_path(path, "workload"));
      spec.workload = *w;
    }
    if (json_find(g, "phase", path))
      spec.random_phase = json_enum(g, "phase", path, {"aligned", "random"}) == "random";
    if (const Json* p = json_find(g, "partitioner", path)) {
      if (!p->is_object())
        throw InputError("", join_path(path, "partitioner"),
                         "expected a mapping of partitioner parameters (with `name`: another partitioner)");
      if (p->contains("name") && !(*p)["name"].is_string())
        throw InputError("", join_path(join_path(path, "partitioner"), "name"),
                         "expected a partitioner name");
      spec.partitioner = *p;
      if (spec.partitioner.contains("expected_share")) {
        spec.expected_share = json_bool_or(*p, "expected_share", join_path(path, "partitioner"), false);
        spec.partitioner.erase("expected_share");
      }
    }
    if (const Json* p = json_find(g, "scheduler", path)) {
      if (!p->is_object())
        throw InputError("", join_path(path, "scheduler"),
                         "expected a mapping of scheduler parameters (with `name`: another scheduler)");
      if (p->contains("name") && !(*p)["name"].is_string())
        throw InputError("", join_path(join_path(path, "scheduler"), "name"), "expected a scheduler name");
      spec.scheduler = *p;
    }
    groups.push_back(std::move(spec));
  }
  return groups;
}

namespace {

// Uniform in [0, 1) from the top 53 bits of mt19937_64 (ReleaseClock's draw).
double uniform01(std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  return static_cast<double>(engine() >> 11) * 0x1.0p-53;
}

}  // namespace

std::vector<PopulationUser> expand_users(const std::vector<UserGroupSpec>& groups,
                                         const Json& scenario_workload, const Platform& platform,
                                         std::uint64_t seed) {
  std::vector<PopulationUser> users;
  std::map<std::size_t, std::string> claimed;  // device index -> the user on it
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const UserGroupSpec& g = groups[i];
    const auto path = index_path("users", i);
    const Json& workload_json = g.workload.is_null() ? scenario_workload : g.workload;
    const auto workload_path = g.workload.is_null() ? std::string("workload") : join_path(path, "workload");
    const Workload base = workload_from_json(workload_json, workload_path);
    if (g.random_phase && !(base.kind == WorkloadKind::Stream && base.arrivals == Arrivals::Periodic))
      throw InputError("", join_path(path, "phase"),
                       "a random phase needs a periodic stream workload (a Poisson stream has no phase)");
    std::size_t first = 0, count = 1;
    bool group = false;
    for (const auto& dg : platform.groups)
      if (dg.name == g.device) {
        first = dg.first;
        count = dg.count;
        group = true;
      }
    if (!group) {
      const auto d = platform.device_index_or_null(g.device);
      if (!d)
        throw InputError("", join_path(path, "device"),
                         fmt::format("unknown device or device group '{}' in platform '{}' (devices: {})",
                                     g.device, platform.name, platform.describe_devices()));
      first = *d;
    }
    const std::string group_name = g.name.empty() ? g.device : g.name;
    for (std::size_t j = 0; j < count; ++j) {
      PopulationUser u;
      u.device = platform.devices[first + j].name;
      u.name = group ? fmt::format("{}/{}", group_name, j + 1) : group_name;
      if (const auto [it, fresh] = claimed.emplace(first + j, u.name); !fresh)
        throw InputError(
            "", join_path(path, "device"),
            fmt::format("device '{}' already carries user '{}': one user per device", u.device, it->second));
      u.workload = base;
      u.group = i;
      u.workload.seed = derive_seed(seed, "arrivals/" + u.name);
      if (g.random_phase)
        u.workload.start_s += uniform01(derive_seed(seed, "phase/" + u.name)) / base.rate_fps;
      users.push_back(std::move(u));
    }
  }
  return users;
}

namespace {

// A group's component mapping laid over the scenario's (see group_partitioner).
std::pair<std::string, Json> group_component(const Json& group_params, const std::string& name,
                                             const Json& params) {
  if (group_params.is_null()) return {name, params};
  Json own = group_params;
  if (own.contains("name")) {
    const auto other = own["name"].get<std::string>();
    own.erase("name");
    if (other != name) return {other, own};
  }
  Json merged = params;
  for (const auto& [key, value] : own.items()) merged[key] = value;
  return {name, merged};
}

}  // namespace

std::pair<std::string, Json> group_partitioner(const UserGroupSpec& group, const std::string& name,
                                               const Json& params) {
  return group_component(group.partitioner, name, params);
}

std::pair<std::string, Json> group_scheduler(const UserGroupSpec& group, const std::string& name,
                                             const Json& params) {
  return group_component(group.scheduler, name, params);
}

Json for_user(Json params, const UserGroupSpec& group, const PopulationUser& user) {
  for (auto& [key, value] : params.items())
    if (value.is_string() && value.get<std::string>() == group.device) value = user.device;
  return params;
}

ExpectedShares::ExpectedShares(const Platform& platform, const std::vector<PopulationUser>& users)
    : platform_(platform), users_on_(platform.networks.size(), 0) {
  for (std::size_t n = 0; n < platform.networks.size(); ++n) {
    const Network& network = platform.networks[n];
    if (!network.is_shared_medium()) continue;
    media_.push_back(n);
    const auto endpoints = network.endpoints();
    auto& reach = reach_.emplace_back(endpoints.begin(), endpoints.end());
    for (const auto& u : users)
      if (reach.count(u.device)) ++users_on_[n];
  }
}

std::vector<std::size_t> ExpectedShares::media_of(const std::string& device) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < media_.size(); ++i)
    if (reach_[i].count(device)) out.push_back(media_[i]);
  return out;
}

Platform ExpectedShares::view(const std::vector<std::size_t>& media) const {
  Platform out = platform_;
  apply(out, media);
  return out;
}

void ExpectedShares::apply(Platform& copy, const std::vector<std::size_t>& media) const {
  for (auto n : media_) copy.networks[n].link.rate_bps = platform_.networks[n].link.rate_bps;
  for (auto n : media)
    copy.networks[n].link.rate_bps =
        platform_.networks[n].link.rate_bps / static_cast<double>(std::max<std::size_t>(1, users_on_[n]));
}

namespace {

Plan renamed(Plan plan, const std::string& from, const std::string& to) {
  for (auto& t : plan.tasks) t = with_device(std::move(t), from, to);
  return plan;
}

}  // namespace

PlanSharing::PlanSharing(const Platform& platform)
    : enabled_(!platform.device_index_or_null(kUserDevice).has_value()) {}

std::shared_ptr<const SharedPlans> PlanSharing::add(const PopulationUser& user, Plan plan) {
  if (!enabled_) {
    ++distinct_;
    return std::make_shared<const SharedPlans>(SharedPlans{user.device, {std::move(plan)}});
  }
  plan = renamed(std::move(plan), user.device, kUserDevice);
  auto& kept = by_group_[user.group];
  const std::size_t from = kept.size() > kCompared ? kept.size() - kCompared : 0;
  for (std::size_t i = kept.size(); i-- > from;) {
    const Plan& other = kept[i]->variants.front();
    if (other.name == plan.name && other == plan) return kept[i];
  }
  ++distinct_;
  return kept.emplace_back(std::make_shared<const SharedPlans>(SharedPlans{kUserDevice, {std::move(plan)}}));
}

std::vector<Plan> plans_for(const SharedPlans& shared, const std::string& device) {
  std::vector<Plan> out;
  out.reserve(shared.variants.size());
  for (const auto& v : shared.variants) out.push_back(renamed(v, shared.stand_in, device));
  return out;
}

}  // namespace coinfer
