// Strided iteration for CPU kernels. Layouts are coalesced jointly, then the outermost
// axes are walked with an odometer while the innermost axis is handed to a row kernel:
//   row(count, base_offsets, inner_strides)   (offsets/strides in elements)
// Rows are split across the pool's threads (pool.hpp) when the element count is large.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "pool.hpp"
#include "tenferro/tensor.hpp"

namespace tenferro::cpu {

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
  // Odometer scratch for every slot, allocated before any parallel region.
  const std::size_t width = r > 1 ? r : 1;
  const int threads = max_threads();
  std::vector<std::int64_t> scratch(width * static_cast<std::size_t>(threads), 0);
  auto run = [&](std::int64_t row_begin, std::int64_t row_end, int slot) {
    // Decompose row_begin into an odometer over axes 1..r-1.
    std::int64_t* idx = scratch.data() + width * static_cast<std::size_t>(slot);
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
      parallel_chunks(count, threads, [&](std::int64_t b, std::int64_t e, int) {
        std::array<std::int64_t, N> offs{};
        for (std::size_t j = 0; j < N; ++j) offs[j] = ls[j].offset + b * inner[j];
        row(e - b, offs, inner);
      });
      return;
    }
    run(0, rows, 0);
    return;
  }
  parallel_chunks(rows, threads, [&](std::int64_t b, std::int64_t e, int slot) { run(b, e, slot); });
}

}  // namespace tenferro::cpu
