// Ozaki scheme II for f64 products (Options::gemm_ozaki: certified by default, or the
// normwise opt-in; ozaki.hpp), and certified c64, f32 and c32 products (below).
//
// C = alpha A B + beta C with A [M, K, B], B [K, N, B] f64: each row of A and column of B is
// scaled by a power of two so that its largest |x| is just below 2^P and rounded to integers
// X' (|X'| <= 2^P); the integer product A'B' (|.| <= K 2^2P < prod m_l / 2) is computed exactly
// through its residues modulo n pairwise coprime moduli m_l <= 256: n products of the residues
// as unsigned bytes (exact in uint32), reduced mod m_l, then recovered per element by the Chinese
// remainder theorem (one f64 sum in three parts: shaders/ozaki/ozaki_crt.h) and scaled back. The
// only errors are the rounding of A and B to P bits per row / column and the final f64
// roundings: |err| <= 2^-P (max_k |a| sum_k |b| + max_k |b| sum_k |a|) + 2^-2P K max |a| max |b|
// + 4 eps sum |a||b| (GLSL's fma need not be fused): normwise per row and column, where the
// default product's bound is componentwise.
// Rows / columns holding Inf or NaN take a plain f64 dot product (IEEE propagation).
//
// Certified products (the default, 14 moduli): A's rows are scaled by their sums of |a| instead
// (ozaki_bits_certified: smaller errors for the same range); the split pass also writes q =
// floor(|x| 2^s / w) + (x != 0) (w the unit of the line's largest) per element as one more
// plane (dense operands: floor(|x| 2^s / w) of every second k from K = 2048); its product Q
// (uint32, one more plane of the residue-product dispatch) bounds sum |a||b| from below, and
// the certify pass checks per output
// that the scheme's error bound (from the lines' sums of |x| 2^s and nonzero counts, kept by the
// scan and scale passes) is within K u of it (ozaki.comp certify(): the derivation). Where any
// output fails, it writes the FMA kernel's workgroup counts into the certificate's dispatch
// arguments: the combine pass then writes nothing and gemm.cpp's indirect dispatch recomputes C
// (C is never read after being overwritten, so beta holds).
//
// Certified c64 products: the same scheme on complex elements, with three residue products
// per modulus instead of four (Gauss / Karatsuba, exact on integers): P_re = A'_re B'_re, P_im =
// A'_im B'_im, P_sum = (A'_re + A'_im)(B'_re + B'_im), Re X = P_re - P_im, Im X = P_sum - P_re -
// P_im. A line's scale covers both parts (A: sum |re| + |im|, B: the largest part), the
// certificate's lower bound takes max(|re|, |im|) <= |x|, and each part of every output is
// certified within (2K - 8) u sum |a||b|: the complex bound 2 sqrt(2) K u sum |a||b| of the
// 4-multiply form's real dot products of 2K terms.
//
// Certified f32 and c32 products: the same passes on f32 elements read into f64, on 7 moduli
// (TFO_MIN_MODULI: PA + PB = 53 bits; the certificate's margins at f32's tau, 5-250 at K = 4096,
// are above those 14 moduli leave f64, 2.4-83: tools/cert_margin.py --single), with tau = (K -
// 10) u_f32 ((2K - 10) per part of a c32 output): two u_f32 left for C's rounding to f32.
//
// Passes (shaders/ozaki/): scan, scale and split per operand (ozaki.comp), the n residue products in
// one dispatch (ozaki_mm_nv.comp on NVIDIA's 8-bit tensor cores where the device lists the
// shape, else the portable ozaki_mm.comp), the combine pass (ozaki.comp).
#include "vulkan/kernels/gemm/ozaki.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <tuple>
#include <vector>

#include "shaders/ozaki/ozaki_params.h"
#include "vulkan/kernels/dispatch.hpp"
#include "vulkan/kernels/gemm/policy.hpp"
#include "vulkan/kernels/gemm/record.hpp"
#include "vulkan/options.hpp"

namespace tenferro::vk {

namespace {

using I = std::int64_t;
constexpr int kModuli[TFO_MAX_MODULI] = {TFO_MODULI};
constexpr std::uint32_t kThreads = 256;
constexpr double kOzakiDispatches = 40e-6;  // ozaki_faster: the eight dispatches in a stream, seconds
constexpr int kCertifiedModuli = 14;       // Options::gemm_ozaki == 1
constexpr int kSingleModuli = TFO_MIN_MODULI;  // certified f32 and c32 products

// gemm_ozaki calls that recorded the scheme (gemm_ozaki_runs); counted under the mutex of the
// device that ran them, which is not one mutex when several devices run products.
std::atomic<std::uint64_t> ozaki_runs{0};

std::optional<OzakiOverride>& ozaki_override() {
  static std::optional<OzakiOverride> o;
  return o;
}

/// Certified products' outcomes per backend and shape (gemm_ozaki_recently_failed): the last
/// call's outcome word (host-visible; 1 where its certificate failed) until the host reads it
/// once the GPU is past `value`, and the calls of that shape left to run on the FMA kernels
/// alone after a failed certificate.
struct CertRecord {
  std::optional<Tensor> outcome;
  std::uint64_t value = 0;
  int skip = 0;
};
constexpr int kCertSkipCalls = 16;  // calls that skip the scheme after a failure was read
using CertKey = std::tuple<int, I, I, I, I>;
/// What the certified products of one backend keep, used under that backend's device mutex.
/// Per backend: the products of two devices run under two mutexes at once, so they must not
/// share a map; and dropping a record releases a tensor, which takes the mutex of the tensor's
/// device (a tensor of another device dropped here would take a second device mutex).
struct OzakiState {
  std::map<CertKey, CertRecord> history;
  /// The last certified product's dispatch arguments, kept only while the override is set (tests).
  std::optional<Tensor> last_certificate;
};
struct OzakiStates {
  std::mutex mu;  // guards `of` (the map of states), not the states in it
  std::map<const VulkanBackend*, OzakiState> of;
};
OzakiStates& ozaki_states() {
  // Never destroyed (as the backends, provider.cpp): its tensors must not outlive them at exit.
  static auto* s = new OzakiStates;
  return *s;
}
/// The state of `be`. @pre the caller holds be's device mutex while it uses the state.
OzakiState& state_of(const VulkanBackend& be) {
  OzakiStates& s = ozaki_states();
  std::lock_guard lock(s.mu);
  return s.of[&be];  // std::map: the reference stays valid as other backends' entries come
}
bool history_applies() { return !ozaki_override() || ozaki_override()->history; }

I round_up(I x, I m) { return (x + m - 1) / m * m; }

struct Sizes {
  I Mp, Np, Kp, nch;
  double bytes;  // scratch
};

/// Plane sets per modulus: complex products' re, im and re + im, else one.
int plane_sets(DType d) { return is_complex(d) ? 3 : 1; }

/// f32 / c32 products: f32 elements, kSingleModuli, f32's tau.
bool single_precision(DType d) { return d == DType::F32 || d == DType::C32; }

Sizes sizes(int n, const GemmProblem& p, bool certified) {
  const I M = p.M, N = p.N, K = p.K, B = p.B;
  const int sets = plane_sets(p.d);
  Sizes s{round_up(M, TFO_TILE), round_up(N, TFO_TILE), round_up(K, TFO_TILE), (K + TFO_CHUNK - 1) / TFO_CHUNK, 0};
  s.bytes = double(sets * n) * double(B) * (double(s.Mp + s.Np) * double(s.Kp) + double(s.Mp) * double(s.Np)) +
            4.0 * double(B) * double(M + N) * double(s.nch + 1);
  if (certified)  // the q planes, Q, the chunks' (sum, count) and the lines' (sum, count, w)
    s.bytes += double(B) * (double(s.Mp + s.Np) * double(s.Kp) + 4.0 * double(s.Mp) * double(s.Np) +
                            16.0 * double(M + N) * double(s.nch + 2));
  return s;
}

using Views = std::initializer_list<const TensorView*>;

/// One dispatch of `variant` (specialization constants: threads, `mode`, `aux`) over `groups`
/// workgroups: `in` is read and `out` written (the hazard tracker's ranges; null entries are
/// skipped), and all of them are marked used by the open batch.
void pass(VulkanBackend& be, const char* variant, std::uint32_t mode, std::uint32_t aux, GemmParams& p,
          std::span<const std::int64_t> dims, Views in, Views out, std::uint32_t groups) {
  std::vector<ByteRange> reads, writes;
  std::uint64_t bytes = 0;
  for (const TensorView* v : in)
    if (v) add_range(*v, reads, bytes);
  for (const TensorView* v : out)
    if (v) add_range(*v, writes, bytes);
  dispatch(be, variant, mode, kThreads, p, dims, reads, writes, bytes, groups, 1, 1, aux);
  const std::uint64_t value = be.recorder().open_value();
  for (Views vs : {in, out})
    for (const TensorView* v : vs)
      if (v && v->numel() > 0) VulkanBackend::storage_of(*v).last_use = value;
}

/// A certified product's per-operand tensors: the chunks' (sum, count) pairs, the lines' (sum,
/// count, w, -), the dispatch arguments (both operands: their fourth word is the zeros flag, 1
/// where a line of A or B holds a zero, set by the scale passes), the outcome word (the first
/// operand only: its scan pass zeroes it and the arguments), and whether lines are scaled by
/// their sums (A) or largest (B).
struct CertifyBuffers {
  const Tensor* chunks = nullptr;
  const Tensor* lines = nullptr;
  const Tensor* args = nullptr;
  const Tensor* outcome = nullptr;
  bool by_sum = false;
};

/// The zeros flag's address (the fourth int32 of the certificate's dispatch arguments).
std::int64_t zeros_flag(const Tensor& args) { return static_cast<std::int64_t>(address_of(args) + 12); }

/// Dense certified products from this K run the certificate's product over every second k.
constexpr I kHalfQMinK = 2048;

/// The q planes' K where the operands are dense (the split's and the residue products'; Kp
/// otherwise).
I dense_q_k(const Sizes& s, I K) { return K >= kHalfQMinK ? round_up(s.Kp / 2, TFO_TILE) : s.Kp; }

/// One operand, given as L lines of K elements in NB batches at `x` (strides sl, sk, sb): its
/// scan and scale passes (`split` false: its scale words go to `scales`) or its split pass (its
/// planes go to `planes`). Certified products run both operands' scans and scales before the
/// splits, which read the zeros flag. `kind`: 0 or TFO_COMPLEX (then `conj` negates the
/// imaginary parts).
void operand_passes(VulkanBackend& be, const TensorView& x, I L, I K, I NB, I sl, I sk, I sb, I Lp, const Sizes& s,
                    int P, int n, const Tensor& ex, const Tensor& scales, const Tensor& planes, bool split,
                    const CertifyBuffers& cb, std::uint32_t kind, bool conj) {
  GemmParams p{};
  p.a = address_of(x);
  // Split: adjacent invocations on adjacent lines where the line stride is the unit one.
  const I line_fastest = std::abs(sl) == 1 && std::abs(sk) != 1;
  auto addr = [](const Tensor* t) { return t ? static_cast<I>(address_of(*t)) : I{0}; };
  const std::int64_t dims[22] = {L,
                                 K,
                                 NB,
                                 sl,
                                 sk,
                                 sb,
                                 Lp,
                                 s.Kp,
                                 s.nch,
                                 P,
                                 static_cast<I>(address_of(ex)),
                                 static_cast<I>(address_of(scales)),
                                 static_cast<I>(address_of(planes)),
                                 line_fastest,
                                 addr(cb.chunks),
                                 addr(cb.lines),
                                 addr(cb.args),
                                 addr(cb.outcome),
                                 cb.by_sum ? I{1} : I{0},
                                 cb.args ? zeros_flag(*cb.args) : I{0},
                                 dense_q_k(s, K),
                                 conj ? I{1} : I{0}};
  const auto un = static_cast<std::uint32_t>(n);
  const char* const variant = kind ? "ozaki_ext" : "ozaki_f64";
  if (!split) {
    pass(be, variant, TFO_SCAN | kind, un, p, dims, {&x},
         {&ex, cb.chunks, cb.outcome ? cb.args : nullptr, cb.outcome},
         grid_stride_groups(be, L * s.nch * NB, kThreads));
    pass(be, variant, TFO_SCALE | kind, un, p, dims, {&ex, cb.chunks}, {&scales, cb.lines, cb.args},
         grid_stride_groups(be, L * NB, kThreads));
  } else {
    pass(be, variant, TFO_SPLIT | kind, un, p, dims, {&x, &scales, cb.lines, cb.args}, {&planes},
         grid_stride_groups(be, Lp * (s.Kp / 16) * NB, kThreads));
  }
}

}  // namespace

void set_gemm_ozaki_override(std::optional<OzakiOverride> o) {
  ozaki_override() = o;
  std::vector<OzakiState> dropped;  // released outside the mutex of the map
  std::lock_guard lock(ozaki_states().mu);
  for (auto& [be, state] : ozaki_states().of) {
    dropped.emplace_back().history.swap(state.history);
    if (!o) dropped.back().last_certificate.swap(state.last_certificate);
  }
}

bool gemm_ozaki_recently_failed(VulkanBackend& be, const GemmProblem& p) {
  if (!history_applies()) return false;
  auto guard = be.lock();
  auto& h = state_of(be).history;
  const auto it = h.find(CertKey{static_cast<int>(p.d), p.M, p.N, p.K, p.B});
  if (it == h.end()) return false;
  CertRecord& r = it->second;
  if (r.skip > 0) {
    --r.skip;
    return true;
  }
  if (!r.outcome || be.recorder().completed() < r.value) return false;
  const std::byte* mapped = VulkanBackend::storage_of(*r.outcome).allocation().mapped;
  std::int32_t failed = 0;  // (host-coherent memory, past the batch's host barrier)
  if (mapped) std::memcpy(&failed, mapped, sizeof failed);
  r.outcome.reset();
  if (failed == 0) return false;
  r.skip = kCertSkipCalls - 1;
  return true;
}

std::uint64_t gemm_ozaki_runs() { return ozaki_runs.load(); }

int ozaki_bits(int n, I K) {
  double log2m = 0;
  for (int l = 0; l < n; ++l) log2m += std::log2(double(kModuli[l]));
  const int logk = K <= 1 ? 0 : static_cast<int>(std::ceil(std::log2(double(K))));
  return std::min(62, (static_cast<int>(std::floor(log2m)) - 2 - logk) / 2);
}

void ozaki_bits_certified(int n, I K, int& pa, int& pb) {
  double log2m = 0;
  for (int l = 0; l < n; ++l) log2m += std::log2(double(kModuli[l]));
  const int total = static_cast<int>(std::floor(log2m)) - 2;
  const int logk = K <= 1 ? 0 : static_cast<int>(std::ceil(std::log2(double(K))));
  pb = (total - std::max(0, logk - 2)) / 2;
  pa = std::min(62, total - pb);
}

bool ozaki_faster(int n, const GemmProblem& p, bool certified, double fma_seconds) {
  const DType d = p.d;
  const I M = p.M, N = p.N, K = p.K, B = p.B;
  const bool complex = is_complex(d);
  const double mn = double(M) * double(N) * double(B), flops = (complex ? 8.0 : 2.0) * mn * double(K), dn = n;
  const bool single = single_precision(d);
  const double rate = d == DType::F32 ? 46e12 : d == DType::C32 ? 48e12 : 22.9e12;  // the FMA kernels'
  const double fma = std::max(flops / rate, fma_seconds);
  // The q planes and their product (half of k from kHalfQMinK: dense operands, the usual case);
  // complex: three plane sets per modulus, 16-byte elements, two CRTs per output.
  const double sets = plane_sets(d), parts = complex ? 2.0 : 1.0;
  const double planes = sets * dn + (certified ? (K >= kHalfQMinK ? 0.5 : 1.0) : 0.0);
  const double padded = 2.0 * double(round_up(M, TFO_TILE)) * double(round_up(N, TFO_TILE)) *
                        double(round_up(K, TFO_TILE)) * double(B);
  const double products = planes * padded / (576e12 / (1.0 + 781.0 / double(K)));
  // (f32 elements: 8 ps a part, from f32 4096^3 forced through the scheme: 2.76-2.78 ms.)
  const double split = (parts * (single ? 8e-12 : 11.4e-12) + 0.33e-12 * planes) * double(M + N) * double(K) * double(B);
  const double combine = parts * (3.7e-12 + 0.96e-12 * sets / parts * dn + 0.014e-12 * dn * dn) * mn;
  // The certify pass: Q's uint32 written and read again, the lines' bounds (an estimate, not
  // measured: about the combine's memory traffic per output), and its dispatch.
  const double certify = certified ? 2.0e-12 * mn + 5e-6 : 0.0;
  return products + split + combine + certify + kOzakiDispatches < 0.95 * fma;
}

int ozaki_setting(const AccuracyOptions& a) {
  switch (a.ozaki) {
    case OzakiMode::off: return 0;
    case OzakiMode::certified: return 1;
    case OzakiMode::uncertified: return a.ozaki_moduli;
  }
  return 0;
}

namespace {
int resolve_setting(int setting) { return setting == kOzakiProcessDefault ? ozaki_setting(default_accuracy()) : setting; }
}  // namespace

bool gemm_ozaki_certified(int setting) {
  const auto& o = ozaki_override();
  return o ? o->certified : resolve_setting(setting) == 1;
}

int gemm_ozaki_moduli(const GemmProblem& p, bool tensor_cores, const DeviceCaps* caps, int setting) {
  const DType d = p.d;
  const I M = p.M, N = p.N, K = p.K, B = p.B;
  const auto& o = ozaki_override();
  setting = resolve_setting(setting);
  const bool certified = gemm_ozaki_certified(setting);
  const int want = o ? o->moduli : certified ? kCertifiedModuli : setting;
  // c64, f32 and c32 products only certified (the normwise opt-in is f64's); f32 and c32 on
  // kSingleModuli, and only where the device has f64 (the passes compute in it); the time model
  // takes them only where f64 is fast (DeviceCaps::f64_fast: its rates are the H200's).
  const bool single = single_precision(d);
  const int on = std::clamp(want, 0, TFO_MAX_MODULI);
  const int n = single && on >= TFO_MIN_MODULI ? kSingleModuli : on;
  if (n < TFO_MIN_MODULI || (d != DType::F64 && !certified) || p.chained ||
      std::min({M, N, K, B}) <= 0 || (single && caps && !caps->f64))
    return 0;
  // The FMA kernels' estimate (host time per call) only here, where the model is asked.
  auto fma_seconds = [&] { return caps && K >= kOzakiCertifiedMinK ? gemm_fma_seconds(p, *caps) : 0.0; };
  if (!o && !(tensor_cores && (!certified || K >= kOzakiCertifiedMinK) && (!single || !caps || caps->f64_fast) &&
              ozaki_faster(n, p, certified, fma_seconds())))
    return 0;
  const double limit = double(std::min(kOzakiMaxScratch, p.scratch_limit));
  if (round_up(K, TFO_TILE) > TFO_MAX_K || sizes(n, p, certified).bytes > limit) return 0;
  return n;
}

std::optional<Tensor> gemm_ozaki_take_certificate(VulkanBackend& be) {
  std::optional<Tensor> t;
  auto guard = be.lock();
  std::swap(t, state_of(be).last_certificate);
  return t;
}

bool gemm_ozaki(VulkanBackend& be, const GemmCall& call, int n, OzakiCertificate* cert) {
  const TensorView &a = call.a, &b = call.b, &c = call.c;
  const I M = c.dim(0), N = c.dim(1), B = c.dim(2), K = a.dim(1);
  const bool complex = is_complex(c.dtype()), single = single_precision(c.dtype());
  const int sets = plane_sets(c.dtype());
  const std::uint32_t kind = (complex ? TFO_COMPLEX : 0u) | (single ? TFO_SINGLE : 0u);
  const char* const variant = kind ? "ozaki_ext" : "ozaki_f64";  // (the element passes)
  TENFERRO_ASSERT(c.dtype() == DType::F64 || cert != nullptr);
  const Sizes s = sizes(n, {c.dtype(), M, N, K, B}, cert != nullptr);
  // Certified: A's rows scaled by their sums to 2^PA, B's columns by their largest to 2^PB
  // (ozaki_bits_certified); else both by their largest to 2^P. Complex: at most 61, so that
  // re + im stays within the split's 2^62.
  int PA = ozaki_bits(n, K), PB = PA;
  if (cert) ozaki_bits_certified(n, K, PA, PB);
  if (complex) {
    PA = std::min(PA, 61);
    PB = std::min(PB, 61);
  }
  const int np = sets * n + (cert ? 1 : 0);  // planes per operand and batch
  Tensor exa, exb, sa, sb, pa, pb, pc, q, cha, chb, la, lb, args, outcome;
  try {
    exa = be.allocate(DType::I32, {B * M * s.nch});
    exb = be.allocate(DType::I32, {B * N * s.nch});
    sa = be.allocate(DType::I32, {B * M});
    sb = be.allocate(DType::I32, {B * N});
    pa = be.allocate(DType::I32, {np * B * s.Mp * s.Kp / 4});
    pb = be.allocate(DType::I32, {np * B * s.Np * s.Kp / 4});
    pc = be.allocate(DType::I32, {sets * n * B * s.Mp * s.Np / 4});
    if (cert) {
      q = be.allocate(DType::I32, {B * s.Mp * s.Np});
      cha = be.allocate(DType::F64, {2 * B * M * s.nch});
      chb = be.allocate(DType::F64, {2 * B * N * s.nch});
      la = be.allocate(DType::F64, {4 * B * M});
      lb = be.allocate(DType::F64, {4 * B * N});
      args = be.allocate(DType::I32, {4});
      // Host-visible: gemm_ozaki_recently_failed reads it once the GPU is done (the passes
      // read only `args`, in device memory).
      outcome = be.allocate(DType::I32, {4}, MemoryIntent::readback);
    }
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::out_of_memory) throw;
    return false;
  }
  auto guard = be.lock();
  const auto& as = a.strides();
  const auto& bs = b.strides();
  const CertifyBuffers ca = cert ? CertifyBuffers{&cha, &la, &args, &outcome, true} : CertifyBuffers{};
  const CertifyBuffers cb = cert ? CertifyBuffers{&chb, &lb, &args, nullptr, false} : CertifyBuffers{};
  for (bool split : {false, true}) {
    operand_passes(be, a, M, K, B, as[0], as[1], as[2], s.Mp, s, PA, n, exa, sa, pa, split, ca, kind, call.conj_a);
    operand_passes(be, b, N, K, B, bs[1], bs[0], bs[2], s.Np, s, PB, n, exb, sb, pb, split, cb, kind, call.conj_b);
  }

  // Planes z < sets n B are residues (complex: the sets as batches, z = (l sets + set) B + b);
  // z >= sets n B (certified) the q planes, whose sums go to Q.
  const std::int64_t mm[12] = {s.Mp,
                               s.Np,
                               s.Kp,
                               sets * B,
                               np * B,
                               static_cast<I>(address_of(pa)),
                               static_cast<I>(address_of(pb)),
                               static_cast<I>(address_of(pc)),
                               cert ? static_cast<I>(address_of(q)) : I{0},
                               sets * n * B,
                               dense_q_k(s, K),
                               cert ? zeros_flag(args) : I{0}};
  GemmParams p{};
  const bool nv = be.device().caps().nv_coopmat_u8 && !(ozaki_override() && ozaki_override()->portable);
  const I jobs = (s.Mp / TFO_TILE) * (s.Np / TFO_TILE) * np * B;  // ozaki_mm_nv: a workgroup per tile
  const std::uint32_t groups = nv ? grid_stride_groups(be, jobs, 1) : grid_stride_groups(be, s.Mp / 4 * s.Np * np * B, kThreads);
  pass(be, nv ? "ozaki_mm_nv" : "ozaki_mm", 0, 0, p, mm, {&pa, &pb, cert ? &args : nullptr}, {&pc, cert ? &q : nullptr},
       groups);
  if (cert) {
    // Per part of a complex output: (2K - 8) u (the 4-multiply form's dot products of 2K terms);
    // f32 / c32: two u_f32 fewer, C's rounding to f32 on top.
    const double terms = double(complex ? 2 * K : K);
    const double tau = single ? std::ldexp(terms - 10.0, -24) : std::ldexp(terms - 8.0, -53);
    const std::int64_t cd[17] = {M,
                                 N,
                                 K,
                                 B,
                                 s.Mp,
                                 s.Np,
                                 static_cast<I>(address_of(sa)),
                                 static_cast<I>(address_of(sb)),
                                 static_cast<I>(address_of(la)),
                                 static_cast<I>(address_of(lb)),
                                 static_cast<I>(address_of(q)),
                                 static_cast<I>(address_of(args)),
                                 cert->gx,
                                 cert->gy,
                                 zeros_flag(args),
                                 std::bit_cast<I>(tau),
                                 static_cast<I>(address_of(outcome))};
    pass(be, variant, TFO_CERTIFY | kind, static_cast<std::uint32_t>(n), p, cd, {&sa, &sb, &la, &lb, &q},
         {&args, &outcome},
         grid_stride_groups(be, M * ((N + TFO_CERTIFY_RUN - 1) / TFO_CERTIFY_RUN) * B, kThreads));
    cert->args = args;
    OzakiState& state = state_of(be);
    if (ozaki_override()) state.last_certificate = args;
    if (history_applies()) {
      auto& h = state.history;
      if (h.size() >= 256) h.clear();  // (bounded: shapes come and go)
      CertRecord& r = h[CertKey{static_cast<int>(c.dtype()), M, N, K, B}];
      r.outcome = outcome;
      r.value = be.recorder().open_value();
    }
  }

  const auto& cs = c.strides();
  const std::int64_t dims[19] = {M,     N,     K,     B,     as[0], as[1],
                                 as[2], bs[0], bs[1], bs[2], cs[0], cs[1],
                                 cs[2], s.Mp,  s.Np,  static_cast<I>(address_of(sa)),
                                 static_cast<I>(address_of(sb)), static_cast<I>(address_of(pc)),
                                 cert ? static_cast<I>(address_of(args)) : I{0}};
  p.a = address_of(a);
  p.b = address_of(b);
  p.c = address_of(c);
  scalar_bits(call.alpha, c.dtype(), p.alpha);
  scalar_bits(call.beta, c.dtype(), p.beta);
  const bool read_c = !is_zero_in(call.beta, c.dtype());
  if (read_c) p.flags |= TFG_READ_C;
  if (complex && call.conj_a) p.flags |= TFG_CONJ_A;  // (the plain dot products of non-finite lines)
  if (complex && call.conj_b) p.flags |= TFG_CONJ_B;
  // a and b: the plain dot products of non-finite lines; c is read only where beta != 0.
  pass(be, variant, TFO_COMBINE | kind, static_cast<std::uint32_t>(n), p, dims,
       {&a, &b, &sa, &sb, &pc, read_c ? &c : nullptr, cert ? &args : nullptr}, {&c},
       grid_stride_groups(be, (M + 3) / 4 * N * B, kThreads));
  ++ozaki_runs;
  be.after_op();
  return true;
}

}  // namespace tenferro::vk
