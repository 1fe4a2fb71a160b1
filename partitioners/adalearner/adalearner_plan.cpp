#include "partitioners/adalearner/adalearner_plan.hpp"

#include <fmt/format.h>

#include <limits>

#include "partitioners/adalearner/adalearner_facts.hpp"
#include "partitioners/adalearner/codec_timing.hpp"
#include "partitioners/adalearner/time_model.hpp"
#include "sim/calibration/op_class.hpp"
#include "sim/core/error.hpp"
#include "sim/functional/distributed_trainer.hpp"
#include "sim/profile/host_estimate.hpp"

namespace coinfer::adalearner {
namespace {

constexpr double kTrainingFactor = 3.0;  // forward + backward + update ~ 3 forward passes (nexus5x.json)

double elementwise_op_s(const DeviceCalibration& device) {
  static const double host_rate = HostSpeed::nominal().work_per_s.at(OpClass::Elementwise);
  auto it = device.op_scale.find("elementwise");
  if (it == device.op_scale.end()) it = device.op_scale.find("default");
  const double scale = it == device.op_scale.end() ? 1.0 : it->second;
  return scale / host_rate;
}

double encode_ops(const AdaCosts& c, AdaScheme s) {
  return s == AdaScheme::TernGrad ? c.codec.terngrad_encode : c.codec.onebit_encode;
}

double message_bytes(const AdaCosts& c, AdaScheme s) {
  switch (s) {
    case AdaScheme::OneBit:
      return c.onebit_bytes;
    case AdaScheme::TernGrad:
      return c.terngrad_bytes;
    default:
      return c.fp32_bytes;
  }
}

std::string scheme_label(AdaScheme s) {
  switch (s) {
    case AdaScheme::OneBit:
      return "onebit";
    case AdaScheme::TernGrad:
      return "terngrad";
    case AdaScheme::Local:
      return "local";
    default:
      return "fp32";
  }
}

CommModel comm_model(const AdaCosts& c, AdaScheme quantized) {
  const double w = 2.0 * c.fp32_bytes;  // W_trans: the gradient up and the weights down
  const double elements = static_cast<double>(c.params);
  const double op_s = c.elementwise_op_s.front();
  return CommModel{w,
                   c.rate_bytes_per_s,
                   2.0 * c.wake_up_s,
                   w / (elements * encode_ops(c, quantized) * op_s),
                   w / (elements * c.codec.decode * c.go_elementwise_op_s),
                   c.fp32_bytes / message_bytes(c, quantized)};
}

}  // namespace

AdaCosts adalearner_costs(const PartitionContext& ctx, bool measured_codecs) {
  AdaCosts c;
  DistributedOptions d;
  d.workers = 1;
  const DistributedTrainer trainer(ctx.graph, 0, d);  // checks every layer has a backward kernel
  c.params = ctx.graph.total_params();
  if (measured_codecs) c.codec = measured_codec_ops(ctx.graph);
  c.fp32_bytes = static_cast<double>(trainer.message_bytes(GradientCodec::Fp32));
  c.onebit_bytes = static_cast<double>(trainer.message_bytes(GradientCodec::OneBit));
  c.terngrad_bytes = static_cast<double>(trainer.message_bytes(GradientCodec::TernGrad));
  const Device& go = ctx.platform.devices.at(ctx.platform.device_index(ctx.source));
  c.go_step_per_sample_s = kTrainingFactor * ctx.cost.total_time_s(go.calibration);
  c.go_elementwise_op_s = elementwise_op_s(go.calibration);
  std::optional<std::size_t> net;
  for (const auto& dev : ctx.platform.devices) {
    if (dev.name == ctx.source) continue;
    auto n = ctx.platform.network_between(ctx.source, dev.name);
    if (!n) continue;
    if (!net) net = n;
    if (*n != *net) continue;  // one WiFi network: the GO's first
    c.workers.push_back(dev.name);
    c.step_per_sample_s.push_back(kTrainingFactor * ctx.cost.total_time_s(dev.calibration));
    c.elementwise_op_s.push_back(elementwise_op_s(dev.calibration));
  }
  if (!net)
    throw InputError("", "source",
                     fmt::format("no worker device shares a network with the GO '{}'", ctx.source));
  const Network& network = ctx.platform.networks.at(*net);
  if (network.is_access() || !network.is_wireless())
    throw InputError(
        "", "platform",
        fmt::format("AdaLearner needs the GO '{}' and its workers on one WiFi network; '{}' is not one",
                    ctx.source, network.name));
  c.rate_bytes_per_s = network.link.rate_bps / 8.0;
  c.wake_up_s = network.wake_up_s;
  return c;
}

AdaEstimate adalearner_estimate(const AdaCosts& c, int workers, std::int64_t minibatch, AdaScheme scheme) {
  std::vector<StepTable> tables;
  for (int i = 0; i < workers; ++i)
    tables.emplace_back(std::vector<std::int64_t>{1}, std::vector<double>{c.step_per_sample_s.at(i)});
  const AdaScheme quantized = scheme == AdaScheme::TernGrad ? AdaScheme::TernGrad : AdaScheme::OneBit;
  const Scheme s = scheme == AdaScheme::Fp32   ? Scheme::Fp32
                   : scheme == AdaScheme::Auto ? Scheme::Auto
                                               : Scheme::OneBit;
  const IterationEstimate e = estimate_iteration(tables, minibatch, comm_model(c, quantized), s);
  return AdaEstimate{e.onebit, e.total_s, e.compute_s, e.transfer_s, e.wakeup_s, e.codec_s, e.split};
}

namespace {

Plan local_plan(const PartitionContext& ctx, const AdaCosts& c, std::int64_t minibatch) {
  const double step = c.go_step_per_sample_s * static_cast<double>(minibatch);
  Plan plan{"adalearner", "", {compute_task("go.step", ctx.source, step, {}, "train step")}};
  AdaLearnerFacts f;
  f.estimate_s = step;
  f.compute_s = step;
  f.minibatch = minibatch;
  plan.facts = std::make_shared<const AdaLearnerFacts>(std::move(f));
  return plan;
}

Plan distributed_plan(const PartitionContext& ctx, const AdaCosts& c, int k, std::int64_t minibatch,
                      AdaScheme scheme, const AdaEstimate& est) {
  const bool quantized = scheme == AdaScheme::OneBit || scheme == AdaScheme::TernGrad;
  const double bytes = message_bytes(c, scheme), elements = static_cast<double>(c.params);
  const std::string& go = ctx.source;
  Plan plan{"adalearner", "", {}};
  auto& tasks = plan.tasks;
  std::vector<std::string> merge_deps;
  std::string previous_decode;
  for (int i = 0; i < k; ++i) {
    const std::string& w = c.workers[static_cast<std::size_t>(i)];
    const double step = c.step_per_sample_s[static_cast<std::size_t>(i)] *
                        static_cast<double>(est.split[static_cast<std::size_t>(i)]);
    tasks.push_back(compute_task(w + ".step", w, step, {}, "train step"));
    std::string last = w + ".step";
    if (quantized) {
      tasks.push_back(
          compute_task(w + ".encode", w,
                       elements * encode_ops(c, scheme) * c.elementwise_op_s[static_cast<std::size_t>(i)],
                       {last}, "encode"));
      last = w + ".encode";
    }
    tasks.push_back(transfer_task(w + ".grad", w, go, bytes, {last}, "gradient"));
    last = w + ".grad";
    if (quantized) {
      Task decode = compute_task("go.decode." + w, go, elements * c.codec.decode * c.go_elementwise_op_s,
                                 {last}, "decode");
      if (!previous_decode.empty()) decode.after = {previous_decode};
      previous_decode = decode.id;
      tasks.push_back(decode);
      last = decode.id;
    }
    merge_deps.push_back(last);
  }
  const double merge_s = elements * static_cast<double>(k + 2) * c.go_elementwise_op_s;
  tasks.push_back(compute_task("go.merge", go, merge_s, merge_deps, "merge"));
  std::string ready = "go.merge";
  if (quantized) {
    tasks.push_back(compute_task("go.encode", go, elements * encode_ops(c, scheme) * c.go_elementwise_op_s,
                                 {ready}, "encode"));
    ready = "go.encode";
  }
  std::string previous_send;
  for (int i = 0; i < k; ++i) {
    const std::string& w = c.workers[static_cast<std::size_t>(i)];
    Task send =
        transfer_task("go>" + w + ".weights", go, w, bytes, {ready}, quantized ? "update" : "weights");
    if (!previous_send.empty()) send.after = {previous_send};  // the GO's FIFO radio
    previous_send = send.id;
    tasks.push_back(send);
    if (quantized)
      tasks.push_back(compute_task(
          w + ".decode", w, elements * c.codec.decode * c.elementwise_op_s[static_cast<std::size_t>(i)],
          {send.id}, "decode"));
  }
  plan.name = fmt::format("adalearner-{}-{}", k, scheme_label(scheme));
  AdaLearnerFacts f;
  f.workers = k;
  f.onebit = quantized;
  f.estimate_s = est.total_s;
  f.compute_s = est.compute_s;
  f.transfer_s = est.transfer_s;
  f.wakeup_s = est.wakeup_s;
  f.codec_s = est.codec_s;
  f.merge_s = merge_s;
  f.minibatch = minibatch;
  f.message_bytes = bytes;
  plan.facts = std::make_shared<const AdaLearnerFacts>(std::move(f));
  return plan;
}

}  // namespace

AdaResult adalearner_plan(const PartitionContext& ctx, const AdaOptions& o) {
  const AdaCosts c = adalearner_costs(ctx, o.measured_codecs);
  const int available = static_cast<int>(c.workers.size());
  for (const auto& [key, asked] : {std::pair<const char*, int>{"partitioner.workers", o.workers},
                                   std::pair<const char*, int>{"partitioner.max_workers", o.max_workers}})
    if (asked > available)
      throw InputError("", key,
                       fmt::format("{} workers asked, the GO '{}' reaches {} on its network", asked,
                                   ctx.source, available));
  // The worker counts tried: the fixed one, or 1..max_workers (every reachable device by default).
  const int lo = std::max(o.workers, 1);
  const int hi = o.workers > 0 ? o.workers : (o.max_workers > 0 ? o.max_workers : available);
  if (o.scheme != AdaScheme::Local && o.minibatch < lo)
    throw InputError(
        "", "partitioner.minibatch",
        fmt::format("a minibatch of {} does not split over {} workers (each needs at least one sample)",
                    o.minibatch, lo));
  AdaResult best;
  best.scheme = AdaScheme::Local;
  best.plan = local_plan(ctx, c, o.minibatch);
  if (o.scheme == AdaScheme::Local) return best;
  double best_s = o.workers > 0 ? std::numeric_limits<double>::infinity()
                                : facts_of<AdaLearnerFacts>(best.plan).estimate_s;
  if (o.workers == 0) best.estimates_s.push_back(best_s);
  for (int k = lo; k <= std::min<std::int64_t>(hi, o.minibatch); ++k) {
    const AdaEstimate e = adalearner_estimate(c, k, o.minibatch, o.scheme);
    if (o.workers == 0) best.estimates_s.push_back(e.total_s);
    if (!(e.total_s < best_s)) continue;
    best_s = e.total_s;
    best.workers = k;
    best.scheme = o.scheme != AdaScheme::Auto ? o.scheme : (e.onebit ? AdaScheme::OneBit : AdaScheme::Fp32);
    best.plan = distributed_plan(ctx, c, k, o.minibatch, best.scheme, e);
  }
  AdaLearnerFacts chosen = facts_of<AdaLearnerFacts>(best.plan);
  chosen.choice = AdaLearnerFacts::Choice{o.workers == 0, o.scheme == AdaScheme::Auto};
  best.plan.facts = std::make_shared<const AdaLearnerFacts>(std::move(chosen));
  return best;
}

}  // namespace coinfer::adalearner
