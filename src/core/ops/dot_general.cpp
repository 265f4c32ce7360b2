// dot_general and dot_general_into: validation, canonicalization to one batched GEMM, lowering.
//
// Canonical form. Each operand's axes are grouped into free (in order), contracting (config
// order) and batch (config order). A group "is one stride chain" when, after dropping
// extent-1 axes, consecutive axes satisfy stride[i+1] == stride[i] * extent[i]; it then acts as
// one axis (prod extents, stride of its first axis). When all three groups of an operand are
// chains the operand is read in place as a rank-3 view on its own storage: lhs [M,K,B],
// rhs [K,N,B] (negative or zero strides included; the backend's GEMM copes). Otherwise it is
// packed once with be.copy into a compact tensor ordered [free, contract, batch] (lhs) or
// [contract, free, batch] (rhs). The contracting pairs may be visited in any order, so when
// config order does not give chains, orders sorted by lhs or rhs stride are tried too.
// The output is compact [lhs free, rhs free, batch] = c [M,N,B]; dot_general_into writes its
// out view in place when its three groups are chains, else it goes through a compact temp,
// made in pieces of at most a quarter of out when it would reach detail::pack_chunk_bytes().
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <string>
#include <tuple>

#include "core/check.hpp"
#include "core/ops/dot_general_lowering.hpp"
#include "tenferro/backend/backend.hpp"
#include "tenferro/ops.hpp"

namespace tenferro {
namespace {

using I = std::int64_t;

/// The validated problem: axis groups and extents.
struct DotPlan {
  DType dtype = DType::F32;
  Axes lhs_free, rhs_free;
  Shape out_shape;
  I M = 1, N = 1, K = 1, B = 1;
  /// GemmCall::scratch_limit of the products it runs.
  std::uint64_t scratch_limit = kNoScratchLimit;
};

/// One stride chain: the group acts as one axis of `extent` elements `stride` apart.
struct Chain {
  I extent = 1, stride = 1;
};

/// The chain of `axes` of layout l (in the given order), or nullopt when they do not form one.
/// Axes whose extents or next stride pass int64 (possible only in an empty layout) form none.
std::optional<Chain> chain_of(const Layout& l, const Axes& axes) {
  for (I a : axes)
    if (l.shape[static_cast<std::size_t>(a)] == 0) return Chain{0, 1};  // empty group: no element is ever reached
  Chain ch;
  bool first = true;
  I next = 0;  // the stride the next non-trivial axis must have
  for (I a : axes) {
    const auto u = static_cast<std::size_t>(a);
    const I e = l.shape[u], s = l.strides[u];
    if (e == 1) continue;
    if (first) {
      ch.stride = s;
      first = false;
    } else if (s != next) {
      return std::nullopt;
    }
    if (__builtin_mul_overflow(ch.extent, e, &ch.extent) || __builtin_mul_overflow(s, e, &next)) return std::nullopt;
  }
  return ch;
}

/// The fewest stride chains of `axes` (in the given order; extent-1 axes skipped): maximal runs
/// of consecutive axes that are one chain each. An element at combined index i (first axis
/// fastest) lies at sum_j (i_j) * stride_j with i = i_0 + e_0 * (i_1 + e_1 * (...)). No chain
/// for a group of extent 1; one of extent 0 for an empty group (no element is ever reached).
std::vector<Chain> chains_of(const Layout& l, const Axes& axes) {
  for (I a : axes)
    if (l.shape[static_cast<std::size_t>(a)] == 0) return {Chain{0, 1}};
  std::vector<Chain> out;
  I next = 0;
  bool open = false;  // the last chain can take an axis of stride `next` (both products fit)
  for (I a : axes) {
    const auto u = static_cast<std::size_t>(a);
    const I e = l.shape[u], s = l.strides[u];
    if (e == 1) continue;
    I grown = 0;
    if (!open || s != next || __builtin_mul_overflow(out.back().extent, e, &grown)) {
      out.push_back(Chain{1, s});
      grown = e;
    }
    out.back().extent = grown;
    open = !__builtin_mul_overflow(s, e, &next);
  }
  return out;
}

/// The groups of an out view: [0, nl) lhs free, [nl, nl + nr) rhs free, the rest batch.
void out_groups(const Layout& out, std::size_t nl, std::size_t nr, Axes (&g)[3]) {
  for (I i = 0; i < out.rank(); ++i) {
    const auto u = static_cast<std::size_t>(i);
    g[u < nl ? 0 : u < nl + nr ? 1 : 2].push_back(i);
  }
}

/// The chained layout of an out view (GemmCall::c), or nullopt when a group has more chains
/// than GemmCall takes.
std::optional<Layout> chained_layout(const Layout& out, std::size_t nl, std::size_t nr) {
  Axes g[3];
  out_groups(out, nl, nr, g);
  Layout c;
  c.offset = out.offset;
  const int limit[3] = {kGemmFreeChains, kGemmFreeChains, kGemmBatchChains};
  for (int i = 0; i < 3; ++i) {
    const std::vector<Chain> ch = chains_of(out, g[i]);
    if (ch.size() > static_cast<std::size_t>(limit[i])) return std::nullopt;
    for (std::size_t j = 0; j < static_cast<std::size_t>(limit[i]); ++j) {
      c.shape.push_back(j < ch.size() ? ch[j].extent : 1);
      c.strides.push_back(j < ch.size() ? ch[j].stride : 0);
    }
  }
  return c;
}

Axes gather_axes(const Axes& axes, const std::vector<std::size_t>& order) {
  Axes out;
  for (std::size_t i : order) out.push_back(axes[i]);
  return out;
}

/// The axes of x in neither b nor c, ascending.
Axes free_axes(const Layout& x, const Axes& b, const Axes& c) {
  Axes f;
  for (I a = 0; a < x.rank(); ++a)
    if (std::find(b.begin(), b.end(), a) == b.end() && std::find(c.begin(), c.end(), a) == c.end()) f.push_back(a);
  return f;
}

/// Checks the rules of SEMANTICS.md for dot_general (op names the public op) and builds the plan.
DotPlan validate(const Backend& be, const TensorView& lhs, const TensorView& rhs, const DotGeneralConfig& cfg,
                 const char* op) {
  detail::check_resident(be, lhs, op, "lhs");
  detail::check_resident(be, rhs, op, "rhs");
  detail::check_same_dtype(lhs, rhs, op, "rhs");
  const DType d = lhs.dtype();
  TENFERRO_CHECK(contract_allows(OpId::dot_general, d), unsupported, op, "lhs", op, " does not accept dtype ",
                 dtype_name(d), ": expected f32, f64, c32 or c64");
  TENFERRO_CHECK(be.supports(OpId::dot_general, d), unsupported, op, "lhs", "[", be.name(), "] ", op,
                 ": dtype ", dtype_name(d), " not supported by this backend");

  TENFERRO_CHECK(cfg.lhs_batching_dims.size() == cfg.rhs_batching_dims.size(), invalid_argument, op,
                 "rhs_batching_dims", "paired config lists of different lengths: got ",
                 cfg.rhs_batching_dims.size(), " rhs batching dims, expected ", cfg.lhs_batching_dims.size(),
                 " (as lhs_batching_dims)");
  TENFERRO_CHECK(cfg.lhs_contracting_dims.size() == cfg.rhs_contracting_dims.size(), invalid_argument, op,
                 "rhs_contracting_dims", "paired config lists of different lengths: got ",
                 cfg.rhs_contracting_dims.size(), " rhs contracting dims, expected ",
                 cfg.lhs_contracting_dims.size(), " (as lhs_contracting_dims)");
  const struct {
    const Axes& axes;
    const TensorView& x;
    const char* name;
  } lists[] = {{cfg.lhs_batching_dims, lhs, "lhs_batching_dims"},
               {cfg.lhs_contracting_dims, lhs, "lhs_contracting_dims"},
               {cfg.rhs_batching_dims, rhs, "rhs_batching_dims"},
               {cfg.rhs_contracting_dims, rhs, "rhs_contracting_dims"}};
  for (const auto& l : lists)
    for (I a : l.axes) detail::check_axis(a, l.x.rank(), op, l.name);
  // No axis twice within one operand's batching + contracting lists.
  for (int side = 0; side < 2; ++side) {
    const TensorView& x = side == 0 ? lhs : rhs;
    std::vector<const char*> owner(static_cast<std::size_t>(x.rank()), nullptr);
    for (int j = 0; j < 2; ++j) {
      const auto& l = lists[2 * side + j];
      for (I a : l.axes) {
        const char*& o = owner[static_cast<std::size_t>(a)];
        TENFERRO_CHECK(o == nullptr, invalid_argument, op, l.name, "axis ", a, " repeated: already in ", o,
                       ", expected each ", side == 0 ? "lhs" : "rhs", " axis at most once");
        o = l.name;
      }
    }
  }
  DotPlan p;
  p.dtype = d;
  for (std::size_t i = 0; i < cfg.lhs_batching_dims.size(); ++i) {
    const I el = lhs.dim(cfg.lhs_batching_dims[i]), er = rhs.dim(cfg.rhs_batching_dims[i]);
    TENFERRO_CHECK(el == er, shape_mismatch, op, "rhs", "batch extent of rhs axis ", cfg.rhs_batching_dims[i],
                   ": got ", er, ", expected ", el, " (lhs axis ", cfg.lhs_batching_dims[i], ")");
  }
  for (std::size_t i = 0; i < cfg.lhs_contracting_dims.size(); ++i) {
    const I el = lhs.dim(cfg.lhs_contracting_dims[i]), er = rhs.dim(cfg.rhs_contracting_dims[i]);
    TENFERRO_CHECK(el == er, shape_mismatch, op, "rhs", "contracted extent of rhs axis ",
                   cfg.rhs_contracting_dims[i], ": got ", er, ", expected ", el, " (lhs axis ",
                   cfg.lhs_contracting_dims[i], ")");
  }

  p.lhs_free = free_axes(lhs.layout(), cfg.lhs_batching_dims, cfg.lhs_contracting_dims);
  p.rhs_free = free_axes(rhs.layout(), cfg.rhs_batching_dims, cfg.rhs_contracting_dims);
  for (I a : p.lhs_free) p.out_shape.push_back(lhs.dim(a));
  for (I a : p.rhs_free) p.out_shape.push_back(rhs.dim(a));
  for (I a : cfg.lhs_batching_dims) p.out_shape.push_back(lhs.dim(a));
  shape_numel(p.out_shape, op);  // the output's element count must fit in int64
  // Each product below divides the element count of an operand or of the output; it saturates
  // only where that tensor is empty.
  for (I a : p.lhs_free) p.M = mul_sat(p.M, lhs.dim(a));
  for (I a : p.rhs_free) p.N = mul_sat(p.N, rhs.dim(a));
  for (I a : cfg.lhs_batching_dims) p.B = mul_sat(p.B, lhs.dim(a));
  for (I a : cfg.lhs_contracting_dims) p.K = mul_sat(p.K, lhs.dim(a));
  return p;
}

/// Rank-3 view of x whose axes are the groups g[0], g[1], g[2] (extents e): in place when every
/// group is a chain (in_place, as decided by lower_dot_general), else packed into a compact
/// tensor ordered g[0] ++ g[1] ++ g[2].
TensorView as_rank3(Backend& be, const TensorView& x, const Axes (&g)[3], const Shape& e, bool in_place) {
  if (x.numel() == 0) return TensorView(x.storage(), x.dtype(), Layout::compact(e));
  if (in_place) {
    I st[3];
    for (int i = 0; i < 3; ++i) st[i] = chain_of(x.layout(), g[i])->stride;
    return TensorView(x.storage(), x.dtype(), Layout{e, {st[0], st[1], st[2]}, x.offset()});
  }
  Axes perm;
  for (const Axes& a : g) perm.insert(perm.end(), a.begin(), a.end());
  const TensorView src = x.transpose(perm);
  Tensor packed = be.allocate(x.dtype(), src.shape());
  be.copy(src, packed);
  return TensorView(packed.storage(), x.dtype(), Layout::compact(e));
}

/// True when the groups of x are all stride chains (x is read in place).
bool reads_in_place(const Layout& x, const Axes& g0, const Axes& g1, const Axes& g2) {
  return chain_of(x, g0) && chain_of(x, g1) && chain_of(x, g2);
}

/// lower_dot_general packs an operand whose unit stride is a batch axis in products of at least
/// kBatchRepackFlops whose partner free extent (N for lhs, M for rhs) is at least kBatchRepackReuse.
constexpr double kBatchRepackFlops = 1e9;
constexpr I kBatchRepackReuse = 256;

/// True when the smallest |stride| among x's axes of extent > 1 is one of `batch`'s.
bool unit_stride_on(const Layout& x, const Axes& batch) {
  I best = -1, at = -1;
  for (I a = 0; a < x.rank(); ++a) {
    const auto u = static_cast<std::size_t>(a);
    const I s = x.strides[u] < 0 ? -x.strides[u] : x.strides[u];
    if (x.shape[u] > 1 && (best < 0 || s < best)) {
      best = s;
      at = a;
    }
  }
  return at >= 0 && std::find(batch.begin(), batch.end(), at) != batch.end();
}

/// A packed copy at least this large is made in pieces (detail::set_pack_chunk_bytes).
std::atomic<std::uint64_t> g_pack_chunk_bytes{64ull << 20};

/// x with axis `ax` narrowed to indices [i, i + len).
TensorView narrow(const TensorView& x, I ax, I i, I len) {
  Layout l = x.layout();
  l.offset += i * l.strides[static_cast<std::size_t>(ax)];
  l.shape[static_cast<std::size_t>(ax)] = len;
  return TensorView(x.storage(), x.dtype(), std::move(l));
}

/// Position in `axes` of the last axis of x with extent > 1, or -1.
int last_nontrivial(const TensorView& x, const Axes& axes) {
  for (auto j = static_cast<int>(axes.size()) - 1; j >= 0; --j)
    if (x.dim(axes[static_cast<std::size_t>(j)]) > 1) return j;
  return -1;
}

void run_gemm(Backend& be, const TensorView& lhs, const TensorView& rhs, const DotGeneralConfig& cfg,
              const DotPlan& p, bool lhs_conj, bool rhs_conj, const Scalar& alpha, const Scalar& beta,
              const TensorView& c3, TensorView* drop_lhs = nullptr, TensorView* drop_rhs = nullptr,
              bool pieces = true);

/// Largest piece of a packed copy made in pieces: a copy under 2 * kPieceBytes is halved.
constexpr std::uint64_t kPieceBytes = 256ull << 20;

/// When an operand must be packed and its copy would reach the piece size
/// (detail::set_pack_chunk_bytes), runs the product in a few pieces along one axis and returns
/// true: the last batch axis of extent > 1 (both operands and C's batch range shrink), else the
/// last free axis of extent > 1 of the larger packed operand (C's row or column range). That
/// axis is the slowest-varying of its group in C's combined index, so each piece of C is one
/// contiguous range of [M, N, B]. Pieces: max(2, copy / kPieceBytes), at most the axis extent
/// (few and large, so that each product keeps its tiles busy: H200, str_nw_mera_closed_120 ran
/// 9.8 ms cut into many small pieces against 7.3 ms whole).
bool run_gemm_in_pieces(Backend& be, const TensorView& lhs, const TensorView& rhs, const DotGeneralConfig& cfg,
                        const detail::DotLowering& lw, const DotPlan& p, bool lhs_conj, bool rhs_conj,
                        const Scalar& alpha, const Scalar& beta, const TensorView& c3) {
  const auto es = static_cast<std::uint64_t>(dtype_size(p.dtype));
  const std::uint64_t pack_l = lw.lhs_in_place ? 0 : static_cast<std::uint64_t>(lhs.numel()) * es;
  const std::uint64_t pack_r = lw.rhs_in_place ? 0 : static_cast<std::uint64_t>(rhs.numel()) * es;
  const std::uint64_t pack = std::max(pack_l, pack_r);
  if (pack < detail::pack_chunk_bytes()) return false;
  // The piece: which operands narrow along which axis, and which axis of c3 it slices.
  I ax_l = -1, ax_r = -1, extent = 1;
  int c_axis = 2;
  if (const int j = last_nontrivial(lhs, cfg.lhs_batching_dims); j >= 0) {
    ax_l = cfg.lhs_batching_dims[static_cast<std::size_t>(j)];
    ax_r = cfg.rhs_batching_dims[static_cast<std::size_t>(j)];
    extent = lhs.dim(ax_l);
  } else if (const int jl = last_nontrivial(lhs, lw.lhs_groups[0]); pack_l >= pack_r && jl >= 0) {
    ax_l = lw.lhs_groups[0][static_cast<std::size_t>(jl)];
    extent = lhs.dim(ax_l);
    c_axis = 0;
  } else if (const int jr = last_nontrivial(rhs, lw.rhs_groups[1]); pack_r > pack_l && jr >= 0) {
    ax_r = lw.rhs_groups[1][static_cast<std::size_t>(jr)];
    extent = rhs.dim(ax_r);
    c_axis = 1;
  } else {
    return false;
  }
  const I pieces = std::min<I>(extent, std::max<I>(2, static_cast<I>((pack + kPieceBytes - 1) / kPieceBytes)));
  const I len = (extent + pieces - 1) / pieces;  // indices of the axis per piece (the last: fewer)
  const I pre = (c_axis == 0 ? p.M : c_axis == 1 ? p.N : p.B) / extent;  // C elements along c_axis per index of the axis
  // The axis of c3 the piece narrows: c_axis of a rank-3 c; of a chained c (GemmCall::c) the
  // group's last chain of extent > 1, which holds the group's last axis of extent > 1 (the one
  // sliced). step: c3 indices along that axis per index of the sliced operand axis.
  std::size_t cax = static_cast<std::size_t>(c_axis);
  I step = pre;
  if (c3.rank() == kGemmChainedRank) {
    const std::size_t first = static_cast<std::size_t>(c_axis) * kGemmFreeChains;
    const std::size_t n = c_axis == 2 ? kGemmBatchChains : kGemmFreeChains;
    cax = first;
    for (std::size_t j = first; j < first + n; ++j)
      if (c3.dim(static_cast<I>(j)) > 1) cax = j;
    for (std::size_t j = first; j < cax; ++j) step /= c3.dim(static_cast<I>(j));
  }
  const I cstride = c3.strides()[cax];
  for (I i = 0; i < extent; i += len) {
    const I n = std::min(len, extent - i);
    DotPlan q = p;
    (c_axis == 0 ? q.M : c_axis == 1 ? q.N : q.B) = pre * n;
    Layout lc = c3.layout();
    lc.shape[cax] = step * n;
    lc.offset += i * step * cstride;
    run_gemm(be, ax_l >= 0 ? narrow(lhs, ax_l, i, n) : lhs, ax_r >= 0 ? narrow(rhs, ax_r, i, n) : rhs, cfg, q,
             lhs_conj, rhs_conj, alpha, beta, TensorView(c3.storage(), c3.dtype(), std::move(lc)), nullptr, nullptr,
             false);
  }
  return true;
}

/// Runs c = alpha * dot + beta * c for c a rank-3 [M,N,B] view (or a chained one, GemmCall::c). drop_lhs / drop_rhs (the caller's
/// own copies of lhs / rhs, or null): cleared as soon as that operand is packed, so that its
/// storage can be freed before the other operand is packed (its bytes are reused in stream
/// order); lhs / rhs are not read after their packing. A large packed copy is made in pieces
/// (run_gemm_in_pieces; the operands are then kept to the end).
void run_gemm(Backend& be, const TensorView& lhs, const TensorView& rhs, const DotGeneralConfig& cfg,
              const DotPlan& p, bool lhs_conj, bool rhs_conj, const Scalar& alpha, const Scalar& beta,
              const TensorView& c3, TensorView* drop_lhs, TensorView* drop_rhs, bool pieces) {
  const detail::DotLowering lw = detail::lower_dot_general(lhs.layout(), rhs.layout(), cfg);
  if (pieces && run_gemm_in_pieces(be, lhs, rhs, cfg, lw, p, lhs_conj, rhs_conj, alpha, beta, c3)) return;
  GemmCall call;
  call.a = as_rank3(be, lhs, lw.lhs_groups, {p.M, p.K, p.B}, lw.lhs_in_place);
  if (drop_lhs && !lw.lhs_in_place) *drop_lhs = TensorView();
  call.b = as_rank3(be, rhs, lw.rhs_groups, {p.K, p.N, p.B}, lw.rhs_in_place);
  if (drop_rhs && !lw.rhs_in_place) *drop_rhs = TensorView();
  call.c = c3;
  // Conjugating a real operand is the identity.
  call.conj_a = lhs_conj && is_complex(p.dtype);
  call.conj_b = rhs_conj && is_complex(p.dtype);
  call.alpha = alpha;
  call.beta = beta;
  call.scratch_limit = p.scratch_limit;
  be.gemm(call);
}

/// alpha/beta as a Scalar of dtype d. Any numeric scalar is accepted; a complex value with a
/// nonzero imaginary part cannot become a real dtype (invalid_argument).
Scalar coefficient(const Scalar& s, DType d, const char* op, const char* arg) {
  TENFERRO_CHECK(s.dtype != DType::Bool, invalid_argument, op, arg, arg, " has dtype bool, expected a number");
  const c64 v = is_integer(s.dtype) ? c64(static_cast<double>(s.i), 0.0) : s.c;
  TENFERRO_CHECK(is_complex(d) || v.imag() == 0.0, invalid_argument, op, arg, arg, " is complex (",
                 v.real(), ", ", v.imag(), "), expected a real value for ", dtype_name(d), " out");
  return Scalar::of_complex(d, is_complex(d) ? v : c64(v.real(), 0.0));
}

bool ranges_overlap(const TensorView& a, const TensorView& b) {
  if (a.storage() != b.storage() || a.numel() == 0 || b.numel() == 0) return false;
  return a.layout().min_offset() <= b.layout().max_offset() && b.layout().min_offset() <= a.layout().max_offset();
}

/// dot_general into a new compact tensor; drop_lhs / drop_rhs as in run_gemm.
Tensor dot_general_new(Backend& be, const TensorView& lhs, const TensorView& rhs, const DotGeneralConfig& cfg,
                       bool lhs_conj, bool rhs_conj, TensorView* drop_lhs, TensorView* drop_rhs,
                       std::uint64_t scratch_limit) {
  DotPlan p = validate(be, lhs, rhs, cfg, "dot_general");
  p.scratch_limit = scratch_limit;
  Tensor out = be.allocate(p.dtype, p.out_shape);
  if (out.numel() == 0) return out;
  const TensorView c3(out.storage(), p.dtype, Layout::compact({p.M, p.N, p.B}));
  run_gemm(be, lhs, rhs, cfg, p, lhs_conj, rhs_conj, Scalar::of(p.dtype, 1.0), detail::zero_of(p.dtype), c3,
           drop_lhs, drop_rhs);
  return out;
}

/// out = alpha * dot + beta * out through a compact temp (out's groups are not stride chains).
void through_temp(Backend& be, const TensorView& lhs, const TensorView& rhs, const DotGeneralConfig& cfg,
                  const DotPlan& p, bool lhs_conj, bool rhs_conj, const Scalar& alpha, const Scalar& beta,
                  const TensorView& out) {
  Tensor tmp = be.allocate(p.dtype, p.out_shape);
  if (beta.c != c64(0.0, 0.0)) be.copy(out, tmp);
  const TensorView c3(tmp.storage(), p.dtype, Layout::compact({p.M, p.N, p.B}));
  run_gemm(be, lhs, rhs, cfg, p, lhs_conj, rhs_conj, alpha, beta, c3);
  be.copy(tmp, out);
}

/// Pieces of a temp made in pieces: at least kTempPieces, so that the temp adds at most a
/// quarter of out to the memory held (einsum's result in an order no GEMM writes directly,
/// e.g. str_nw_mera_open_26's 328 MiB result, would otherwise need twice its size).
constexpr I kTempPieces = 4;

/// through_temp in pieces along one out axis, chosen by, in order: an axis of the larger
/// operand (its free axes, or a batch axis: the operand that may be packed then narrows too,
/// so that its copy is made once in all, never whole per piece), at least kTempPieces indices,
/// the slowest-varying in out (each piece of out one range where possible). lhs, rhs (the
/// operand or operands holding that axis) and out narrow together.
void into_pieces(Backend& be, const TensorView& lhs, const TensorView& rhs, const DotGeneralConfig& cfg,
                 const DotPlan& p, bool lhs_conj, bool rhs_conj, const Scalar& alpha, const Scalar& beta,
                 const TensorView& out) {
  const I nl = static_cast<I>(p.lhs_free.size()), nr = static_cast<I>(p.rhs_free.size());
  const bool lhs_larger = lhs.numel() >= rhs.numel();
  auto score = [&](I i) {
    const bool of_larger = i >= nl + nr || (i < nl) == lhs_larger;
    return std::tuple(of_larger, out.dim(i) >= kTempPieces, std::abs(out.strides()[static_cast<std::size_t>(i)]));
  };
  I ax = -1;
  for (I i = 0; i < out.rank(); ++i)
    if (out.dim(i) >= 2 && (ax < 0 || score(i) > score(ax))) ax = i;
  I ax_l = -1, ax_r = -1;
  if (ax < nl) {
    ax_l = p.lhs_free[static_cast<std::size_t>(ax)];
  } else if (ax < nl + nr) {
    ax_r = p.rhs_free[static_cast<std::size_t>(ax - nl)];
  } else {
    ax_l = cfg.lhs_batching_dims[static_cast<std::size_t>(ax - nl - nr)];
    ax_r = cfg.rhs_batching_dims[static_cast<std::size_t>(ax - nl - nr)];
  }
  const I extent = out.dim(ax), pieces = std::min(extent, kTempPieces), len = (extent + pieces - 1) / pieces;
  for (I i = 0; i < extent; i += len) {
    const I n = std::min(len, extent - i);
    const TensorView l = ax_l >= 0 ? narrow(lhs, ax_l, i, n) : lhs, r = ax_r >= 0 ? narrow(rhs, ax_r, i, n) : rhs;
    DotPlan q = validate(be, l, r, cfg, "dot_general_into");
    q.scratch_limit = p.scratch_limit;
    through_temp(be, l, r, cfg, q, lhs_conj, rhs_conj, alpha, beta, narrow(out, ax, i, n));
  }
}

}  // namespace

namespace detail {

bool is_stride_chain(const Layout& l, const Axes& axes) { return chain_of(l, axes).has_value(); }

std::uint64_t set_pack_chunk_bytes(std::uint64_t bytes) { return g_pack_chunk_bytes.exchange(bytes); }
std::uint64_t pack_chunk_bytes() { return g_pack_chunk_bytes.load(std::memory_order_relaxed); }

bool dot_out_in_place(const Layout& out, std::size_t n_lhs_free, std::size_t n_rhs_free) {
  Axes g[3];
  out_groups(out, n_lhs_free, n_rhs_free, g);
  return reads_in_place(out, g[0], g[1], g[2]);
}

bool dot_out_in_chains(const Layout& out, std::size_t n_lhs_free, std::size_t n_rhs_free) {
  return chained_layout(out, n_lhs_free, n_rhs_free).has_value();
}

/// The contracting pairs take the order, among config order, sorted by lhs stride and sorted by
/// rhs stride, that leaves the fewest operands to pack (ties: the earlier one).
DotLowering lower_dot_general(const Layout& lhs, const Layout& rhs, const DotGeneralConfig& cfg) {
  DotLowering lw;
  const Axes lf = free_axes(lhs, cfg.lhs_batching_dims, cfg.lhs_contracting_dims);
  const Axes rf = free_axes(rhs, cfg.rhs_batching_dims, cfg.rhs_contracting_dims);
  for (I a : lf) lw.M = mul_sat(lw.M, lhs.shape[static_cast<std::size_t>(a)]);
  for (I a : rf) lw.N = mul_sat(lw.N, rhs.shape[static_cast<std::size_t>(a)]);
  for (I a : cfg.lhs_contracting_dims) lw.K = mul_sat(lw.K, lhs.shape[static_cast<std::size_t>(a)]);
  for (I a : cfg.lhs_batching_dims) lw.B = mul_sat(lw.B, lhs.shape[static_cast<std::size_t>(a)]);
  const std::size_t n = cfg.lhs_contracting_dims.size();
  std::vector<std::size_t> cfg_order(n);
  std::iota(cfg_order.begin(), cfg_order.end(), std::size_t{0});
  auto by_stride = [&](const Layout& x, const Axes& axes) {
    std::vector<std::size_t> o = cfg_order;
    std::stable_sort(o.begin(), o.end(), [&](std::size_t i, std::size_t j) {
      const I si = x.strides[static_cast<std::size_t>(axes[i])];
      const I sj = x.strides[static_cast<std::size_t>(axes[j])];
      return (si < 0 ? -si : si) < (sj < 0 ? -sj : sj);
    });
    return o;
  };
  const std::vector<std::size_t> orders[] = {cfg_order, by_stride(lhs, cfg.lhs_contracting_dims),
                                             by_stride(rhs, cfg.rhs_contracting_dims)};
  int best = -1;
  for (const auto& o : orders) {
    Axes l = gather_axes(cfg.lhs_contracting_dims, o), r = gather_axes(cfg.rhs_contracting_dims, o);
    const bool li = reads_in_place(lhs, lf, l, cfg.lhs_batching_dims);
    const bool ri = reads_in_place(rhs, r, rf, cfg.rhs_batching_dims);
    const int score = int{li} + int{ri};
    if (score > best) {
      best = score;
      lw.lhs_groups[1] = std::move(l);
      lw.rhs_groups[0] = std::move(r);
      lw.lhs_in_place = li;
      lw.rhs_in_place = ri;
    }
    if (best == 2) break;
  }
  lw.lhs_groups[0] = lf;
  lw.lhs_groups[2] = cfg.lhs_batching_dims;
  lw.rhs_groups[1] = rf;
  lw.rhs_groups[2] = cfg.rhs_batching_dims;
  // An operand whose unit stride is a batch axis is loaded element by element, each element far
  // from the next, once by every tile of the partner's free extent: in a large product whose
  // partner extent is long, one packing copy costs less (on the H200, str_nw_mera_closed_120's
  // 540 x 270 x 136 x 216 step, whose rhs "fzMJIqFe" has batch f at unit stride). Small batched
  // products (the lm and MPS instances' 12 x 12 and 19 x 19 matrices) keep reading in place.
  if (2.0 * double(lw.M) * double(lw.N) * double(lw.K) * double(lw.B) >= kBatchRepackFlops) {
    if (lw.lhs_in_place && lw.N >= kBatchRepackReuse && unit_stride_on(lhs, cfg.lhs_batching_dims)) lw.lhs_in_place = false;
    if (lw.rhs_in_place && lw.M >= kBatchRepackReuse && unit_stride_on(rhs, cfg.rhs_batching_dims)) lw.rhs_in_place = false;
  }
  return lw;
}

Tensor dot_general_consuming(Backend& be, TensorView lhs, TensorView rhs, const DotGeneralConfig& cfg,
                             std::uint64_t scratch_limit) {
  // lhs / rhs are this call's own references: run_gemm clears each once it is packed.
  return dot_general_new(be, lhs, rhs, cfg, false, false, &lhs, &rhs, scratch_limit);
}

}  // namespace detail

Tensor dot_general(Backend& be, const TensorView& lhs, const TensorView& rhs, const DotGeneralConfig& cfg,
                   bool lhs_conj, bool rhs_conj) {
  return dot_general_new(be, lhs, rhs, cfg, lhs_conj, rhs_conj, nullptr, nullptr, kNoScratchLimit);
}

void dot_general_into(Backend& be, const TensorView& lhs, const TensorView& rhs, const DotGeneralConfig& cfg,
                      bool lhs_conj, bool rhs_conj, const Scalar& alpha, const Scalar& beta,
                      const TensorView& out) {
  detail::dot_general_into(be, lhs, rhs, cfg, lhs_conj, rhs_conj, alpha, beta, out, kNoScratchLimit);
}

void detail::dot_general_into(Backend& be, const TensorView& lhs, const TensorView& rhs, const DotGeneralConfig& cfg,
                              bool lhs_conj, bool rhs_conj, const Scalar& alpha, const Scalar& beta,
                              const TensorView& out, std::uint64_t scratch_limit) {
  const char* op = "dot_general_into";
  DotPlan p = validate(be, lhs, rhs, cfg, op);
  p.scratch_limit = scratch_limit;
  detail::check_resident(be, out, op, "out");
  TENFERRO_CHECK(out.dtype() == p.dtype, dtype_mismatch, op, "out", "out dtype: got ", dtype_name(out.dtype()),
                 ", expected ", dtype_name(p.dtype), " (the operands' dtype)");
  TENFERRO_CHECK(out.rank() == static_cast<I>(p.out_shape.size()), rank_mismatch, op, "out", "out rank: got ",
                 out.rank(), ", expected ", p.out_shape.size(), " (result shape ", p.out_shape, ")");
  TENFERRO_CHECK(out.shape() == p.out_shape, shape_mismatch, op, "out", "out shape: got ", out.shape(),
                 ", expected ", p.out_shape, " (lhs free, rhs free, batch)");
  for (I a = 0; a < out.rank(); ++a)
    TENFERRO_CHECK(out.dim(a) <= 1 || out.strides()[static_cast<std::size_t>(a)] != 0, invalid_argument, op,
                   "out", "out axis ", a, " has stride 0 (a broadcast view), expected a view writing each element once");
  TENFERRO_CHECK(!ranges_overlap(out, lhs), invalid_argument, op, "out", "out overlaps lhs in storage");
  TENFERRO_CHECK(!ranges_overlap(out, rhs), invalid_argument, op, "out", "out overlaps rhs in storage");
  const Scalar a = coefficient(alpha, p.dtype, op, "alpha");
  const Scalar b = coefficient(beta, p.dtype, op, "beta");
  if (out.numel() == 0) return;

  Axes og[3];
  out_groups(out.layout(), p.lhs_free.size(), p.rhs_free.size(), og);
  std::optional<Chain> ch[3];
  bool in_place = true;
  for (int i = 0; i < 3; ++i) in_place &= (ch[i] = chain_of(out.layout(), og[i])).has_value();
  if (in_place) {
    const TensorView c3(out.storage(), p.dtype,
                        Layout{{p.M, p.N, p.B}, {ch[0]->stride, ch[1]->stride, ch[2]->stride}, out.offset()});
    run_gemm(be, lhs, rhs, cfg, p, lhs_conj, rhs_conj, a, b, c3);
    return;
  }
  // Groups in a few stride chains each: a chained C (GemmCall::c) on backends that write it (a
  // permuted einsum result or intermediate, e.g. str_nw_mera_open_26's last product).
  if (be.gemm_caps().chained_output) {
    if (std::optional<Layout> c10 = chained_layout(out.layout(), p.lhs_free.size(), p.rhs_free.size())) {
      run_gemm(be, lhs, rhs, cfg, p, lhs_conj, rhs_conj, a, b, TensorView(out.storage(), p.dtype, std::move(*c10)));
      return;
    }
  }
  // Through a compact temp: tmp = out (only when beta reads it), tmp = alpha*dot + beta*tmp,
  // out = tmp. A large temp is made in pieces along one out axis (into_pieces).
  const std::uint64_t tmp_bytes = static_cast<std::uint64_t>(out.numel()) * dtype_size(p.dtype);
  if (tmp_bytes >= detail::pack_chunk_bytes()) {
    into_pieces(be, lhs, rhs, cfg, p, lhs_conj, rhs_conj, a, b, out);
    return;
  }
  through_temp(be, lhs, rhs, cfg, p, lhs_conj, rhs_conj, a, b, out);
}

}  // namespace tenferro
