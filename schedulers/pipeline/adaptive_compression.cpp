// The adaptive-compression scheduler (adaptive_compression.hpp): variants, thresholds, decisions.
#include "schedulers/pipeline/adaptive_compression.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include <fmt/format.h>

#include "partitioners/pipeline/pipeline_facts.hpp"
#include "schedulers/pipeline/thresholds.hpp"
#include "sim/core/error.hpp"
#include "sim/plan/plan.hpp"
#include "sim/platform/platform.hpp"
#include "sim/platform/topology.hpp"

namespace coinfer {
namespace {

InputError variant_error(const Plan& v, const std::string& message) {
  return InputError(
      "", "scheduler.name",
      fmt::format("adaptive-compression needs the pipeline partitioner's variants: variant '{}' {}", v.name,
                  message));
}

const PipelineFacts& facts(const Plan& v) {
  if (const auto* f = facts_or_null<PipelineFacts>(v)) return *f;
  throw variant_error(v, facts_mismatch(v, PipelineFacts::kFamily));
}

double accuracy_of(const Plan& v) {
  const auto nu = facts(v).nu;
  if (!nu) throw variant_error(v, "has no accuracy (partitioner.accuracy)");
  return *nu;
}

// gamma_k of every split k = 1..splits of variant v.
std::vector<double> gammas_of(const Plan& v) {
  std::vector<double> g;
  for (const auto& split : facts(v).splits) g.push_back(split.gamma);
  return g;
}

std::size_t split_count(const Plan& v) {
  const std::size_t n = facts(v).splits.size();
  if (n == 0) throw variant_error(v, "has no split points");
  return n;
}

// Per device, its compute tasks (label, duration): a device whose list differs reloads.
std::map<std::string, std::vector<std::pair<std::string, double>>> device_layers(const Plan& p) {
  std::map<std::string, std::vector<std::pair<std::string, double>>> out;
  for (const auto& t : p.tasks)
    if (t.kind == TaskKind::Compute) out[t.device].emplace_back(t.label, t.duration_s);
  return out;
}

}  // namespace

std::size_t choose_ratio_index(const std::vector<std::optional<double>>& thresholds, double b) {
  std::size_t i = 0;
  while (i < thresholds.size() && thresholds[i] && b > *thresholds[i]) ++i;
  return i;
}

struct AdaptiveCompressionScheduler::State {
  std::vector<Plan> variants;
  std::vector<std::vector<double>> gammas;  // per variant, per split
  std::map<std::vector<double>, std::size_t> variant_of;
  std::vector<SplitChoice> choices;
  std::vector<std::vector<long>>
      link_index;  // per choice, per link: index in view.link_names (-1: unresolved)
  std::size_t current = 0;
  std::vector<DeviceStall> pending;
  double switches = 0, stall_s = 0, periods = 0;
};

AdaptiveCompressionScheduler::AdaptiveCompressionScheduler(AdaptiveCompressionParams params)
    : params_(std::move(params)), s_(std::make_unique<State>()) {}

AdaptiveCompressionScheduler::~AdaptiveCompressionScheduler() = default;

const std::vector<AdaptiveCompressionScheduler::SplitChoice>& AdaptiveCompressionScheduler::split_choices()
    const {
  return s_->choices;
}

std::vector<Plan> AdaptiveCompressionScheduler::plan_variants(std::vector<Plan> partitioned,
                                                              const Platform& platform) {
  State& s = *s_;
  s = State{};
  const std::size_t splits = split_count(partitioned.front());
  double tp = std::numeric_limits<double>::infinity();
  for (std::size_t v = 0; v < partitioned.size(); ++v) {
    const Plan& p = partitioned[v];
    if (split_count(p) != splits) throw variant_error(p, "has a different number of split points");
    tp = std::min(tp, facts(p).tp_fps);
    const double nu = accuracy_of(p);
    if (!(nu >= 0.0 && nu <= 1.0)) throw variant_error(p, fmt::format("has accuracy {} outside [0, 1]", nu));
    s.gammas.push_back(gammas_of(p));
    if (!s.variant_of.emplace(s.gammas.back(), v).second)
      throw variant_error(p, "repeats the compression ratios of another variant");
  }
  // The variants must be the product of the per-split ratios.
  std::vector<std::vector<double>> ratios(splits);
  std::size_t product = 1;
  for (std::size_t k = 0; k < splits; ++k) {
    for (const auto& g : s.gammas)
      if (std::find(ratios[k].begin(), ratios[k].end(), g[k]) == ratios[k].end()) ratios[k].push_back(g[k]);
    std::sort(ratios[k].rbegin(), ratios[k].rend());
    product *= ratios[k].size();
  }
  if (product != partitioned.size())
    throw InputError(
        "", "scheduler.name",
        fmt::format("adaptive-compression needs one variant per combination of the split points' "
                    "ratios ({}), got {} variants",
                    product, partitioned.size()));
  const Topology topo(platform);
  for (std::size_t k = 0; k < splits; ++k) {
    if (ratios[k].size() < 2) continue;
    SplitChoice c;
    c.split = k + 1;
    c.ratios = ratios[k];
    // The reference variant: the least compressed ratio at every other split.
    std::vector<double> ref(splits);
    for (std::size_t j = 0; j < splits; ++j) ref[j] = ratios[j].back();
    ThresholdProblem problem;
    problem.compute_throughput_fps = tp;
    const Plan& any = partitioned[s.variant_of.at(ref)];
    const PipelineFacts::Split& split = facts(any).splits[k];
    problem.stage_data = 8.0 * split.bytes * ref[k];
    problem.ratios = c.ratios;
    for (const double g : c.ratios) {
      ref[k] = g;
      problem.accuracies.push_back(accuracy_of(partitioned[s.variant_of.at(ref)]));
    }
    c.thresholds_bps = solve_thresholds(problem).thresholds;
    // The route of the split's transfer.
    if (split.transfer >= any.tasks.size() || any.tasks[split.transfer].kind != TaskKind::Transfer)
      throw variant_error(any, fmt::format("has no transfer at task {} for split {}", split.transfer, k + 1));
    const Task* t = &any.tasks[split.transfer];
    const std::string& id = t->id;
    const auto src = platform.device_index_or_null(t->src), dst = platform.device_index_or_null(t->dst);
    const Route* route = nullptr;
    for (std::size_t n = 0; n < platform.networks.size() && route == nullptr && src && dst; ++n)
      if (t->network.empty() || platform.networks[n].name == t->network)
        route = topo.route_or_null(n, *src, *dst);
    if (route == nullptr) throw variant_error(any, fmt::format("transfer '{}' has no route", id));
    for (auto l : route->links) c.links.push_back(topo.links()[l].name());
    s.choices.push_back(std::move(c));
  }
  if (!params_.thresholds_mbps.empty()) {
    if (s.choices.size() != 1)
      throw InputError("", "scheduler.thresholds_mbps",
                       fmt::format("explicit thresholds need exactly one split point with ratios to choose "
                                   "from, got {}",
                                   s.choices.size()));
    auto& c = s.choices.front();
    if (params_.thresholds_mbps.size() != c.ratios.size() - 1)
      throw InputError("", "scheduler.thresholds_mbps",
                       fmt::format("expected {} thresholds (ratios {}), got {}", c.ratios.size() - 1,
                                   c.ratios.size(), params_.thresholds_mbps.size()));
    c.thresholds_bps.clear();
    for (const double t : params_.thresholds_mbps) c.thresholds_bps.emplace_back(t * 1e6);
  }
  s.link_index.assign(s.choices.size(), {});
  for (std::size_t i = 0; i < s.choices.size(); ++i) s.link_index[i].assign(s.choices[i].links.size(), -1);
  s.variants = partitioned;
  return partitioned;
}

std::optional<std::size_t> AdaptiveCompressionScheduler::on_period(const SchedulerView& view) {
  State& s = *s_;
  if (s.variants.empty()) throw Error("adaptive-compression: plan_variants was not called before the run");
  s.current = view.current_variant;
  ++s.periods;
  std::vector<double> want = s.gammas[s.current];
  for (std::size_t i = 0; i < s.choices.size(); ++i) {
    const SplitChoice& c = s.choices[i];
    double b = std::numeric_limits<double>::infinity();
    bool measured = true;
    for (std::size_t l = 0; l < c.links.size(); ++l) {
      long& idx = s.link_index[i][l];
      if (idx < 0) {
        const auto& names = *view.link_names;
        const auto it = std::find(names.begin(), names.end(), c.links[l]);
        if (it == names.end())
          throw Error(fmt::format("adaptive-compression: no link '{}' in the replay", c.links[l]));
        idx = it - names.begin();
      }
      const auto u = static_cast<std::size_t>(idx);
      if (params_.oracle) {
        b = std::min(b, view.link_rates_bps[u]);
      } else if (view.measured_links[u].transfers > 0) {
        b = std::min(b, view.measured_links[u].ewma_rate_bps);
      } else {
        measured = false;
      }
    }
    if (!measured) continue;  // no transfer yet: keep the split's ratio
    want[c.split - 1] = c.ratios[choose_ratio_index(c.thresholds_bps, b)];
  }
  const std::size_t next = s.variant_of.at(want);
  if (next == s.current) return std::nullopt;
  // Algorithm 2 lines 6-7: the devices whose layers change load them.
  const auto before = device_layers(s.variants[s.current]), after = device_layers(s.variants[next]);
  std::vector<std::string> devices;
  for (const auto& [d, layers] : after)
    if (!before.contains(d) || before.at(d) != layers) devices.push_back(d);
  for (const auto& [d, layers] : before)
    if (!after.contains(d)) devices.push_back(d);
  if (params_.reload_s > 0.0)
    for (const auto& d : devices) {
      s.pending.push_back({d, params_.reload_s});
      s.stall_s += params_.reload_s;
    }
  ++s.switches;
  s.current = next;
  return next;
}

std::vector<DeviceStall> AdaptiveCompressionScheduler::take_stalls() {
  return std::exchange(s_->pending, {});
}

std::map<std::string, double> AdaptiveCompressionScheduler::summary() const {
  return {{"switches", s_->switches}, {"reload_stall_s", s_->stall_s}, {"periods", s_->periods}};
}

void register_pipeline_schedulers(SchedulerRegistry& registry) {
  const ParamSchema schema{
      ParamSpec::number("reload_period_s",
                        "seconds between bandwidth measurements and decisions (Algorithm 2)")
          .with_default(1)
          .range(1e-6, 1e9),
      ParamSpec::number("reload_s", "stall of each device whose layers change at a switch (its reload)")
          .with_default(0)
          .range(0, 1e9),
      ParamSpec::boolean("oracle", "decide on the links' true rates instead of the measured ones")
          .with_default(false),
      ParamSpec::value("thresholds_mbps",
                       "explicit thresholds (Mbps, ascending; ratios descending) instead of eq. 3's, for one "
                       "split point with choices")};
  registry.add(
      "adaptive-compression",
      "Hu & Krishnamachari Algorithm 2: per split point, the compressor by measured bandwidth and eq. 3 "
      "thresholds, reload stall on a switch",
      schema, [](const Json& p) {
        AdaptiveCompressionParams a;
        a.reload_period_s = p.at("reload_period_s").get<double>();
        a.reload_s = p.at("reload_s").get<double>();
        a.oracle = p.at("oracle").get<bool>();
        if (!p.at("thresholds_mbps").is_null()) {
          const Json& t = p.at("thresholds_mbps");
          if (!t.is_array() || t.empty())
            throw InputError("", "scheduler.thresholds_mbps", "expected a non-empty list of numbers");
          for (std::size_t i = 0; i < t.size(); ++i) {
            const std::string path = fmt::format("scheduler.thresholds_mbps[{}]", i);
            const double x = json_as_number(t[i], path, 0.0, 1e12);
            if (i > 0 && !(x > a.thresholds_mbps.back()))
              throw InputError("", path,
                               fmt::format("expected thresholds ascending with bandwidth (ratios "
                                           "descending), got {} after {}",
                                           x, a.thresholds_mbps.back()));
            a.thresholds_mbps.push_back(x);
          }
        }
        return std::make_unique<AdaptiveCompressionScheduler>(std::move(a));
      });
}

}  // namespace coinfer
