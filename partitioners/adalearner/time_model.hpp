#pragma once
/// AdaLearner's iteration-time model ([Mao-PhD §3.2-3.4]) as pure
/// functions over plain data: the per-device lookup table of training-step time against minibatch size
/// (sec. 3.3, Fig. 3.8), the split of the total minibatch across workers by capability, and the
/// iteration time of eq. 3.8 with the communication cost of the fp32 scheme (eq. 3.11) or of 1-bit
/// quantization (eq. 3.12) and the choice between them (eq. 3.13).
///
///     std::vector<StepTable> wn{StepTable({1, 64, 128}, {0.1, 5.0, 10.0}), ...};
///     CommModel comm{437544 * 2, 2.5e6, 0.1, 1.9e8, 4.0e8, 20.3};
///     IterationEstimate e = estimate_iteration(wn, 128, comm, Scheme::Auto);   // e.total_s
///
/// Units: seconds, bytes, bytes per second.
#include <cstdint>
#include <vector>

#include "sim/functional/step_timer.hpp"

namespace coinfer::adalearner {

/// One device's lookup table (Fig. 3.8): the measured time of a training step (forward, backward,
/// update) at a few minibatch sizes.
class StepTable {
 public:
  /// Throws `InputError("", "step_table", ...)` unless there is at least one entry, the sizes are >= 1
  /// and strictly increasing, and the times are > 0 and non-decreasing.
  StepTable(std::vector<std::int64_t> batches, std::vector<double> seconds);

  /// Time of a minibatch of `batch` samples: 0 for 0; linear between the measured sizes; beyond them
  /// linear through the two nearest entries (proportional to the size when there is one entry, and
  /// never below the smallest entry's time for sizes under it). Throws `Error` for batch < 0.
  double seconds(std::int64_t batch) const;

  const std::vector<std::int64_t>& batches() const { return batches_; }

 private:
  std::vector<std::int64_t> batches_;
  std::vector<double> seconds_;
};

/// The lookup table of measured steps (sim/functional/step_timer.hpp, `coinfer step-times`), sorted
/// by size, each time raised to the running maximum of the smaller sizes' (on a loaded host a larger
/// step can measure faster than a smaller one; the table must not decrease). Throws like StepTable.
StepTable measured_step_table(std::vector<StepTime> steps);

/// Sec. 3.3: the total minibatch split across the workers (one StepTable each) so that the slowest
/// worker finishes first, every worker getting at least one sample. One sample at a time goes to the
/// worker whose time with it is least (ties to the lower index); since each table is non-decreasing
/// this takes the `total` smallest step times and so minimises the maximum exactly.
/// Throws `InputError("", "workers", ...)` for no worker and `InputError("", "batch", ...)` when
/// total < the number of workers.
std::vector<std::int64_t> split_minibatch(const std::vector<StepTable>& workers, std::int64_t total);

/// What eq. 3.11-3.12 need to know about the network and the codec.
struct CommModel {
  double message_bytes = 0.0;           ///< W_trans: fp32 bytes one worker exchanges per iteration
  double bandwidth_bytes_per_s = 0.0;   ///< B: the WiFi rate the GO's serialized radio shares
  double wakeup_s = 0.0;                ///< D[j]: radio wake-up per worker and iteration (~100 ms)
  double quantize_bytes_per_s = 0.0;    ///< S_q: fp32 bytes the 1-bit encoder consumes per second
  double unquantize_bytes_per_s = 0.0;  ///< S_uq: fp32 bytes the decoder produces per second
  double compression = 32.0;            ///< Z: fp32 bytes / 1-bit bytes (32 in the paper)
};

/// Eq. 3.11, fp32 exchange with N workers: N * W_trans / B + D, with D = N * wakeup_s (eq. 3.8's sum
/// of the workers' wake-ups).
double comm_fp32_s(const CommModel& comm, std::int64_t workers);

/// Eq. 3.12, 1-bit exchange: 2 W_trans / S_q (the worker's and the GO's encoding) + (N - 1) W_trans /
/// S_uq (the GO decodes the workers one after another) + (N * W_trans / B) / Z + D. The transfer term
/// is eq. 3.11's without the wake-ups, divided by Z (the paper writes T_comm / Z; the wake-ups do not
/// shrink with the message, so they are counted once).
double comm_onebit_s(const CommModel& comm, std::int64_t workers);

/// Eq. 3.13: whether the 1-bit scheme communicates faster than fp32 for N workers.
bool prefer_onebit(const CommModel& comm, std::int64_t workers);

enum class Scheme { Fp32, OneBit, Auto };

/// Eq. 3.8 for one configuration, split into the parts Fig. 3.11-3.12 stack.
struct IterationEstimate {
  std::vector<std::int64_t> split;  ///< minibatch per worker
  bool onebit = false;              ///< the scheme used (Auto: eq. 3.13's choice)
  double compute_s = 0.0;           ///< max_i T_i(W_comp[i])
  double transfer_s = 0.0;          ///< N * W_trans / B (divided by Z for 1-bit)
  double wakeup_s = 0.0;            ///< sum_j D[j]
  double codec_s = 0.0;             ///< encode and decode (1-bit only)
  double total_s = 0.0;             ///< the sum of the four
};

/// The iteration time with every worker in `workers` (N = workers.size()) sharing `total`.
/// Throws like split_minibatch.
IterationEstimate estimate_iteration(const std::vector<StepTable>& workers, std::int64_t total,
                                     const CommModel& comm, Scheme scheme);

}  // namespace coinfer::adalearner
