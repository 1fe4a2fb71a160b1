#include "partitioners/modnn/modnn_plan.hpp"

#include <algorithm>
#include <limits>
#include <set>

#include <fmt/format.h>

#include "partitioners/modnn/data_flow.hpp"
#include "sim/core/error.hpp"

namespace coinfer::modnn {
namespace {

struct Link {
  double rate_bps = 0.0;
  double latency_s = 0.0;
  double wake_up_s = 0.0;
  bool per_channel = false;  ///< the network pays its wake-up per channel (WakeUpPer::Channel)
};

// Builds the task list stage by stage and accumulates ET phase by phase.
class Builder {
 public:
  Builder(const PartitionContext& ctx, const ModnnOptions& o, std::vector<std::string> workers)
      : ctx_(ctx),
        o_(o),
        workers_(std::move(workers)),
        last_(workers_.size() + 1),
        arrived_(workers_.size()) {
    const auto& net = ctx.platform.networks[*ctx.platform.network_between(ctx.source, workers_.front())];
    const auto& spec = net.is_access() ? net.uplink : net.link;
    link_ = {spec.rate_bps, spec.latency_s, net.wake_up_s, net.wake_up_per == WakeUpPer::Channel};
    for (const auto& w : workers_) capabilities_.push_back(1.0 / ctx.cost.total_time_s(device(w)));
  }

  ModnnResult build() {
    const auto stages = model_stages(ctx_.graph);
    ElementMasks held(k() + 1, elements(0));
    held.set_all(k());  // the GO holds the input
    std::string prev;
    for (const auto& s : stages) {
      held = s.kind == StageKind::Conv ? conv_stage(s, held, prev) : fc_stage(s, held, prev);
      prev = s.name;
    }
    gather_output(held, prev);
    ModnnResult r;
    r.plan.name = o_.name;
    r.plan.tasks = std::move(tasks_);
    r.workers = static_cast<int>(k());
    r.estimated_s = et_s_;
    return r;
  }

 private:
  std::size_t k() const { return workers_.size(); }
  const std::string& node(std::size_t n) const { return n == k() ? ctx_.source : workers_[n]; }
  const DeviceCalibration& device(const std::string& name) const {
    return ctx_.platform.devices[ctx_.platform.device_index(name)].calibration;
  }
  std::int64_t elements(std::size_t position) const {
    std::int64_t n = 1;
    for (auto d : layer_at_position(ctx_.graph, position).output_shape) n *= d;
    return n;
  }
  double bytes_per_value(std::size_t position) const {
    const Layer& l = layer_at_position(ctx_.graph, position);
    return static_cast<double>(l.output_bytes) / static_cast<double>(elements(position));
  }

  // A transfer between worker `worker` and the GO carrying `values` for the logical pair
  // (worker, peer): peer == k() is the GO itself, another worker's index a halo the GO relays.
  struct Flow {
    std::size_t worker = 0;
    std::size_t peer = 0;
    std::int64_t values = 0;
  };

  // The logical channel of a flow: "" (the physical endpoint pair) unless relayed.
  std::string channel(const Flow& f) const {
    return f.peer == k() ? std::string() : pair_channel(workers_[f.worker], workers_[f.peer]);
  }

  // Per worker w, its flows to (`to_go`) or from the GO: counts[w][peer].
  std::vector<Flow> flows(const std::vector<std::vector<std::int64_t>>& counts) const {
    std::vector<Flow> out;
    for (std::size_t w = 0; w < counts.size(); ++w)
      for (std::size_t p = 0; p < counts[w].size(); ++p)
        if (counts[w][p] > 0) out.push_back({w, p, counts[w][p]});
    return out;
  }

  std::vector<Flow> to_go_flows(const std::vector<std::int64_t>& per_worker) const {
    std::vector<Flow> out;
    for (std::size_t w = 0; w < per_worker.size(); ++w)
      if (per_worker[w] > 0) out.push_back({w, k(), per_worker[w]});
    return out;
  }

  // Task id: "<stage>.<what>.<worker>" for the worker's own traffic with the GO, and
  // "<stage>.<what>.<from>><to>" for a relayed halo (from -> GO -> to).
  std::string transfer_id(const Flow& f, bool to_go, const std::string& stage, const char* what) const {
    if (f.peer == k()) return fmt::format("{}.{}.{}", stage, what, workers_[f.worker]);
    const auto& from = workers_[to_go ? f.worker : f.peer];
    const auto& to = workers_[to_go ? f.peer : f.worker];
    return fmt::format("{}.{}.{}>{}", stage, what, from, to);
  }

  // One transfer phase: each flow to the GO (`to_go`) or from it, after its sender's last compute
  // and `extra_deps`; ET += the phase's wake-ups + latency + all bytes on the air.
  void transfers(const std::vector<Flow>& phase, bool to_go, double value_bytes, const std::string& stage,
                 const char* what, const std::vector<std::string>& extra_deps) {
    double bytes_total = 0.0;
    for (const auto& f : phase) {
      const double bytes = static_cast<double>(f.values) * value_bytes;
      const auto id = transfer_id(f, to_go, stage, what);
      std::vector<std::string> deps = extra_deps;
      const auto& src_last = last_[to_go ? f.worker : k()];
      if (!src_last.empty() && std::find(deps.begin(), deps.end(), src_last) == deps.end())
        deps.push_back(src_last);
      const auto& w = workers_[f.worker];
      Task t = to_go ? transfer_task(id, w, ctx_.source, bytes, deps, stage)
                     : transfer_task(id, ctx_.source, w, bytes, deps, stage);
      t.channel = channel(f);
      tasks_.push_back(std::move(t));
      (to_go ? arrived_go_ : arrived_[f.worker]).push_back(id);
      bytes_total += bytes;
    }
    if (bytes_total > 0.0)
      et_s_ += phase_wake_ups(phase, to_go) * link_.wake_up_s + link_.latency_s +
               8.0 * bytes_total / link_.rate_bps;
  }

  // Wake-ups a phase waits for in ET. Per radio: one (the radios wake together). Per channel: each
  // radio sets up its new channels one at a time (a map hop reuses the channel its reduce hop just
  // opened), so the phase waits for the radio with the most.
  double phase_wake_ups(const std::vector<Flow>& phase, bool to_go) {
    if (!link_.per_channel) return 1.0;
    std::vector<std::set<std::string>> opened(k() + 1);  // per setting-up node
    for (const auto& f : phase) {
      const auto c = f.peer == k() ? pair_channel(workers_[f.worker], ctx_.source) : channel(f);
      if (open_channels_.insert(c).second) opened[to_go ? f.worker : k()].insert(c);
    }
    std::size_t most = 0;
    for (const auto& o : opened) most = std::max(most, o.size());
    return static_cast<double>(most);
  }

  void boundary(const ElementMasks& held, const ElementMasks& need, double value_bytes,
                const std::string& prev, const std::string& stage) {
    const auto x = exchange(held, need);
    open_channels_.clear();  // the channels idled through the stage's compute
    transfers(flows(x.reduce), true, value_bytes, prev.empty() ? stage : prev, "reduce", {});
    transfers(flows(x.map), false, value_bytes, stage, "map", arrived_go_);  // the GO maps what it gathered
  }

  std::vector<std::string> take(std::vector<std::string>& v) {
    auto out = std::move(v);
    v.clear();
    return out;
  }

  // A compute task on node n after its own previous task and whatever arrived there.
  void compute(std::size_t n, double seconds, const std::string& stage) {
    auto deps = take(n == k() ? arrived_go_ : arrived_[n]);
    if (!last_[n].empty()) deps.push_back(last_[n]);
    const auto id = fmt::format("{}.{}", stage, node(n));
    tasks_.push_back(compute_task(id, node(n), seconds, deps, stage));
    last_[n] = id;
  }

  ElementMasks conv_stage(const Stage& s, const ElementMasks& held, const std::string& prev) {
    const auto regions = split_conv_stage(ctx_.graph, s, o_.conv, capabilities_);
    const Shape in = stage_input_shape(ctx_.graph, s);
    ElementMasks need(k() + 1, held.elements);
    for (std::size_t w = 0; w < k(); ++w) need.set_region(w, regions[w].input, in);
    boundary(held, need, bytes_per_value(s.first - 1), prev, s.name);
    double slowest = 0.0;
    for (std::size_t w = 0; w < k(); ++w) {
      double t = 0.0;
      for (std::size_t p = s.first; p <= s.last; ++p) {
        const auto& out = layer_at_position(ctx_.graph, p).output_shape;
        const double share = static_cast<double>(regions[w].outputs[p - s.first].area()) /
                             static_cast<double>(out[1] * out[2]);
        t += partial_layer_time_s(ctx_.cost, p, device(workers_[w]), share);
      }
      if (t > 0.0) compute(w, t, s.name);
      slowest = std::max(slowest, t);
    }
    et_s_ += slowest;
    ElementMasks out(k() + 1, elements(s.last));
    for (std::size_t w = 0; w < k(); ++w)
      out.set_region(w, regions[w].outputs.back(), layer_at_position(ctx_.graph, s.last).output_shape);
    return out;
  }

  FcSplit split_fc(const Stage& s) const {
    const Layer& l = layer_at_position(ctx_.graph, s.head);
    const double sparsity = o_.fc_sparsity.value_or(l.attrs.sparsity);
    const FcLayerSpec spec{elements(s.head - 1), l.attrs.units,        sparsity,
                           o_.seed + s.head,     o_.fc_planted_blocks, o_.fc_block_scale};
    const auto worker = fc_rates_or_dense(s.head, device(workers_.front()), sparsity);
    const auto go = fc_rates_or_dense(s.head, device(ctx_.source), sparsity);
    return split_fc_layer(spec, sparsity > 0.0 ? o_.sparse_fc : FcMethod::Fc1d, capabilities_, worker, go,
                          link_.rate_bps, 4);
  }

  FcRates fc_rates_or_dense(std::size_t position, const DeviceCalibration& d, double sparsity) const {
    if (sparsity > 0.0) return fc_rates(ctx_.cost, position, d);
    const Layer& l = layer_at_position(ctx_.graph, position);
    return {ctx_.cost.layer_time_s(position, d) / static_cast<double>(l.macs), 0.0, 0.0};
  }

  ElementMasks fc_stage(const Stage& s, const ElementMasks& held, const std::string& prev) {
    const auto split = split_fc(s);
    ElementMasks need(k() + 1, held.elements);
    for (std::size_t w = 0; w < k(); ++w) need.set_indices(w, split.workers[w].input_rows);
    need.set_indices(k(), split.go.input_rows);
    const double value_bytes = bytes_per_value(s.first - 1);
    boundary(held, need, value_bytes, prev, s.name);
    double slowest = 0.0;
    std::vector<std::int64_t> partials(k(), 0);
    for (std::size_t w = 0; w < k(); ++w) {
      if (split.workers[w].nonzeros > 0) compute(w, split.workers[w].time_s, s.name);
      slowest = std::max(slowest, split.workers[w].time_s);
      partials[w] = split.workers[w].output_values;
    }
    et_s_ += slowest;
    open_channels_.clear();
    transfers(to_go_flows(partials), true, bytes_per_value(s.head), s.name, "partial", {});
    // The GO sums the partial outputs after its own block, then runs the stage's other layers (a
    // leading flatten only renames the gathered map: the workers read its input's elements).
    double go_s = split.go.time_s;
    for (std::size_t p = s.head + 1; p <= s.last; ++p) go_s += ctx_.cost.layer_time_s(p, device(ctx_.source));
    compute(k(), go_s, s.name);
    et_s_ += go_s;
    ElementMasks out(k() + 1, elements(s.last));
    out.set_all(k());
    return out;
  }

  void gather_output(const ElementMasks& held, const std::string& prev) {
    ElementMasks need(k() + 1, held.elements);
    need.set_all(k());
    const auto x = exchange(held, need);
    const auto last = ctx_.graph.topological_order().size() - 1;
    open_channels_.clear();
    transfers(flows(x.reduce), true, bytes_per_value(last), prev, "gather", {});
  }

  const PartitionContext& ctx_;
  const ModnnOptions& o_;
  std::vector<std::string> workers_;
  std::vector<double> capabilities_;
  Link link_;
  std::vector<Task> tasks_;
  std::vector<std::string> last_;                  // per node: its last compute task
  std::vector<std::vector<std::string>> arrived_;  // per worker: transfers into it not yet consumed
  std::vector<std::string> arrived_go_;            // transfers into the GO not yet consumed
  double et_s_ = 0.0;
  std::set<std::string> open_channels_;  // ET: channels opened since the last compute
};

}  // namespace

std::vector<std::string> candidate_workers(const PartitionContext& ctx) {
  std::vector<std::pair<double, std::string>> found;
  for (const auto& d : ctx.platform.devices)
    if (d.name != ctx.source && ctx.platform.network_between(ctx.source, d.name))
      found.emplace_back(ctx.cost.total_time_s(d.calibration), d.name);
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string> names;
  for (auto& [t, n] : found) names.push_back(n);
  return names;
}

ModnnResult modnn_plan(const PartitionContext& ctx, const ModnnOptions& o) {
  const auto all = candidate_workers(ctx);
  const int available = static_cast<int>(all.size());
  if (available == 0)
    throw InputError("", "source",
                     fmt::format("no worker device shares a network with the GO '{}'", ctx.source));
  if (o.workers > available || o.max_workers > available)
    throw InputError("", o.workers > available ? "partitioner.workers" : "partitioner.max_workers",
                     fmt::format("{} workers asked, the platform has {} reachable from '{}'",
                                 std::max(o.workers, o.max_workers), available, ctx.source));
  const int lo = o.workers > 0 ? o.workers : 1;
  const int hi = o.workers > 0 ? o.workers : (o.max_workers > 0 ? o.max_workers : available);
  ModnnResult best;
  best.estimated_s = std::numeric_limits<double>::infinity();
  std::vector<double> estimates;
  for (int n = lo; n <= hi; ++n) {
    auto r = Builder(ctx, o, {all.begin(), all.begin() + n}).build();
    estimates.push_back(r.estimated_s);
    if (r.estimated_s < best.estimated_s) best = std::move(r);
  }
  best.estimates_s = std::move(estimates);
  return best;
}

}  // namespace coinfer::modnn
