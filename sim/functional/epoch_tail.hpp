#pragma once
/// How an epoch ends when its samples do not fill the last minibatch, and the steps that follow from it.
///
/// An epoch passes over k streams of samples (one for the single-node trainer; one per worker's shard for
/// the distributed trainer), stream w taking `batch[w]` samples per step. `keep` runs a last step on
/// whatever is left (today's default); `drop` runs only the steps in which every stream has its full
/// minibatch (PyTorch's `drop_last`; the samples left out are reshuffled into later epochs); `merge`
/// runs the same full steps and adds what is left of every stream to the last of them, which then holds
/// more than `batch[w]`.
///
///     epoch_steps({10}, {4}, EpochTail::Keep);    // {{4}, {4}, {2}}
///     epoch_steps({10}, {4}, EpochTail::Drop);    // {{4}, {4}}
///     epoch_steps({10}, {4}, EpochTail::Merge);   // {{4}, {6}}
#include <cstddef>
#include <string_view>
#include <vector>

namespace coinfer {

enum class EpochTail { Keep, Drop, Merge };

/// "keep", "drop", "merge".
std::string_view epoch_tail_name(EpochTail tail);
/// Throws `InputError("", "tail", "unknown epoch tail 'x'; known: keep, drop, merge")`.
EpochTail parse_epoch_tail(std::string_view name);

/// The samples each stream contributes to each step of an epoch, [step][stream], taken from the front
/// of the stream's (shuffled) order: `samples[w]` samples in stream w, `batch[w]` (>= 1) per step.
/// - keep: max over w of ceil(samples[w] / batch[w]) steps; a stream that ran out contributes 0, one
///   that runs short its remainder.
/// - drop: S = min over w of floor(samples[w] / batch[w]) steps of batch[w] each; throws
///   `InputError("", "tail", ...)` when S is 0 (no step would run).
/// - merge: the same S steps, the last also taking every stream's remainder; when S is 0, one step of
///   everything (none when there are no samples).
/// Throws `Error` when the two vectors differ in length or a batch is 0.
std::vector<std::vector<std::size_t>> epoch_steps(const std::vector<std::size_t>& samples,
                                                  const std::vector<std::size_t>& batch, EpochTail tail);

/// An epoch's minibatches, [step][stream] -> sample indices: stream w's `orders[w]` (its samples in the
/// epoch's order) cut front to back as epoch_steps(sizes of `orders`, batch, tail) says. Throws what
/// epoch_steps throws.
std::vector<std::vector<std::vector<std::size_t>>> cut_epoch(
    const std::vector<std::vector<std::size_t>>& orders, const std::vector<std::size_t>& batch,
    EpochTail tail);

}  // namespace coinfer
