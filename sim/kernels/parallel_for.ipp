// Implementation of coinfer::kernels::parallel_for (included by gemm.hpp).
#include <algorithm>
#include <thread>
#include <vector>

namespace coinfer::kernels {

template <class Body>
void parallel_for(std::int64_t n, std::int64_t min_chunk, Body&& body) {
  const std::int64_t max_parts = std::max<std::int64_t>(1, n / std::max<std::int64_t>(1, min_chunk));
  const std::int64_t parts = std::min<std::int64_t>(kernel_threads(), max_parts);
  if (parts <= 1) {
    if (n > 0) body(std::int64_t{0}, n);
    return;
  }
  auto bound = [&](std::int64_t p) { return n * p / parts; };
  std::vector<std::jthread> workers;
  workers.reserve(static_cast<std::size_t>(parts - 1));
  for (std::int64_t p = 1; p < parts; ++p) workers.emplace_back([&, p] { body(bound(p), bound(p + 1)); });
  body(bound(0), bound(1));
}

}  // namespace coinfer::kernels
