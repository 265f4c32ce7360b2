// einsum execution against an independent naive reference: a loop over every assignment of
// every label in complex<double>. Covers matmul, batch, outer, trace, diagonals, transposes,
// sums inside one operand, ellipsis broadcasting, scalars, Unicode labels, multi-operand
// networks with given and planned paths, path independence, equivalence with dot_general /
// transpose compositions, and the error contract.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <random>
#include <string>

#include "backends.hpp"
#include "core/einsum/lower.hpp"
#include "core/ops/dot_general_lowering.hpp"
#include "einsum_ref.hpp"
#include "ref.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/ops.hpp"

namespace tenferro {
namespace {

using test::LayoutCase;
using test::RefTensor;

using test::einsum_reference;
using Case = test::EinsumCase;

// Runs the case on every backend and dtype with the given layouts; path: optional.
void run_case(const Case& c, std::uint64_t seed, const Path* path = nullptr,
              std::vector<DType> dtypes = {DType::F64, DType::F32, DType::C64, DType::C32}) {
  std::mt19937_64 rng(seed);
  for (const auto& tb : test::test_backends()) {
    for (DType d : dtypes) {
      if (!test::einsum_runs_on(*tb.be, d, c.shapes.size())) continue;
      for (LayoutCase lc : {LayoutCase::compact, LayoutCase::transposed, LayoutCase::negative_stride,
                            LayoutCase::offset}) {
        std::vector<RefTensor> refs;
        std::vector<TensorView> views;
        for (const auto& s : c.shapes) {
          refs.push_back(test::random_ref(d, s, rng, lc));
          views.push_back(test::place(*tb.be, refs.back(), lc));
        }
        EinsumOptions opts;
        if (path) {
          opts.path = *path;
          opts.use_path = true;
        }
        const Tensor got = einsum(*tb.be, c.subscripts, views, opts);
        const RefTensor want = einsum_reference(c.inputs, c.output, refs, d);
        TENFERRO_EXPECT_MATCH(want, test::read(*tb.be, got), test::einsum_tol(d));
        if (::testing::Test::HasFailure()) {
          std::printf("failed: %s backend %s dtype %s layout %s seed %llu\n", c.subscripts.c_str(), tb.name.c_str(),
                      std::string(dtype_name(d)).c_str(), test::layout_name(lc).c_str(),
                      static_cast<unsigned long long>(seed));
          return;
        }
      }
    }
  }
}

TEST(Einsum, BinaryContractions) {
  run_case({"ij,jk->ik", {U"ij", U"jk"}, U"ik", {{3, 4}, {4, 5}}}, 1);
  run_case({"bij,bjk->bik", {U"bij", U"bjk"}, U"bik", {{2, 3, 4}, {2, 4, 5}}}, 2);
  run_case({"i,j->ij", {U"i", U"j"}, U"ij", {{3}, {4}}}, 3);
  run_case({"ij,ij->ij", {U"ij", U"ij"}, U"ij", {{3, 4}, {3, 4}}}, 4);
  run_case({"ij,ij->", {U"ij", U"ij"}, U"", {{3, 4}, {3, 4}}}, 5);
  run_case({"ij,jk->ki", {U"ij", U"jk"}, U"ki", {{3, 4}, {4, 5}}}, 6);
  run_case({"ijk,jil->lk", {U"ijk", U"jil"}, U"lk", {{2, 3, 4}, {3, 2, 5}}}, 7);
  run_case({"tkj,to->tokj", {U"tkj", U"to"}, U"tokj", {{3, 2, 4}, {3, 5}}}, 8);
}

TEST(Einsum, SingleOperand) {
  run_case({"ii->", {U"ii"}, U"", {{4, 4}}}, 11);
  run_case({"ii->i", {U"ii"}, U"i", {{4, 4}}}, 12);
  run_case({"ij->ji", {U"ij"}, U"ji", {{3, 4}}}, 13);
  run_case({"ij->", {U"ij"}, U"", {{3, 4}}}, 14);
  run_case({"ij->j", {U"ij"}, U"j", {{3, 4}}}, 15);
  run_case({"ijk->ki", {U"ijk"}, U"ki", {{2, 3, 4}}}, 16);
  run_case({"iji->j", {U"iji"}, U"j", {{3, 4, 3}}}, 17);
  run_case({"iiii->i", {U"iiii"}, U"i", {{3, 3, 3, 3}}}, 18);
  run_case({"ij->ij", {U"ij"}, U"ij", {{3, 4}}}, 19);
  run_case({"ijk", {U"ijk"}, U"ijk", {{2, 3, 4}}}, 20);   // implicit: sorted
  run_case({"kji", {U"kji"}, U"ijk", {{2, 3, 4}}}, 21);   // implicit transposes
  run_case({"iij->ji", {U"iij"}, U"ji", {{3, 3, 2}}}, 22);
}

TEST(Einsum, SumsDiagonalsAndImplicit) {
  run_case({"ijx,jk->ik", {U"ijx", U"jk"}, U"ik", {{2, 3, 4}, {3, 5}}}, 31);
  run_case({"iij,jk->ik", {U"iij", U"jk"}, U"ik", {{3, 3, 4}, {4, 2}}}, 32);
  run_case({"ij,jk", {U"ij", U"jk"}, U"ik", {{3, 4}, {4, 5}}}, 33);
  run_case({"ba,ca", {U"ba", U"ca"}, U"bc", {{3, 4}, {2, 4}}}, 34);
  run_case({"ii,jj->ij", {U"ii", U"jj"}, U"ij", {{3, 3}, {2, 2}}}, 35);
  run_case({"ab,b->", {U"ab", U"b"}, U"", {{3, 4}, {4}}}, 36);
}

TEST(Einsum, Scalars) {
  run_case({",ij->ij", {U"", U"ij"}, U"ij", {{}, {3, 4}}}, 41);
  run_case({"ij,->ji", {U"ij", U""}, U"ji", {{3, 4}, {}}}, 42);
  run_case({",->", {U"", U""}, U"", {{}, {}}}, 43);
  run_case({"->", {U""}, U"", {{}}}, 44);
  run_case({",i,", {U"", U"i", U""}, U"i", {{}, {3}, {}}}, 45);
}

// A summed label of extent 0 gives zeros (the sum of nothing, as NumPy's einsum), though
// reduce_sum itself refuses an empty reduced axis: einsum raised reduce_sum's invalid_argument
// before. Found by fuzzing (fuzz/ops_fuzz.cpp, docs/reliability.md).
TEST(Einsum, SumsOverAnEmptyLabelAreZeros) {
  run_case({"ij->i", {U"ij"}, U"i", {{3, 0}}}, 71);
  run_case({"ij->", {U"ij"}, U"", {{3, 0}}}, 72);
  run_case({"iij->j", {U"iij"}, U"j", {{0, 0, 2}}}, 73);
  run_case({"ij,jk->i", {U"ij", U"jk"}, U"i", {{3, 2}, {2, 0}}}, 74);
  run_case({"a...,b...bb", {U"a", U"bAbb"}, U"Aa", {{1}, {0, 2, 0, 0}}}, 75);
}

// Empty operands whose other extents multiply past int64: the products of their groups (the
// GEMM's M, N, K, the step sizes of the report) are never formed exactly; the result is empty
// or zeros. Found by fuzzing the step report (fuzz/parsers_fuzz.cpp).
TEST(Einsum, EmptyOperandsWithHugeExtents) {
  const std::int64_t x = std::int64_t{3} << 60;
  run_case({"cda,abd->adcb", {U"cda", U"abd"}, U"adcb", {{3, 2, 0}, {0, x, 2}}}, 76);
  run_case({"abc,cbd->ad", {U"abc", U"cbd"}, U"ad", {{3, x, 0}, {0, x, 2}}}, 77);
  // The one step writes the output: empty, then 3 x 2 zeros (C64: 16 bytes each).
  struct Explained {
    const char* sub;
    std::vector<Shape> shapes;
    std::int64_t out_bytes;
  };
  for (const Explained& c : {Explained{"cda,abd->adcb", {{3, 2, 0}, {0, x, 2}}, 0},
                             Explained{"abc,cbd->ad", {{3, x, 0}, {0, x, 2}}, 3 * 2 * 16}}) {
    const EinsumPlan plan = *make_plan(c.sub, c.shapes);
    const std::vector<Layout> layouts{Layout::compact(c.shapes[0]), Layout::compact(c.shapes[1])};
    const EinsumStats st = explain(plan.spec, plan.path, layouts, DType::C64, true);
    ASSERT_EQ(st.steps.size(), 1u) << c.sub;
    EXPECT_EQ(st.steps[0].out_bytes, c.out_bytes) << c.sub;
  }
}

TEST(Einsum, Ellipsis) {
  // Ellipsis dims are aligned at their end and extent 1 broadcasts (NumPy rules); the
  // reference spells them as labels A, B.
  run_case({"...ij,...jk->...ik", {U"ABij", U"ABjk"}, U"ABik", {{2, 3, 2, 4}, {2, 3, 4, 5}}}, 51);
  run_case({"...ij,...jk->...ik", {U"ABij", U"Bjk"}, U"ABik", {{2, 3, 2, 4}, {3, 4, 5}}}, 52);
  run_case({"...ij,...jk->...ik", {U"ABij", U"ABjk"}, U"ABik", {{2, 1, 2, 4}, {1, 3, 4, 5}}}, 53);
  run_case({"i...,i...->...", {U"iA", U"iA"}, U"A", {{3, 4}, {3, 4}}}, 54);
  run_case({"...ij,...jk", {U"Aij", U"Ajk"}, U"Aik", {{2, 3, 4}, {2, 4, 5}}}, 55);
  run_case({"ij...->...", {U"ijA"}, U"A", {{2, 3, 4}}}, 56);
  run_case({"ij...->ji", {U"ijA"}, U"ji", {{2, 3, 4}}}, 57);      // ellipsis dims summed
  run_case({"...->...", {U"AB"}, U"AB", {{2, 3}}}, 58);
  run_case({"i...i->i...", {U"iAi"}, U"iA", {{3, 2, 3}}}, 59);
  run_case({"ij,jk...->ik...", {U"ij", U"jkA"}, U"ikA", {{2, 3}, {3, 4, 2}}}, 60);
}

TEST(Einsum, UnicodeLabels) {
  run_case({"αβ,βγ->γα", {U"αβ", U"βγ"}, U"γα", {{3, 4}, {4, 2}}}, 71);
  run_case({"жк,кл,лм->жм", {U"жк", U"кл", U"лм"}, U"жм", {{2, 3}, {3, 4}, {4, 2}}}, 72);
  run_case({"éà,àç", {U"éà", U"àç"}, U"çé", {{2, 3}, {3, 4}}}, 73);  // implicit: code point order
  run_case({"𝔞𝔟,𝔟𝔞->", {U"𝔞𝔟", U"𝔟𝔞"}, U"", {{3, 4}, {4, 3}}}, 74);
  run_case({"aα,αa->a", {U"aα", U"αa"}, U"a", {{3, 2}, {2, 3}}}, 75);
  run_case({"ΩΩ->Ω", {U"ΩΩ"}, U"Ω", {{3, 3}}}, 76);
}

TEST(Einsum, NetworksGivenAndPlannedPaths) {
  const Case chain{"ij,jk,kl,lm->im", {U"ij", U"jk", U"kl", U"lm"}, U"im", {{2, 3}, {3, 4}, {4, 5}, {5, 2}}};
  for (const Path& p : {Path{{0, 1}, {0, 1}, {0, 1}}, Path{{2, 3}, {0, 1}, {0, 1}}, Path{{1, 2}, {0, 2}, {0, 1}}})
    run_case(chain, 81, &p, {DType::F64, DType::C32});
  run_case(chain, 82);
  const Case triangle{"ab,bc,ca->", {U"ab", U"bc", U"ca"}, U"", {{3, 4}, {4, 5}, {5, 3}}};
  run_case(triangle, 83);
  const Case five{"abc,cd,dbe,ef,fa->b", {U"abc", U"cd", U"dbe", U"ef", U"fa"}, U"b",
                  {{2, 3, 2}, {2, 3}, {3, 3, 2}, {2, 2}, {2, 2}}};
  run_case(five, 84);
  const Path star{{0, 4}, {1, 2}, {0, 1}, {0, 1}};
  run_case(five, 85, &star, {DType::F64});
  const Case batch3{"bij,bjk,bk->bi", {U"bij", U"bjk", U"bk"}, U"bi", {{2, 3, 4}, {2, 4, 3}, {2, 3}}};
  run_case(batch3, 86);
  const Case hyper{"ai,bi,ci->abc", {U"ai", U"bi", U"ci"}, U"abc", {{2, 3}, {3, 3}, {2, 3}}};
  run_case(hyper, 87);
}

// Random networks: every path gives the same result (path independence), and matches the
// reference. Prints the seed.
TEST(Einsum, PathIndependenceOnRandomNetworks) {
  const std::uint64_t seed = 20240611;
  std::printf("seed %llu\n", static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  Backend& be = cpu_backend();
  for (int trial = 0; trial < 25; ++trial) {
    const int n = 3 + trial % 3;
    const int nlabels = 5;
    std::uniform_int_distribution<int> ext(1, 4), nl(1, 3), pick(0, nlabels - 1);
    std::vector<std::int64_t> extent;
    for (int l = 0; l < nlabels; ++l) extent.push_back(ext(rng));
    Case c;
    std::vector<int> occ(nlabels, 0);
    for (int i = 0; i < n; ++i) {
      std::u32string t;
      Shape s;
      for (int q = nl(rng); q > 0; --q) {
        const int l = pick(rng);
        t += static_cast<char32_t>(U'a' + l);  // repeats allowed: diagonals
        s.push_back(extent[static_cast<std::size_t>(l)]);
        ++occ[static_cast<std::size_t>(l)];
      }
      c.inputs.push_back(t);
      c.shapes.push_back(s);
      if (i) c.subscripts += ',';
      for (char32_t ch : t) c.subscripts += static_cast<char>(ch);
    }
    for (int l = 0; l < nlabels; ++l)
      if (occ[static_cast<std::size_t>(l)] && rng() % 2) c.output += static_cast<char32_t>(U'a' + l);
    c.subscripts += "->";
    for (char32_t ch : c.output) c.subscripts += static_cast<char>(ch);
    std::vector<RefTensor> refs;
    std::vector<TensorView> views;
    for (const auto& s : c.shapes) {
      refs.push_back(test::random_ref(DType::F64, s, rng));
      views.push_back(test::place(be, refs.back(), LayoutCase::compact));
    }
    const RefTensor want = einsum_reference(c.inputs, c.output, refs, DType::F64);
    // Every path of the first two steps' choices, then greedy order.
    std::vector<Path> paths;
    for (int i = 0; i < n; ++i)
      for (int j = i + 1; j < n; ++j) {
        Path p{{i, j}};
        for (int left = n - 1; left > 1; --left) p.emplace_back(0, left - 1);
        paths.push_back(p);
      }
    // With the piece size at 1 byte too (detail::set_pack_chunk_bytes): every intermediate a
    // consumer cannot read in place is stored in the order it can, results in an order no
    // GEMM writes go through dot_general_into's temp in pieces, packed copies are made in
    // pieces.
    const std::uint64_t chunk = detail::pack_chunk_bytes();
    for (const std::uint64_t piece : {chunk, std::uint64_t{1}})
      for (const Path& p : paths) {
        EinsumOptions o;
        o.path = p;
        o.use_path = true;
        detail::set_pack_chunk_bytes(piece);
        const Tensor got = einsum(be, c.subscripts, views, o);
        detail::set_pack_chunk_bytes(chunk);
        const std::string m = test::compare(want, test::read(be, got), test::einsum_tol(DType::F64));
        ASSERT_TRUE(m.empty()) << c.subscripts << " seed " << seed << " trial " << trial << " piece " << piece << ": "
                               << m;
      }
  }
}

// The execution's layout choices (docs/einsum.md "Execution"), against the reference on
// every backend, dtype and operand layout: a free group split around the contracted labels
// (read as a batched GEMM with a broadcast operand), K = 1 steps as one mul stored in the
// order the next step or the output wants, results written through permuted out views, and
// an MPS-style chain whose middle indices are contracted.
TEST(Einsum, ExecutionLayoutChoices) {
  run_case({"ac,dcf->adf", {U"ac", U"dcf"}, U"adf", {{3, 4}, {9, 4, 2}}}, 91);
  run_case({"ac,dcf->fda", {U"ac", U"dcf"}, U"fda", {{3, 4}, {2, 4, 9}}}, 92);
  run_case({"ij,ij->ji", {U"ij", U"ij"}, U"ji", {{3, 4}, {3, 4}}}, 93);
  run_case({"bi,bj->jbi", {U"bi", U"bj"}, U"jbi", {{2, 3}, {2, 4}}}, 94);
  run_case({"ij,jk->ki", {U"ij", U"jk"}, U"ki", {{9, 4}, {4, 10}}}, 95);
  const Case mps{"pa,aqb,br,ps,sqt,tr->",
                 {U"pa", U"aqb", U"br", U"ps", U"sqt", U"tr"},
                 U"",
                 {{3, 9}, {9, 3, 9}, {9, 3}, {3, 9}, {9, 3, 9}, {9, 3}}};
  const Path sweep{{0, 3}, {0, 4}, {1, 3}, {0, 2}, {0, 1}};
  run_case(mps, 96, &sweep, {DType::F64, DType::C32});
  const Case open{"pa,aqb,br,ps,sqt,tr->qbs", {U"pa", U"aqb", U"br", U"ps", U"sqt", U"tr"}, U"qbs",
                  {{3, 9}, {9, 3, 9}, {9, 3}, {3, 9}, {9, 3, 9}, {9, 3}}};
  const Path tree{{0, 3}, {1, 3}, {1, 2}, {0, 2}, {0, 1}};
  run_case(open, 97, &tree, {DType::F64, DType::C32});
}

// The step report: explain() plans exactly what execute runs (same planner), on layouts only.
TEST(Einsum, ExplainReportsPackingAndLaunches) {
  auto stats = [](std::string_view subscripts, const std::vector<Layout>& layouts, const Path& path) {
    std::vector<Shape> shapes;
    for (const auto& l : layouts) shapes.push_back(l.shape);
    const EinsumSpec spec = make_spec(subscripts, shapes);
    return explain(spec, path, layouts, DType::F64);
  };
  auto compact = [](const std::vector<Shape>& shapes) {
    std::vector<Layout> ls;
    for (const auto& s : shapes) ls.push_back(Layout::compact(s));
    return ls;
  };
  // A matrix chain packs nothing along any path, and its result needs no transpose.
  const std::vector<Shape> chain{{5, 6}, {6, 7}, {7, 8}, {8, 9}, {9, 5}};
  for (const Path& p : {Path{{0, 1}, {0, 3}, {0, 2}, {0, 1}}, Path{{3, 4}, {2, 3}, {1, 2}, {0, 1}},
                        Path{{0, 1}, {0, 1}, {0, 2}, {0, 1}}}) {
    const EinsumStats s = stats("ij,jk,kl,lm,mn->in", compact(chain), p);
    ASSERT_EQ(s.steps.size(), 4u);
    EXPECT_EQ(s.packed_bytes, 0);
    EXPECT_EQ(s.copied_bytes, 0);
    EXPECT_EQ(s.final_transpose_bytes, 0);
    EXPECT_EQ(s.launches, 4);
    double flops = 0;
    for (const auto& st : s.steps) {
      EXPECT_EQ(st.B, 1);
      EXPECT_EQ(st.launches, 1);
      flops += st.flops;
    }
    EXPECT_DOUBLE_EQ(s.gemm_flops, flops);
  }
  // Transposed output and transposed operands: read and written in place.
  {
    const EinsumStats s = stats("ij,jk->ki", compact({{9, 4}, {4, 10}}), Path{{0, 1}});
    EXPECT_EQ(s.copied_bytes, 0);
    ASSERT_EQ(s.steps.size(), 1u);
    EXPECT_EQ(s.steps[0].M * s.steps[0].N * s.steps[0].K, 9 * 10 * 4);
    EXPECT_DOUBLE_EQ(s.steps[0].flops, 2.0 * 9 * 10 * 4);
    EXPECT_EQ(s.steps[0].out_bytes, 9 * 10 * 8);
    std::vector<Layout> t = compact({{4, 9}, {10, 4}});
    for (auto& l : t) l = Layout{{l.shape[1], l.shape[0]}, {l.strides[1], l.strides[0]}, 0};
    EXPECT_EQ(stats("ij,jk->ik", t, Path{{0, 1}}).copied_bytes, 0);
  }
  // The MPS sweep: the middle index of each site tensor is contracted, which a single GEMM
  // cannot read in place; the free runs around it become a broadcast batch instead.
  {
    const EinsumStats s = stats("pa,aqb,br,ps,sqt,tr->",
                                compact({{3, 9}, {9, 3, 9}, {9, 3}, {3, 9}, {9, 3, 9}, {9, 3}}),
                                Path{{0, 3}, {0, 4}, {1, 3}, {0, 2}, {0, 1}});
    EXPECT_EQ(s.packed_bytes, 0);
    EXPECT_EQ(s.launches, 5);
  }
  {
    const EinsumStats s = stats("ac,dcf->adf", compact({{3, 4}, {9, 4, 2}}), Path{{0, 1}});
    ASSERT_EQ(s.steps.size(), 1u);
    EXPECT_EQ(s.packed_bytes, 0);
    EXPECT_EQ(s.steps[0].B, 2);
  }
  // An outer product is one mul, stored in output order.
  {
    const EinsumStats s = stats("i,j->ji", compact({{3}, {4}}), Path{{0, 1}});
    EXPECT_EQ(s.launches, 1);
    EXPECT_EQ(s.copied_bytes, 0);
    EXPECT_EQ(s.gemm_flops, 0);
  }
  // A packing copy is reported: the contracted labels sit between the free ones of both
  // operands, with no batch to split into.
  {
    const EinsumStats s = stats("ikj,lkm->ijlm", compact({{3, 4, 5}, {6, 4, 7}}), Path{{0, 1}});
    EXPECT_GT(s.packed_bytes, 0);
    EXPECT_EQ(s.launches, 1 + (s.steps[0].lhs_packed_bytes > 0) + (s.steps[0].rhs_packed_bytes > 0));
  }
  // Bad paths and shapes are rejected like execute does.
  EXPECT_THROW(stats("ij,jk->ik", compact({{2, 3}, {3, 4}}), Path{}), Error);
}

// A result of at least einsum_detail::kUnitStrideMinBytes written through stride chains
// (Vulkan) whose unit-stride label k sits behind l in the lhs free group (M = (l, k), out
// "kqfl": no two lanes of a store in one sector) takes the stored order for that group: k leads
// lhs's free labels, and lhs, read in place otherwise, is packed as (k, l) (lower_orders.cpp,
// unit_stride_first). A backend writing no chains keeps the order.
TEST(Einsum, UnitStrideLabelLeadsAChainedResult) {
  const std::vector<Shape> shapes{{32, 32, 2, 2}, {2, 2, 32, 32}};
  std::vector<Layout> layouts;
  for (const auto& sh : shapes) layouts.push_back(Layout::compact(sh));
  const EinsumSpec spec = make_spec("lkji,jiqf->kqfl", shapes);
  ASSERT_GE(std::int64_t{32 * 32 * 32 * 32 * 8}, einsum_detail::kUnitStrideMinBytes);  // the result
  for (bool chains : {true, false}) {
    const EinsumStats s = explain(spec, Path{{0, 1}}, layouts, DType::F64, chains);
    ASSERT_EQ(s.steps.size(), 1u);
    EXPECT_EQ(s.steps[0].M, 32 * 32);
    EXPECT_EQ(s.steps[0].lhs_labels.substr(0, 2), chains ? "kl" : "lk") << "chains " << chains;
    EXPECT_EQ(s.steps[0].lhs_packed_bytes, chains ? 32 * 32 * 4 * 8 : 0) << "chains " << chains;
    EXPECT_EQ(s.steps[0].rhs_packed_bytes, 0);
    EXPECT_TRUE(s.steps[0].out_chained);
    // Written in place where the GEMM writes chains; through a temp and a copy elsewhere.
    EXPECT_EQ(s.steps[0].out_copy_bytes, chains ? 0 : s.steps[0].out_bytes) << "chains " << chains;
    EXPECT_EQ(s.copied_bytes, s.packed_bytes + s.steps[0].out_copy_bytes + s.final_transpose_bytes);
  }
  const Case c{"lkji,jiqf->kqfl", {U"lkji", U"jiqf"}, U"kqfl", shapes};
  run_case(c, 98, nullptr, {DType::F64, DType::C32});
}

// An intermediate its consumer cannot read in place in any arrangement of the product's blocks
// (w m | k g: the consumer contracts (m, g)), from einsum_detail::kConsumerOrderBytes, is stored
// in the consumer's order (k m g w) where the GEMM writes that order in stride chains (Vulkan):
// the consumer packs nothing (as in lm_batch_likelihood_sentence_3_12d's steps 12-13;
// lower_orders.cpp, consumer_order). A backend writing no chains keeps the block order and the
// consumer packs it (below detail::pack_chunk_bytes()). Either way the operand whose free
// block leads the stored order is lhs (the GEMM's stores run along M).
TEST(Einsum, SmallIntermediateTakesItsConsumersOrderWhereTheGemmWritesChains) {
  const std::vector<Shape> shapes{{64, 8, 4}, {4, 8, 32}, {4, 8, 32, 64}};
  std::vector<Layout> layouts;
  for (const auto& sh : shapes) layouts.push_back(Layout::compact(sh));
  const EinsumSpec spec = make_spec("wml,lkg,cmgw->ckw", shapes);
  const std::int64_t bytes = 64 * 8 * 8 * 32 * 8;  // the intermediate
  ASSERT_GE(bytes, einsum_detail::kConsumerOrderBytes);
  ASSERT_LT(static_cast<std::uint64_t>(bytes), detail::pack_chunk_bytes());
  for (bool chains : {true, false}) {
    const EinsumStats s = explain(spec, Path{{0, 1}, {0, 1}}, layouts, DType::F64, chains);
    ASSERT_EQ(s.steps.size(), 2u);
    EXPECT_EQ(s.steps[0].out_chained, chains) << "chains " << chains;
    // The stored order's leading label is in lhs's free group: (k, g) with chains, (w, m) without.
    const EinsumStepStats& st = s.steps[0];
    ASSERT_FALSE(st.out_labels.empty());
    EXPECT_NE(st.lhs_labels.find(st.out_labels[0]), std::string::npos)
        << "chains " << chains << ": " << st.lhs_labels << " stores " << st.out_labels;
    EXPECT_EQ(st.M, chains ? 8 * 32 : 64 * 8) << "chains " << chains;
    EXPECT_EQ(s.steps[1].lhs_packed_bytes + s.steps[1].rhs_packed_bytes, chains ? 0 : bytes) << "chains " << chains;
    EXPECT_EQ(s.steps[0].lhs_packed_bytes + s.steps[0].rhs_packed_bytes, 0) << "chains " << chains;
  }
  const Case c{"wml,lkg,cmgw->ckw", {U"wml", U"lkg", U"cmgw"}, U"ckw", shapes};
  const Path path{{0, 1}, {0, 1}};
  run_case(c, 99, &path, {DType::F64, DType::C32});
}

TEST(Einsum, EquivalentToDotGeneralAndTranspose) {
  std::mt19937_64 rng(7);
  Backend& be = cpu_backend();
  const RefTensor a = test::random_ref(DType::F64, {3, 4, 2}, rng);
  const RefTensor b = test::random_ref(DType::F64, {4, 5, 2}, rng);
  const TensorView va = test::place(be, a, LayoutCase::compact), vb = test::place(be, b, LayoutCase::compact);
  DotGeneralConfig cfg;
  cfg.lhs_batching_dims = {2};
  cfg.rhs_batching_dims = {2};
  cfg.lhs_contracting_dims = {1};
  cfg.rhs_contracting_dims = {0};
  const Tensor dg = dot_general(be, va, vb, cfg);  // [i, k, b]
  const std::vector<TensorView> ops{va, vb};
  TENFERRO_EXPECT_MATCH(test::read(be, dg), test::read(be, einsum(be, "ijb,jkb->ikb", ops)), test::einsum_tol(DType::F64));
  const Tensor tr = transpose_copy(be, dg, {2, 1, 0});
  TENFERRO_EXPECT_MATCH(test::read(be, tr), test::read(be, einsum(be, "ijb,jkb->bki", ops)), test::einsum_tol(DType::F64));
  const std::vector<TensorView> one{va};
  TENFERRO_EXPECT_MATCH(test::read(be, transpose_copy(be, va, {1, 2, 0})), test::read(be, einsum(be, "ijk->jki", one)),
                        test::einsum_tol(DType::F64));
  TENFERRO_EXPECT_MATCH(test::read(be, reduce_sum(be, va, {0, 2})), test::read(be, einsum(be, "ijk->j", one)),
                        test::einsum_tol(DType::F64));
}

TEST(Einsum, ResultIsFreshAndInputsUntouched) {
  Backend& be = cpu_backend();
  const Tensor x = host_tensor<double>({2, 2}, {1, 2, 3, 4});
  const std::vector<TensorView> ops{x};
  const Tensor y = einsum(be, "ij->ij", ops);
  EXPECT_NE(y.storage(), x.storage());
  EXPECT_EQ(to_vector<double>(y), (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(to_vector<double>(einsum(be, "ij->ji", ops)), (std::vector<double>{1, 3, 2, 4}));
  EXPECT_EQ(to_vector<double>(einsum(be, "ii->i", ops)), (std::vector<double>{1, 4}));
  EXPECT_EQ(to_vector<double>(x), (std::vector<double>{1, 2, 3, 4}));
}

void expect_error(ErrorKind kind, std::string_view subscripts, const std::vector<TensorView>& ops,
                  const char* why) {
  try {
    einsum(cpu_backend(), subscripts, ops);
    ADD_FAILURE() << why << ": no error for \"" << subscripts << "\"";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << why << ": " << e.what();
    EXPECT_EQ(e.op(), "einsum") << e.what();
  }
}

TEST(Einsum, Errors) {
  const Tensor m = host_tensor_zeros(DType::F64, {2, 3});
  const Tensor m3 = host_tensor_zeros(DType::F64, {3, 3});
  const Tensor v = host_tensor_zeros(DType::F64, {3});
  const Tensor f = host_tensor_zeros(DType::F32, {3});
  const Tensor ints = host_tensor_zeros(DType::I32, {3});
  using K = ErrorKind;
  expect_error(K::invalid_argument, "ij-jk", {m, m3}, "stray '-'");
  expect_error(K::invalid_argument, "ij>jk", {m, m3}, "stray '>'");
  expect_error(K::invalid_argument, "i.j->ij", {m}, "single dot");
  expect_error(K::invalid_argument, "......->", {m}, "two ellipses");
  expect_error(K::invalid_argument, "ij->i->j", {m}, "two arrows");
  expect_error(K::invalid_argument, "ij->i,j", {m}, "comma in output");
  expect_error(K::invalid_argument, "ij->k", {m}, "unknown output label");
  expect_error(K::invalid_argument, "ij->ii", {m}, "repeated output label");
  expect_error(K::invalid_argument, "\xff\xfe", {m}, "invalid UTF-8");
  expect_error(K::invalid_argument, "i\xce", {v}, "truncated UTF-8");
  expect_error(K::invalid_argument, "\xc0\xaf", {v}, "overlong UTF-8");
  expect_error(K::invalid_argument, "ij,jk->ik", {m}, "too few operands");
  expect_error(K::rank_mismatch, "ijk->", {m}, "too many labels");
  expect_error(K::rank_mismatch, "i->", {m}, "too few labels");
  expect_error(K::rank_mismatch, "ij...->", {v}, "ellipsis with too few axes");
  expect_error(K::shape_mismatch, "ij,ij->", {m, m3}, "extent mismatch");
  expect_error(K::shape_mismatch, "ii->i", {m}, "diagonal of unequal extents");
  expect_error(K::shape_mismatch, "...i,...i->", {host_tensor_zeros(DType::F64, {2, 3}), host_tensor_zeros(DType::F64, {4, 3})},
               "ellipsis extents that do not broadcast");
  expect_error(K::dtype_mismatch, "i,i->", {v, f}, "dtypes differ");
  expect_error(K::unsupported, "i,i->", {ints, ints}, "integer contraction");
  EinsumOptions bad;
  bad.use_path = true;
  bad.path = {{0, 0}};
  const std::vector<TensorView> two{v, v};
  try {
    einsum(cpu_backend(), "i,i->", two, bad);
    ADD_FAILURE() << "bad path accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), K::invalid_argument);
  }
}

// Tensors past int64 (in elements, or in bytes) are refused by name before any work: the
// output, an intermediate of the path, an operand of a plan's shapes; a broadcast operand
// view whose result would be too large. Negative extents too.
TEST(Einsum, SizesPastInt64AreRefusedNamingEinsum) {
  const auto expect_refused = [](ErrorKind kind, auto&& f, const char* what, const char* why) {
    try {
      f();
      ADD_FAILURE() << why << ": accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), kind) << why << ": " << e.what();
      EXPECT_EQ(e.op(), "einsum") << e.what();
      EXPECT_EQ(e.arg(), "operands") << e.what();
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << why << ": " << e.what();
    }
  };
  const std::int64_t g32 = std::int64_t{1} << 32, g31 = std::int64_t{1} << 31;
  using K = ErrorKind;
  const std::int64_t g16 = 65536;
  expect_refused(K::invalid_argument, [&] { make_plan("ab,cd->abcd", std::vector<Shape>{{g16, g16}, {g16, g16}}); },
                 "the output", "2^64-element output");
  expect_refused(K::invalid_argument, [&] { make_plan("abc->a", std::vector<Shape>{{g32, g32, g32}}); }, "operand 0",
                 "operand of 2^96 elements");
  expect_refused(K::invalid_argument, [&] { make_plan("ab->a", std::vector<Shape>{{2, -3}}); }, "negative",
                 "negative extent");
  // a and b are each held by one later operand (2^32 elements); together they pass int64.
  EinsumOptions outer_first;
  outer_first.use_path = true;
  outer_first.path = {{0, 1}, {0, 1}, {0, 1}};
  expect_refused(K::invalid_argument,
                 [&] { make_plan("a,b,ac,bc->", std::vector<Shape>{{g32}, {g32}, {g32, 1}, {g32, 1}}, outer_first); },
                 "the result of path step 0", "2^64-element intermediate");
  // Summing the empty label a away leaves zeros over b and c: 2^71 elements, made before any
  // contraction.
  expect_refused(K::invalid_argument, [&] { make_plan("abc,b->c", std::vector<Shape>{{0, g32 * 256, g31}, {g32 * 256}}); },
                 "operand 0 summed over its own labels", "2^71-element sum of an empty operand");
  // 2^62 elements fit int64, their f64 bytes do not.
  const EinsumSpec spec = make_spec("a,b->ab", std::vector<Shape>{{g31}, {g31}});
  const std::vector<Layout> layouts{Layout::compact({g31}), Layout::compact({g31})};
  expect_refused(K::out_of_memory, [&] { explain(spec, {{0, 1}}, layouts, DType::F64); }, "bytes",
                 "2^65-byte output");
  const Tensor one = host_tensor<double>({1}, {1.0});
  const std::vector<TensorView> wide{one.broadcast_in_dim({g31}, {0}), one.broadcast_in_dim({g31}, {0})};
  expect_refused(K::out_of_memory, [&] { einsum(cpu_backend(), "a,b->ab", wide); }, "bytes",
                 "broadcast operands, 2^65-byte output");
}

// One term of n repeated labels ('a' * n -> a, the diagonal of a rank-n tensor): lowering is
// linear in n (it was quadratic: 34 s at 2^18 labels).
TEST(Einsum, OneTermOfManyRepeatedLabelsPlansAndRunsQuickly) {
  const std::size_t n = std::size_t{1} << 18;
  const std::string subscripts = std::string(n, 'a') + "->a";
  const Tensor x = host_tensor<double>(Shape(n, 1), {2.5});
  const std::vector<TensorView> ops{x};
  const auto t0 = std::chrono::steady_clock::now();
  const Tensor y = einsum(cpu_backend(), subscripts, ops);
  const std::vector<Layout> layouts{x.layout()};
  const EinsumStats stats = explain(make_spec(subscripts, std::vector<Shape>{x.shape()}), {}, layouts, DType::F64);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(to_vector<double>(y), std::vector<double>{2.5});
  EXPECT_TRUE(stats.steps.empty());
  EXPECT_LT(seconds, 10.0) << "einsum and explain of " << n << " repeated labels";
}

TEST(Einsum, ParseSubscripts) {
  const auto s = parse_subscripts("a b , ...c->c ...");
  ASSERT_EQ(s.inputs.size(), 2u);
  EXPECT_EQ(s.inputs[0].labels, (std::vector<char32_t>{U'a', U'b'}));
  EXPECT_EQ(s.inputs[1].ellipsis, 0);
  EXPECT_TRUE(s.explicit_output);
  EXPECT_EQ(s.output.ellipsis, 1);
  const auto u = parse_subscripts("αж𝔞");
  EXPECT_EQ(u.inputs[0].labels, (std::vector<char32_t>{U'α', U'ж', U'𝔞'}));
  const EinsumSpec spec = make_spec("ab,bc", std::vector<Shape>{{2, 3}, {3, 4}});
  EXPECT_EQ(spec_to_string(spec), "ab,bc->ac");
}

}  // namespace
}  // namespace tenferro
