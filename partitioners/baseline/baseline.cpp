#include "partitioners/baseline/baseline.hpp"

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/plan/plan_json.hpp"

namespace coinfer {
namespace {

std::int64_t input_bytes(const Graph& g) {
  std::int64_t bytes = 0;
  for (auto i : g.input_layers()) bytes += g.layer(i).output_bytes;
  return bytes;
}

std::int64_t output_bytes(const Graph& g) {
  std::int64_t bytes = 0;
  for (auto i : g.output_layers()) bytes += g.layer(i).output_bytes;
  return bytes;
}

std::string all_layers_label(const Graph& g) {
  const auto& order = g.topological_order();
  return fmt::format("{}..{}", g.layer(order.front()).name, g.layer(order.back()).name);
}

const std::string& checked_device(const PartitionContext& ctx, const std::string& name, const char* key) {
  if (!ctx.platform.device_index_or_null(name)) {
    std::vector<std::string> names;
    for (const auto& d : ctx.platform.devices) names.push_back(d.name);
    throw InputError("", join_path("partitioner", key),
                     fmt::format("unknown device '{}'; platform devices: {}", name, fmt::join(names, ", ")));
  }
  return name;
}

std::string default_server(const PartitionContext& ctx) {
  for (const auto& d : ctx.platform.devices) {
    const auto k = d.calibration->kind;
    if (d.name != ctx.source &&
        (k == DeviceKind::GpuServer || k == DeviceKind::CpuServer || k == DeviceKind::Desktop))
      return d.name;
  }
  throw InputError("", "partitioner.server", "no server in the platform; name one with partitioner.server");
}

}  // namespace

Plan local_plan(const PartitionContext& ctx, const std::string& device) {
  const auto& dev = ctx.platform.devices[ctx.platform.device_index(device)];
  Plan plan;
  plan.name = "local";
  plan.tasks.push_back(
      compute_task("infer", device, ctx.cost.total_time_s(dev.calibration), {}, all_layers_label(ctx.graph)));
  return plan;
}

Plan remote_plan(const PartitionContext& ctx, const std::string& server, const std::string& network) {
  const auto& dev = ctx.platform.devices[ctx.platform.device_index(server)];
  if (!network.empty()) {
    const auto n = ctx.platform.network_index_or_null(network);
    if (!n) throw InputError("", "partitioner.network", fmt::format("unknown network '{}'", network));
    const auto& net = ctx.platform.networks[*n];
    if (!net.has_endpoint(ctx.source) || !net.has_endpoint(server))
      throw InputError("", "partitioner.network",
                       fmt::format("network '{}' does not join '{}' and '{}'", network, ctx.source, server));
  } else if (!ctx.platform.network_between(ctx.source, server)) {
    throw InputError("", "partitioner.server",
                     fmt::format("no network joins '{}' and '{}'", ctx.source, server));
  }
  Plan plan;
  plan.name = "remote";
  plan.tasks.push_back(transfer_task("upload", ctx.source, server,
                                     static_cast<double>(input_bytes(ctx.graph)), {}, "input", network));
  plan.tasks.push_back(compute_task("infer", server, ctx.cost.total_time_s(dev.calibration), {"upload"},
                                    all_layers_label(ctx.graph)));
  plan.tasks.push_back(transfer_task("download", server, ctx.source,
                                     static_cast<double>(output_bytes(ctx.graph)), {"infer"}, "output",
                                     network));
  return plan;
}

void register_baseline_partitioners(PartitionerRegistry& registry) {
  registry.add(
      "local", "every layer on one device",
      ParamSchema{
          ParamSpec::string("device", "the device that runs every layer (unset: the scenario's source)")},
      [](const Json& params) {
        const auto device = json_string_or(params, "device", "partitioner", "");
        return make_partitioner([device](const PartitionContext& ctx) {
          return local_plan(ctx, checked_device(ctx, device.empty() ? ctx.source : device, "device"));
        });
      });
  registry.add(
      "remote", "upload the input, run every layer on a server, download the output",
      ParamSchema{
          ParamSpec::string("server",
                            "the device that runs every layer (unset: the platform's first server "
                            "or desktop other than the source)"),
          ParamSpec::string("network", "the network to use (unset: the first one joining source and server)"),
      },
      [](const Json& params) {
        const auto server = json_string_or(params, "server", "partitioner", "");
        const auto network = json_string_or(params, "network", "partitioner", "");
        return make_partitioner([server, network](const PartitionContext& ctx) {
          const auto s = server.empty() ? default_server(ctx) : checked_device(ctx, server, "server");
          return remote_plan(ctx, s, network);
        });
      });
  registry.add(
      "plan", "replay a plan JSON file as it is, e.g. one written by `coinfer partition -o`",
      ParamSchema{ParamSpec::path("file", "the plan JSON file (relative to the scenario)").mandatory()},
      [](const Json& params) {
        const Plan plan = load_plan_file(params.at("file").get<std::string>());
        // Checked against the platform where every plan is compiled (names the plan file).
        return make_partitioner([plan](const PartitionContext&) { return plan; });
      });
}

}  // namespace coinfer
