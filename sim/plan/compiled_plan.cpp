#include "sim/plan/compiled_plan.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <queue>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/core/error.hpp"

namespace coinfer {
namespace {

class PlanChecker {
 public:
  PlanChecker(const Plan& plan, const Topology& topology, const StandIn& stand_in)
      : plan_(plan), topo_(topology), stand_in_(stand_in) {}

  CompiledPlan run() {
    if (plan_.tasks.empty()) fail("tasks", "the plan has no tasks");
    out_.plan = &plan_;
    tasks_.resize(plan_.tasks.size());
    deps_.resize(plan_.tasks.size());
    succs_.resize(plan_.tasks.size());
    index_ids();
    for (std::size_t i = 0; i < plan_.tasks.size(); ++i) resolve_task(i);
    for (std::size_t i = 0; i < plan_.tasks.size(); ++i) resolve_deps(i);
    order();
    mark_first_stage();
    pack_indices();
    split();
    return std::move(out_);
  }

 private:
  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    if (!plan_.file.empty()) throw InputError(plan_.file, path, message);
    throw InputError(fmt::format("plan '{}'", plan_.name), path, message);
  }

  std::string task_path(std::size_t i) const { return index_path("tasks", i); }

  void index_ids() {
    for (std::size_t i = 0; i < plan_.tasks.size(); ++i) {
      const auto& id = plan_.tasks[i].id;
      if (id.empty()) fail(task_path(i) + ".id", "expected a non-empty id");
      if (!ids_.emplace(id, i).second) fail(task_path(i) + ".id", fmt::format("duplicate task id '{}'", id));
    }
  }

  std::size_t device(const std::string& name, const std::string& path) const {
    if (!stand_in_.name.empty() && name == stand_in_.name) return stand_in_.device;
    if (auto d = topo_.device_index_or_null(name)) return *d;
    std::vector<std::string> names;
    for (const auto& d : topo_.platform().devices) names.push_back(d.name);
    fail(path, fmt::format("unknown device '{}'; devices: {}", name, fmt::join(names, ", ")));
  }

  void resolve_task(std::size_t i) {
    const Task& t = plan_.tasks[i];
    CompiledTask& c = tasks_[i];
    const auto path = task_path(i);
    c.kind = t.kind;
    if (t.kind == TaskKind::Compute) {
      c.device = static_cast<std::uint32_t>(device(t.device, path + ".device"));
      if (!(t.duration_s >= 0.0) || !std::isfinite(t.duration_s))
        fail(path + ".duration_s", fmt::format("expected a finite duration >= 0, got {}", t.duration_s));
      c.duration_s = t.duration_s;
      return;
    }
    c.src = static_cast<std::uint32_t>(device(t.src, path + ".src"));
    c.dst = static_cast<std::uint32_t>(device(t.dst, path + ".dst"));
    c.device = c.dst;
    if (c.src == c.dst) fail(path + ".dst", fmt::format("a transfer from '{}' to itself", t.src));
    if (!(t.bytes >= 0.0) || !std::isfinite(t.bytes))
      fail(path + ".bytes", fmt::format("expected a finite size >= 0, got {}", t.bytes));
    c.bytes = t.bytes;
    const auto& platform = topo_.platform();
    std::optional<std::size_t> net;
    if (!t.network.empty()) {
      net = platform.network_index_or_null(t.network);
      if (!net) fail(path + ".network", fmt::format("unknown network '{}'", t.network));
    } else {
      net = topo_.network_between(c.src, c.dst);
      if (!net) fail(path, fmt::format("no network connects '{}' and '{}'", t.src, t.dst));
    }
    c.route = topo_.route_or_null(*net, c.src, c.dst);
    if (c.route == nullptr)
      fail(path + ".network", fmt::format("network '{}' does not connect '{}' and '{}'",
                                          platform.networks[*net].name, t.src, t.dst));
    const Network& on = platform.networks[*net];
    if (on.wakes_per_channel()) {
      out_.channels.resize(plan_.tasks.size());
      const auto& devices = platform.devices;
      out_.channels[i] = t.channel.empty() ? pair_channel(devices[c.src].name, devices[c.dst].name)
                         : stand_in_.name.empty()
                             ? t.channel
                             : channel_with_device(t.channel, stand_in_.name, devices[stand_in_.device].name);
    }
  }

  // Where a task's output lives: a compute's device, a transfer's destination.
  std::size_t location(std::size_t task) const { return tasks_[task].device; }

  // A dependency `id` of task i at `path`: known, not i itself, not listed twice (in deps or after).
  std::size_t resolve_one(std::size_t i, const std::string& id, const std::string& path) {
    auto it = ids_.find(id);
    if (it == ids_.end()) fail(path, fmt::format("unknown task '{}'", id));
    const auto d = it->second;
    if (d == i) fail(path, "a task cannot depend on itself");
    const auto& deps = deps_[i];
    if (std::find(deps.begin(), deps.end(), d) != deps.end())
      fail(path, fmt::format("'{}' is listed twice", id));
    return d;
  }

  void resolve_deps(std::size_t i) {
    const Task& t = plan_.tasks[i];
    CompiledTask& c = tasks_[i];
    const auto needed_at = t.kind == TaskKind::Compute ? c.device : c.src;
    for (std::size_t k = 0; k < t.deps.size(); ++k) {
      const auto path = index_path(task_path(i) + ".deps", k);
      const auto d = resolve_one(i, t.deps[k], path);
      if (location(d) != needed_at) {
        const auto& devices = topo_.platform().devices;
        fail(path, fmt::format("'{}' leaves its output on '{}' but '{}' needs it on '{}'; add a transfer",
                               t.deps[k], devices[location(d)].name, t.id, devices[needed_at].name));
      }
      add_dep(i, d);
    }
    for (std::size_t k = 0; k < t.after.size(); ++k) {  // ordering only: no location check
      const auto d = resolve_one(i, t.after[k], index_path(task_path(i) + ".after", k));
      add_dep(i, d);
    }
    if (deps_[i].empty()) entries_.push_back(static_cast<std::uint32_t>(i));
  }

  // Kahn's algorithm with a min-heap on the plan index: a stable topological order.
  void order() {
    const auto n = tasks_.size();
    std::vector<std::size_t> pending(n);
    std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
    for (std::size_t i = 0; i < n; ++i)
      if ((pending[i] = deps_[i].size()) == 0) ready.push(i);
    while (!ready.empty()) {
      const auto i = ready.top();
      ready.pop();
      order_.push_back(static_cast<std::uint32_t>(i));
      for (auto s : succs_[i])
        if (--pending[s] == 0) ready.push(s);
    }
    if (order_.size() != n) report_cycle(pending);
  }

  [[noreturn]] void report_cycle(const std::vector<std::size_t>& pending) const {
    // Every task left with pending deps is on or behind a cycle: walk deps among them until a
    // task repeats.
    std::size_t start = 0;
    while (pending[start] == 0) ++start;
    std::vector<std::size_t> walk{start};
    std::vector<int> seen_at(pending.size(), -1);
    seen_at[start] = 0;
    for (;;) {
      std::size_t next = 0;
      for (auto d : deps_[walk.back()])
        if (pending[d] > 0) {
          next = d;
          break;
        }
      if (seen_at[next] >= 0) {
        std::vector<std::string> ids;
        for (std::size_t k = walk.size(); k-- > static_cast<std::size_t>(seen_at[next]);)
          ids.push_back(plan_.tasks[walk[k]].id);
        ids.push_back(plan_.tasks[walk.back()].id);
        fail(task_path(next) + ".deps", fmt::format("dependency cycle: {}", fmt::join(ids, " -> ")));
      }
      seen_at[next] = static_cast<int>(walk.size());
      walk.push_back(next);
    }
  }

  void mark_first_stage() {
    for (auto i : order_) {
      auto& c = tasks_[i];
      bool first = deps_[i].empty();
      if (!first && c.kind == TaskKind::Compute) {
        first = true;
        for (auto d : deps_[i]) {
          const auto& dep = tasks_[d];
          first = first && dep.first_stage && dep.kind == TaskKind::Compute && dep.device == c.device;
        }
      }
      c.first_stage = first;
      if (first) ++shape_.first_stage_size;
    }
  }

  void add_dep(std::size_t task, std::size_t dep) {
    deps_[task].push_back(static_cast<std::uint32_t>(dep));
    succs_[dep].push_back(static_cast<std::uint32_t>(task));
  }

  // Lays the index lists out in CompiledPlan::indices: deps, succs, entries, topological order.
  void pack_indices() {
    auto& all = shape_.indices;
    std::size_t total = entries_.size() + order_.size();
    for (std::size_t i = 0; i < deps_.size(); ++i) total += deps_[i].size() + succs_[i].size();
    all.reserve(total);
    const auto append = [&all](const std::vector<std::uint32_t>& list) {
      const auto begin = static_cast<std::uint32_t>(all.size());
      all.insert(all.end(), list.begin(), list.end());
      return begin;
    };
    for (std::size_t i = 0; i < deps_.size(); ++i) {
      tasks_[i].deps_begin = append(deps_[i]);
      tasks_[i].deps_size = static_cast<std::uint32_t>(deps_[i].size());
    }
    for (std::size_t i = 0; i < succs_.size(); ++i) {
      tasks_[i].succs_begin = append(succs_[i]);
      tasks_[i].succs_size = static_cast<std::uint32_t>(succs_[i].size());
    }
    shape_.entries_begin = append(entries_);
    shape_.entries_size = static_cast<std::uint32_t>(entries_.size());
    shape_.topo_begin = append(order_);
  }

  // The tasks' shapes into out_.shape, their devices and routes into out_.placements.
  void split() {
    shape_.tasks.reserve(tasks_.size());
    out_.placements.reserve(tasks_.size());
    for (const CompiledTask& t : tasks_) {
      shape_.tasks.push_back({t.kind, t.first_stage, t.deps_begin, t.deps_size, t.succs_begin, t.succs_size,
                              t.bytes, t.duration_s});
      out_.placements.push_back({t.device, t.route});
    }
    out_.shape = std::make_shared<const PlanShape>(std::move(shape_));
  }

  const Plan& plan_;
  const Topology& topo_;
  const StandIn& stand_in_;
  CompiledPlan out_;
  std::vector<CompiledTask> tasks_;                // while compiling
  PlanShape shape_;                                // while compiling
  std::vector<std::vector<std::uint32_t>> deps_;   // per task, while compiling
  std::vector<std::vector<std::uint32_t>> succs_;  // per task, while compiling
  std::vector<std::uint32_t> entries_;
  std::vector<std::uint32_t> order_;
  std::unordered_map<std::string, std::size_t> ids_;
};

}  // namespace

const std::string& CompiledPlan::channel(std::size_t task) const {
  static const std::string kNone;
  return channels.empty() ? kNone : channels[task];
}

void CompiledPlan::share_shape(const CompiledPlan& other) {
  if (shape != other.shape && *shape == *other.shape) shape = other.shape;
}

CompiledPlan compile_plan(const Plan& plan, const Topology& topology, const StandIn& stand_in) {
  return PlanChecker(plan, topology, stand_in).run();
}

void validate_plan(const Plan& plan, const Platform& platform) {
  const Topology topology(platform);
  compile_plan(plan, topology);
}

}  // namespace coinfer
