// Strided iteration for CPU kernels. Layouts are coalesced jointly, then the outermost
// axes are walked with an odometer while the innermost axis is handed to a row kernel:
//   row(count, base_offsets, inner_strides)   (offsets/strides in elements)
// Rows are split across OpenMP threads when the element count is large.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "tenferro/tensor.hpp"
#ifdef _OPENMP
#include <omp.h>
#endif

namespace tenferro::cpu {

/// Below this many elements a kernel runs on one thread.
inline constexpr std::int64_t kParallelThreshold = 1 << 15;

/// Threads an OpenMP parallel region gets (1 without OpenMP).
inline int max_threads() {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

/// Runs body(begin, end, thread) over [0, n) split in contiguous chunks, one per thread, when
/// `parallel`; body must not throw.
template <class Body> inline void parallel_chunks(std::int64_t n, bool parallel, Body&& body) {
  if (!parallel || n < 2) {
    body(std::int64_t{0}, n, 0);
    return;
  }
  const int nt = static_cast<int>(std::min<std::int64_t>(max_threads(), n));
#pragma omp parallel num_threads(nt)
  {
#ifdef _OPENMP
    const std::int64_t t = omp_get_thread_num(), cnt = omp_get_num_threads();
#else
    const std::int64_t t = 0, cnt = 1;
#endif
    const std::int64_t chunk = (n + cnt - 1) / cnt, b = t * chunk, e = std::min(n, b + chunk);
    if (b < e) body(b, e, static_cast<int>(t));
  }
}

/// Typed base pointer of a view (element 0 of the storage; add layout offsets).
template <class T> T* base_ptr(const TensorView& v) {
  return reinterpret_cast<T*>(v.storage()->host_data());
}

/// Calls row(count, offs, inner) for every innermost row of the jointly coalesced layouts.
template <std::size_t N, class Row>
void for_each_row(const std::array<const Layout*, N>& layouts, Row&& row) {
  std::vector<Layout> in;
  for (const Layout* l : layouts) in.push_back(*l);
  std::vector<Layout> ls = coalesce_jointly(in);
  const Shape& shape = ls[0].shape;
  std::int64_t numel = 1;
  for (std::int64_t e : shape) numel *= e;
  if (numel == 0) return;
  std::array<std::int64_t, N> inner{};
  const std::int64_t count = shape.empty() ? 1 : shape[0];
  for (std::size_t j = 0; j < N; ++j) inner[j] = shape.empty() ? 0 : ls[j].strides[0];
  const std::int64_t rows = numel / count;
  const std::size_t r = shape.size();
  // Odometer scratch for every thread, allocated before any parallel region (an allocation
  // failure must not throw inside one).
#ifdef _OPENMP
  const std::size_t max_threads = static_cast<std::size_t>(omp_get_max_threads());
#else
  const std::size_t max_threads = 1;
#endif
  const std::size_t width = r > 1 ? r : 1;
  std::vector<std::int64_t> scratch(width * max_threads, 0);
  auto run = [&](std::int64_t row_begin, std::int64_t row_end) {
    // Decompose row_begin into an odometer over axes 1..r-1.
#ifdef _OPENMP
    std::int64_t* idx = scratch.data() + width * static_cast<std::size_t>(omp_get_thread_num());
#else
    std::int64_t* idx = scratch.data();
#endif
    std::array<std::int64_t, N> offs{};
    std::int64_t rest = row_begin;
    for (std::size_t a = 1; a < r; ++a) {
      idx[a] = rest % shape[a];
      rest /= shape[a];
    }
    for (std::size_t j = 0; j < N; ++j) {
      offs[j] = ls[j].offset;
      for (std::size_t a = 1; a < r; ++a) offs[j] += idx[a] * ls[j].strides[a];
    }
    for (std::int64_t q = row_begin; q < row_end; ++q) {
      row(count, offs, inner);
      for (std::size_t a = 1; a < r; ++a) {  // advance odometer
        ++idx[a];
        for (std::size_t j = 0; j < N; ++j) offs[j] += ls[j].strides[a];
        if (idx[a] < shape[a]) break;
        for (std::size_t j = 0; j < N; ++j) offs[j] -= shape[a] * ls[j].strides[a];
        idx[a] = 0;
      }
    }
  };
  if (numel < kParallelThreshold || rows == 1) {
    if (rows == 1 && numel >= kParallelThreshold) {
      // One long row: split it into chunks instead.
      parallel_chunks(count, true, [&](std::int64_t b, std::int64_t e, int) {
        std::array<std::int64_t, N> offs{};
        for (std::size_t j = 0; j < N; ++j) offs[j] = ls[j].offset + b * inner[j];
        row(e - b, offs, inner);
      });
      return;
    }
    run(0, rows);
    return;
  }
  parallel_chunks(rows, true, [&](std::int64_t b, std::int64_t e, int) { run(b, e); });
}

}  // namespace tenferro::cpu
