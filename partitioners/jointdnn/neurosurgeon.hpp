#pragma once
/// `neurosurgeon`: the baseline JointDNN compares against ([JointDNN §3-4]): one split point,
/// layers 1..p on the mobile, p+1..N on the cloud (p = 0: all cloud, p = N: all mobile).
#include "partitioners/jointdnn/jointdnn_problem.hpp"

namespace coinfer::jointdnn {

/// Best single split for the problem's objective, honouring any maxima (infeasible when no split
/// meets them). Choice: the mobile prefix and the cloud suffix each run as ONE group, so their times
/// are mobile_time[0][p-1] and cloud_time[p][N-p-1]. Crossings and weight downloads follow the
/// semantics of jointdnn_problem.hpp (a skip from the prefix into the suffix uploads its source once).
/// O(N + skips). Example: `solve_neurosurgeon(problem)`.
Solution solve_neurosurgeon(const Problem& problem);

}  // namespace coinfer::jointdnn
