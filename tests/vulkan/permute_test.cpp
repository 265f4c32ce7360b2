// Strided copies of rank >= 2 (the tiled permute_<bits> kernel of record_permute, direct and
// transposed modes) and the copy kernel choice, against host loops over Layout::offset_of:
// every element size, odd extents (partial tiles), offsets, negative strides, broadcast
// sources, strided destinations, and small versions of the shapes of
// data/instances/permutation_patterns.json (many extent-2/3 axes, reversals, rotations).
#include <algorithm>
#include <numeric>
#include <string>

#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"
#include "vk_test_util.hpp"

namespace tenferro::vktest {
namespace {

Val value_at(DType d, std::int64_t k) {
  Val v;
  v.i = d == DType::Bool ? k % 2 : k % 1000003;
  v.c = is_complex(d) ? std::complex<double>(double(v.i), -double(k % 7)) : std::complex<double>(double(v.i));
  return v;
}

bool same(DType d, const Val& a, const Val& b) {
  if (is_integer(d) || d == DType::Bool) return a.i == b.i;
  return a.c == b.c;
}

// Storage of `n` distinct values on the device and on the host.
struct Buffer {
  Tensor host, dev;
};
Buffer make_buffer(Backend& be, DType d, std::int64_t n) {
  std::vector<Val> vals;
  for (std::int64_t k = 0; k < n; ++k) vals.push_back(value_at(d, k));
  Buffer b;
  b.host = host_of(d, {n}, vals);
  b.dev = be.upload(b.host);
  return b;
}

std::int64_t storage_elems(const Layout& l) { return l.numel() == 0 ? 1 : l.max_offset() + 1; }

// Copies src_layout -> dst_layout (same shape) on the device; checks every destination element
// and that elements outside the destination view keep their values.
void check_copy(Backend& be, DType d, const Layout& src_layout, const Layout& dst_layout, const std::string& what) {
  const Buffer src = make_buffer(be, d, storage_elems(src_layout));
  const std::int64_t dn = storage_elems(dst_layout) + 3;
  Tensor dst_base = be.upload(host_of(d, {dn}, std::vector<Val>(static_cast<std::size_t>(dn), value_at(d, 999983))));
  const TensorView sv(src.dev.storage(), d, src_layout), dv(dst_base.storage(), d, dst_layout);
  be.copy(sv, dv);
  const Tensor got = be.download(dst_base);
  const std::size_t es = dtype_size(d);
  std::vector<bool> written(static_cast<std::size_t>(dn), false);
  for (std::int64_t i = 0; i < dst_layout.numel(); ++i) {
    const std::int64_t so = src_layout.offset_of(i), o = dst_layout.offset_of(i);
    written[static_cast<std::size_t>(o)] = true;
    const Val want = read_elem(src.host.storage()->host_data() + so * std::int64_t(es), d);
    const Val have = read_elem(got.storage()->host_data() + o * std::int64_t(es), d);
    ASSERT_TRUE(same(d, have, want)) << what << " " << dtype_name(d) << " element " << i << " (dst offset " << o << ")";
  }
  for (std::int64_t o = 0; o < dn; ++o) {
    if (written[static_cast<std::size_t>(o)]) continue;
    ASSERT_TRUE(same(d, read_elem(got.storage()->host_data() + o * std::int64_t(es), d), value_at(d, 999983)))
        << what << " " << dtype_name(d) << " wrote outside the view at " << o;
  }
}

// Layout of x.permute(perm) for a compact x of `shape` (out axis k = x axis perm[k]).
Layout permuted(const Shape& shape, const std::vector<std::int64_t>& perm, std::int64_t offset = 0) {
  const Strides cs = compact_strides(shape);
  Layout l;
  for (std::int64_t a : perm) {
    l.shape.push_back(shape[static_cast<std::size_t>(a)]);
    l.strides.push_back(cs[static_cast<std::size_t>(a)]);
  }
  l.offset = offset;
  return l;
}

class PermuteTest : public VulkanTest {};

TEST_F(PermuteTest, TransposeOddShapesEveryElementSize) {
  for (DType d : {DType::F32, DType::F64, DType::C64, DType::Bool, DType::C32, DType::I32})
    for (const Shape& s : {Shape{1, 1}, Shape{3, 5}, Shape{33, 31}, Shape{64, 65}, Shape{7, 130}, Shape{2, 300}}) {
      if (d == DType::Bool && !be().supports(OpId::copy_into, d)) continue;
      check_copy(be(), d, permuted(s, {1, 0}, 0), Layout::compact({s[1], s[0]}), "transpose " + std::to_string(s[0]) + "x" + std::to_string(s[1]));
    }
}

TEST_F(PermuteTest, Rank3And4PermutationsWithOffsets) {
  const Shape s3{17, 9, 33};
  std::vector<std::int64_t> p3{0, 1, 2};
  do {
    for (std::int64_t off : {0, 5})
      check_copy(be(), DType::F32, permuted(s3, p3, off), Layout::compact(permuted(s3, p3).shape), "rank3 perm off=" + std::to_string(off));
  } while (std::next_permutation(p3.begin(), p3.end()));
  const Shape s4{4, 3, 40, 6};
  for (const auto& p : {std::vector<std::int64_t>{3, 2, 1, 0}, {2, 0, 3, 1}, {1, 3, 0, 2}, {0, 2, 1, 3}})
    check_copy(be(), DType::F64, permuted(s4, p, 2), Layout::compact(permuted(s4, p).shape), "rank4 perm");
}

TEST_F(PermuteTest, ManySmallAxesLikeThePatternFile) {
  // reverse_12d_2, reverse_7d_3, cyclic_7d_3 and a scattered 10-d source (small versions).
  std::vector<std::int64_t> rev12(12), rev7(7), cyc7(7);
  std::iota(rev12.rbegin(), rev12.rend(), 0);
  std::iota(rev7.rbegin(), rev7.rend(), 0);
  for (std::int64_t k = 0; k < 7; ++k) cyc7[static_cast<std::size_t>(k)] = (k + 1) % 7;
  check_copy(be(), DType::F64, permuted(Shape(12, 2), rev12), Layout::compact(Shape(12, 2)), "reverse_12d_2");
  check_copy(be(), DType::F64, permuted(Shape(7, 3), rev7), Layout::compact(Shape(7, 3)), "reverse_7d_3");
  check_copy(be(), DType::F32, permuted(Shape(7, 3), cyc7), Layout::compact(Shape(7, 3)), "cyclic_7d_3");
  const std::vector<std::int64_t> rot{5, 0, 4, 1, 3, 2};
  const Shape s6{8, 8, 4, 8, 4, 4};
  check_copy(be(), DType::F64, permuted(s6, rot), Layout::compact(permuted(s6, rot).shape), "rotation_6d");
}

TEST_F(PermuteTest, DirectModeLargeTiles) {
  // Direct mode (the fastest axis is the same on both sides) takes tiles of up to 256 x 64
  // indices, four loads in flight per invocation: several A and B tiles, partial in both, and an
  // outer axis. A short common fastest axis as in str_nw_mera_open_26's copy [3, X, 3, Y] ->
  // [3, 3, X, Y], and a long one ([300, 5, 70] -> [300, 70, 5]); every element size.
  const Shape s4{3, 500, 3, 7};
  for (DType d : {DType::F64, DType::F32, DType::Bool, DType::C64})
    check_copy(be(), d, permuted(s4, {0, 2, 1, 3}), Layout::compact(permuted(s4, {0, 2, 1, 3}).shape), "mera-like");
  const Shape s3{300, 5, 70};
  check_copy(be(), DType::F64, permuted(s3, {0, 2, 1}, 5), Layout::compact(permuted(s3, {0, 2, 1}).shape), "long fastest");
  check_copy(be(), DType::I32, permuted(Shape{2, 3, 5}, {0, 2, 1}), Layout::compact(Shape{2, 5, 3}), "tiny");
  // A would take every (merged) axis: A keeps the small axes that fit 256 ([4, 2, 2]), B the
  // long tail (2 x 5000 merged), as for the 24-d tn_light pattern.
  const Shape s5{4, 2, 2, 2, 5000};
  for (DType d : {DType::I32, DType::F64})
    check_copy(be(), d, permuted(s5, {0, 2, 1, 3, 4}, 1), Layout::compact(permuted(s5, {0, 2, 1, 3, 4}).shape), "tail in B");
}

TEST_F(PermuteTest, ChunksOfTheRemainingAxes) {
  // Transposed mode with more than 4096 tiles: a workgroup copies its tile for a chunk of R
  // indices (here 2 of the 1025, the last chunk short), loading the next index's elements
  // while writing the current one.
  const Shape s{64, 64, 1025};
  check_copy(be(), DType::I32, permuted(s, {1, 0, 2}, 3), Layout::compact(permuted(s, {1, 0, 2}).shape), "chunked");
}

TEST_F(PermuteTest, NegativeStridesBroadcastAndStridedDestinations) {
  // Reversed axes (negative strides) into a transposed destination.
  check_copy(be(), DType::F32, Layout{{37, 20}, {-1, 37}, 36}, Layout{{37, 20}, {20, 1}, 0}, "reversed into transposed");
  check_copy(be(), DType::I64, Layout{{9, 11, 5}, {55, -5, 1}, 50}, Layout::compact({9, 11, 5}), "negative middle stride");
  // Broadcast source axis (stride 0).
  check_copy(be(), DType::F32, Layout{{40, 3, 35}, {0, 35, 1}, 1}, Layout::compact({40, 3, 35}), "broadcast src axis");
  // Same fastest axis (direct mode), strided destination (a slice of a larger tensor).
  check_copy(be(), DType::C32, Layout{{50, 7}, {1, 64}, 3}, Layout{{50, 7}, {1, 70}, 11}, "direct strided");
  // Destination not compact and transposed relative to the source.
  check_copy(be(), DType::F64, Layout{{33, 34}, {1, 40}, 0}, Layout{{33, 34}, {36, 1}, 2}, "transposed strided dst");
}

TEST_F(PermuteTest, ContiguousCopiesOfOffsetAndMisalignedViews) {
  for (DType d : {DType::F32, DType::F64, DType::C64, DType::Bool})
    for (std::int64_t n : {1, 3, 4, 1021, 4100})
      for (std::int64_t so : {0, 1, 3})
        for (std::int64_t dof : {0, 2}) {
          if (d == DType::Bool && !be().supports(OpId::copy_into, d)) continue;
          check_copy(be(), d, Layout{{n}, {1}, so}, Layout{{n}, {1}, dof}, "contiguous");
        }
  // Rank 3 compact views with offsets (coalesce to rank 1: the contiguous path).
  check_copy(be(), DType::F32, Layout{{5, 6, 7}, {1, 5, 30}, 1}, Layout{{5, 6, 7}, {1, 5, 30}, 3}, "compact rank3");
}

TEST_F(PermuteTest, PublicOpsMatchTheReference) {
  // transpose (a view + copy) and copy_into through the public API.
  const Shape s{45, 38, 3};
  const Buffer x = make_buffer(be(), DType::F32, 45 * 38 * 3);
  const TensorView xv(x.dev.storage(), DType::F32, Layout::compact(s));
  const Tensor t = download(be(), transpose_copy(be(), xv, {2, 0, 1}));
  const Layout want = permuted(s, {2, 0, 1});
  for (std::int64_t i = 0; i < t.numel(); ++i)
    ASSERT_TRUE(same(DType::F32, host_at(t, i), read_elem(x.host.storage()->host_data() + want.offset_of(i) * 4, DType::F32)))
        << "transpose element " << i;
}

}  // namespace
}  // namespace tenferro::vktest
