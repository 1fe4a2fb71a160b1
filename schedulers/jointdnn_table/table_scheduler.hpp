#pragma once
/// `jointdnn-table`: the runtime half of JointDNN's lookup table [JointDNN §2.4.2].
/// It runs over the plan variants of the `jointdnn` partitioner with a `table`
/// (partitioners/jointdnn/table.hpp: variant 0 = the static plan at the nominal rates, variant
/// 1 + u * D + d = grid cell (uplink u, downlink d)) and picks, per frame (or every `period_s`),
/// the cell for the uplink / downlink rates the phone believes in:
///
/// - measured (default): per direction, the EWMA rate the devices measured on their own completed
///   transfers over the route's links (`SchedulerView::measured_links`; the bottleneck when a route
///   has several links). A direction not yet measured counts at its nominal rate; before any
///   transfer at all the scheduler keeps variant 0. A variant that keeps everything on the phone
///   sends nothing, so the estimate then stays where it was (what a phone can know), unless
///   `max_age_s` > 0: a direction whose newest measurement is older than that reverts to its
///   nominal rate, so the table returns to the cell of the nominal rates and measures again
///   (with real frames);
/// - probes (`probe_period_s` > 0): after each decision point (frame release, period) a direction
///   the table needs (its grid has more than one rate) whose links have no measurement that ended
///   within the last `probe_period_s`, and no probe asked for within it, gets one probe of
///   `probe_bytes` (Scheduler::take_probes; uplink mobile -> cloud, downlink cloud -> mobile). Its
///   completion refreshes the measurement like any transfer, so an all-on-phone cell no longer
///   freezes the estimate. Default 0 (off): every run without it is unchanged. 16 kB by default:
///   about eleven 1500-byte packets, long enough (22 ms at Table 3's 5.85 Mbps) that the
///   measurement is the link's rate, not its latency (taken out anyway), and a tenth of VGG-16's
///   8-bit input upload (150.5 kB);
/// - in flight (`in_flight: true`, default false: every run without it is unchanged): a direction's
///   estimate is the lower of the measured EWMA and the rate so far of the transfer in flight the
///   longest on each of its links (MeasuredLink::in_flight_rate_bps: the bytes the link has taken
///   over the time since it started sending, latency taken out; what the phone's TCP stack knows),
///   once that transfer has been sending (past its latency) for at least `in_flight_min_s`
///   (default 0.1 s: a few 4G round trips, so the rate is not a just-started flow's; a rule fixed
///   before the runs). A slow upload still in flight then lowers the cell of the frames released
///   behind it, instead of the last completed (fast) upload deciding for them;
/// - `oracle: true`: the true current rates (`SchedulerView::link_rates_bps`), an upper bound.
///
/// Cell choice per direction (`pick`): `floor` (default, conservative) takes the largest grid rate
/// at or below the estimate (the smallest grid rate when the estimate is below them all);
/// `nearest` takes the grid rate closest to it (ties: the lower one).
///
///     pick_cell({1e6, 5e6}, {2e6, 1e7}, 4e6, 3e7, Pick::floor)  // -> 1 + 0 * 2 + 1 = 2
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "sim/core/json_access.hpp"
#include "sim/core/param_schema.hpp"
#include "sim/workload/scheduler.hpp"

namespace coinfer::jointdnn_table {

enum class Pick { floor, nearest };

struct TableParams {
  bool oracle = false;
  double period_s = 0.0;  ///< 0: decide at every frame release
  Pick pick = Pick::floor;
  double max_age_s = 0.0;       ///< 0: a measurement never expires
  double probe_period_s = 0.0;  ///< 0: no probes
  double probe_bytes = 16384.0;
  bool in_flight = false;                            ///< also use the rate of the transfer in flight
  double in_flight_min_s = 0.1;                      ///< ... once it has been sending this long
  static TableParams from_json(const Json& params);  ///< params filled by table_param_schema
};

ParamSchema table_param_schema();

/// Index of the grid rate chosen for `rate_bps` in `grid` (increasing, non-empty).
std::size_t pick_index(const std::vector<double>& grid, double rate_bps, Pick pick);
/// The plan variant of the chosen cell: 1 + u * downlink_grid.size() + d.
std::size_t pick_cell(const std::vector<double>& uplink_grid, const std::vector<double>& downlink_grid,
                      double uplink_bps, double downlink_bps, Pick pick);

class TableScheduler final : public Scheduler {
 public:
  explicit TableScheduler(TableParams params) : params_(params) {}
  std::string name() const override { return "jointdnn-table"; }
  /// Reads the grid and the links from the variants' facts (partitioners/jointdnn/
  /// table_facts.hpp); InputError (`scheduler.name`)
  /// when they are not a jointdnn table's.
  std::vector<Plan> plan_variants(std::vector<Plan> partitioned, const Platform& platform) override;
  FrameDecision on_frame(const SchedulerView& view) override;
  double period_s() const override { return params_.period_s; }
  std::optional<std::size_t> on_period(const SchedulerView& view) override;
  std::vector<ProbeRequest> take_probes(const SchedulerView& view) override;
  bool sees_in_flight() const override { return params_.in_flight && !params_.oracle; }
  /// table_decisions, table_changes (decisions that changed the variant), table_measured_decisions
  /// (decisions taken on a measurement or the oracle rather than variant 0 by default); with
  /// probes on, table_probes (probes asked for); with in_flight on, table_in_flight_decisions
  /// (decisions where a transfer in flight set an estimate).
  std::map<std::string, double> summary() const override;

 private:
  struct Direction {
    std::vector<std::string> links;  ///< the route's link names
    std::vector<std::size_t> index;  ///< their indices in the view (resolved at the first decision)
    double nominal_bps = 0.0;
    std::vector<std::size_t> seen;      ///< transfers counted per link at the last decision
    std::vector<double> measured_at_s;  ///< when that count last grew
    ProbeRequest probe;                 ///< a probe of this direction (sender, receiver, network)
    bool needed = false;                ///< its grid has more than one rate
    double probed_at_s = -std::numeric_limits<double>::infinity();  ///< the last probe asked for
  };
  static void resolve(Direction& dir, const SchedulerView& view);
  /// True when the direction needs a probe now (see the file comment).
  bool stale(const Direction& dir, const SchedulerView& view) const;
  std::size_t decide(const SchedulerView& view);
  /// The estimate for one direction; false when nothing (fresh) was measured on it. A measurement's
  /// age counts from the first decision that saw it. `lowered`: a transfer in flight lowered it.
  bool estimate(Direction& dir, const SchedulerView& view, double& rate_bps, bool& lowered) const;
  /// The in-flight rate of a link's oldest transfer when it counts (in_flight on, sending for at
  /// least in_flight_min_s); 0 otherwise.
  double in_flight_rate(const MeasuredLink& m) const;

  TableParams params_;
  std::vector<double> up_grid_, down_grid_;
  Direction up_, down_;
  std::size_t last_ = 0;
  double decisions_ = 0, changes_ = 0, measured_ = 0, probes_ = 0, lowered_ = 0;
};

}  // namespace coinfer::jointdnn_table
