#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: C[m,n,b] = alpha * sum_k op(A)[m,k,b] op(B)[k,n,b] + beta * C[m,n,b], any strides
// (GemmParams, gemm/gemm_params.h); without TFG_READ_C (beta == 0) C is never read.
//
// One BM x BN tile of one batch per workgroup iteration (grid-stride over tiles in x and batches
// in y), K staged through double-buffered shared memory in BK slices (global loads of slice t+1
// are issued before computing slice t; one barrier per slice), TM x TN outputs per thread in
// registers. Shared tiles are arrays of 16-byte words W holding VW elements (k-major: As[k][m],
// Bs[k][n]); thread (tx, ty) owns rows (g*RM + tx)*VW + e and columns (g*RN + ty)*VW + e, so a
// warp's shared reads are consecutive 16-byte words. Each operand is loaded along its unit-stride
// axis (16-byte loads when TFG_*_VEC says they are aligned), else element by element through
// the strides; out-of-range elements read as 0. Complex products use the 4-multiply form.
// Tile and load modes: specialization constant 1; conjugation and C handling: p.flags.
// Options (TFG_OPT_*, also in specialization constant 1): WARP/WARP_T map each warp's 32 lanes
// to a compact 8x4 / 4x8 block of threads (fewer distinct shared words per read); FAST loads
// full slices of interior tiles without any bounds checks (only when every thread owns whole
// load slots); SINGLE keeps one shared buffer (a second barrier per slice); REDUCE makes the
// dispatch the split-K reduction pass instead (gemm_params.h); REGDB double-buffers the register
// fragments (the shared reads of step kk+1 are issued before the FMAs of step kk); GROUP orders
// tiles in groups of 8 along m (consecutive workgroups share B columns and A rows: L2 reuse);
// NOPAD drops the +1 word of the shared rows and, for operands whose stores transpose (A along
// k, B along k), XORs the word index with a per-row value instead (swz_a / swz_b). Workgroup z
// selects the K range of a split-K dispatch. Specialization constant 2 (SCHED, TFG_SCHED_* in
// gemm_params.h) shapes the schedule: ROLL rolls the slice's k loop (1, 2 or 4 steps per
// iteration instead of all BK unrolled: NVIDIA's compiler then cannot hoist the whole slice's
// shared reads; f64 128 x 64 4 x 8: 18.5 vs 12.2 TFLOP/s on the H200); INTERIOR (with FAST)
// runs the full slices of an interior tile in a loop of their own, loads and stores without any
// condition, so that the slice is one branch-free block (H200, 4096^3: f64 128 x 64 4 x 8
// unrolled 12.4 -> 19.8 TFLOP/s, c32 37.8 -> 44.9); LEAN addresses that loop's load slots from
// one pointer per operand; PAIR pairs a warp map's lanes so that fragment reads share words.
// Variants: DT_F32 DT_F64 DT_C32 DT_C64.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_control_flow_attributes : require
#include "gemm/gemm_params.h"

#if defined(DT_F32)
#define T float
#define W vec4
#define VW 4u
#define ES 4
#elif defined(DT_F64)
#define T double
#define W dvec2
#define VW 2u
#define ES 8
#elif defined(DT_C32)
#define T vec2
#define W vec4
#define VW 2u
#define ES 8
#define COMPLEX 1
#elif defined(DT_C64)
#define T dvec2
#define W dvec2
#define VW 1u
#define ES 16
#define COMPLEX 1
#endif

layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint CFG = 0u;
// Specialization constant 2: the schedule. Bits TFG_SCHED_ROLL: the slice's k loop, 0 fully
// unrolled (BK steps in one block), r >= 1 rolled, 2^(r-1) steps per iteration (the compiler
// cannot hoist the shared reads of the whole slice ahead of its FMAs: fewer live registers, more
// resident workgroups). TFG_SCHED_INTERIOR: the branch-free loop of an interior tile's full slices.
layout(constant_id = 2) const uint SCHED = 0u;
layout(push_constant) uniform Push { GemmParams p; };

const uint LBM = (CFG >> TFG_SHIFT_BM) & 15u, LBN = (CFG >> TFG_SHIFT_BN) & 15u, LBK = (CFG >> TFG_SHIFT_BK) & 15u;
const uint BM = 1u << LBM;
const uint BN = 1u << LBN;
const uint BK = 1u << LBK;
const uint TM = 1u << ((CFG >> TFG_SHIFT_TM) & 15u);
const uint TN = 1u << ((CFG >> TFG_SHIFT_TN) & 15u);
const bool A_ALONG_K = (CFG & TFG_A_ALONG_K) != 0u;
const bool A_VEC = (CFG & TFG_A_VEC) != 0u;
const bool B_ALONG_N = (CFG & TFG_B_ALONG_N) != 0u;
const bool B_VEC = (CFG & TFG_B_VEC) != 0u;
const bool OPT_REDUCE = (CFG & TFG_OPT_REDUCE) != 0u;
const bool REGDB = (CFG & TFG_OPT_REGDB) != 0u;
const bool GROUP = (CFG & TFG_OPT_GROUP) != 0u;
const uint PAD = 1u - ((CFG / TFG_OPT_NOPAD) & 1u);     // +1 word per shared row unless NOPAD
const uint NBUF = 2u >> ((CFG / TFG_OPT_SINGLE) & 1u);  // shared buffers: 2, or 1 with SINGLE
const uint WR = 8u >> ((CFG / TFG_OPT_WARP_T) & 1u);   // threads along m per warp (8 or 4)
const uint WC = 32u / WR;                               // threads along n per warp
const uint ROLL_CODE = SCHED & TFG_SCHED_ROLL;
const bool ROLLED = ROLL_CODE != 0u;
const uint KSTEP = 1u << ((ROLL_CODE + 3u) & 3u);       // k steps per rolled iteration (1, 2, 4)
const bool INTERIOR_LOOP = (SCHED & TFG_SCHED_INTERIOR) != 0u;
// PAIR (with WARP_MAP): inside a warp's block of threads, lane bit 0 steps along n and bit 1
// along m, so the lanes of every pair (n, n^1) read the same A words and those of (n, n^2) the
// same B words: NVIDIA's shared memory then returns an LDS.128 in 2 passes instead of 4 (its
// return path carries one register per lane per cycle; paired addresses are packed).
const bool PAIR = (SCHED & TFG_SCHED_PAIR) != 0u;
// A chained C (gemm_chains.glsl): element stores through each group's chains. Off in the
// pipelines of outputs whose groups are one chain each, whose code it leaves unchanged.
const bool CHAINS = (SCHED & TFG_SCHED_CHAINS) != 0u;
const bool CHAINS_WIDE = (SCHED & TFG_SCHED_CHAINS_WIDE) != 0u;
// Runtime flags (uniform branches).
#define CONJ_A ((p.flags & TFG_CONJ_A) != 0u)
#define CONJ_B ((p.flags & TFG_CONJ_B) != 0u)
#define READ_C ((p.flags & TFG_READ_C) != 0u)
#define C_VEC ((p.flags & TFG_C_VEC) != 0u)

const uint RM = BM / TM;              // threads along m
const uint RN = BN / TN;              // threads along n
const uint NT = RM * RN;              // threads per workgroup (== local_size_x)
const uint AS_STRIDE = BM / VW + PAD;  // words per k row (+1: fewer bank conflicts on transposing stores)
const uint BS_STRIDE = BN / VW + PAD;
// NOPAD with transposing stores: row k's words are XORed with ((k / VW) * SWZ_*) (masked to the
// row), SWZ_* = the number of words a warp's 32 consecutive store slots span along the row, so
// that the slots of different k land in different words.
const uint SWZ_STEP = (32u + BK - 1u) / BK;  // 32 / (BK / VW) slots along the row, VW per word
const uint SWZ_A = (1u - PAD) * ((CFG / TFG_A_ALONG_K) & 1u);
const uint SWZ_B = (1u - PAD) * (((CFG / TFG_B_ALONG_N) & 1u) ^ 1u);
uint swz_a(uint k) { return SWZ_A * (((k / VW) * SWZ_STEP) & (BM / VW - 1u)); }
uint swz_b(uint k) { return SWZ_B * (((k / VW) * SWZ_STEP) & (BN / VW - 1u)); }
const uint A_SIZE = BK * AS_STRIDE;
const uint B_SIZE = BK * BS_STRIDE;
const uint A_CHUNKS = BM * BK / VW;   // words per A slice
const uint B_CHUNKS = BN * BK / VW;
const uint LA = (A_CHUNKS + NT - 1u) / NT;  // words each thread loads per slice
const uint LB = (B_CHUNKS + NT - 1u) / NT;
// FAST needs every slot of every thread inside the slice (no `c < CHUNKS` test).
// (Bit arithmetic, not &&: glslang emits && of specialization constants as a branch.)
const bool FAST = ((((CFG / TFG_OPT_FAST) & 1u) ^ 1u) | (A_CHUNKS % NT) | (B_CHUNKS % NT)) == 0u;
// LEAN (with INTERIOR_LOOP): the interior loop addresses every slot from one pointer per operand
// plus a uniform slot step (slot s of a thread lies s * NT / (chunks per row) rows further along
// the axis that is not loaded, same position in the row), so the per-slot pointers, bounds and
// k offsets are not live in the loop (NVIDIA f64 64 x 128 8 x 8: they spilled to shared and
// local memory). Needs NT a multiple of the chunks per row of both operands.
// (Arithmetic, not ?: : NVIDIA's driver evaluated such a selection of specialization constants
// wrongly on the H200: B's slot step came out as if B were loaded along n.)
const uint A_K = (CFG / TFG_A_ALONG_K) & 1u, B_N = (CFG / TFG_B_ALONG_N) & 1u;
const uint A_ROW = A_K * (BK / VW) + (1u - A_K) * (BM / VW);  // words per row of A's load layout
const uint B_ROW = B_N * (BN / VW) + (1u - B_N) * (BK / VW);
const bool LEAN = ((((SCHED / TFG_SCHED_INTERIOR) & (SCHED / TFG_SCHED_LEAN) & 1u) ^ 1u) | (NT % A_ROW) |
                   (NT % B_ROW)) == 0u;
const bool WARP_MAP = ((((CFG / TFG_OPT_WARP) & 1u) ^ 1u) | (RM % WR) | (RN % WC) | (NT % 32u)) == 0u;

shared W As[NBUF * A_SIZE];
shared W Bs[NBUF * B_SIZE];
// CHAINS: the element offsets of the tile's BM rows and BN columns (one element elsewhere).
shared int64_t chain_offs[CHAINS ? BM + BN : 1u];
// STAGE: C's tile leaves through this buffer one block of SW columns at a time (the columns a
// thread's j / VW selects), SROW elements per column (one element elsewhere).
const bool STAGE = (SCHED & TFG_SCHED_STAGE) != 0u;
const bool STAGE_N = (SCHED & TFG_SCHED_STAGE_N) != 0u;
const uint SW = RN * VW;
const uint SROW = BM + 1u;
shared T stage[STAGE ? SW * SROW : 1u];

layout(buffer_reference, std430, buffer_reference_align = ES) readonly buffer ERef { T v; };
layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer WRef { W v; };
layout(buffer_reference, std430, buffer_reference_align = ES) buffer OERef { T v; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer OWRef { W v; };
layout(buffer_reference, std430, buffer_reference_align = 8) readonly buffer DimsRef { int64_t v[]; };
#include "gemm/gemm_chains.glsl"

// ---- element helpers ---------------------------------------------------------------------------
#if defined(DT_F32) || defined(DT_F64)
T wget(W w, uint e) { return w[e]; }
void wput(inout W w, uint e, T x) { w[e] = x; }
#define SH_PUT(ARR, IDX_, E_, X_) ARR[IDX_][E_] = (X_)
#elif defined(DT_C32)
T wget(W w, uint e) { return e == 0u ? w.xy : w.zw; }
void wput(inout W w, uint e, T x) { w[2u * e] = x.x; w[2u * e + 1u] = x.y; }
// Component stores: never a read-modify-write of a word other threads write too.
#define SH_PUT(ARR, IDX_, E_, X_) { T x_ = (X_); ARR[IDX_][2u * (E_)] = x_.x; ARR[IDX_][2u * (E_) + 1u] = x_.y; }
#else
T wget(W w, uint e) { return w; }
void wput(inout W w, uint e, T x) { w = x; }
#define SH_PUT(ARR, IDX_, E_, X_) ARR[IDX_] = (X_)
#endif

#ifdef COMPLEX
W conj_w(W w) {
#if defined(DT_C32)
  return W(w.x, -w.y, w.z, -w.w);
#else
  return W(w.x, -w.y);
#endif
}
#include "gemm/gemm_coef.glsl"
T mac(T a, T b, T c) {
  c.x = fma(a.x, b.x, c.x);
  c.x = fma(-a.y, b.y, c.x);
  c.y = fma(a.x, b.y, c.y);
  c.y = fma(a.y, b.x, c.y);
  return c;
}
#else
W conj_w(W w) { return w; }
T mul(T a, T b) { return a * b; }
T scale(T s, T x) { return s * x; }
T mac(T a, T b, T c) { return fma(a, b, c); }
#endif

#if defined(DT_F32) || defined(DT_C32)
float rbits(uint64_t x) { return uintBitsToFloat(uint(x)); }
#else
double rbits(uint64_t x) { return packDouble2x32(uvec2(uint(x), uint(x >> 32))); }
#endif
#ifdef COMPLEX
T scalar_of(uint64_t re, uint64_t im) { return T(rbits(re), rbits(im)); }
#else
T scalar_of(uint64_t re, uint64_t im) { return rbits(re); }
#endif

int64_t i64(uint x) { return int64_t(x); }  // runtime conversion of spec-constant values
// divmod (common/divmod.glsl): 32-bit when both fit. NVIDIA's driver calls a subroutine for
// every 64-bit division, even by a constant (the H200's machine code: five calls before a
// workgroup's first load); divisions by the tile's powers of two are shifts.
uint64_t addr_of(uint64_t base, int64_t off) { return base + uint64_t(off * int64_t(ES)); }

// C's element at `at` = alpha x (+ beta C: C is read only with TFG_READ_C).
void put_c(uint64_t at, T x, T alpha, T beta) {
  T v = scale(alpha, x);
  if (READ_C) v += scale(beta, OERef(at).v);
  OERef(at).v = v;
}

// ---- per-thread state --------------------------------------------------------------------------
T acc[TM * TN];
W la[LA];
W lb[LB];
uint64_t a_ptr[LA];  // address of the slot's first element at the next slice to load
uint64_t b_ptr[LB];
uint64_t a_kstep, b_kstep;  // bytes from one slice to the next (BK * k stride)
uint64_t a_estep, b_estep;  // bytes between a slot's elements (stride along the load axis)
int64_t a_sstep, b_sstep;   // LEAN: bytes from slot s to slot s + 1
int a_lim[LA];       // along m: valid rows from the slot's row (0..VW); along k: 1 when row valid
int b_lim[LB];
uint a_off[LA];      // the slot's k offset inside a slice
uint b_off[LB];

// Per tile: slot addresses and the bounds along the axis that does not move with k.
void setup_a(uint64_t base, int64_t m0, int64_t M, int64_t sm, int64_t sk) {
  a_kstep = uint64_t(i64(BK) * sk * int64_t(ES));
  a_estep = uint64_t((A_ALONG_K ? sk : sm) * int64_t(ES));
  a_sstep = i64(NT / A_ROW) * (A_ALONG_K ? sm : sk) * int64_t(ES);
  [[unroll]] for (uint s = 0u; s < LA; ++s) {
    const uint c = gl_LocalInvocationID.x + s * NT;
    int64_t m;
    if (!A_ALONG_K) {
      m = m0 + i64((c % (BM / VW)) * VW);
      a_off[s] = c / (BM / VW);
      a_lim[s] = c < A_CHUNKS ? int(clamp(M - m, int64_t(0), i64(VW))) : 0;
    } else {
      m = m0 + i64(c / (BK / VW));
      a_off[s] = (c % (BK / VW)) * VW;
      a_lim[s] = c < A_CHUNKS && m < M ? 1 : 0;
    }
    a_ptr[s] = addr_of(base, m * sm + i64(a_off[s]) * sk);
  }
}

void setup_b(uint64_t base, int64_t n0, int64_t N, int64_t sk, int64_t sn) {
  b_kstep = uint64_t(i64(BK) * sk * int64_t(ES));
  b_estep = uint64_t((B_ALONG_N ? sn : sk) * int64_t(ES));
  b_sstep = i64(NT / B_ROW) * (B_ALONG_N ? sk : sn) * int64_t(ES);
  [[unroll]] for (uint s = 0u; s < LB; ++s) {
    const uint c = gl_LocalInvocationID.x + s * NT;
    int64_t n;
    if (B_ALONG_N) {
      n = n0 + i64((c % (BN / VW)) * VW);
      b_off[s] = c / (BN / VW);
      b_lim[s] = c < B_CHUNKS ? int(clamp(N - n, int64_t(0), i64(VW))) : 0;
    } else {
      n = n0 + i64(c / (BK / VW));
      b_off[s] = (c % (BK / VW)) * VW;
      b_lim[s] = c < B_CHUNKS && n < N ? 1 : 0;
    }
    b_ptr[s] = addr_of(base, i64(b_off[s]) * sk + n * sn);
  }
}

// One slot's word of a full slice at ptr (no checks): a 16-byte load when `vec`, else VW
// elements estep bytes apart.
W full_word(uint64_t ptr, uint64_t estep, bool vec) {
  W w = W(0);
  if (vec) {
    w = WRef(ptr).v;
  } else {
    [[unroll]] for (uint e = 0u; e < VW; ++e) wput(w, e, ERef(ptr + uint64_t(e) * estep).v);
  }
  return w;
}

// Global -> registers: the slice starting at k0 (slices are loaded in order: each call
// advances the slot pointers by one slice). `full`: the tile is interior and the slice full,
// so no bounds are checked (FAST only).
void load_a(int64_t k0, int64_t K, bool full) {
  [[unroll]] for (uint s = 0u; s < LA; ++s) {
    W w = W(0);
    const uint64_t ptr = a_ptr[s];
    if (FAST && full) {
      w = full_word(ptr, a_estep, A_VEC);
    } else {
      const int64_t k = k0 + i64(a_off[s]);
      if (!A_ALONG_K) {
        if (k < K && a_lim[s] > 0) {
          if (A_VEC && a_lim[s] == int(VW)) {
            w = WRef(ptr).v;
          } else {
            [[unroll]] for (uint e = 0u; e < VW; ++e)
              if (int(e) < a_lim[s]) wput(w, e, ERef(ptr + uint64_t(e) * a_estep).v);
          }
        }
      } else if (a_lim[s] > 0 && k < K) {
        if (A_VEC && k + i64(VW) <= K) {
          w = WRef(ptr).v;
        } else {
          [[unroll]] for (uint e = 0u; e < VW; ++e)
            if (k + i64(e) < K) wput(w, e, ERef(ptr + uint64_t(e) * a_estep).v);
        }
      }
    }
    a_ptr[s] = ptr + a_kstep;
    la[s] = CONJ_A ? conj_w(w) : w;
  }
}

void load_b(int64_t k0, int64_t K, bool full) {
  [[unroll]] for (uint s = 0u; s < LB; ++s) {
    W w = W(0);
    const uint64_t ptr = b_ptr[s];
    if (FAST && full) {
      w = full_word(ptr, b_estep, B_VEC);
    } else {
      const int64_t k = k0 + i64(b_off[s]);
      if (B_ALONG_N) {
        if (k < K && b_lim[s] > 0) {
          if (B_VEC && b_lim[s] == int(VW)) {
            w = WRef(ptr).v;
          } else {
            [[unroll]] for (uint e = 0u; e < VW; ++e)
              if (int(e) < b_lim[s]) wput(w, e, ERef(ptr + uint64_t(e) * b_estep).v);
          }
        }
      } else if (b_lim[s] > 0 && k < K) {
        if (B_VEC && k + i64(VW) <= K) {
          w = WRef(ptr).v;
        } else {
          [[unroll]] for (uint e = 0u; e < VW; ++e)
            if (k + i64(e) < K) wput(w, e, ERef(ptr + uint64_t(e) * b_estep).v);
        }
      }
    }
    b_ptr[s] = ptr + b_kstep;
    lb[s] = CONJ_B ? conj_w(w) : w;
  }
}

// LEAN: the full slice whose slot 0 of this thread is at `a` / `b` (no checks).
void lean_load(uint64_t a, uint64_t b) {
  [[unroll]] for (uint s = 0u; s < LA; ++s) {
    const W w = full_word(a + uint64_t(i64(s) * a_sstep), a_estep, A_VEC);
    la[s] = CONJ_A ? conj_w(w) : w;
  }
  [[unroll]] for (uint s = 0u; s < LB; ++s) {
    const W w = full_word(b + uint64_t(i64(s) * b_sstep), b_estep, B_VEC);
    lb[s] = CONJ_B ? conj_w(w) : w;
  }
}

// Registers -> shared buffer `buf` (k-major tiles).
void store_tiles(uint buf) {
  [[unroll]] for (uint s = 0u; s < LA; ++s) {
    const uint c = gl_LocalInvocationID.x + s * NT;
    if (c < A_CHUNKS) {
      if (!A_ALONG_K) {
        As[buf * A_SIZE + (c / (BM / VW)) * AS_STRIDE + c % (BM / VW)] = la[s];
      } else {
        const uint kq = c % (BK / VW), mm = c / (BK / VW);
        [[unroll]] for (uint e = 0u; e < VW; ++e)
          SH_PUT(As, buf * A_SIZE + (kq * VW + e) * AS_STRIDE + ((mm / VW) ^ swz_a(kq * VW + e)), mm % VW,
                 wget(la[s], e));
      }
    }
  }
  [[unroll]] for (uint s = 0u; s < LB; ++s) {
    const uint c = gl_LocalInvocationID.x + s * NT;
    if (c < B_CHUNKS) {
      if (B_ALONG_N) {
        Bs[buf * B_SIZE + (c / (BN / VW)) * BS_STRIDE + c % (BN / VW)] = lb[s];
      } else {
        const uint kq = c % (BK / VW), nn = c / (BK / VW);
        [[unroll]] for (uint e = 0u; e < VW; ++e)
          SH_PUT(Bs, buf * B_SIZE + (kq * VW + e) * BS_STRIDE + ((nn / VW) ^ swz_b(kq * VW + e)), nn % VW,
                 wget(lb[s], e));
      }
    }
  }
}

// Fragments of step kk (shared buffer `buf`) into set `h` of af / bf.
#define LOAD_FRAGS(h, kk)                                                                     \
  {                                                                                           \
    [[unroll]] for (uint g = 0u; g < TM / VW; ++g) {                                          \
      const W w = As[buf * A_SIZE + (kk) * AS_STRIDE + ((g * RM + tx) ^ swz_a(kk))];          \
      [[unroll]] for (uint e = 0u; e < VW; ++e) af[(h) * TM + g * VW + e] = wget(w, e);       \
    }                                                                                         \
    [[unroll]] for (uint g = 0u; g < TN / VW; ++g) {                                          \
      const W w = Bs[buf * B_SIZE + (kk) * BS_STRIDE + ((g * RN + ty) ^ swz_b(kk))];          \
      [[unroll]] for (uint e = 0u; e < VW; ++e) bf[(h) * TN + g * VW + e] = wget(w, e);       \
    }                                                                                         \
  }
#define FMAS(h)                                                                               \
  [[unroll]] for (uint i = 0u; i < TM; ++i)                                                   \
    [[unroll]] for (uint j = 0u; j < TN; ++j)                                                 \
      acc[i * TN + j] = mac(af[(h) * TM + i], bf[(h) * TN + j], acc[i * TN + j]);

void compute(uint buf, uint tx, uint ty) {
  if (ROLLED) {  // KSTEP steps per iteration: their shared reads first, then their FMAs
    [[dont_unroll]] for (uint k0 = 0u; k0 < BK; k0 += KSTEP) {
      T af[KSTEP * TM];
      T bf[KSTEP * TN];
      [[unroll]] for (uint u = 0u; u < KSTEP; ++u) LOAD_FRAGS(u, k0 + u)
      [[unroll]] for (uint u = 0u; u < KSTEP; ++u) FMAS(u)
    }
  } else if (REGDB) {  // two fragment sets: the reads of kk+1 are in flight during the FMAs of kk
    T af[2u * TM];
    T bf[2u * TN];
    LOAD_FRAGS(0u, 0u)
    [[unroll]] for (uint kk = 0u; kk < BK; ++kk) {
      if (kk + 1u < BK) LOAD_FRAGS((kk + 1u) & 1u, kk + 1u)
      FMAS(kk & 1u)
    }
  } else {
    [[unroll]] for (uint kk = 0u; kk < BK; ++kk) {
      T af[TM];
      T bf[TN];
      LOAD_FRAGS(0u, kk)
      FMAS(0u)
    }
  }
}

// Split-K reduction pass (TFG_OPT_REDUCE): one thread per element of C, grid-stride.
void reduce_partials(DimsRef D, T alpha, T beta) {
  const int64_t M = D.v[0], N = D.v[1], NB = D.v[3];
  const int64_t scm = D.v[10], scn = D.v[11], scb = D.v[12];
  const int64_t zstride = D.v[14], S = D.v[15];
  const int64_t total = M * N * NB;
  const int64_t step = int64_t(gl_NumWorkGroups.x) * int64_t(gl_WorkGroupSize.x);
  for (int64_t i = int64_t(gl_GlobalInvocationID.x); i < total; i += step) {
    int64_t m, r, n, bi;
    divmod(i, M, r, m);
    divmod(r, N, bi, n);
    T sum = T(0);
    for (int64_t z = 0; z < S; ++z) sum += ERef(addr_of(p.a, i + z * zstride)).v;
    const uint64_t at =
        CHAINS ? addr_of(p.c, chain_offset(D, m, scm, 16u) + chain_offset(D, n, scn, 22u) + chain_batch_offset(D, bi, scb))
               : addr_of(p.c, m * scm + n * scn + bi * scb);
    put_c(at, sum, alpha, beta);
  }
}

void main() {
  DimsRef D = DimsRef(p.dims);
  const T alpha = scalar_of(p.alpha[0], p.alpha[1]);
  const T beta = scalar_of(p.beta[0], p.beta[1]);
  if (OPT_REDUCE) {
    reduce_partials(D, alpha, beta);
    return;
  }
  const int64_t M = D.v[0], N = D.v[1], KT = D.v[2], NB = D.v[3];
  const int64_t sam = D.v[4], sak = D.v[5], sab = D.v[6];
  const int64_t sbk = D.v[7], sbn = D.v[8], sbb = D.v[9];
  const int64_t scm = D.v[10], scn = D.v[11], scb = D.v[12];
  // This workgroup's K range (split K: workgroup z; else all of K).
  const int64_t kbeg = int64_t(gl_WorkGroupID.z) * D.v[13];
  const int64_t K = max(min(KT - kbeg, D.v[13]), int64_t(0));
  const int64_t bm = i64(BM), bn = i64(BN), bk = i64(BK);
  const int64_t tiles_m = (M + bm - 1) >> LBM, tiles_n = (N + bn - 1) >> LBN, tiles = tiles_m * tiles_n;
  const int64_t nk = (K + bk - 1) >> LBK;
  uint tx, ty;
  if (WARP_MAP) {
    const uint lane = gl_LocalInvocationID.x % 32u, warp = gl_LocalInvocationID.x / 32u;
    uint lm = lane % WR, ln = lane / WR;
    if (PAIR) {  // lanes n, n^1 share the row, lanes n, n^2 the column: LDS.128 at double rate
      lm = (lane >> 1u) % WR;
      ln = (lane & 1u) + 2u * ((lane >> 1u) / WR);
    }
    tx = (warp % (RM / WR)) * WR + lm;
    ty = (warp / (RM / WR)) * WC + ln;
  } else {
    tx = gl_LocalInvocationID.x % RM;
    ty = gl_LocalInvocationID.x / RM;
  }

  // The tile loop stays one block of code here. Split into functions over private globals (to
  // share it with a persistent loop), NVIDIA's driver ran the same tiles 7-12 % slower at 4096^3
  // and the chained-C einsum products 4-5x slower; a persistent grid and a rolled last slice
  // were slower too (docs/gemm.md, the levers dropped).
  for (int64_t bi = int64_t(gl_WorkGroupID.y); bi < NB; bi += int64_t(gl_NumWorkGroups.y)) {
    const uint64_t abase = addr_of(p.a, bi * sab + kbeg * sak), bbase = addr_of(p.b, bi * sbb + kbeg * sbk);
    const uint64_t cbase = addr_of(p.c, (CHAINS ? chain_batch_offset(D, bi, scb) : bi * scb) + int64_t(gl_WorkGroupID.z) * D.v[14]);
    for (int64_t t = int64_t(gl_WorkGroupID.x); t < tiles; t += int64_t(gl_NumWorkGroups.x)) {
      int64_t tm_, tn_;
      divmod(t, tiles_m, tn_, tm_);
      if (GROUP) {  // groups of (up to) 8 tile rows; inside a group, m varies fastest
        int64_t grp, r, q, rm;
        divmod(t, 8 * tiles_n, grp, r);
        const int64_t first = grp * 8, rows = min(tiles_m - first, int64_t(8));
        divmod(r, rows, q, rm);
        tm_ = first + rm;
        tn_ = q;
      }
      const int64_t m0 = tm_ * bm, n0 = tn_ * bn;
      [[unroll]] for (uint i = 0u; i < TM * TN; ++i) acc[i] = T(0);
      if (nk > 0) {
        const bool interior = FAST && m0 + bm <= M && n0 + bn <= N;
        setup_a(abase, m0, M, sam, sak);
        setup_b(bbase, n0, N, sbk, sbn);
        // Per slice only additions and compares: the k offset and the buffer index advance,
        // the number of full slices is computed once (64-bit integer multiplies are emulated).
        // K / bk, not K >> LBK: the same value, but with the shift NVIDIA's driver scheduled the
        // f32 128 x 256 8 x 16 tile's loop worse (H200, 4096^3: 38 vs 44 TFLOP/s; the loop body
        // differs by 15 instructions).
        const int64_t nfull = K / bk;
        load_a(0, K, interior && nfull > 0);
        load_b(0, K, interior && nfull > 0);
        store_tiles(0u);
        barrier();
        uint cur = 0u;
        int64_t k0 = bk;  // start of the next slice
        int64_t kt = 1;   // slices loaded so far
        if (INTERIOR_LOOP && interior) {  // slices 1 .. nfull-1 are full: nothing to check
          uint64_t ap = a_ptr[0], bp = b_ptr[0];  // LEAN: slot 0 of the next slice
          for (; kt < nfull; ++kt) {
            if (LEAN) {
              lean_load(ap, bp);
              ap += a_kstep;
              bp += b_kstep;
            } else {
              load_a(k0, K, true);
              load_b(k0, K, true);
            }
            compute(cur, tx, ty);
            if (NBUF == 1u) barrier();
            if (NBUF == 2u) cur ^= 1u;
            store_tiles(cur);
            barrier();
            k0 += bk;
          }
          if (LEAN) {  // the slots of the checked loop below, at slice kt (k0)
            setup_a(addr_of(abase, k0 * sak), m0, M, sam, sak);
            setup_b(addr_of(bbase, k0 * sbk), n0, N, sbk, sbn);
          }
        }
        for (; kt <= nk; ++kt) {
          const bool more = kt < nk;
          if (more) {
            const bool full = interior && kt < nfull;
            load_a(k0, K, full);
            load_b(k0, K, full);
          }
          compute(cur, tx, ty);
          if (NBUF == 1u) barrier();  // every thread is done reading the only buffer
          if (NBUF == 2u) cur ^= 1u;
          if (more) store_tiles(cur);
          barrier();
          k0 += bk;
        }
      }
      // Epilogue: C = alpha * acc (+ beta * C).
      if (CHAINS) {
        // A chained C: the workgroup first tabulates the element offsets of the tile's rows and
        // columns in shared memory (a rolled loop; the stores below add two table entries, no
        // division), then stores element by element in the same loops as a plain C. (With store
        // loops of its own after the tile loop, every chained dispatch ran 5-30x slower on the
        // H200: the f64 8 x 8 pipeline held acc in 512 bytes of local memory per thread;
        // docs/gemm.md.)
        barrier();  // K = 0 tiles skip the slice loop's barriers: the previous tile's reads
        for (uint i = gl_LocalInvocationID.x; i < BM + BN; i += NT)
          chain_offs[i] = i < BM ? chain_offset(D, min(m0 + i64(i), M - 1), scm, 16u)
                                 : chain_offset(D, min(n0 + i64(i - BM), N - 1), scn, 22u);
        barrier();
      }
      if (STAGE) {
        // A staged C (opt-in, gemm/policy.cpp gemm_stages_c): per block of SW columns, every
        // thread puts its values into `stage`, then invocation q stores element q of the block,
        // consecutive q along m (along n with STAGE_N): a warp's stores cover whole 32-byte
        // sectors of C, where the register tile's element stores leave each sector half written
        // per store (C's columns not 16-byte aligned, a chained C, n at unit stride). H200, f64
        // 177147 x 243 x 50, C's stores alone: 0.43 ms element by element, 0.16 staged, 0.12 for
        // aligned columns with 16-byte stores; the whole product 0.48 -> 0.50 (bound by its FMAs;
        // the barriers lengthen each tile), f32 0.42 -> 0.34.
        [[unroll]] for (uint jb = 0u; jb < TN / VW; ++jb) {
          [[unroll]] for (uint g = 0u; g < TM / VW; ++g)
            [[unroll]] for (uint e = 0u; e < VW; ++e)
              [[unroll]] for (uint jj = 0u; jj < VW; ++jj)
                stage[(ty * VW + jj) * SROW + (g * RM + tx) * VW + e] = acc[(g * VW + e) * TN + jb * VW + jj];
          barrier();
          [[unroll]] for (uint i = 0u; i < TM * VW; ++i) {
            const uint q = i * NT + gl_LocalInvocationID.x;
            const uint ml = STAGE_N ? q / SW : q % BM;
            const uint cl = STAGE_N ? q % SW : q / BM;
            const int64_t m = m0 + i64(ml), n = n0 + i64(jb * SW + cl);
            if (m >= M || n >= N) continue;
            const uint64_t at = CHAINS ? addr_of(cbase, chain_offs[ml] + chain_offs[BM + jb * SW + cl])
                                       : addr_of(cbase, m * scm + n * scn);
            put_c(at, stage[cl * SROW + ml], alpha, beta);
          }
          barrier();  // the block's reads before the next block's (or tile's) writes
        }
      } else {  // the register tile's own stores
        [[unroll]] for (uint g = 0u; g < TM / VW; ++g) {
          const uint ml = (g * RM + tx) * VW;
          const int64_t mrow = m0 + i64(ml);
          [[unroll]] for (uint j = 0u; j < TN; ++j) {
            const uint nl = ((j / VW) * RN + ty) * VW + j % VW;
            const int64_t n = n0 + i64(nl);
            if (n >= N) continue;
            uint64_t col;
            if (CHAINS)
              col = addr_of(cbase, chain_offs[BM + nl]);
            else
              col = addr_of(cbase, mrow * scm + n * scn);
            if (!CHAINS && C_VEC && mrow + i64(VW) <= M) {
              W w;
              const W old = READ_C ? OWRef(col).v : W(0);
              [[unroll]] for (uint e = 0u; e < VW; ++e) {
                T v = scale(alpha, acc[(g * VW + e) * TN + j]);
                if (READ_C) v += scale(beta, wget(old, e));
                wput(w, e, v);
              }
              OWRef(col).v = w;
            } else {
              [[unroll]] for (uint e = 0u; e < VW; ++e) {
                if (mrow + i64(e) >= M) continue;
                uint64_t at;
                if (CHAINS)
                  at = addr_of(col, chain_offs[ml + e]);
                else
                  at = addr_of(col, i64(e) * scm);
                put_c(at, acc[(g * VW + e) * TN + j], alpha, beta);
              }
            }
          }
        }
      }
      if (CHAINS) barrier();  // every thread's table reads before the next tile's shared stores
    }
  }
}
