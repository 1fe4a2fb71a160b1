#include "sim/plan/plan.hpp"

namespace coinfer {

Task compute_task(std::string id, std::string device, double duration_s, std::vector<std::string> deps,
                  std::string label) {
  Task t;
  t.id = std::move(id);
  t.kind = TaskKind::Compute;
  t.device = std::move(device);
  t.duration_s = duration_s;
  t.deps = std::move(deps);
  t.label = std::move(label);
  return t;
}

Task transfer_task(std::string id, std::string src, std::string dst, double bytes,
                   std::vector<std::string> deps, std::string label, std::string network) {
  Task t;
  t.id = std::move(id);
  t.kind = TaskKind::Transfer;
  t.src = std::move(src);
  t.dst = std::move(dst);
  t.bytes = bytes;
  t.deps = std::move(deps);
  t.label = std::move(label);
  t.network = std::move(network);
  return t;
}

bool Plan::operator==(const Plan& other) const {
  if (name != other.name || file != other.file || tasks != other.tasks) return false;
  if (!facts || !other.facts) return !facts && !other.facts;
  return facts->to_json() == other.facts->to_json();
}

std::string facts_mismatch(const Plan& plan, std::string_view family) {
  return fmt::format("has no {} facts (it carries {})", family,
                     plan.facts ? fmt::format("{} facts", plan.facts->family()) : std::string("none"));
}

std::string pair_channel(const std::string& a, const std::string& b) {
  return a < b ? a + "|" + b : b + "|" + a;
}

std::string channel_with_device(const std::string& channel, const std::string& from, const std::string& to) {
  const auto bar = channel.find('|');
  if (bar == std::string::npos || channel.find('|', bar + 1) != std::string::npos) return channel;
  const auto side = [&](std::string name) { return name == from ? to : name; };
  return pair_channel(side(channel.substr(0, bar)), side(channel.substr(bar + 1)));
}

Task with_device(Task task, const std::string& from, const std::string& to) {
  for (std::string* name : {&task.device, &task.src, &task.dst})
    if (*name == from) *name = to;
  task.channel = channel_with_device(task.channel, from, to);
  return task;
}

}  // namespace coinfer
