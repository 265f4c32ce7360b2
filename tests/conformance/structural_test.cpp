// Conformance of the structural ops: every op x backend x dtype x layout case x shapes
// (rank 0 where the op allows it, empty, size-1 axes), checked exactly against the reference
// oracle (tests/reference/structural.cpp), plus seeded property tests and the permutation
// patterns of data/instances/permutation_patterns.json at reduced sizes.
// A backend gap (supports() false) must be declared and the op must raise unsupported.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <numeric>
#include <string>

#include "backends.hpp"
#include "ref.hpp"
#include "structural.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro::test {
namespace {

namespace sr = structural_ref;
constexpr Tol kExact{0, 0};
constexpr std::uint64_t kSeed = 20261129;

std::string shape_str(const Shape& s) {
  // Appends only: GCC 12 warns (-Wrestrict, a false positive) on string operator+ chains here.
  std::string out = "[";
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(s[i]);
  }
  out += ']';
  return out;
}

/// random_ref with C32 values re-rounded to float. GCC 12.2 -O2 miscompiles round_to(C32) in
/// tests/support/ref.cpp (the C32/C64 cases return x unrounded), so C32 reference values would
/// keep double precision while the tensor holds floats. volatile forces the round trip.
RefTensor rnd(DType d, const Shape& shape, std::mt19937_64& rng, LayoutCase lc = LayoutCase::compact) {
  RefTensor r = random_ref(d, shape, rng, lc);
  if (d == DType::C32)
    for (c64& z : r.v) {
      volatile float re = static_cast<float>(z.real()), im = static_cast<float>(z.imag());
      z = c64(re, im);
    }
  return r;
}

/// One (backend, dtype) pair. check() runs an op and compares it with the reference, or, for a
/// backend gap, expects Error{unsupported}.
struct Runner {
  const TestBackend& tb;
  DType d;
  bool gap;
  Backend& be() const { return *tb.be; }

  template <class Op> void check(Op&& op, const RefTensor& want) const {
    try {
      const TensorView got = op();
      if (gap) {
        ADD_FAILURE() << "backend gap: expected Error{unsupported}, the op ran";
        return;
      }
      TENFERRO_EXPECT_MATCH(want, read(be(), got), kExact);
    } catch (const Error& e) {
      if (gap) {
        EXPECT_EQ(e.kind(), ErrorKind::unsupported) << e.what();
      } else {
        ADD_FAILURE() << "unexpected error: " << e.what();
      }
    }
  }
};

/// Calls body(runner) for every test backend and every dtype the contract allows for op.
template <class Body> void for_backends_dtypes(OpId op, Body&& body) {
  for (const TestBackend& tb : test_backends()) {
    for (DType d : kAllDTypes) {
      if (!contract_allows(op, d)) continue;
      SCOPED_TRACE(tb.name + " " + std::string(op_name(op)) + " " + std::string(dtype_name(d)));
      const bool gap = !tb.be->supports(op, d);
      if (gap) {
        EXPECT_EQ(check_gap_declaration(tb, op, d), "");
      }
      body(Runner{tb, d, gap});
    }
  }
}

std::string trace(LayoutCase lc, const Shape& s) { return layout_name(lc) + " shape " + shape_str(s); }

Axes iota(std::int64_t r) {
  Axes a(static_cast<std::size_t>(r));
  std::iota(a.begin(), a.end(), 0);
  return a;
}

Axes random_perm(std::int64_t r, std::mt19937_64& rng) {
  Axes p = iota(r);
  std::shuffle(p.begin(), p.end(), rng);
  return p;
}

std::int64_t uniform(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
  return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
}

/// A rank-1 starts tensor on the backend: I64, I32, or F64 holding integers (cast by core).
TensorView starts_on(Backend& be, const std::vector<std::int64_t>& starts, DType d = DType::I64) {
  RefTensor s(d, {static_cast<std::int64_t>(starts.size())});
  for (std::size_t i = 0; i < starts.size(); ++i) {
    if (d == DType::F64) {
      s.set(static_cast<std::int64_t>(i), c64(static_cast<double>(starts[i]), 0));
    } else {
      s.set_int(static_cast<std::int64_t>(i), starts[i]);
    }
  }
  return place(be, s, LayoutCase::compact);
}

constexpr DType kStartTypes[] = {DType::I64, DType::I32, DType::F64};

// ---- views + copy -----------------------------------------------------------------------------

TEST(StructuralConformance, TransposeMatchesReference) {
  std::mt19937_64 rng(kSeed);
  std::vector<Shape> shapes = standard_shapes();
  shapes.push_back({70, 65});      // tile remainders on both blocked axes
  shapes.push_back({3, 33, 70});   // blocked + grouped axes
  shapes.push_back({2, 2, 2, 3, 2, 2});
  for_backends_dtypes(OpId::transpose, [&](const Runner& run) {
    for (LayoutCase lc : kAllLayouts)
      for (const Shape& s : shapes) {
        SCOPED_TRACE(trace(lc, s));
        const auto r = static_cast<std::int64_t>(s.size());
        Axes rev = iota(r);
        std::reverse(rev.begin(), rev.end());
        for (const Axes& perm : {iota(r), rev, random_perm(r, rng)}) {
          const RefTensor x = rnd(run.d, s, rng, lc);
          run.check([&] { return transpose_copy(run.be(), place(run.be(), x, lc), perm); }, sr::transpose(x, perm));
        }
      }
  });
}

TEST(StructuralConformance, TransposeLargeMultithreaded) {
  // Above the parallel threshold: tiled transposes and row copies on several threads.
  std::mt19937_64 rng(kSeed + 1);
  const std::vector<std::pair<Shape, Axes>> cases = {
      {{200, 181}, {1, 0}},     {{40, 40, 40}, {2, 0, 1}}, {{40, 40, 40}, {1, 0, 2}},
      {{8, 8, 8, 8, 4, 4}, {5, 0, 4, 1, 3, 2}}, {{100, 3, 150}, {0, 2, 1}}, {{50000}, {0}}};
  for_backends_dtypes(OpId::transpose, [&](const Runner& run) {
    for (LayoutCase lc : {LayoutCase::compact, LayoutCase::negative_stride, LayoutCase::broadcast})
      for (const auto& [s, perm] : cases) {
        SCOPED_TRACE(trace(lc, s));
        const RefTensor x = rnd(run.d, s, rng, lc);
        run.check([&] { return transpose_copy(run.be(), place(run.be(), x, lc), perm); }, sr::transpose(x, perm));
      }
  });
}

TEST(StructuralConformance, PermutationPatternsMatchReference) {
  // permutation_patterns.json at reduced sizes (f64): reverse of many 2s, reverse/cyclic of 3s,
  // and the tn_light_415 pattern from a scattered (already permuted) source.
  std::mt19937_64 rng(kSeed + 2);
  auto rev = [](std::int64_t r) {
    Axes p = iota(r);
    std::reverse(p.begin(), p.end());
    return p;
  };
  Axes cyclic = iota(10);
  std::rotate(cyclic.begin(), cyclic.begin() + 1, cyclic.end());
  Axes tn = {0, 1, 2, 3, 16, 4, 17, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  struct P {
    Shape shape;
    Axes perm;
    bool scattered;
  };
  const std::vector<P> pats = {{Shape(16, 2), rev(16), false}, {Shape(10, 3), rev(10), false},
                               {Shape(10, 3), cyclic, false},  {Shape(18, 2), tn, true},
                               {Shape(18, 2), tn, false},      {Shape(18, 2), iota(18), false}};
  for (const TestBackend& tb : test_backends()) {
    if (!tb.be->supports(OpId::transpose, DType::F64)) continue;  // gaps: TransposeMatchesReference
    for (const P& p : pats) {
      SCOPED_TRACE(tb.name + " shape " + shape_str(p.shape) + (p.scattered ? " scattered" : ""));
      const RefTensor x = rnd(DType::F64, p.shape, rng);
      TensorView src = place(*tb.be, x, LayoutCase::compact);
      RefTensor want_src = x;
      if (p.scattered) {
        src = src.transpose(p.perm);
        want_src = sr::transpose(x, p.perm);
      }
      TENFERRO_EXPECT_MATCH(sr::transpose(want_src, p.perm), read(*tb.be, transpose_copy(*tb.be, src, p.perm)), kExact);
    }
  }
}

TEST(StructuralConformance, ReshapeMatchesReference) {
  std::mt19937_64 rng(kSeed + 3);
  for_backends_dtypes(OpId::reshape, [&](const Runner& run) {
    for (LayoutCase lc : kAllLayouts)
      for (const Shape& s : standard_shapes()) {
        SCOPED_TRACE(trace(lc, s));
        const std::int64_t n = shape_numel(s);
        const Shape rev(s.rbegin(), s.rend());
        for (const Shape& to : {Shape{n}, rev, Shape{1, n, 1}}) {
          const RefTensor x = rnd(run.d, s, rng, lc);
          run.check([&] { return reshape_copy(run.be(), place(run.be(), x, lc), to); }, sr::reshape(x, to));
        }
        if (n == 1) {  // to rank 0
          const RefTensor x = rnd(run.d, s, rng, lc);
          run.check([&] { return reshape_copy(run.be(), place(run.be(), x, lc), Shape{}); }, sr::reshape(x, {}));
        }
      }
  });
}

TEST(StructuralConformance, BroadcastInDimMatchesReference) {
  std::mt19937_64 rng(kSeed + 4);
  for_backends_dtypes(OpId::broadcast_in_dim, [&](const Runner& run) {
    for (LayoutCase lc : kAllLayouts)
      for (const Shape& s : standard_shapes()) {
        SCOPED_TRACE(trace(lc, s));
        const auto r = static_cast<std::int64_t>(s.size());
        // (a) a new leading axis of 3, extent-1 axes expanded to 2, dims in order.
        Shape out{3};
        Axes dims;
        for (std::int64_t j = 0; j < r; ++j) {
          out.push_back(s[static_cast<std::size_t>(j)] == 1 ? 2 : s[static_cast<std::size_t>(j)]);
          dims.push_back(j + 1);
        }
        // (b) dims in decreasing order (allowed here), a new trailing axis of 2.
        Shape out2(s.rbegin(), s.rend());
        out2.push_back(2);
        Axes dims2;
        for (std::int64_t j = 0; j < r; ++j) dims2.push_back(r - 1 - j);
        for (const auto& [o, dm] : {std::pair{out, dims}, std::pair{out2, dims2}}) {
          const RefTensor x = rnd(run.d, s, rng, lc);
          run.check([&] { return broadcast_in_dim_copy(run.be(), place(run.be(), x, lc), o, dm); },
                    sr::broadcast_in_dim(x, o, dm));
        }
      }
  });
}

TEST(StructuralConformance, ExtractDiagonalMatchesReference) {
  std::mt19937_64 rng(kSeed + 5);
  const std::vector<Shape> shapes = {{4, 4}, {3, 2, 3}, {2, 3, 3, 2}, {0, 0}, {1, 1}, {3, 0, 3}, {2, 1, 2, 1}};
  for_backends_dtypes(OpId::extract_diagonal, [&](const Runner& run) {
    for (LayoutCase lc : kAllLayouts)
      for (const Shape& s : shapes)
        for (std::int64_t a = 0; a < static_cast<std::int64_t>(s.size()); ++a)
          for (std::int64_t b = 0; b < static_cast<std::int64_t>(s.size()); ++b) {
            if (a == b || s[static_cast<std::size_t>(a)] != s[static_cast<std::size_t>(b)]) continue;
            SCOPED_TRACE(trace(lc, s) + " a " + std::to_string(a) + " b " + std::to_string(b));
            const RefTensor x = rnd(run.d, s, rng, lc);
            run.check([&] { return extract_diagonal(run.be(), place(run.be(), x, lc), a, b); },
                      sr::extract_diagonal(x, a, b));
          }
  });
}

TEST(StructuralConformance, EmbedDiagonalMatchesReference) {
  std::mt19937_64 rng(kSeed + 6);
  for_backends_dtypes(OpId::embed_diagonal, [&](const Runner& run) {
    for (LayoutCase lc : kAllLayouts)
      for (const Shape& s : standard_shapes())
        for (std::int64_t a = 0; a < static_cast<std::int64_t>(s.size()); ++a)
          for (std::int64_t b = 0; b <= static_cast<std::int64_t>(s.size()); ++b) {
            SCOPED_TRACE(trace(lc, s) + " a " + std::to_string(a) + " b " + std::to_string(b));
            const RefTensor x = rnd(run.d, s, rng, lc);
            run.check([&] { return embed_diagonal(run.be(), place(run.be(), x, lc), a, b); },
                      sr::embed_diagonal(x, a, b));
          }
  });
}

TEST(StructuralConformance, TrilTriuMatchReference) {
  std::mt19937_64 rng(kSeed + 7);
  const std::vector<Shape> shapes = {{4, 5}, {5, 4, 2}, {3, 3, 2, 2}, {0, 3}, {1, 1}, {3, 0, 2}, {1, 6}, {6, 1, 1}};
  const std::int64_t ks[] = {-6, -1, 0, 1, 2, 7, INT64_MIN, INT64_MAX};
  for (const bool lower : {true, false}) {
    for_backends_dtypes(lower ? OpId::tril : OpId::triu, [&](const Runner& run) {
      for (LayoutCase lc : kAllLayouts)
        for (const Shape& s : shapes)
          for (const std::int64_t k : ks) {
            SCOPED_TRACE(trace(lc, s) + " k " + std::to_string(k));
            const RefTensor x = rnd(run.d, s, rng, lc);
            run.check(
                [&] {
                  const TensorView v = place(run.be(), x, lc);
                  return lower ? tril(run.be(), v, k) : triu(run.be(), v, k);
                },
                lower ? sr::tril(x, k) : sr::triu(x, k));
          }
    });
  }
}

TEST(StructuralConformance, TrilLargeMultithreaded) {
  std::mt19937_64 rng(kSeed + 8);
  for_backends_dtypes(OpId::tril, [&](const Runner& run) {
    for (LayoutCase lc : {LayoutCase::compact, LayoutCase::transposed}) {
      SCOPED_TRACE(layout_name(lc));
      const RefTensor x = rnd(run.d, {130, 120, 3}, rng, lc);
      run.check([&] { return tril(run.be(), place(run.be(), x, lc), 5); }, sr::tril(x, 5));
    }
  });
}

TEST(StructuralConformance, ToContiguousMatchesReference) {
  std::mt19937_64 rng(kSeed + 9);
  for_backends_dtypes(OpId::to_contiguous, [&](const Runner& run) {
    for (LayoutCase lc : kAllLayouts)
      for (const Shape& s : standard_shapes()) {
        SCOPED_TRACE(trace(lc, s));
        const RefTensor x = rnd(run.d, s, rng, lc);
        run.check([&] {
          Tensor t = to_contiguous(run.be(), place(run.be(), x, lc));
          EXPECT_TRUE(t.is_compact() && t.offset() == 0);
          return t;
        }, x);
      }
  });
}

TEST(StructuralConformance, ReverseMatchesReference) {
  std::mt19937_64 rng(kSeed + 10);
  for_backends_dtypes(OpId::reverse, [&](const Runner& run) {
    for (LayoutCase lc : kAllLayouts)
      for (const Shape& s : standard_shapes()) {
        SCOPED_TRACE(trace(lc, s));
        const auto r = static_cast<std::int64_t>(s.size());
        std::vector<Axes> axes_list = {{}, iota(r)};
        if (r >= 1) axes_list.push_back({0});
        if (r >= 2) axes_list.push_back({r - 1, 0});
        for (const Axes& axes : axes_list) {
          const RefTensor x = rnd(run.d, s, rng, lc);
          run.check([&] { return reverse_copy(run.be(), place(run.be(), x, lc), axes); }, sr::reverse(x, axes));
        }
      }
  });
}

// ---- copy_into ----------------------------------------------------------------------------------

/// Where copy_into writes: a view over a larger physical tensor (or the whole tensor).
enum class DstCase { compact, transposed_of_larger, negative_stride, offset };
constexpr DstCase kDstCases[] = {DstCase::compact, DstCase::transposed_of_larger, DstCase::negative_stride,
                                 DstCase::offset};

/// Physical shape for a dst view of logical shape s.
Shape physical_shape(DstCase c, const Shape& s) {
  Shape p = s;
  switch (c) {
    case DstCase::compact: break;
    case DstCase::transposed_of_larger:
      p.assign(s.rbegin(), s.rend());
      for (auto& e : p) e += 1;
      break;
    case DstCase::negative_stride:
      for (auto& e : p) e += 1;
      break;
    case DstCase::offset:
      for (auto& e : p) e += 2;
      break;
  }
  return p;
}

/// The dst view of logical shape s over the compact physical tensor phys.
TensorView dst_view(DstCase c, const TensorView& phys, const Shape& s) {
  const std::size_t r = s.size();
  const Shape ones(r, 1), zeros(r, 0);
  switch (c) {
    case DstCase::compact: return phys;
    case DstCase::transposed_of_larger: {
      Axes rev = iota(static_cast<std::int64_t>(r));
      std::reverse(rev.begin(), rev.end());
      return phys.slice(zeros, Shape(s.rbegin(), s.rend()), ones).transpose(rev);
    }
    case DstCase::negative_stride: {
      Shape lim = s;
      for (auto& e : lim) e += 1;
      return phys.slice(ones, lim, ones).reverse(iota(static_cast<std::int64_t>(r)));
    }
    case DstCase::offset: {
      Shape lim = s;
      for (auto& e : lim) e += 1;
      return phys.slice(ones, lim, ones);
    }
  }
  return phys;
}

TEST(StructuralConformance, CopyIntoEveryLayoutPairKeepsTheRest) {
  std::mt19937_64 rng(kSeed + 11);
  std::vector<Shape> shapes = standard_shapes();
  shapes.push_back({67, 70});  // tiled path into a strided dst
  for_backends_dtypes(OpId::copy_into, [&](const Runner& run) {
    for (LayoutCase lc : kAllLayouts)
      for (DstCase dc : kDstCases)
        for (const Shape& s : shapes) {
          SCOPED_TRACE(trace(lc, s) + " dst case " + std::to_string(static_cast<int>(dc)));
          const RefTensor src = rnd(run.d, s, rng, lc);
          const RefTensor before = rnd(run.d, physical_shape(dc, s), rng);
          // Expected storage: `before` with the view's elements replaced by src (layouts are
          // metadata; the physical tensor is compact with offset 0, so offsets are indices).
          const TensorView phys = place(run.be(), before, LayoutCase::compact);
          const TensorView dst = dst_view(dc, phys, s);
          RefTensor want = before;
          for (std::int64_t i = 0; i < src.numel(); ++i) sr::copy_elem(want, dst.layout().offset_of(i), src, i);
          run.check([&] {
            copy_into(run.be(), place(run.be(), src, lc), dst);
            return phys;
          }, want);
        }
  });
}

TEST(StructuralConformance, CopyIntoAcceptsDisjointViewsOfOneBuffer) {
  // Same storage, intersecting ranges, but no common element: accepted (exact overlap test).
  std::mt19937_64 rng(kSeed + 12);
  for_backends_dtypes(OpId::copy_into, [&](const Runner& run) {
    const RefTensor buf = rnd(run.d, {24}, rng);
    // (a) odd elements -> even elements (gcd test).
    {
      const TensorView phys = place(run.be(), buf, LayoutCase::compact);
      RefTensor want = buf;
      for (std::int64_t i = 0; i < 12; ++i) sr::copy_elem(want, 2 * i, buf, 2 * i + 1);
      run.check([&] {
        copy_into(run.be(), phys.slice({1}, {24}, {2}), phys.slice({0}, {24}, {2}));
        return phys;
      }, want);
    }
    // (b) blocks {0,1,6,7,12,13} -> {2,3,8,9,14,15}: gcd 1, needs enumeration.
    {
      const TensorView phys = place(run.be(), buf, LayoutCase::compact);
      const TensorView m = phys.reshape({6, 4});
      RefTensor want = buf;
      for (std::int64_t c = 0; c < 3; ++c)
        for (std::int64_t r = 0; r < 2; ++r) sr::copy_elem(want, 6 * c + r + 2, buf, 6 * c + r);
      run.check([&] {
        copy_into(run.be(), m.slice({0, 0}, {2, 3}, {1, 1}), m.slice({2, 0}, {4, 3}, {1, 1}));
        return phys;
      }, want);
    }
  });
}

// ---- slicing, padding, concatenation ------------------------------------------------------------

TEST(StructuralConformance, SliceMatchesReference) {
  std::mt19937_64 rng(kSeed + 13);
  for_backends_dtypes(OpId::slice, [&](const Runner& run) {
    for (LayoutCase lc : kAllLayouts)
      for (const Shape& s : standard_shapes()) {
        SCOPED_TRACE(trace(lc, s));
        const std::size_t r = s.size();
        for (int v = 0; v < 3; ++v) {
          Shape st(r), li(r), sp(r);
          for (std::size_t a = 0; a < r; ++a) {
            if (v == 0) {  // everything
              st[a] = 0, li[a] = s[a], sp[a] = 1;
            } else {  // random start <= limit <= extent, stride 1..3
              st[a] = uniform(rng, 0, s[a]);
              li[a] = uniform(rng, st[a], s[a]);
              sp[a] = uniform(rng, 1, 3);
            }
          }
          const RefTensor x = rnd(run.d, s, rng, lc);
          run.check([&] { return slice_copy(run.be(), place(run.be(), x, lc), SliceConfig{st, li, sp}); },
                    sr::slice(x, st, li, sp));
        }
      }
  });
}

TEST(StructuralConformance, DynamicSliceClampsStarts) {
  std::mt19937_64 rng(kSeed + 14);
  for_backends_dtypes(OpId::dynamic_slice, [&](const Runner& run) {
    for (LayoutCase lc : kAllLayouts)
      for (const Shape& s : standard_shapes()) {
        SCOPED_TRACE(trace(lc, s));
        for (int v = 0; v < 3; ++v) {
          std::vector<std::int64_t> starts;
          Shape sizes;
          for (std::int64_t e : s) {
            sizes.push_back(uniform(rng, 0, e));
            starts.push_back(uniform(rng, -3, e + 3));  // out of range values clamp
          }
          const RefTensor x = rnd(run.d, s, rng, lc);
          run.check([&] { return dynamic_slice(run.be(), place(run.be(), x, lc), starts_on(run.be(), starts, kStartTypes[v]), sizes); },
                    sr::dynamic_slice(x, starts, sizes));
        }
      }
  });
}

TEST(StructuralConformance, DynamicUpdateSliceClampsStarts) {
  std::mt19937_64 rng(kSeed + 15);
  for_backends_dtypes(OpId::dynamic_update_slice, [&](const Runner& run) {
    for (LayoutCase lc : kAllLayouts)
      for (const Shape& s : standard_shapes()) {
        SCOPED_TRACE(trace(lc, s));
        for (int v = 0; v < 3; ++v) {
          std::vector<std::int64_t> starts;
          Shape us;
          for (std::int64_t e : s) {
            us.push_back(uniform(rng, 0, e));
            starts.push_back(uniform(rng, -3, e + 3));
          }
          const RefTensor x = rnd(run.d, s, rng, lc);
          const RefTensor u = rnd(run.d, us, rng, lc);
          run.check(
              [&] {
                return dynamic_update_slice(run.be(), place(run.be(), x, lc), place(run.be(), u, lc),
                                            starts_on(run.be(), starts, kStartTypes[v]));
              },
              sr::dynamic_update_slice(x, u, starts));
        }
      }
  });
}

TEST(StructuralConformance, PadNegativeInteriorMatchesReference) {
  std::mt19937_64 rng(kSeed + 16);
  for_backends_dtypes(OpId::pad, [&](const Runner& run) {
    for (LayoutCase lc : kAllLayouts)
      for (const Shape& s : standard_shapes()) {
        SCOPED_TRACE(trace(lc, s));
        for (int v = 0; v < 4; ++v) {
          const std::size_t r = s.size();
          Shape lo(r), hi(r), in(r);
          for (std::size_t a = 0; a < r; ++a) {
            in[a] = uniform(rng, 0, 2);
            const std::int64_t n = s[a] + (s[a] > 0 ? (s[a] - 1) * in[a] : 0);
            lo[a] = uniform(rng, -2, 2);
            hi[a] = std::max(uniform(rng, -2, 2), -(n + lo[a]));  // extent >= 0
          }
          const RefTensor x = rnd(run.d, s, rng, lc);
          const bool with_value = v % 2 == 1;
          const RefTensor value = with_value ? rnd(run.d, {}, rng) : sr::zero_scalar(run.d);
          run.check(
              [&] {
                const TensorView pv = with_value ? place(run.be(), value, LayoutCase::compact) : TensorView{};
                return pad(run.be(), place(run.be(), x, lc), PadConfig{lo, hi, in}, pv);
              },
              sr::pad(x, lo, hi, in, value));
        }
      }
  });
}

TEST(StructuralConformance, ConcatenateMatchesReference) {
  std::mt19937_64 rng(kSeed + 17);
  for_backends_dtypes(OpId::concatenate, [&](const Runner& run) {
    for (std::size_t li = 0; li < std::size(kAllLayouts); ++li)
      for (const Shape& s : standard_shapes())
        for (std::int64_t axis = 0; axis < static_cast<std::int64_t>(s.size()); ++axis) {
          SCOPED_TRACE(trace(kAllLayouts[li], s) + " axis " + std::to_string(axis));
          std::vector<RefTensor> parts;
          std::vector<LayoutCase> lcs;
          for (const std::int64_t e : {s[static_cast<std::size_t>(axis)], std::int64_t{0}, std::int64_t{2}}) {
            Shape ps = s;
            ps[static_cast<std::size_t>(axis)] = e;
            const LayoutCase lc = kAllLayouts[(li + parts.size()) % std::size(kAllLayouts)];
            parts.push_back(rnd(run.d, ps, rng, lc));
            lcs.push_back(lc);
          }
          run.check(
              [&] {
                std::vector<TensorView> views;
                for (std::size_t k = 0; k < parts.size(); ++k) views.push_back(place(run.be(), parts[k], lcs[k]));
                return concatenate(run.be(), views, axis);
              },
              sr::concatenate(parts, axis));
          // A single input is a copy.
          run.check([&] { return concatenate(run.be(), std::vector<TensorView>{place(run.be(), parts[0], lcs[0])}, axis); },
                    parts[0]);
        }
  });
}

// ---- properties (seeded; the seed is in the trace) -----------------------------------------

Shape random_shape(std::mt19937_64& rng, std::int64_t max_rank, std::int64_t max_extent) {
  Shape s(static_cast<std::size_t>(uniform(rng, 0, max_rank)));
  for (auto& e : s) e = uniform(rng, 0, max_extent);
  return s;
}

DType random_dtype(std::mt19937_64& rng) { return kAllDTypes[uniform(rng, 0, kNumDTypes - 1)]; }

template <class Body> void for_seeds(int count, Body&& body) {
  for (int i = 0; i < count; ++i) {
    const std::uint64_t seed = kSeed * 31 + static_cast<std::uint64_t>(i);
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    body(rng);
  }
}

TEST(StructuralProperties, TransposeThenInverseIsIdentity) {
  for (const TestBackend& tb : test_backends()) {
    SCOPED_TRACE(tb.name);
    Backend& be = *tb.be;
    for_seeds(40, [&](std::mt19937_64& rng) {
      const DType d = random_dtype(rng);
      if (!be.supports(OpId::transpose, d)) return;
      const Shape s = random_shape(rng, 6, 4);
      const Axes p = random_perm(static_cast<std::int64_t>(s.size()), rng);
      Axes inv(p.size());
      for (std::size_t i = 0; i < p.size(); ++i) inv[static_cast<std::size_t>(p[i])] = static_cast<std::int64_t>(i);
      const LayoutCase lc = kAllLayouts[uniform(rng, 0, 4)];
      const RefTensor x = rnd(d, s, rng, lc);
      const Tensor y = transpose_copy(be, transpose_copy(be, place(be, x, lc), p), inv);
      TENFERRO_EXPECT_MATCH(x, read(be, y), kExact);
    });
  }
}

TEST(StructuralProperties, Rank24TransposeWithExtentsOneAndTwo) {
  for (const TestBackend& tb : test_backends()) {
    SCOPED_TRACE(tb.name);
    Backend& be = *tb.be;
    for_seeds(6, [&](std::mt19937_64& rng) {
      const DType d = random_dtype(rng);
      if (!be.supports(OpId::transpose, d)) return;
      Shape s(24, 1);
      for (int k = 0; k < 13; ++k) s[static_cast<std::size_t>(uniform(rng, 0, 23))] = 2;  // <= 2^13 elements
      const Axes p = random_perm(24, rng);
      const LayoutCase lc = kAllLayouts[uniform(rng, 0, 4)];
      const RefTensor x = rnd(d, s, rng, lc);
      TENFERRO_EXPECT_MATCH(sr::transpose(x, p), read(be, transpose_copy(be, place(be, x, lc), p)), kExact);
    });
  }
}

TEST(StructuralProperties, SlicingThePadRegionBackOutReturnsX) {
  for (const TestBackend& tb : test_backends()) {
    SCOPED_TRACE(tb.name);
    Backend& be = *tb.be;
    for_seeds(30, [&](std::mt19937_64& rng) {
      const DType d = random_dtype(rng);
      if (!be.supports(OpId::pad, d) || !be.supports(OpId::slice, d)) return;
      const Shape s = random_shape(rng, 4, 4);
      const std::size_t r = s.size();
      Shape lo(r), hi(r), in(r), st(r), li(r), sp(r);
      for (std::size_t a = 0; a < r; ++a) {
        lo[a] = uniform(rng, 0, 3), hi[a] = uniform(rng, 0, 3), in[a] = uniform(rng, 0, 2);
        st[a] = lo[a];
        li[a] = s[a] == 0 ? lo[a] : lo[a] + (s[a] - 1) * (in[a] + 1) + 1;
        sp[a] = in[a] + 1;
      }
      const RefTensor x = rnd(d, s, rng);
      const Tensor y = pad(be, place(be, x, LayoutCase::compact), PadConfig{lo, hi, in});
      TENFERRO_EXPECT_MATCH(x, read(be, slice_copy(be, y, SliceConfig{st, li, sp})), kExact);
    });
  }
}

TEST(StructuralProperties, ConcatenateThenSliceReturnsTheParts) {
  for (const TestBackend& tb : test_backends()) {
    SCOPED_TRACE(tb.name);
    Backend& be = *tb.be;
    for_seeds(30, [&](std::mt19937_64& rng) {
      const DType d = random_dtype(rng);
      if (!be.supports(OpId::concatenate, d) || !be.supports(OpId::slice, d)) return;
      Shape s = random_shape(rng, 4, 3);
      if (s.empty()) s.push_back(2);
      const auto axis = uniform(rng, 0, static_cast<std::int64_t>(s.size()) - 1);
      std::vector<RefTensor> parts;
      std::vector<TensorView> views;
      for (std::int64_t k = uniform(rng, 1, 4); k > 0; --k) {
        Shape ps = s;
        ps[static_cast<std::size_t>(axis)] = uniform(rng, 0, 3);
        const LayoutCase lc = kAllLayouts[uniform(rng, 0, 4)];
        parts.push_back(rnd(d, ps, rng, lc));
        views.push_back(place(be, parts.back(), lc));
      }
      const Tensor y = concatenate(be, views, axis);
      std::int64_t at = 0;
      for (const RefTensor& p : parts) {
        Shape st(s.size(), 0), li = p.shape, sp(s.size(), 1);
        st[static_cast<std::size_t>(axis)] = at;
        li[static_cast<std::size_t>(axis)] += at;
        TENFERRO_EXPECT_MATCH(p, read(be, slice_copy(be, y, SliceConfig{st, li, sp})), kExact);
        at += p.shape[static_cast<std::size_t>(axis)];
      }
    });
  }
}

TEST(StructuralProperties, ExtractDiagonalOfEmbedDiagonalIsIdentity) {
  // extract_diagonal(embed_diagonal(x, a, b), a', b) == x with a' = a (a < b) or a + 1.
  for (const TestBackend& tb : test_backends()) {
    SCOPED_TRACE(tb.name);
    Backend& be = *tb.be;
    for_seeds(30, [&](std::mt19937_64& rng) {
      const DType d = random_dtype(rng);
      if (!be.supports(OpId::embed_diagonal, d) || !be.supports(OpId::extract_diagonal, d)) return;
      Shape s = random_shape(rng, 4, 4);
      if (s.empty()) s.push_back(3);
      const auto r = static_cast<std::int64_t>(s.size());
      const std::int64_t a = uniform(rng, 0, r - 1), b = uniform(rng, 0, r);
      const RefTensor x = rnd(d, s, rng);
      const Tensor y = embed_diagonal(be, place(be, x, LayoutCase::compact), a, b);
      TENFERRO_EXPECT_MATCH(x, read(be, extract_diagonal(be, y, a < b ? a : a + 1, b)), kExact);
    });
  }
}

}  // namespace
}  // namespace tenferro::test
