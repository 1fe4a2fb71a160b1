// `coinfer costs MODEL --device D [--groups [--max-group N]] [--json] [--host-profile estimate|measured]`:
// each layer's (and group's) time and energy on a device, from the cost model
// (sim/cost/cost_model.hpp): time = host time x the device's op_scale for the layer's class,
// energy = the device's busy power x time.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "cli/cli_options.hpp"
#include "cli/commands.hpp"
#include "cli/shipped_devices.hpp"
#include "sim/calibration/calibration_json.hpp"
#include "sim/calibration/op_class.hpp"
#include "sim/core/error.hpp"
#include "sim/cost/cost_model.hpp"
#include "sim/models/zoo.hpp"
#include "sim/profile/host_estimate.hpp"
#include "sim/profile/profiler.hpp"
#include "sim/report/table.hpp"

namespace coinfer::cli {
namespace {

struct CostsOptions {
  std::string model;
  std::string device;
  bool groups = false;
  std::size_t max_group = 4;
  bool json = false;
  std::string host_profile = "estimate";
  int repeats = 5;
};

// The host timings the cost model scales: the deterministic estimate (the shipped calibrations'
// basis), or this host's measured kernels (cached; normalised to the estimate by the cost model).
HostProfile host_profile(const Graph& g, const CostsOptions& o) {
  if (o.host_profile == "estimate") return estimate_host_profile(g, HostSpeed::nominal());
  ProfileOptions po;
  po.repeats = o.repeats;
  if (o.groups) po.groups = consecutive_groups(g.size(), o.max_group);
  return profile_model(g, po);
}

Json range_json(const CostModel& cost, const DeviceCalibration& device, std::size_t first, std::size_t last) {
  const double t = cost.range_time_s(first, last, device);
  return {{"first", first},
          {"last", last},
          {"first_layer", cost.graph().layer(cost.graph().topological_order()[first]).name},
          {"last_layer", cost.graph().layer(cost.graph().topological_order()[last]).name},
          {"grouped", cost.profile().group_or_null(first, last) != nullptr},
          {"time_s", t},
          {"energy_j", device.power.busy_w * t},
          {"sum_of_layers_s", cost.range_time_s(first, last, device, false)}};
}

Json costs_json(const CostModel& cost, const DeviceCalibration& device, const CostsOptions& o) {
  const Graph& g = cost.graph();
  Json layers = Json::array();
  for (std::size_t pos = 0; pos < cost.size(); ++pos) {
    const Layer& l = g.layer(g.topological_order()[pos]);
    const double t = cost.layer_time_s(pos, device);
    layers.push_back({{"position", pos},
                      {"name", l.name},
                      {"op", std::string(op_name(l.op))},
                      {"op_class", std::string(op_class_name(op_class_of(l)))},
                      {"host_s", cost.host_time_s(pos)},
                      {"time_s", t},
                      {"energy_j", device.power.busy_w * t}});
  }
  const double total_s = cost.total_time_s(device);
  Json out{{"model", g.name()},
           {"device", device.name},
           {"device_file", device.file},
           {"busy_w", device.power.busy_w},
           {"host_profile", {{"basis", cost.profile().basis}, {"host_cpu", cost.profile().host_cpu}}},
           {"layers", layers},
           {"total", {{"time_s", total_s}, {"energy_j", device.power.busy_w * total_s}}}};
  if (o.groups) {
    Json groups = Json::array();
    for (const auto& [first, last] : consecutive_groups(cost.size(), o.max_group))
      groups.push_back(range_json(cost, device, first, last));
    out["groups"] = groups;
  }
  return out;
}

std::string ms(double s) { return fmt::format("{:.4f}", s * 1e3); }

void print_tables(const Json& j) {
  std::cout << fmt::format("model {} on {} (busy {} W), host basis {} ({})\n", j["model"].get<std::string>(),
                           j["device"].get<std::string>(), j["busy_w"].get<double>(),
                           j["host_profile"]["basis"].get<std::string>(),
                           j["host_profile"]["host_cpu"].get<std::string>());
  TextTable t({"#", "layer", "op", "class", "host ms", "device ms", "energy mJ"},
              {true, false, false, false, true, true, true});
  double sum_s = 0.0;
  for (const auto& l : j["layers"]) {
    sum_s += l["time_s"].get<double>();
    t.add_row({std::to_string(l["position"].get<std::size_t>()), l["name"].get<std::string>(),
               l["op"].get<std::string>(), l["op_class"].get<std::string>(), ms(l["host_s"].get<double>()),
               ms(l["time_s"].get<double>()), ms(l["energy_j"].get<double>())});
  }
  t.add_separator();
  const double total_s = j["total"]["time_s"].get<double>();
  // Equal unless a measured profile timed the whole model as one group (--groups).
  if (std::abs(total_s - sum_s) > 1e-12 * std::max(1.0, sum_s))
    t.add_row({"", "sum of layers", "", "", "", ms(sum_s), ms(sum_s * j["busy_w"].get<double>())});
  t.add_row({"", "whole model", "", "", "", ms(total_s), ms(j["total"]["energy_j"].get<double>())});
  std::cout << t.str();
  if (!j.contains("groups")) return;
  TextTable gt({"group", "layers", "from", "to", "device ms", "energy mJ", "timed as"},
               {false, true, false, false, true, true, false});
  for (const auto& g : j["groups"]) {
    const auto first = g["first"].get<std::size_t>(), last = g["last"].get<std::size_t>();
    gt.add_row({fmt::format("[{}, {}]", first, last), std::to_string(last - first + 1),
                g["first_layer"].get<std::string>(), g["last_layer"].get<std::string>(),
                ms(g["time_s"].get<double>()), ms(g["energy_j"].get<double>()),
                g["grouped"].get<bool>() ? "one group" : "sum of layers"});
  }
  std::cout << "\n" << gt.str();
}

void run_costs(const CostsOptions& o) {
  if (o.host_profile != "estimate" && o.host_profile != "measured")
    throw InputError("", "--host-profile",
                     fmt::format("expected estimate or measured, got '{}'", o.host_profile));
  const Graph g = load_model(o.model);
  const DeviceCalibration device = load_device(o.device);
  const CostModel cost(g, host_profile(g, o));
  const Json j = costs_json(cost, device, o);
  if (o.json)
    std::cout << j.dump(2) << "\n";
  else
    print_tables(j);
}

}  // namespace

void add_costs_command(CLI::App& app) {
  auto o = std::make_shared<CostsOptions>();
  auto* cmd = app.add_subcommand(
      "costs", "Each layer's (and group's) time and energy on a device, from the cost model");
  cmd->add_option("model", o->model, "Zoo name, model JSON file or ONNX file")->required();
  cmd->add_option("--device", o->device,
                  "Shipped device name (`coinfer list devices`) or calibration JSON file")
      ->required();
  cmd->add_flag("--groups", o->groups,
                "Also every run of 2..--max-group consecutive layers, and the whole model");
  cmd->add_option("--max-group", o->max_group, "Longest run of consecutive layers shown by --groups")
      ->check(integer_in(2, 64))
      ->capture_default_str();
  cmd->add_option("--host-profile", o->host_profile,
                  "Host timing basis: estimate (deterministic, the shipped calibrations' basis) or measured "
                  "(this host's kernels, cached, normalised to the estimate per op class)")
      ->capture_default_str();
  cmd->add_option("--repeats", o->repeats, "Timed runs per layer / group with --host-profile measured")
      ->check(integer_in(1, 10000))
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] { run_costs(*o); });
}

}  // namespace coinfer::cli
