#pragma once
// A three-device pipeline replayed in SimGrid (tests/schedulers/pipeline/chain_replay_test.cpp), shared
// by the tests that compare the replay with eq. 4-7.
#include <cstddef>

namespace coinfer::test {

/// d1 -> d2 -> d3 over two wired 8 Mbps (1 MB/s) hops without latency; compute stages 40, 30, 20 ms
/// (T_p = 25 fps); hop 1 carries `hop1_bytes` per frame, hop 2 20 kB (50 fps). A stream of `frames`
/// at 25 fps, policy queue with queue_capacity 1 and max_in_flight 5, every frame on a variant of
/// accuracy 0.9. Returns the replay's effective accuracy.
double chain_effective_accuracy(double hop1_bytes, std::size_t frames);

}  // namespace coinfer::test
