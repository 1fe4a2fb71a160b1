// The CBO runtime schedulers' set-up: parameters, the trace and its calibration, plan variants.
#include <algorithm>
#include <numeric>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "schedulers/cbo/cbo_runtime_state.hpp"
#include "schedulers/cbo/confidence_calibrator.hpp"
#include "sim/core/error.hpp"
#include "sim/plan/plan.hpp"
#include "sim/platform/platform.hpp"
#include "sim/platform/topology.hpp"

namespace coinfer::cbo {
namespace {

const char* const kPath = "scheduler";

InputError param_error(const std::string& key, const std::string& message) {
  return InputError("", fmt::format("{}.{}", kPath, key), message);
}

std::size_t device_or_throw(const Platform& platform, const std::string& name, const std::string& key) {
  if (const auto d = platform.device_index_or_null(name)) return *d;
  throw param_error(key, fmt::format("unknown device '{}' in platform '{}'", name, platform.name));
}

double plan_seconds(const Plan& plan) {
  double s = 0;
  for (const auto& t : plan.tasks) s += t.duration_s;
  return s;
}

// The partitioner's plan must be the local model on one device (a chain of compute tasks there).
Plan local_model(const std::vector<Plan>& partitioned, const std::string& device, const std::string& key) {
  if (partitioned.size() != 1 || partitioned[0].tasks.empty())
    throw param_error(key, "expected one non-empty plan from the partitioner (e.g. partitioner: local)");
  for (const auto& t : partitioned[0].tasks)
    if (t.kind != TaskKind::Compute || t.device != device)
      throw param_error(key, fmt::format("the partitioner's plan must run the local model on '{}' only "
                                         "(partitioner: {{name: local, device: {}}}); task '{}' does not",
                                         device, device, t.id));
  return partitioned[0];
}

// Ids of the tasks nothing depends on.
std::vector<std::string> sinks(const Plan& plan) {
  std::vector<std::string> out;
  for (const auto& t : plan.tasks) {
    const bool used = std::any_of(plan.tasks.begin(), plan.tasks.end(), [&](const Task& u) {
      return std::find(u.deps.begin(), u.deps.end(), t.id) != u.deps.end();
    });
    if (!used) out.push_back(t.id);
  }
  return out;
}

double min_rate_bps(const Topology& topo, const Route& route) {
  double rate = std::numeric_limits<double>::infinity();
  for (auto l : route.links) rate = std::min(rate, topo.links()[l].spec->rate_bps);
  return rate;
}

}  // namespace

std::string mode_name(Mode mode) {
  switch (mode) {
    case Mode::Cbo:
      return "cbo";
    case Mode::CboWithout:
      return "cbo-wo";
    case Mode::FastVa:
      return "fastva";
    case Mode::Local:
      return "cbo-local";
    case Mode::Server:
      return "cbo-server";
    case Mode::Compress:
      return "cbo-compress";
    case Mode::Threshold:
      return "cbo-threshold";
    case Mode::Optimal:
      break;
  }
  return "cbo-optimal";
}

ParamSchema runtime_param_schema() {
  return ParamSchema{
      ParamSpec::path("trace_file",
                      "per-frame trace CSV (schedulers/cbo/frame_trace.hpp), relative to the scenario")
          .mandatory(),
      ParamSpec::string("device", "the phone: runs the local model, uploads frames").with_default("phone"),
      ParamSpec::string("server", "the edge server").with_default("server"),
      ParamSpec::string("network", "the network to the server (unset: the first one reaching both)"),
      ParamSpec::string("cpu_device", "cbo-compress: the phone CPU running the compressed model")
          .with_default("phone_cpu"),
      ParamSpec::enumeration("calibration", {"platt", "platt-vector", "isotonic", "temperature"},
                             "cbo: confidence calibration")
          .with_default("platt"),
      ParamSpec::number("calibration_fraction", "leading share of the trace's frames used to calibrate")
          .with_default(0.5)
          .range(0.01, 0.99),
      ParamSpec::number("calibration_ms", "confidence calibration time on the phone (Table III: 8)")
          .with_default(8)
          .range(0, 1e6),
      ParamSpec::number("server_ms", "server inference time (Table III, ResNet-152: 37)")
          .with_default(37)
          .range(0, 1e6),
      ParamSpec::number("result_bytes", "size of the answer sent back (a label and a score)")
          .with_default(100)
          .range(1, 1e12),
      ParamSpec::number("size_scale", "factor on the trace's frame sizes").with_default(1).range(1e-6, 1e6),
      ParamSpec::number("local_time_scale", "cbo-compress: factor on the local model's time (seed: 0.5)")
          .with_default(1)
          .range(1e-6, 1e6),
      ParamSpec::number("initial_bandwidth_mbps",
                        "uplink estimate before the first measured upload (unset: the uplink's nominal rate, "
                        "which a phone reads from its link)")
          .range(1e-6, 1e6),
      ParamSpec::boolean("oracle", "plan with the uplink's true rate instead of the measured one")
          .with_default(false),
      ParamSpec::number("threshold", "cbo-threshold: offload the frames whose confidence is <= this")
          .with_default(0.5)
          .range(0, 1),
      ParamSpec::boolean("calibrated", "cbo-threshold: compare calibrated confidences").with_default(true),
      ParamSpec::integer("resolution_px",
                         "cbo-threshold: offload resolution, one of the trace's (unset: its largest)")
          .range(1, 4096),
      ParamSpec::enumeration(
          "optimal_knows", {"answers", "confidences"},
          "cbo-optimal: each frame's true answers (an upper bound) or, as the paper's Optimal, "
          "the calibrated confidences of all frames")
          .with_default("answers"),
  };
}

RuntimeParams RuntimeParams::from_json(const Json& p) {
  RuntimeParams r;
  r.trace_file = p.at("trace_file").get<std::string>();
  r.device = p.at("device").get<std::string>();
  r.server = p.at("server").get<std::string>();
  r.network = p.at("network").is_null() ? "" : p.at("network").get<std::string>();
  r.cpu_device = p.at("cpu_device").get<std::string>();
  r.calibration = p.at("calibration").get<std::string>();
  r.calibration_fraction = p.at("calibration_fraction").get<double>();
  r.calibration_ms = p.at("calibration_ms").get<double>();
  r.server_ms = p.at("server_ms").get<double>();
  r.result_bytes = p.at("result_bytes").get<double>();
  r.size_scale = p.at("size_scale").get<double>();
  r.local_time_scale = p.at("local_time_scale").get<double>();
  r.initial_bandwidth_mbps =
      p.at("initial_bandwidth_mbps").is_null() ? 0.0 : p.at("initial_bandwidth_mbps").get<double>();
  r.oracle = p.at("oracle").get<bool>();
  r.threshold = p.at("threshold").get<double>();
  r.calibrated = p.at("calibrated").get<bool>();
  r.resolution_px = p.at("resolution_px").is_null() ? 0 : p.at("resolution_px").get<int>();
  r.optimal_knows_answers = p.at("optimal_knows").get<std::string>() == "answers";
  return r;
}

RuntimeScheduler::RuntimeScheduler(Mode mode, RuntimeParams params)
    : mode_(mode), params_(std::move(params)), s_(std::make_unique<State>()) {
  State& s = *s_;
  s.trace = read_frame_trace(params_.trace_file);
  s.resolutions = s.trace.resolutions_px.size();
  if (s.resolutions == 0)
    throw InputError(
        params_.trace_file, "line 1",
        "expected size_bytes_<px> and server_correct_<px> columns (one pair per offload resolution)");
  const std::size_t n = s.trace.frames.size();
  s.n_train = static_cast<std::size_t>(std::llround(params_.calibration_fraction * static_cast<double>(n)));
  if (s.n_train == 0 || s.n_train >= n)
    throw param_error(
        "calibration_fraction",
        fmt::format("leaves no frame to calibrate on or to stream ({} frames in {})", n, params_.trace_file));
  const ScoredFrames local = s.trace.local();
  const ScoredFrames train = slice(local, 0, s.n_train);
  s.server_accuracy.assign(s.resolutions, 0.0);
  for (std::size_t i = 0; i < s.n_train; ++i)
    for (std::size_t r = 0; r < s.resolutions; ++r)
      s.server_accuracy[r] += s.trace.frames[i].server_correct[r];
  for (auto& a : s.server_accuracy) a /= static_cast<double>(s.n_train);
  const double mean_local =
      std::accumulate(train.correct.begin(), train.correct.end(), 0.0) / static_cast<double>(s.n_train);
  const bool optimal_on_confidences = mode_ == Mode::Optimal && !params_.optimal_knows_answers;
  s.npu_first = runs_npu(mode_) || optimal_on_confidences;
  s.calibrates =
      mode_ == Mode::Cbo || (mode_ == Mode::Threshold && params_.calibrated) || optimal_on_confidences;
  CalibratorRegistry methods("calibration method");
  register_confidence_calibrators(methods);
  auto calibrator = methods.create(params_.calibration, Json::object(), "", "scheduler.calibration");
  if (calibrator->needs_feature_vectors())
    require_feature_vectors(s.trace, params_.trace_file, params_.calibration);
  calibrator->fit(train);
  s.calibration_fit = calibrator->parameters();
  const ScoredFrames raw_streamed = slice(local, s.n_train, n);
  ScoredFrames calibrated_streamed;
  for (std::size_t k = 0; k < s.streamed(); ++k) {
    const double raw = raw_streamed.confidence[k];
    const double calibrated = calibrator->apply(local, s.n_train + k);
    calibrated_streamed.confidence.push_back(calibrated);
    double a = s.calibrates ? calibrated : raw;
    if (mode_ == Mode::FastVa) a = mean_local;
    if (mode_ == Mode::Compress) a = 0.0;  // no local answer in time unless the CPU runs it
    s.local_accuracy.push_back(a);
    s.order_key.push_back(a);
  }
  calibrated_streamed.correct = raw_streamed.correct;
  const auto raw_bins = reliability_bins(raw_streamed),
             calibrated_bins = reliability_bins(calibrated_streamed);
  s.calibration_error = {expected_calibration_error(raw_bins), maximum_calibration_error(raw_bins),
                         expected_calibration_error(calibrated_bins),
                         maximum_calibration_error(calibrated_bins)};
  s.decision.assign(s.streamed(), kLocal);
  s.threshold_resolution = static_cast<int>(s.resolutions) - 1;
  if (params_.resolution_px > 0) {
    const auto& px = s.trace.resolutions_px;
    const auto it = std::find(px.begin(), px.end(), params_.resolution_px);
    if (it == px.end())
      throw param_error("resolution_px",
                        fmt::format("the trace {} has no {} px resolution; it has {} px", params_.trace_file,
                                    params_.resolution_px, fmt::join(px, ", ")));
    s.threshold_resolution = static_cast<int>(it - px.begin());
  }
}

RuntimeScheduler::~RuntimeScheduler() = default;

std::vector<Plan> RuntimeScheduler::plan_variants(std::vector<Plan> partitioned, const Platform& platform) {
  State& s = *s_;
  const auto dev = device_or_throw(platform, params_.device, "device");
  const auto srv = device_or_throw(platform, params_.server, "server");
  const Topology topo(platform);
  std::size_t net = platform.networks.size();
  for (std::size_t i = 0; i < platform.networks.size(); ++i)
    if ((params_.network.empty() || platform.networks[i].name == params_.network) &&
        topo.route_or_null(i, dev, srv) && topo.route_or_null(i, srv, dev)) {
      net = i;
      break;
    }
  if (net == platform.networks.size())
    throw param_error("network", fmt::format("no network{} joins '{}' and '{}'",
                                             params_.network.empty() ? "" : " '" + params_.network + "'",
                                             params_.device, params_.server));
  const Route& up = *topo.route_or_null(net, dev, srv);
  const Route& down = *topo.route_or_null(net, srv, dev);
  const std::string& net_name = platform.networks[net].name;
  auto bottleneck = up.links.front();
  for (auto l : up.links)
    if (topo.links()[l].spec->rate_bps < topo.links()[bottleneck].spec->rate_bps) bottleneck = l;
  s.uplink_link = topo.links()[bottleneck].name();
  s.initial_bps = params_.initial_bandwidth_mbps > 0 ? params_.initial_bandwidth_mbps * 1e6
                                                     : topo.links()[bottleneck].spec->rate_bps;
  s.return_s = up.latency_s + down.latency_s + 8.0 * params_.result_bytes / min_rate_bps(topo, down);

  std::vector<Plan> out;
  Plan stage1;
  if (s.npu_first) {
    stage1 = local_model(partitioned, params_.device, "device");
    stage1.name = "local";
    if (s.calibrates)  // Table III: 8 ms
      stage1.tasks.push_back(compute_task("calibrate", params_.device, params_.calibration_ms / 1e3,
                                          sinks(stage1), "confidence calibration"));
  } else {
    stage1 = Plan{"capture", "", {compute_task("capture", params_.device, 0.0, {}, "frame captured")}};
  }
  s.stage1_s = plan_seconds(stage1);
  out.push_back(stage1);
  for (std::size_t r = 0; r < s.resolutions; ++r) {
    const auto px = std::to_string(s.trace.resolutions_px[r]);
    out.push_back(
        Plan{"upload-" + px,
             "",
             {transfer_task("upload", params_.device, params_.server, 0.0, {}, px + " px frame", net_name)}});
  }
  for (std::size_t r = 0; r < s.resolutions; ++r) {
    const auto px = std::to_string(s.trace.resolutions_px[r]);
    out.push_back(Plan{
        "serve-" + px,
        "",
        {compute_task("infer", params_.server, params_.server_ms / 1e3, {}, "server model, " + px + " px"),
         transfer_task("result", params_.server, params_.device, params_.result_bytes, {"infer"}, "answer",
                       net_name)}});
  }
  if (mode_ == Mode::Compress) {
    (void)device_or_throw(platform, params_.cpu_device, "cpu_device");
    Plan cpu = local_model(partitioned, params_.cpu_device, "cpu_device");
    cpu.name = "compressed-local";
    for (auto& t : cpu.tasks) t.duration_s *= params_.local_time_scale;
    s.cpu_s = plan_seconds(cpu);
    out.push_back(cpu);
  }
  if (mode_ == Mode::Optimal) {
    Plan npu = local_model(partitioned, params_.device, "device");
    npu.name = "local-after";
    out.push_back(npu);
  }
  s.planned = true;
  return out;
}

}  // namespace coinfer::cbo
