#pragma once
/// The `adaptive-compression` runtime scheduler: Hu & Krishnamachari's
/// Algorithm 2 [HuK]. Every `reload_period_s` each split point measures its bandwidth b_i, picks its
/// compression ratio gamma_i from the eq. 3 thresholds Theta_i, and the pipeline switches to the plan
/// variant of the chosen ratios; a switch stalls the devices whose layers change for `reload_s`
/// (Algorithm 2 line 7: they load their part of the new CNN A') through Scheduler::take_stalls.
///
/// Plan variants (from the `pipeline` partitioner, their partitioners/pipeline/pipeline_facts.hpp
/// facts): split k of variant v sends `splits[k].bytes` compressed by gamma_k = `splits[k].gamma`
/// over the transfer `splits[k].transfer`. More than one communication stage: the variants must
/// hold every combination of the per-split ratios exactly once (one variant per gamma combination;
/// the partitioner's variants, all compressors at one split, are that product trivially); the
/// per-split choices then name one variant. Every variant needs its accuracy `nu` and T_p `tp_fps`.
///
/// Thresholds of split k: `pipeline-thresholds` (thresholds.hpp) with T_p = the smallest tp_fps of
/// the variants, D = 8 * D_k (uncompressed bits, D_k = bytes * gamma at split k) and, per ratio g, the
/// accuracy of the variant with g at k and the least compressed ratio at every other split. Or given
/// explicitly: `thresholds_mbps` (only with one split that has choices), one per pair of neighbouring ratios,
/// ratios descending, so the thresholds ascend with bandwidth. Selection (Fig. 2): start at the
/// most compressed ratio and move to the next while b > its threshold (an infinite threshold
/// stops).
///
/// Bandwidth b_k: what the devices measured on the split's route (SchedulerView::measured_links,
/// the EWMA of their own completed transfers; the slowest link of the route); before the split's
/// first transfer the split keeps its ratio. `oracle: true` reads the true rate instead.
/// Summary metrics: `switches`, `reload_stall_s` (stall seconds summed over devices), `periods`.
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/scheduler_registry.hpp"
#include "sim/workload/scheduler.hpp"

namespace coinfer {

struct AdaptiveCompressionParams {
  double reload_period_s = 1.0;
  double reload_s = 0.0;
  bool oracle = false;
  std::vector<double> thresholds_mbps;  ///< empty: from eq. 3
};

/// Algorithm 2 line 4: the index into `ratios_descending` chosen at bandwidth `b`, given
/// thresholds[i] between ratio i and i + 1 (nullopt: infinite).
///
///     choose_ratio_index({2.0, 5.0}, 3.0);   // 1: above theta_1 = 2, not above theta_2 = 5
std::size_t choose_ratio_index(const std::vector<std::optional<double>>& thresholds, double b);

class AdaptiveCompressionScheduler final : public Scheduler {
 public:
  explicit AdaptiveCompressionScheduler(AdaptiveCompressionParams params);
  ~AdaptiveCompressionScheduler() override;
  std::string name() const override { return "adaptive-compression"; }
  std::vector<Plan> plan_variants(std::vector<Plan> partitioned, const Platform& platform) override;
  double period_s() const override { return params_.reload_period_s; }
  std::optional<std::size_t> on_period(const SchedulerView& view) override;
  std::vector<DeviceStall> take_stalls() override;
  std::map<std::string, double> summary() const override;
  /// Per split with choices: its ratios (descending) and thresholds in bits per second.
  struct SplitChoice {
    std::size_t split = 0;  ///< 1-based
    std::vector<double> ratios;
    std::vector<std::optional<double>> thresholds_bps;
    std::vector<std::string> links;  ///< the links of its route (measured_links names)
  };
  const std::vector<SplitChoice>& split_choices() const;

 private:
  struct State;
  AdaptiveCompressionParams params_;
  std::unique_ptr<State> s_;
};

/// Adds `adaptive-compression`.
void register_pipeline_schedulers(SchedulerRegistry& registry);

}  // namespace coinfer
