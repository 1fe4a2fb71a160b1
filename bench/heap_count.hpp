#pragma once
// Heap accounting for a benchmark that measures what a call allocates: every operator new / delete of
// the program is counted, with a peak the benchmark resets before the call. Include it in ONE source
// file of a benchmark executable (it replaces the global operator new and delete).
//
//     const auto base = g_live_bytes.load();
//     g_peak_bytes.store(base);
//     run();                                              // the call measured
//     const double peak_mib = double(g_peak_bytes.load() - base) / (1 << 20);
#include <time.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>

namespace {

std::atomic<std::int64_t> g_live_bytes{0}, g_peak_bytes{0};
constexpr std::size_t kHeader = 16;  // keeps malloc's 16-byte alignment

void* counted_alloc(std::size_t size) {
  auto* block = static_cast<unsigned char*>(std::malloc(size + kHeader));
  if (!block) throw std::bad_alloc();
  *reinterpret_cast<std::size_t*>(block) = size;
  const auto live = g_live_bytes.fetch_add(std::int64_t(size)) + std::int64_t(size);
  auto peak = g_peak_bytes.load();
  while (live > peak && !g_peak_bytes.compare_exchange_weak(peak, live)) {
  }
  return block + kHeader;
}

void counted_free(void* p) noexcept {
  if (!p) return;
  auto* block = static_cast<unsigned char*>(p) - kHeader;
  g_live_bytes.fetch_sub(std::int64_t(*reinterpret_cast<std::size_t*>(block)));
  std::free(block);
}

}  // namespace

void* operator new(std::size_t size) { return counted_alloc(size); }
void* operator new[](std::size_t size) { return counted_alloc(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return counted_alloc(size);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept { return operator new(size, tag); }
void operator delete(void* p) noexcept { counted_free(p); }
void operator delete[](void* p) noexcept { counted_free(p); }
void operator delete(void* p, std::size_t) noexcept { counted_free(p); }
void operator delete[](void* p, std::size_t) noexcept { counted_free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { counted_free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { counted_free(p); }

namespace {

// CPU time of the calling thread, in seconds.
double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

}  // namespace
