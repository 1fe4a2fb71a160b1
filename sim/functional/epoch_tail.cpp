#include "sim/functional/epoch_tail.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/core/error.hpp"
#include "sim/functional/named_values.hpp"

namespace coinfer {
namespace {

constexpr NamedValue<EpochTail> kTails[] = {
    {EpochTail::Keep, "keep"}, {EpochTail::Drop, "drop"}, {EpochTail::Merge, "merge"}};

// keep: every stream cut into minibatches of its size, the last one short; streams that ran out give 0.
std::vector<std::vector<std::size_t>> keep_steps(const std::vector<std::size_t>& samples,
                                                 const std::vector<std::size_t>& batch) {
  std::size_t steps = 0;
  for (std::size_t w = 0; w < samples.size(); ++w)
    steps = std::max(steps, (samples[w] + batch[w] - 1) / batch[w]);
  std::vector<std::vector<std::size_t>> out(steps, std::vector<std::size_t>(samples.size()));
  for (std::size_t s = 0; s < steps; ++s)
    for (std::size_t w = 0; w < samples.size(); ++w)
      out[s][w] = std::min(batch[w], samples[w] - std::min(samples[w], s * batch[w]));
  return out;
}

// The steps in which every stream has its full minibatch.
std::size_t full_steps(const std::vector<std::size_t>& samples, const std::vector<std::size_t>& batch) {
  std::size_t steps = samples.empty() ? 0 : samples[0] / batch[0];
  for (std::size_t w = 1; w < samples.size(); ++w) steps = std::min(steps, samples[w] / batch[w]);
  return steps;
}

void throw_no_full_step(const std::vector<std::size_t>& samples, const std::vector<std::size_t>& batch) {
  if (samples.size() == 1)
    throw InputError("", "tail",
                     fmt::format("'drop' runs no step: {} training samples make no full minibatch of {}",
                                 samples[0], batch[0]));
  std::size_t w = 0;
  while (w + 1 < samples.size() && samples[w] >= batch[w]) ++w;
  throw InputError("", "tail",
                   fmt::format("'drop' runs no step: worker {} has {} training samples, fewer than its local "
                               "minibatch of {}",
                               w, samples[w], batch[w]));
}

}  // namespace

std::string_view epoch_tail_name(EpochTail tail) { return name_of(kTails, tail); }

EpochTail parse_epoch_tail(std::string_view name) { return parse_named(kTails, name, "tail", "epoch tail"); }

std::vector<std::vector<std::size_t>> epoch_steps(const std::vector<std::size_t>& samples,
                                                  const std::vector<std::size_t>& batch, EpochTail tail) {
  if (samples.size() != batch.size() || std::find(batch.begin(), batch.end(), 0) != batch.end())
    throw Error(fmt::format("epoch_steps: {} streams with {} minibatch sizes, each >= 1 ({})", samples.size(),
                            batch.size(), fmt::join(batch, ", ")));
  if (tail == EpochTail::Keep) return keep_steps(samples, batch);
  const std::size_t steps = full_steps(samples, batch);
  if (steps == 0 && tail == EpochTail::Drop) throw_no_full_step(samples, batch);
  if (steps == 0) {  // merge with no full step: one step of everything, if there is anything
    const bool any = std::any_of(samples.begin(), samples.end(), [](std::size_t n) { return n > 0; });
    return any ? std::vector<std::vector<std::size_t>>{samples} : std::vector<std::vector<std::size_t>>{};
  }
  std::vector<std::vector<std::size_t>> out(steps, batch);
  if (tail == EpochTail::Merge)
    for (std::size_t w = 0; w < samples.size(); ++w) out.back()[w] += samples[w] - steps * batch[w];
  return out;
}

std::vector<std::vector<std::vector<std::size_t>>> cut_epoch(
    const std::vector<std::vector<std::size_t>>& orders, const std::vector<std::size_t>& batch,
    EpochTail tail) {
  std::vector<std::size_t> samples;
  for (const auto& o : orders) samples.push_back(o.size());
  const auto steps = epoch_steps(samples, batch, tail);
  std::vector<std::vector<std::vector<std::size_t>>> out(
      steps.size(), std::vector<std::vector<std::size_t>>(orders.size()));
  std::vector<std::size_t> next(orders.size(), 0);  // each stream's first sample not yet taken
  for (std::size_t s = 0; s < steps.size(); ++s)
    for (std::size_t w = 0; w < orders.size(); ++w) {
      const auto first = orders[w].begin() + static_cast<std::ptrdiff_t>(next[w]);
      out[s][w].assign(first, first + static_cast<std::ptrdiff_t>(steps[s][w]));
      next[w] += steps[s][w];
    }
  return out;
}

}  // namespace coinfer
