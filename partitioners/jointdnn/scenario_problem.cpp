#include "partitioners/jointdnn/scenario_problem.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <initializer_list>

#include "partitioners/jointdnn/ilp.hpp"
#include "partitioners/jointdnn/labels.hpp"
#include "partitioners/jointdnn/neurosurgeon.hpp"
#include "partitioners/jointdnn/png_wire.hpp"
#include "partitioners/jointdnn/shortest_path.hpp"
#include "sim/core/error.hpp"
#include "sim/cost/cost_model.hpp"
#include "sim/cost/energy.hpp"

namespace coinfer::jointdnn {
InputError param_error(const char* key, std::string message) {
  return InputError("", join_path("partitioner", key), std::move(message));
}

namespace {

std::string device_list(const Platform& platform) {
  std::vector<std::string> names;
  for (const auto& d : platform.devices) names.push_back(d.name);
  return fmt::format("{}", fmt::join(names, ", "));
}

const Device& checked_device(const Platform& platform, const std::string& name, const char* key) {
  const auto i = platform.device_index_or_null(name);
  if (!i)
    throw param_error(key,
                      fmt::format("unknown device '{}'; platform devices: {}", name, device_list(platform)));
  return platform.devices[*i];
}

std::string default_cloud(const PartitionContext& ctx, const std::string& mobile) {
  for (const auto& d : ctx.platform.devices) {
    const auto k = d.calibration->kind;
    if (d.name != mobile &&
        (k == DeviceKind::GpuServer || k == DeviceKind::CpuServer || k == DeviceKind::Desktop))
      return d.name;
  }
  throw param_error("cloud", "no server or desktop in the platform; name one with partitioner.cloud");
}

/// The two directions of the chosen network: [0] mobile -> cloud, [1] cloud -> mobile.
struct Links {
  const Network* network = nullptr;
  std::array<LinkSpec, 2> dir;
};

Links network_links(const Platform& platform, const std::string& name, const std::string& mobile,
                    const std::string& cloud) {
  const auto n = platform.network_index_or_null(name);
  if (!n) {
    std::vector<std::string> names;
    for (const auto& net : platform.networks) names.push_back(net.name);
    throw param_error(
        "network", fmt::format("unknown network '{}'; platform networks: {}", name, fmt::join(names, ", ")));
  }
  const Network& net = platform.networks[*n];
  const bool has_mobile = std::find(net.members.begin(), net.members.end(), mobile) != net.members.end();
  const bool has_cloud = std::find(net.members.begin(), net.members.end(), cloud) != net.members.end();
  Links links{&net, {}};
  if (net.is_access() && has_mobile && net.base == cloud) {
    links.dir = {net.uplink, net.downlink};
  } else if (!net.is_access() && has_mobile && has_cloud) {
    links.dir = {net.link, net.link};  // one shared cell or wired ports
  } else {
    throw param_error("network",
                      fmt::format("network '{}' does not join mobile '{}' and cloud '{}' (the mobile must "
                                  "be a member and the cloud its base, or both members of a cell "
                                  "or wired network without a base)",
                                  name, mobile, cloud));
  }
  for (const auto& l : links.dir)
    if (!(l.rate_bps > 0.0)) throw param_error("network", fmt::format("network '{}' has no rate", name));
  return links;
}

/// Layers in topological order; problem layer k is topological position k (0 = the input).
void map_layers(const Graph& g, ScenarioProblem& sp) {
  const auto& order = g.topological_order();
  const auto inputs = g.input_layers();
  const auto outputs = g.output_layers();
  const auto fail = [&](const std::string& why) {
    return InputError(
        "", "model",
        fmt::format("model '{}': {}; the JointDNN problem cannot cost it exactly", g.name(), why));
  };
  if (inputs.size() != 1 || order.front() != inputs.front())
    throw fail(fmt::format("{} input layers (one is needed, first in topological order)", inputs.size()));
  if (order.size() < 2) throw fail("no layer after the input");
  if (outputs.size() != 1 || outputs.front() != order.back())
    throw fail(fmt::format("{} output layers (one is needed)", outputs.size()));
  std::vector<std::size_t> rank(g.size());
  for (std::size_t k = 0; k < order.size(); ++k) rank[order[k]] = k;
  sp.position.resize(order.size());
  sp.producers.assign(order.size(), {});
  for (std::size_t k = 0; k < order.size(); ++k) {
    sp.position[k] = k;
    for (auto c : g.consumers(order[k])) sp.producers[rank[c]].push_back(k);
  }
  for (std::size_t k = 1; k < order.size(); ++k) {
    auto& p = sp.producers[k];
    std::sort(p.begin(), p.end());
    // A layer not reading its predecessor (a branch, a projection shortcut) is detached: the
    // predecessor's consumers are then all skips.
    if (!std::binary_search(p.begin(), p.end(), k - 1)) sp.problem.detached.push_back(static_cast<int>(k));
    for (auto from : p)
      if (from != k - 1) sp.problem.skips.push_back({static_cast<int>(from), static_cast<int>(k)});
  }
}

}  // namespace

void check_group_tables(const Graph& model, std::int64_t layers, std::int64_t limit_bytes) {
  const double bytes = group_table_bytes(layers);
  if (bytes <= double(limit_bytes)) return;
  std::int64_t fits = 1;  // the most layers whose tables fit: bytes grow as layers^2
  while (group_table_bytes(2 * fits) <= double(limit_bytes)) fits *= 2;
  for (std::int64_t step = fits / 2; step > 0; step /= 2)
    if (group_table_bytes(fits + step) <= double(limit_bytes)) fits += step;
  throw param_error(
      "name", fmt::format("the JointDNN problem (jointdnn, neurosurgeon) costs every run of consecutive "
                          "layers as a group: model '{}' gives {} layers, {:.4g} groups needing {:.4g} "
                          "bytes, more than this host's memory ({:.4g} bytes); at most {} layers fit",
                          model.name(), layers, double(layers) * double(layers + 1) / 2, bytes,
                          double(limit_bytes), fits));
}

namespace {

void fill_groups(const CostModel& cost, const DeviceCalibration& mobile, const DeviceCalibration& cloud,
                 Problem& p) {
  const int n = p.layers;
  p.mobile_time_s.assign(n, {});
  p.cloud_time_s.assign(n, {});
  p.mobile_energy_j.assign(n, {});
  for (int i = 0; i < n; ++i) {
    p.mobile_time_s[i] = cost.range_times_s(i + 1, mobile);
    p.cloud_time_s[i] = cost.range_times_s(i + 1, cloud);
    for (double tm : p.mobile_time_s[i]) p.mobile_energy_j[i].push_back(mobile.power.busy_w * tm);
  }
}

/// The cost model of `batch` inputs from the context's hook.
CostModel batch_cost(const PartitionContext& ctx, std::int64_t batch) {
  if (!ctx.batch_cost)
    throw param_error("batch", fmt::format("batch {} needs batched layer costs, which this caller does not "
                                           "provide (run it from a scenario)",
                                           batch));
  return ctx.batch_cost(batch);
}

/// The op_scale the compress / decompress kernels (byte work, class `other`) run at on `device`.
double byte_work_scale(const DeviceCalibration& device) {
  const auto it = device.op_scale.find("other");
  if (it == device.op_scale.end())
    throw param_error(
        "compression",
        fmt::format("device '{}' has no op_scale for class 'other' to scale the PNG kernels", device.name));
  return it->second;
}

/// Wire sizes and (de)compression times per output: raw fp32, or PNG (png_wire.hpp).
void fill_wire(const Graph& g, const ScenarioSetup& setup, const DeviceCalibration& mobile,
               const DeviceCalibration& cloud, ScenarioProblem& sp) {
  const auto& order = g.topological_order();
  const auto batch = static_cast<double>(setup.batch);  // B samples: B x every tensor and PNG
  sp.wire_bytes.clear();
  for (auto i : order) {
    const Layer& l = g.layer(i);
    sp.wire_bytes.push_back(batch * static_cast<double>(setup.int8_wire
                                                            ? l.output_bytes / dtype_bytes(l.attrs.dtype)
                                                            : l.output_bytes));
  }
  sp.compress_s.assign(order.size(), {0.0, 0.0});
  sp.decompress_s.assign(order.size(), {0.0, 0.0});
  if (!setup.png) return;
  const auto wire = measure_png_wire(g, {setup.seed, setup.weights, "partitioner.weights_file", 3,
                                         setup.relu_zero_ratio, "partitioner.relu_zero_ratio"});
  const std::array<double, 2> scale = {byte_work_scale(mobile), byte_work_scale(cloud)};
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (!wire[k].compressed) continue;
    sp.wire_bytes[k] = batch * wire[k].png_bytes;
    const double zip_s = batch * wire[k].compress_host_s, unzip_s = batch * wire[k].decompress_host_s;
    sp.compress_s[k] = {zip_s * scale[0], zip_s * scale[1]};
    sp.decompress_s[k] = {unzip_s * scale[1], unzip_s * scale[0]};
  }
}

void fill_crossings(const ScenarioProblem& sp, const Links& links, const RadioPowerModel* radio,
                    double busy_w, Problem& p) {
  for (int j = 0; j <= p.layers; ++j) {
    const double bytes = sp.wire_bytes[j];
    const double up_s = transfer_time_s(bytes, links.dir[0].rate_bps, links.dir[0].latency_s);
    const double down_s = transfer_time_s(bytes, links.dir[1].rate_bps, links.dir[1].latency_s);
    const auto& zip = sp.compress_s[j];
    const auto& unzip = sp.decompress_s[j];
    p.upload_time_s.push_back(zip[0] + up_s + unzip[0]);
    p.download_time_s.push_back(zip[1] + down_s + unzip[1]);
    // As the replay charges it: eq. 21 at the transfer's mean throughput over its whole duration,
    // plus the mobile's busy power while it compresses (upload) or decompresses (download).
    p.upload_energy_j.push_back(
        busy_w * zip[0] +
        (radio ? radio_energy_j(radio->uplink_alpha_mw_per_mbps, radio->uplink_beta_mw, bytes, up_s) : 0.0));
    p.download_energy_j.push_back(
        busy_w * unzip[1] +
        (radio ? radio_energy_j(radio->downlink_alpha_mw_per_mbps, radio->downlink_beta_mw, bytes, down_s)
               : 0.0));
  }
  p.weight_download_time_s.assign(p.layers, 0.0);
  p.weight_download_energy_j.assign(p.layers, 0.0);
}

}  // namespace

/// Longest the mobile's radio can stay idle inside one inference: at most the sum of a
/// schedule's group times, whose maximum over all groupings is a longest path over the layer
/// boundaries (edge i -> i+1+k weighs the slower side of group [i+1 .. i+1+k]).
double idle_gap_bound_s(const Problem& p) {
  std::vector<double> longest(p.layers + 1, 0.0);  // [j]: over groupings of layers 1..j
  for (int i = 0; i < p.layers; ++i)
    for (std::size_t k = 0; k < p.mobile_time_s[i].size(); ++k) {
      const double t = std::max(p.mobile_time_s[i][k], p.cloud_time_s[i][k]);
      double& to = longest[i + 1 + static_cast<int>(k)];
      to = std::max(to, longest[i] + t);
    }
  return longest.back();
}

namespace {

void check_wake_up(const Links& links, const std::string& cloud, ScenarioProblem& sp) {
  const Network& net = *links.network;
  if (!net.is_wireless() || !(net.wake_up_s > 0.0)) return;
  const bool cloud_radio = std::find(net.members.begin(), net.members.end(), cloud) != net.members.end();
  if (cloud_radio && net.wake_up_per == WakeUpPer::Radio)
    throw param_error("network",
                      fmt::format("network '{}': the cloud '{}' has a radio that pays its own wake-up "
                                  "before downloads; the JointDNN crossings cannot be costed exactly "
                                  "(make the cloud the network's base)",
                                  net.name, cloud));
  const double gap_s = idle_gap_bound_s(sp.problem);
  if (gap_s > net.power_save_timeout_s)
    throw param_error("network",
                      fmt::format("network '{}': the mobile's radio may sleep between crossings (a "
                                  "schedule can leave it idle up to {:.6g} s, power_save_timeout_s is "
                                  "{:.6g} s), so wake-ups would depend on the schedule's timing; the "
                                  "JointDNN crossings cannot be costed exactly",
                                  net.name, gap_s, net.power_save_timeout_s));
  sp.wake_up_s = net.wake_up_s;
}

}  // namespace

ScenarioProblem build_scenario_problem(const PartitionContext& ctx, const ScenarioSetup& setup) {
  ScenarioProblem sp;
  sp.mobile = setup.mobile.empty() ? ctx.source : setup.mobile;
  const Device& mobile = checked_device(ctx.platform, sp.mobile, "mobile");
  if (sp.mobile != ctx.source)
    throw param_error("mobile",
                      fmt::format("'{}' is not the scenario's source '{}' (the input starts and the "
                                  "output ends on the mobile)",
                                  sp.mobile, ctx.source));
  sp.cloud = setup.cloud.empty() ? default_cloud(ctx, sp.mobile) : setup.cloud;
  const Device& cloud = checked_device(ctx.platform, sp.cloud, "cloud");
  if (sp.cloud == sp.mobile) throw param_error("cloud", fmt::format("'{}' is also the mobile", sp.cloud));
  if (setup.network.empty()) {
    const auto n = ctx.platform.network_between(sp.mobile, sp.cloud);
    if (!n) throw param_error("network", fmt::format("no network joins '{}' and '{}'", sp.mobile, sp.cloud));
    sp.network = ctx.platform.networks[*n].name;
  } else {
    sp.network = setup.network;
  }
  Links links = network_links(ctx.platform, sp.network, sp.mobile, sp.cloud);
  if (setup.uplink_bps) links.dir[0].rate_bps = *setup.uplink_bps;
  if (setup.downlink_bps) links.dir[1].rate_bps = *setup.downlink_bps;
  const RadioPowerModel* radio =
      links.network->is_wireless() ? radio_power_model(mobile.calibration, links.network->kind) : nullptr;
  const bool energy_matters = setup.objective == Objective::energy || setup.max_energy_j.has_value();
  if (energy_matters && links.network->is_wireless() && radio == nullptr)
    throw param_error("network",
                      fmt::format("device '{}' has no '{}' radio power model in its calibration, so "
                                  "the energy of crossing network '{}' is unknown",
                                  sp.mobile, radio_power_key(links.network->kind), sp.network));

  map_layers(ctx.graph, sp);
  Problem& p = sp.problem;
  p.layers = static_cast<int>(sp.position.size()) - 1;
  check_group_tables(ctx.graph, p.layers);
  fill_groups(setup.batch == 1 ? ctx.cost : batch_cost(ctx, setup.batch), mobile.calibration,
              cloud.calibration, p);
  fill_wire(ctx.graph, setup, mobile.calibration, cloud.calibration, sp);
  fill_crossings(sp, links, radio, mobile.calibration->power.busy_w, p);
  sp.downlink = links.dir[1];
  sp.radio = radio;
  sp.busy_w = mobile.calibration->power.busy_w;
  sp.power_save_timeout_s = links.network->power_save_timeout_s;
  p.objective = setup.objective;
  p.max_latency_s = setup.max_latency_s;
  p.max_energy_j = setup.max_energy_j;
  p.max_cloud_time_s = setup.max_cloud_time_s;
  check_wake_up(links, sp.cloud, sp);
  return sp;
}

}  // namespace coinfer::jointdnn
