#include "partitioners/pipeline/pipeline_partitioner.hpp"

#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "partitioners/pipeline/compressor.hpp"
#include "partitioners/pipeline/pipeline_facts.hpp"
#include "partitioners/split_dp/split_dp.hpp"
#include "sim/core/error.hpp"
#include "sim/profile/host_estimate.hpp"
#include "sim/profile/profiler.hpp"

namespace coinfer {
namespace {

const DeviceCalibration& calibration_of(const PartitionContext& ctx, const std::string& device,
                                        std::size_t i) {
  const auto index = ctx.platform.device_index_or_null(device);
  if (!index) {
    std::vector<std::string> names;
    for (const auto& d : ctx.platform.devices) names.push_back(d.name);
    throw InputError(
        "", index_path("partitioner.devices", i),
        fmt::format("unknown device '{}'; platform devices: {}", device, fmt::join(names, ", ")));
  }
  return ctx.platform.devices[*index].calibration;
}

/// The pipeline's layout: 0-based first / last topological positions per device.
struct Stages {
  std::vector<std::size_t> first, last;
};

Stages stages_of(const std::vector<std::size_t>& splits, std::size_t layers) {
  Stages s;
  for (std::size_t d = 0; d <= splits.size(); ++d) {
    s.first.push_back(d == 0 ? 0 : splits[d - 1]);
    s.last.push_back(d == splits.size() ? layers - 1 : splits[d] - 1);
  }
  return s;
}

/// Layers (indices) produced at positions < `cut` and read at positions >= `cut`: what crosses.
std::vector<std::size_t> crossing_layers(const Graph& g, std::size_t cut) {
  const auto& order = g.topological_order();
  std::vector<std::size_t> position(g.size());
  for (std::size_t p = 0; p < order.size(); ++p) position[order[p]] = p;
  std::vector<std::size_t> out;
  for (std::size_t p = 0; p < cut; ++p)
    for (const auto consumer : g.consumers(order[p]))
      if (position[consumer] >= cut) {
        out.push_back(order[p]);
        break;
      }
  return out;
}

double crossing_bytes(const Graph& g, std::size_t cut) {
  double bytes = 0.0;
  for (const auto i : crossing_layers(g, cut)) bytes += static_cast<double>(g.layer(i).output_bytes);
  return bytes;
}

/// The profile of a compressor-inserted graph on the basis of the scenario's profile.
HostProfile profile_like(const Graph& fused, const HostProfile& like) {
  if (like.basis == "estimate") return estimate_host_profile(fused, HostSpeed::nominal());
  ProfileOptions options;
  options.repeats = std::max(1, like.layers.empty() ? 5 : like.layers.front().repeats);
  return profile_model(fused, options);
}

/// One variant's changes at the compressed split: extra compute on both sides, new bytes.
struct Compression {
  std::int64_t gamma = 1;
  double encoder_s = 0.0, decoder_s = 0.0;  ///< on the devices before / after the split
  double bytes = 0.0;                       ///< sent at the split (code + other crossing tensors)
  double overhead = 0.0, overhead_macs = 0.0;
  std::string code_label;
};

Compression compress(const PartitionContext& ctx, const PipelineParams& p,
                     const std::vector<std::size_t>& splits, std::int64_t gamma) {
  const std::size_t cut = splits[p.compress_split - 1];
  const auto& order = ctx.graph.topological_order();
  const std::string& split_layer = ctx.graph.layer(order[cut - 1]).name;
  InsertedCompressor inserted;
  Graph fused;
  try {
    fused = insert_compressor(ctx.graph, split_layer, gamma, &inserted);
  } catch (const InputError& e) {
    throw InputError("", "partitioner.compressors", e.message());
  }
  const CostModel cost(fused, profile_like(fused, ctx.cost.profile()));
  const auto pos = [&](const std::string& name) {
    const auto& fo = fused.topological_order();
    return static_cast<std::size_t>(
        std::find(fo.begin(), fo.end(), static_cast<std::size_t>(fused.index_of(name))) - fo.begin());
  };
  const std::size_t enc_first = pos(split_layer) + 1, enc_last = pos(inserted.encoder.back());
  const std::size_t dec_last = pos(inserted.decoder.back());
  const auto& before = calibration_of(ctx, p.devices[p.compress_split - 1], p.compress_split - 1);
  const auto& after = calibration_of(ctx, p.devices[p.compress_split], p.compress_split);
  Compression c;
  c.gamma = gamma;
  c.encoder_s = cost.range_time_s(enc_first, enc_last, before, false);
  c.decoder_s = cost.range_time_s(enc_last + 1, dec_last, after, false);
  const double code_bytes = static_cast<double>(fused.layer_by_name(inserted.encoder.back()).output_bytes);
  c.bytes = crossing_bytes(ctx.graph, cut) -
            static_cast<double>(ctx.graph.layer(order[cut - 1]).output_bytes) + code_bytes;
  // Table II's overhead: the compressor's computation over the original model's, here as device
  // time on the first device and as MACs.
  const auto& first = calibration_of(ctx, p.devices.front(), 0);
  c.overhead = (cost.range_time_s(enc_first, dec_last, first, false)) / ctx.cost.total_time_s(first);
  double macs = 0.0;
  for (std::size_t q = enc_first; q <= dec_last; ++q)
    macs += static_cast<double>(fused.layer(fused.topological_order()[q]).macs);
  c.overhead_macs = macs / static_cast<double>(ctx.graph.total_macs());
  c.code_label = fmt::format("{} (gamma {} code)", split_layer, gamma);
  return c;
}

std::string range_label(const Graph& g, std::size_t first, std::size_t last) {
  const auto& order = g.topological_order();
  return fmt::format("{}..{}", g.layer(order[first]).name, g.layer(order[last]).name);
}

Plan pipeline_plan(const PartitionContext& ctx, const PipelineParams& p,
                   const std::vector<std::size_t>& splits, const Compression& c) {
  const Graph& g = ctx.graph;
  const Stages st = stages_of(splits, g.size());
  Plan plan;
  plan.name = c.gamma == 1 ? "pipeline" : fmt::format("pipeline-gamma{}", c.gamma);
  std::string previous;
  if (ctx.source != p.devices.front()) {
    double bytes = 0.0;
    for (const auto i : g.input_layers()) bytes += static_cast<double>(g.layer(i).output_bytes);
    plan.tasks.push_back(
        transfer_task("input", ctx.source, p.devices.front(), bytes, {}, "input", p.network));
    previous = "input";
  }
  const bool compressed = c.gamma != 1;
  for (std::size_t d = 0; d < p.devices.size(); ++d) {
    const auto& cal = calibration_of(ctx, p.devices[d], d);
    double duration = ctx.cost.range_time_s(st.first[d], st.last[d], cal);
    if (compressed && d + 1 == p.compress_split) duration += c.encoder_s;
    if (compressed && d == p.compress_split) duration += c.decoder_s;
    const std::string id = fmt::format("stage{}", d + 1);
    plan.tasks.push_back(compute_task(id, p.devices[d], duration,
                                      previous.empty() ? std::vector<std::string>{} : std::vector{previous},
                                      range_label(g, st.first[d], st.last[d])));
    previous = id;
    if (d + 1 == p.devices.size()) break;
    const bool here = compressed && d + 1 == p.compress_split;
    const double bytes = here ? c.bytes : crossing_bytes(g, splits[d]);
    const std::string link = fmt::format("link{}", d + 1);
    plan.tasks.push_back(
        transfer_task(link, p.devices[d], p.devices[d + 1], bytes, {id},
                      here ? c.code_label : g.layer(g.topological_order()[splits[d] - 1]).name, p.network));
    previous = link;
  }
  return plan;
}

void check_splits(const std::vector<std::size_t>& splits, std::size_t layers) {
  for (std::size_t k = 0; k < splits.size(); ++k)
    if (splits[k] >= layers)
      throw InputError("", index_path("partitioner.splits", k),
                       fmt::format("expected a position in [1, {}] (the model has {} layers), got {}",
                                   layers - 1, layers, splits[k]));
}

}  // namespace

std::vector<std::size_t> pipeline_units(const Graph& g, bool blocks) {
  const auto& order = g.topological_order();
  std::vector<std::size_t> ends;  // 1-based last position of each unit
  auto prefix = [&](std::size_t q) {
    const std::string& name = g.layer(order[q]).name;
    const auto dot = name.rfind('.');
    return dot == std::string::npos ? name : name.substr(0, dot);
  };
  for (std::size_t q = 0; q < order.size(); ++q)
    if (!blocks || q + 1 == order.size() || prefix(q) != prefix(q + 1) || prefix(q) == g.layer(order[q]).name)
      ends.push_back(q + 1);
  return ends;
}

std::vector<std::size_t> pipeline_auto_splits(const PartitionContext& ctx, const PipelineParams& p) {
  const Graph& g = ctx.graph;
  const auto units = pipeline_units(g, p.blocks);
  const auto& order = g.topological_order();
  std::vector<std::size_t> ends;  // 1-based last position of each unit eq. 2 sees
  std::vector<double> ops;
  double total = 0.0;
  for (std::size_t u = 0, q = 0; u < units.size(); ++u) {
    double sum = 0.0;
    for (; q < units[u]; ++q)
      sum += p.ops_macs ? static_cast<double>(g.layer(order[q]).macs) : ctx.cost.host_time_s(q);
    total += sum;
    // Between blocks, a block without ops (the input, a pool, a softmax) joins the block before it
    // (the input: the one after), so that no device is left without work and a split after a pool
    // sends the pooled tensor. Between layers, every layer stays a unit of its own.
    if (p.blocks && !ends.empty() && (sum == 0.0 || ops.back() == 0.0)) {
      ends.back() = units[u];
      ops.back() += sum;
      continue;
    }
    ends.push_back(units[u]);
    ops.push_back(sum);
  }
  const std::size_t n = p.devices.size();
  if (n > ends.size())
    throw InputError("", "partitioner.devices",
                     fmt::format("{} devices but the model has {} {}: each stage needs at least one", n,
                                 ends.size(), p.blocks ? "blocks with work" : "layers"));
  // C_i: the device's rate in the same unit, from its calibration over the whole model.
  std::vector<double> speeds;
  for (std::size_t d = 0; d < n; ++d)
    speeds.push_back(total / ctx.cost.total_time_s(calibration_of(ctx, p.devices[d], d)));
  const auto unit_splits =
      solve_split_dp(parse_split_dp_problem(Json{{"layer_ops", ops}, {"device_speeds", speeds}})).splits;
  std::vector<std::size_t> splits;
  for (const auto u : unit_splits) splits.push_back(ends[u - 1]);
  return splits;
}

std::vector<Plan> pipeline_plans(const PartitionContext& ctx, const PipelineParams& p) {
  for (std::size_t d = 0; d < p.devices.size(); ++d) calibration_of(ctx, p.devices[d], d);
  std::vector<std::size_t> splits = p.splits.empty() ? pipeline_auto_splits(ctx, p) : p.splits;
  if (p.devices.size() > ctx.graph.size())
    throw InputError(
        "", "partitioner.devices",
        fmt::format("{} devices but the model has {} layers", p.devices.size(), ctx.graph.size()));
  check_splits(splits, ctx.graph.size());
  const double data_bytes =
      p.devices.size() > 1 ? crossing_bytes(ctx.graph, splits[std::min(p.compress_split, splits.size()) - 1])
                           : 0.0;
  std::vector<Compression> kinds{Compression{}};
  kinds.front().bytes = data_bytes;
  for (const auto gamma : p.compressors) kinds.push_back(compress(ctx, p, splits, gamma));
  std::stable_partition(kinds.begin(), kinds.end(),
                        [&](const Compression& c) { return c.gamma == p.default_gamma; });
  std::vector<Plan> out;
  for (const auto& c : kinds) {
    Plan plan = pipeline_plan(ctx, p, splits, c);
    PipelineFacts f;
    f.compress_split = p.compress_split;
    f.data_bytes = data_bytes;
    f.bytes = c.bytes;
    // T_p: the bottleneck computation stage of this variant (compressor layers included).
    double slowest_s = 0.0;
    std::vector<std::size_t> links;  // split k's transfer: task link<k>, in plan order
    for (std::size_t i = 0; i < plan.tasks.size(); ++i) {
      const Task& t = plan.tasks[i];
      if (t.kind == TaskKind::Compute) slowest_s = std::max(slowest_s, t.duration_s);
      if (t.kind == TaskKind::Transfer && t.id.starts_with("link")) links.push_back(i);
    }
    f.tp_fps = 1.0 / slowest_s;
    for (std::size_t k = 1; k <= splits.size(); ++k)
      f.splits.push_back({splits[k - 1], plan.tasks[links.at(k - 1)].bytes,
                          k == p.compress_split ? static_cast<double>(c.gamma) : 1.0, links.at(k - 1)});
    f.overhead = c.overhead;
    f.overhead_macs = c.overhead_macs;
    if (!p.accuracy.empty()) f.nu = p.accuracy.at(c.gamma);
    plan.facts = std::make_shared<const PipelineFacts>(std::move(f));
    out.push_back(std::move(plan));
  }
  return out;
}

void register_pipeline_partitioners(PartitionerRegistry& registry) {
  registry.add(
      "pipeline",
      "linear device pipeline split by eq. 2, optional autoencoder compressors as plan variants (Hu & "
      "Krishnamachari)",
      ParamSchema{
          ParamSpec::value("devices", "list of device names, in pipeline order (device 1 gets the input)")
              .mandatory(),
          ParamSpec::value("splits", "'auto' (split-dp, eq. 2) or n-1 increasing 1-based layer positions")
              .with_default("auto"),
          ParamSpec::enumeration("ops", {"macs", "time"}, "eq. 2's layer ops: MACs or host time")
              .with_default("macs"),
          ParamSpec::enumeration("units", {"blocks", "layers"},
                                 "auto splits between blocks (names sharing the prefix before the last '.') "
                                 "or anywhere between layers")
              .with_default("blocks"),
          ParamSpec::value("compressors", "list of compression ratios (Table I: 2, 4, 8), one variant each")
              .with_default(Json::array()),
          ParamSpec::integer("compress_split", "the split point (1-based) that gets the compressors")
              .at_least(1)
              .with_default(1),
          ParamSpec::integer("default_gamma", "ratio of plan variant 0 (1: uncompressed)")
              .at_least(1)
              .with_default(1),
          ParamSpec::value(
              "accuracy", "mapping ratio -> pre-trained accuracy in [0, 1] (1: uncompressed), e.g. Table II"),
          ParamSpec::string("network",
                            "the network of every transfer (unset: the first joining the two devices)"),
      },
      [](const Json& params) {
        const PipelineParams p = pipeline_params_from_json(params);
        return make_variant_partitioner([p](const PartitionContext& ctx) { return pipeline_plans(ctx, p); });
      });
}

}  // namespace coinfer
