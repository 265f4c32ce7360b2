// EinsumProgram (tenferro/einsum.hpp) and the recorded work under it (Backend::capture): every
// run against the einsum reference with new operands of every layout, results that later runs
// leave alone, runs on the program's own inputs, programs destroyed with runs still queued, the
// memory given back, the errors of bad operands and of bodies that break the capture contract.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "backends.hpp"
#include "einsum_ref.hpp"
#include "ref.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/einsum.hpp"
#include "tenferro/ops.hpp"
#if TENFERRO_HAVE_VULKAN
#include "vulkan/provider.hpp"
#endif

namespace tenferro {
namespace {

using test::LayoutCase;
using test::RefTensor;

const test::EinsumCase kCases[] = {
    {"ij,jk,kl,lm->im", {U"ij", U"jk", U"kl", U"lm"}, U"im", {{2, 3}, {3, 4}, {4, 5}, {5, 2}}},
    {"abc,cd,dbe,ef,fa->b", {U"abc", U"cd", U"dbe", U"ef", U"fa"}, U"b",
     {{2, 3, 2}, {2, 3}, {3, 3, 2}, {2, 2}, {2, 2}}},
    {"bij,bjk,bk->bi", {U"bij", U"bjk", U"bk"}, U"bi", {{2, 3, 4}, {2, 4, 3}, {2, 3}}},
    {"ab,bc,ca->", {U"ab", U"bc", U"ca"}, U"", {{3, 4}, {4, 5}, {5, 3}}},
    {"ai,bi,ci->abc", {U"ai", U"bi", U"ci"}, U"abc", {{2, 3}, {3, 3}, {2, 3}}},
    {"ij->ji", {U"ij"}, U"ji", {{3, 4}}},
    {"iij->j", {U"iij"}, U"j", {{3, 3, 2}}},
    {"ij,ij->ij", {U"ij", U"ij"}, U"ij", {{3, 4}, {3, 4}}},
    {"ij,jk->ik", {U"ij", U"jk"}, U"ik", {{3, 0}, {0, 2}}},  // a sum over an empty label: zeros
};

bool records(const test::TestBackend& tb) { return tb.name == "vulkan"; }

// Three runs with new operands of a different layout each; every result is checked once all
// runs are queued, so a run that rewrote an earlier result fails.
TEST(EinsumProgram, RunsMatchTheReferenceWithNewOperandsEachTime) {
  std::mt19937_64 rng(4711);
  const LayoutCase layouts[] = {LayoutCase::compact, LayoutCase::transposed, LayoutCase::negative_stride,
                                LayoutCase::offset};
  for (const auto& tb : test::test_backends()) {
    for (const test::EinsumCase& c : kCases) {
      for (DType d : {DType::F64, DType::F32, DType::C64, DType::C32}) {
        if (!test::einsum_runs_on(*tb.be, d, c.shapes.size())) continue;
        SCOPED_TRACE(tb.name + " " + c.subscripts + " " + std::string(dtype_name(d)));
        EinsumProgram prog(*tb.be, c.subscripts, c.shapes, d);
        EXPECT_EQ(prog.recorded(), records(tb));
        std::vector<RefTensor> want;
        std::vector<Tensor> got;
        for (int run = 0; run < 3; ++run) {
          const LayoutCase lc = layouts[(run + static_cast<int>(c.shapes.size())) % 4];
          std::vector<RefTensor> refs;
          std::vector<TensorView> views;
          for (const Shape& s : c.shapes) {
            refs.push_back(test::random_ref(d, s, rng, lc));
            views.push_back(test::place(*tb.be, refs.back(), lc));
          }
          got.push_back(prog(views));
          want.push_back(test::einsum_reference(c.inputs, c.output, refs, d));
        }
        for (std::size_t run = 0; run < got.size(); ++run)
          TENFERRO_EXPECT_MATCH(want[run], test::read(*tb.be, got[run]), test::einsum_tol(d));
      }
    }
  }
}

// run() reads what inputs() hold: written by ops between runs, never copied.
TEST(EinsumProgram, RunReadsTheProgramsOwnInputs) {
  std::mt19937_64 rng(815);
  const test::EinsumCase& c = kCases[1];
  for (const auto& tb : test::test_backends()) {
    SCOPED_TRACE(tb.name);
    EinsumProgram prog(*tb.be, c.subscripts, c.shapes, DType::F64);
    ASSERT_EQ(prog.inputs().size(), c.shapes.size());
    for (int run = 0; run < 2; ++run) {
      std::vector<RefTensor> refs;
      for (std::size_t i = 0; i < c.shapes.size(); ++i) {
        refs.push_back(test::random_ref(DType::F64, c.shapes[i], rng, LayoutCase::transposed));
        copy_into(*tb.be, test::place(*tb.be, refs.back(), LayoutCase::transposed), prog.inputs()[i]);
      }
      const Tensor got = prog.run();
      TENFERRO_EXPECT_MATCH(test::einsum_reference(c.inputs, c.output, refs, DType::F64), test::read(*tb.be, got),
                            test::einsum_tol(DType::F64));
    }
  }
}

// A program dropped while its runs are queued: the results stay right, and once the device is
// idle every byte of the program (inputs, intermediates, recorded result) is given back.
TEST(EinsumProgram, DroppedWithRunsQueuedKeepsResultsAndGivesMemoryBack) {
  std::mt19937_64 rng(99);
  const test::EinsumCase& c = kCases[0];
  for (const auto& tb : test::test_backends()) {
    SCOPED_TRACE(tb.name);
    Backend& be = *tb.be;
    std::vector<RefTensor> refs;
    std::vector<TensorView> views;
    for (const Shape& s : c.shapes) {
      refs.push_back(test::random_ref(DType::F64, s, rng));
      views.push_back(test::place(be, refs.back(), LayoutCase::compact));
    }
    be.synchronize();
    const std::uint64_t before = be.memory_usage().in_use;
    std::vector<Tensor> got;
    {
      EinsumProgram prog(be, c.subscripts, c.shapes, DType::F64);
      for (int run = 0; run < 4; ++run) got.push_back(prog(views));
    }
    const RefTensor want = test::einsum_reference(c.inputs, c.output, refs, DType::F64);
    for (const Tensor& t : got) TENFERRO_EXPECT_MATCH(want, test::read(be, t), test::einsum_tol(DType::F64));
    const std::uint64_t results = be.memory_usage().in_use - before;
    got.clear();
    be.synchronize();
    EXPECT_EQ(be.memory_usage().in_use, before) << "results held " << results << " bytes";
  }
}

#if TENFERRO_HAVE_VULKAN
// Intermediates that do not fit in what the device has left at construction: the program is
// made unrecorded (a capture cannot wait for memory queued work still uses) and runs directly.
TEST(EinsumProgram, IntermediatesBeyondTheMemoryLeftRunUnrecorded) {
  for (const auto& tb : test::test_backends()) {
    if (!records(tb)) continue;
    Backend& be = *tb.be;
    // Path (0, 1) first: the outer product abcd, 128 MiB in f64, of 32 KiB operands.
    const test::EinsumCase c{"ab,cd,bd->ac", {U"ab", U"cd", U"bd"}, U"ac", {{64, 64}, {64, 64}, {64, 64}}};
    EinsumOptions opts;
    opts.path = {{0, 1}, {0, 1}};
    opts.use_path = true;
    be.synchronize();
    const vk::AllocatorStats s0 = vk::allocator_stats(be);
    vk::set_memory_limits(be, 0, 0);  // no cached empty block could hold the intermediate
    vk::set_memory_limits(be, vk::allocator_stats(be).tensor_bytes_reserved + (64ull << 20), 0);
    std::optional<EinsumProgram> prog;
    try {
      prog.emplace(be, c.subscripts, c.shapes, DType::F64, opts);
    } catch (...) {
      vk::set_memory_limits(be, s0.cap, s0.cache_limit);
      throw;
    }
    vk::set_memory_limits(be, s0.cap, s0.cache_limit);
    EXPECT_FALSE(prog->recorded());
    std::mt19937_64 rng(5);
    std::vector<RefTensor> refs;
    std::vector<TensorView> views;
    for (const Shape& sh : c.shapes) {
      refs.push_back(test::random_ref(DType::F64, sh, rng));
      views.push_back(test::place(be, refs.back(), LayoutCase::compact));
    }
    TENFERRO_EXPECT_MATCH(test::einsum_reference(c.inputs, c.output, refs, DType::F64), test::read(be, (*prog)(views)),
                          test::einsum_tol(DType::F64));
  }
}
#endif

TEST(EinsumProgram, BadOperandsAreRefusedNamingTheProgramBeforeAnyWork) {
  for (const auto& tb : test::test_backends()) {
    SCOPED_TRACE(tb.name);
    Backend& be = *tb.be;
    EinsumProgram prog(be, "ij,jk->ik", {{2, 3}, {3, 4}}, DType::F64);
    const Tensor a = be.allocate(DType::F64, {2, 3}), b = be.allocate(DType::F64, {3, 4});
    be.fill(a, Scalar::of(DType::F64, 1));
    be.fill(b, Scalar::of(DType::F64, 2));
    const Tensor wrong_shape = be.allocate(DType::F64, {3, 3});
    const Tensor wrong_dtype = be.allocate(DType::F32, {3, 4});
    struct Bad {
      std::vector<TensorView> ops;
      ErrorKind kind;
    };
    std::vector<Bad> bad = {{{a}, ErrorKind::invalid_argument},
                            {{a, b, b}, ErrorKind::invalid_argument},
                            {{a, wrong_shape}, ErrorKind::shape_mismatch},
                            {{a, wrong_dtype}, ErrorKind::dtype_mismatch},
                            {{a, TensorView()}, ErrorKind::invalid_argument}};
    if (!be.is_host()) bad.push_back({{a, host_tensor_zeros(DType::F64, {3, 4})}, ErrorKind::runtime_state});
    for (const Bad& x : bad) {
      try {
        prog(x.ops);
        ADD_FAILURE() << "accepted";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), x.kind) << e.what();
        EXPECT_EQ(e.op(), "einsum_program") << e.what();
        EXPECT_EQ(e.arg(), "operands") << e.what();
      }
    }
    // The program and the backend go on.
    const RefTensor got = test::read(be, prog({a, b}));
    for (const c64& v : got.v) EXPECT_EQ(v, c64(6, 0));
  }
}

TEST(EinsumProgram, BadSubscriptsAndDtypesAreRefusedAtConstruction) {
  Backend& be = cpu_backend();
  try {
    EinsumProgram(be, "ij,jk->iq", {{2, 3}, {3, 4}}, DType::F64);
    ADD_FAILURE() << "unknown output label accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid_argument) << e.what();
  }
  try {
    EinsumProgram(be, "ij,jk->ik", {{2, 3}, {3, 4}}, DType::I32);
    ADD_FAILURE() << "integer contraction accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::unsupported) << e.what();
    EXPECT_EQ(e.op(), "einsum_program") << e.what();
  }
}

// The capture contract (Backend::capture) on a backend that records: a body that reaches host
// memory, leaks a tensor or throws is refused, its memory given back, the backend usable.
TEST(RecordedWork, BodiesThatBreakTheContractAreRefusedAndTheBackendGoesOn) {
  for (const auto& tb : test::test_backends()) {
    Backend& be = *tb.be;
    SCOPED_TRACE(tb.name);
    const Tensor x = be.allocate(DType::F64, {16});
    be.fill(x, Scalar::of(DType::F64, 3));
    if (!records(tb)) {
      bool called = false;
      EXPECT_EQ(be.capture({}, [&] {
        called = true;
        return std::vector<Tensor>{};
      }),
                nullptr);
      EXPECT_FALSE(called);
      continue;
    }
    be.synchronize();
    const std::uint64_t before = be.memory_usage().in_use;
    const std::vector<Tensor> inputs{x};
    auto expect_refused = [&](const char* why, const std::function<std::vector<Tensor>()>& body) {
      try {
        be.capture(inputs, body);
        ADD_FAILURE() << why << ": accepted";
      } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::runtime_state) << why << ": " << e.what();
        EXPECT_EQ(e.op(), "record") << why << ": " << e.what();
      }
    };
    expect_refused("download", [&] { return std::vector<Tensor>{be.download(x)}; });
    expect_refused("synchronize", [&] {
      Tensor y = add(be, x, x);
      be.synchronize();
      return std::vector<Tensor>{y};
    });
    Tensor leaked;
    expect_refused("leaked tensor", [&] {
      leaked = add(be, x, x);
      return std::vector<Tensor>{};
    });
    leaked = Tensor();
    try {
      be.capture(inputs, [&]() -> std::vector<Tensor> {
        Tensor y = add(be, x, x);
        throw std::runtime_error("body failed");
      });
      ADD_FAILURE() << "a throwing body returned";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "body failed");
    }
    be.synchronize();
    EXPECT_EQ(be.memory_usage().in_use, before);
    // A valid capture still works, and replays read the input as it is at replay time.
    auto work = be.capture(inputs, [&] { return std::vector<Tensor>{mul(be, add(be, x, x), x)}; });
    ASSERT_NE(work, nullptr);
    for (double v : {3.0, -1.5}) {
      be.fill(x, Scalar::of(DType::F64, v));
      work->replay();
      const RefTensor got = test::read(be, work->outputs()[0]);
      for (const c64& g : got.v) EXPECT_EQ(g, c64(2 * v * v, 0));
    }
  }
}

}  // namespace
}  // namespace tenferro
