#include "partitioners/adalearner/time_model.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace coinfer::adalearner {
namespace {

// The value at x of the line through (x0, y0) and (x1, y1).
double line(double x0, double y0, double x1, double y1, double x) {
  return y0 + (y1 - y0) * (x - x0) / (x1 - x0);
}

}  // namespace

StepTable::StepTable(std::vector<std::int64_t> batches, std::vector<double> seconds)
    : batches_(std::move(batches)), seconds_(std::move(seconds)) {
  if (batches_.empty() || batches_.size() != seconds_.size())
    throw InputError("", "step_table",
                     fmt::format("expected as many times as minibatch sizes, at least one; got {} and {}",
                                 batches_.size(), seconds_.size()));
  for (std::size_t i = 0; i < batches_.size(); ++i) {
    if (batches_[i] < 1 || (i > 0 && batches_[i] <= batches_[i - 1]))
      throw InputError("", index_path("step_table", i),
                       fmt::format("expected minibatch sizes >= 1 in increasing order, got {}", batches_[i]));
    if (!(seconds_[i] > 0.0) || (i > 0 && seconds_[i] < seconds_[i - 1]))
      throw InputError(
          "", index_path("step_table", i),
          fmt::format("expected times > 0 that do not decrease with the size, got {}", seconds_[i]));
  }
}

double StepTable::seconds(std::int64_t batch) const {
  if (batch < 0) throw Error(fmt::format("step table: a minibatch of {} samples", batch));
  if (batch == 0) return 0.0;
  const auto b = static_cast<double>(batch);
  if (batches_.size() == 1) return seconds_[0] * b / static_cast<double>(batches_[0]);
  const auto it = std::lower_bound(batches_.begin(), batches_.end(), batch);
  if (it != batches_.end() && *it == batch) return seconds_[static_cast<std::size_t>(it - batches_.begin())];
  // the segment around `batch`, or the nearest one at either end
  std::size_t hi = static_cast<std::size_t>(it - batches_.begin());
  hi = std::clamp<std::size_t>(hi, 1, batches_.size() - 1);
  const std::size_t lo = hi - 1;
  const double t = line(static_cast<double>(batches_[lo]), seconds_[lo], static_cast<double>(batches_[hi]),
                        seconds_[hi], b);
  return batch < batches_.front() ? std::min(std::max(t, 0.0), seconds_.front()) : t;
}

StepTable measured_step_table(std::vector<StepTime> steps) {
  std::sort(steps.begin(), steps.end(),
            [](const StepTime& a, const StepTime& b) { return a.batch < b.batch; });
  std::vector<std::int64_t> batches;
  std::vector<double> seconds;
  for (const auto& s : steps) {
    batches.push_back(s.batch);
    seconds.push_back(seconds.empty() ? s.seconds : std::max(seconds.back(), s.seconds));
  }
  return StepTable(std::move(batches), std::move(seconds));
}

std::vector<std::int64_t> split_minibatch(const std::vector<StepTable>& workers, std::int64_t total) {
  if (workers.empty()) throw InputError("", "workers", "expected at least 1 worker, got 0");
  const auto n = static_cast<std::int64_t>(workers.size());
  if (total < n)
    throw InputError(
        "", "batch",
        fmt::format("a minibatch of {} does not split across {} workers: each worker needs at least "
                    "one sample",
                    total, n));
  std::vector<std::int64_t> split(workers.size(), 1);
  for (std::int64_t given = n; given < total; ++given) {
    std::size_t best = 0;
    for (std::size_t w = 1; w < workers.size(); ++w)
      if (workers[w].seconds(split[w] + 1) < workers[best].seconds(split[best] + 1)) best = w;
    ++split[best];
  }
  return split;
}

namespace {

// N * W_trans / B: the fp32 messages of N workers through the GO's one radio.
double transfer_s(const CommModel& c, std::int64_t workers) {
  return static_cast<double>(workers) * c.message_bytes / c.bandwidth_bytes_per_s;
}

// 2 W_trans / S_q + (N - 1) W_trans / S_uq: eq. 3.12's encoding and decoding.
double onebit_codec_s(const CommModel& c, std::int64_t workers) {
  return 2.0 * c.message_bytes / c.quantize_bytes_per_s +
         static_cast<double>(workers - 1) * c.message_bytes / c.unquantize_bytes_per_s;
}

double wakeups_s(const CommModel& c, std::int64_t workers) {
  return static_cast<double>(workers) * c.wakeup_s;
}

void check(const CommModel& c) {
  const std::pair<const char*, double> positive[] = {{"bandwidth_bytes_per_s", c.bandwidth_bytes_per_s},
                                                     {"quantize_bytes_per_s", c.quantize_bytes_per_s},
                                                     {"unquantize_bytes_per_s", c.unquantize_bytes_per_s},
                                                     {"compression", c.compression}};
  for (const auto& [key, v] : positive)
    if (!(v > 0.0)) throw InputError("", key, fmt::format("expected a number > 0, got {}", v));
  if (!(c.message_bytes >= 0.0) || !(c.wakeup_s >= 0.0))
    throw InputError("", c.message_bytes >= 0.0 ? "wakeup_s" : "message_bytes", "expected a number >= 0");
}

}  // namespace

double comm_fp32_s(const CommModel& c, std::int64_t workers) {
  check(c);
  return transfer_s(c, workers) + wakeups_s(c, workers);
}

double comm_onebit_s(const CommModel& c, std::int64_t workers) {
  check(c);
  return onebit_codec_s(c, workers) + transfer_s(c, workers) / c.compression + wakeups_s(c, workers);
}

bool prefer_onebit(const CommModel& comm, std::int64_t workers) {
  return comm_onebit_s(comm, workers) < comm_fp32_s(comm, workers);
}

IterationEstimate estimate_iteration(const std::vector<StepTable>& workers, std::int64_t total,
                                     const CommModel& comm, Scheme scheme) {
  check(comm);
  IterationEstimate e;
  e.split = split_minibatch(workers, total);
  const auto n = static_cast<std::int64_t>(workers.size());
  for (std::size_t w = 0; w < workers.size(); ++w)
    e.compute_s = std::max(e.compute_s, workers[w].seconds(e.split[w]));
  e.onebit = scheme == Scheme::OneBit || (scheme == Scheme::Auto && prefer_onebit(comm, n));
  e.wakeup_s = wakeups_s(comm, n);
  e.transfer_s = transfer_s(comm, n) / (e.onebit ? comm.compression : 1.0);
  e.codec_s = e.onebit ? onebit_codec_s(comm, n) : 0.0;
  e.total_s = e.compute_s + e.transfer_s + e.wakeup_s + e.codec_s;
  return e;
}

}  // namespace coinfer::adalearner
