// WGSL generation (kernels.hpp).
#include "webgpu/kernels.hpp"

#include <string>

#include "core/check.hpp"

namespace tenferro::webgpu {

namespace {

// The parameter buffer, the element index of an invocation and the offset of element i of
// operand k (colex order over the shape, first axis fastest).
constexpr const char* kPrelude = R"(
@group(0) @binding(0) var<storage, read> p: array<i32>;
fn numel() -> u32 { return bitcast<u32>(p[1]); }
fn element(wg: vec3<u32>, nw: vec3<u32>, li: u32) -> u32 { return (wg.y * nw.x + wg.x) * 64u + li; }
fn at(k: u32, i: u32) -> u32 {
  let r = u32(p[0]);
  let base = 3u + r + k * (r + 1u);
  var rem = i;
  var off = p[base];
  for (var a = 0u; a < r; a = a + 1u) {
    let e = u32(p[3u + a]);
    off = off + i32(rem % e) * p[base + 1u + a];
    rem = rem / e;
  }
  return u32(off);
}
fn extra(w: u32) -> i32 { let r = u32(p[0]); return p[3u + r + u32(p[2]) * (r + 1u) + w]; }
)";

constexpr const char* kMainHead = R"(
@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>,
        @builtin(local_invocation_index) li: u32) {
  let i = element(wg, nw, li);
  if (i >= numel()) { return; }
)";

const char* word_type(Bits b) {
  switch (b) {
    case Bits::u32x2: return "vec2<u32>";
    case Bits::u32x4: return "vec4<u32>";
    default: return "u32";
  }
}

// Byte elements (Bool) live four to a word: reads shift them out, writes change their byte of
// the word with two atomics, which commute with the neighbours' writes to the other bytes.
constexpr const char* kByteWrite = R"(
fn put_byte(o: u32, v: u32) {
  let sh = (o & 3u) * 8u;
  atomicAnd(&dst[o >> 2u], ~(0xFFu << sh));
  atomicOr(&dst[o >> 2u], (v & 0xFFu) << sh);
}
)";

const char* wgsl_type(DType d) {
  switch (d) {
    case DType::F32: return "f32";
    case DType::I32: return "i32";
    case DType::C32: return "vec2<f32>";
    default: return nullptr;
  }
}

// Complex helpers (C32 as vec2<f32>: x real, y imaginary). Division by Smith's method, which
// avoids the overflow of |b|^2 for large b.
constexpr const char* kComplex = R"(
fn cnan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
fn cinf(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) == 0x7f800000u; }
fn cabs(a: vec2<f32>) -> f32 {
  let x = abs(a.x);
  let y = abs(a.y);
  if (cinf(x)) { return x; }
  if (cinf(y)) { return y; }
  if (cnan(x) || cnan(y)) { return x + y; }
  let m = max(x, y);
  if (m == 0.0) { return 0.0; }
  let u = x / m;
  let v = y / m;
  return m * sqrt(u * u + v * v);
}
fn csign(a: vec2<f32>) -> vec2<f32> {
  if (a.x == 0.0 && a.y == 0.0) { return vec2<f32>(0.0, 0.0); }
  let x = abs(a.x);
  let y = abs(a.y);
  if (cinf(x) || cinf(y) || cnan(x) || cnan(y)) { return a / cabs(a); }
  let u = a / max(x, y);
  return u / cabs(u);
}
fn cmul(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> { return vec2<f32>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
fn cdiv(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> {
  if (abs(b.x) >= abs(b.y)) {
    let r = b.y / b.x;
    let d = b.x + b.y * r;
    return vec2<f32>((a.x + a.y * r) / d, (a.y - a.x * r) / d);
  }
  let r = b.x / b.y;
  let d = b.x * r + b.y;
  return vec2<f32>((a.x * r + a.y) / d, (a.y * r - a.x) / d);
}
)";

// f32 classes by the bits (WGSL may assume finite values, so x != x and comparisons with
// infinity are not tests), and the special values, built at run time (Tint refuses a constant
// NaN or infinity) from unseen(): a zero the compilers cannot see (the sign bit of the rank, p[0]).
constexpr const char* kFloatBits = R"(
fn unseen() -> u32 { return bitcast<u32>(p[0]) >> 31u; }
fn is_nan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
fn is_inf(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) == 0x7f800000u; }
fn f_nan() -> f32 { return bitcast<f32>(0x7fc00000u | unseen()); }
fn f_inf() -> f32 { return bitcast<f32>(0x7f800000u | unseen()); }
)";

// IEEE 754-2019 maximum / minimum on f32 (src/cpu/minmax.hpp): the first NaN, else the
// larger / smaller with -0 < +0. NaN by its bits (WGSL may assume x == x).
constexpr const char* kMinMax = R"(
fn fmaximum(a: f32, b: f32) -> f32 {
  if (is_nan(a)) { return a; }
  if (is_nan(b)) { return b; }
  if (a == b) { return select(a, b, (bitcast<u32>(a) >> 31u) == 1u); }
  return select(b, a, a > b);
}
fn fminimum(a: f32, b: f32) -> f32 {
  if (is_nan(a)) { return a; }
  if (is_nan(b)) { return b; }
  if (a == b) { return select(b, a, (bitcast<u32>(a) >> 31u) == 1u); }
  return select(b, a, a < b);
}
)";

// The error word of a kernel whose elements can be undefined (an integer division by zero, a
// negative integer exponent, a cast of an invalid value): fail_with ORs its bits in, the backend
// reads the word back after the dispatch (WebGpuBackend::run_checked) and raises the op's error.
std::string error_word(int binding) {
  return "@group(0) @binding(" + std::to_string(binding) +
         ") var<storage, read_write> err: array<atomic<u32>>;\n"
         "fn fail_with(bits: u32) { atomicOr(&err[0], bits); }\n";
}

// Integer div, rem (C++ / and %: truncation; MIN / -1 = MIN, MIN % -1 = 0) and pow (square and
// multiply, wrapping), a zero divisor or negative exponent failing with 0 as the element.
constexpr const char* kIntOps = R"(
fn i_div(a: i32, b: i32) -> i32 {
  if (b == 0) { fail_with(1u); return 0; }
  if (b == -1) { return bitcast<i32>(0u - bitcast<u32>(a)); }
  return a / b;
}
fn i_rem(a: i32, b: i32) -> i32 {
  if (b == 0) { fail_with(1u); return 0; }
  if (b == -1) { return 0; }
  return a - (a / b) * b;
}
fn i_pow(a: i32, b: i32) -> i32 {
  if (b < 0) { fail_with(1u); return 0; }
  var r = 1i;
  var base = a;
  var e = b;
  while (e > 0) {
    if ((e & 1) != 0) { r = r * base; }
    base = base * base;
    e = e >> 1u;
  }
  return r;
}
)";

// fmod (C semantics), exact: long division whose every step subtracts 2^k |b| (Sterbenz-exact),
// at most 277 steps; a subnormal divisor first reduces by c = 2^24 |b| and the rest, scaled by
// 2^24 (exact), by c again.
constexpr const char* kFloatRem = R"(
fn rem_pos(x: f32, y: f32) -> f32 {
  if (x < y) { return x; }
  var r = x;
  for (var e = frexp(x).exp - frexp(y).exp; e >= 0; e = e - 1) {
    let s = ldexp(y, e);
    if (r >= s) { r = r - s; }
  }
  return r;
}
fn f_rem(a: f32, b: f32) -> f32 {
  if (is_nan(a) || is_nan(b) || is_inf(a) || b == 0.0) { return f_nan(); }
  if (is_inf(b)) { return a; }
  let ax = abs(a);
  let ay = abs(b);
  if (ax < ay) { return a; }
  var r: f32;
  if (ay < 1.17549435e-38) {
    let c = ay * 16777216.0;
    r = rem_pos(rem_pos(ax, c) * 16777216.0, c) / 16777216.0;
  } else {
    r = rem_pos(ax, ay);
  }
  return select(r, -r, a < 0.0);
}
)";

// Double-f32 arithmetic (pairs hi + lo, |lo| <= ulp(hi) / 2): the error-free sum and product
// (for pow's log2 and exp2 with about 2^-40 relative error, and the math library). WGSL has no `precise`: lavapipe's
// compilers simplify inexact float expressions ((a + b) - a to b, (x * c1) * c2 to x * (c1 c2))
// and its fma is not fused, so the error terms pass through keep(), which ORs unseen() into the
// bits, and products split by Veltkamp (Dekker's product: exact for |a|, |b| < 2^100 and low
// parts above the subnormals).
constexpr const char* kDoubleF32 = R"(
fn keep(x: f32) -> f32 { return bitcast<f32>(bitcast<u32>(x) | unseen()); }
fn two_sum(a: f32, b: f32) -> vec2<f32> {
  let s = keep(a + b);
  let bb = keep(s - a);
  return vec2<f32>(s, keep(a - keep(s - bb)) + keep(b - bb));
}
fn fast_two_sum(a: f32, b: f32) -> vec2<f32> {
  let s = keep(a + b);
  return vec2<f32>(s, b - keep(s - a));
}
fn split(a: f32) -> vec2<f32> {
  let c = keep(4097.0 * a);
  let h = keep(c - keep(c - a));
  return vec2<f32>(h, keep(a - h));
}
fn two_prod(a: f32, b: f32) -> vec2<f32> {
  let p = keep(a * b);
  let x = split(a);
  let y = split(b);
  let t = keep(keep(keep(x.x * y.x) - p) + keep(x.x * y.y));
  return vec2<f32>(p, keep(t + keep(x.y * y.x)) + keep(x.y * y.y));
}
fn dd_mul(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> {
  let p = two_prod(a.x, b.x);
  return fast_two_sum(p.x, p.y + (a.x * b.y + a.y * b.x));
}
)";

// log2 and exp2 in double-f32 pairs, for pow (on kDoubleF32).
constexpr const char* kLog2Exp2 = R"(
// log2 of the positive finite nonzero f32 with bits u: u = m 2^k with m in [sqrt(1/2), sqrt(2))
// (a subnormal's integer mantissa converted exactly), log m = 2 atanh(s) for s = (m - 1) /
// (m + 1) = 2 s + (2/3) s^3 + s^5 P(s^2), |s| < 0.172, the first two terms in pairs.
fn log2_dd(u: u32) -> vec2<f32> {
  var ix = u;
  var k = 0;
  if (ix < 0x00800000u) {
    ix = bitcast<u32>(f32(ix));
    k = -149;
  }
  k = k + i32(ix >> 23u) - 127;
  var mb = (ix & 0x7fffffu) | 0x3f800000u;
  if (mb > 0x3fb504f3u) {
    mb = mb - 0x00800000u;
    k = k + 1;
  }
  let m = bitcast<f32>(mb);
  let f = m - 1.0;
  let d = two_sum(m, 1.0);
  let sh = f / d.x;
  let q = two_prod(sh, d.x);
  let sl = (keep(keep(f - q.x) - q.y) - sh * d.y) / d.x;
  let s = vec2<f32>(sh, sl);
  let w = dd_mul(s, s);
  let s3 = dd_mul(dd_mul(s, w), vec2<f32>(bitcast<f32>(0x3f2aaaabu), bitcast<f32>(0xb2aaaaabu)));
  let z = w.x;
  let rest = sh * z * z * (0.4 + z * (0.2857142857 + z * (0.2222222222 + z * (0.1818181818 +
             z * (0.1538461538 + z * 0.1333333333)))));
  let l0 = fast_two_sum(2.0 * sh, s3.x);
  let l = fast_two_sum(l0.x, l0.y + (2.0 * sl + s3.y + rest));
  let g = dd_mul(l, vec2<f32>(bitcast<f32>(0x3fb8aa3bu), bitcast<f32>(0x32a57060u)));
  let t = two_sum(f32(k), g.x);
  return fast_two_sum(t.x, t.y + g.y);
}
// 2^z for a pair z with -152 < z.x < 129 (the caller takes the rest): 2^n exp(r) with n =
// round(z), r = (z - n) ln 2 as a pair, exp(r) - 1 a Taylor polynomial of degree 8; the scaling
// by powers of two built at run time (no folding); results below 2^-126 rounded once to the
// subnormal grid on the bits.
fn exp2_dd(z: vec2<f32>) -> f32 {
  let n = round(z.x);
  let f = keep(z.x - n) + z.y;
  let r = dd_mul(vec2<f32>(f, 0.0), vec2<f32>(bitcast<f32>(0x3f317218u), bitcast<f32>(0xb102e308u)));
  let rh = r.x;
  let rl = r.y;
  let q = 0.5 + rh * (0.16666666666 + rh * (0.041666666666 + rh * (0.0083333333333 + rh * (0.0013888888889 +
          rh * (0.00019841269841 + rh * (2.4801587302e-05 + rh * 2.7557319224e-06))))));
  let p = rh + rh * rh * q;
  let v = 1.0 + (p + (rl + p * rl));
  let k = i32(n);
  if (k >= -126) {
    let h = k / 2;
    return keep(v * bitcast<f32>(u32(h + 127) << 23u)) * bitcast<f32>(u32(k - h + 127) << 23u);
  }
  return bitcast<f32>(u32(round(v * bitcast<f32>(u32(k + 149 + 127) << 23u))));
}
)";

// The f32 math library of the analytic kernels (on kDoubleF32), from shaders/common/math_f32.glsl:
// fdlibm's algorithms and coefficients (Copyright (C) 1993 Sun Microsystems; "Permission to use,
// copy, modify, and distribute this software is freely granted, provided that this notice is
// preserved") via FreeBSD msun; no driver transcendental, whose accuracy WebGPU leaves loose
// (the builtin sqrt only seeds a Newton step on the exact residual, then rounded correctly from
// the residuals of the midpoints). m_exp m_expm1 m_log m_log1p m_sincos m_tanh (its own below
// 1/2) m_erf m_sqrt m_rsqrt, each within 2 ulp over every f32 (webgpu_analytic_accuracy_test),
// IEEE special values as C; sin / cos reduce exactly for every f32 (Payne-Hanek on integers:
// the 24-bit significand times a 192-bit window of 2/pi).
constexpr const char* kMathF32 = R"(
fn f_pow2(k: i32) -> f32 { return bitcast<f32>(u32(k + 127) << 23u); }
// a / b with one residual correction (b finite, nonzero).
fn f_div(a_in: f32, b_in: f32) -> f32 {
  var a = a_in;
  var b = b_in;
  if (abs(b) >= 8.507059173023462e37 && !is_inf(b)) {
    a = a * 0.25;
    b = b * 0.25;
  }
  let q = a / b;
  if (!(abs(q) < 1.0e30 && abs(b) < 1.0e30 && abs(a) < 1.0e30) || q == 0.0) { return q; }
  let p = two_prod(q, b);
  return q + keep(keep(a - p.x) - p.y) / b;
}

// sqrt: the builtin plus one Newton step on the exact residual, inside [2^-100, 2^100).
fn m_sqrt(x: f32) -> f32 {
  let u = bitcast<u32>(x);
  if ((u & 0x7fffffffu) == 0u || u >= 0x7f800000u) { return select(x, f_nan(), u > 0x80000000u); }
  var e = 0;
  if (u < 0x0da24260u) { e = 64; } else if (x > 1.0e30) { e = -64; }
  let a = keep(x * f_pow2(e));
  let s = sqrt(a);
  let sq = two_prod(s, s);
  let r = keep(keep(a - sq.x) - sq.y);
  var t = keep(s + r * (0.5 / s));
  // Correct rounding: the exact residual a - t^2 against those of the midpoints t +- h, h half
  // an ulp of t (a quarter below a power of two).
  let tb = bitcast<u32>(t);
  let h = bitcast<f32>((tb & 0x7f800000u) - (24u << 23u));
  let q = two_prod(t, t);
  let rr = keep(keep(a - q.x) - q.y);
  if (rr > 2.0 * t * h) {
    t = bitcast<f32>(tb + 1u);
  } else if (rr <= -(select(2.0, 1.0, (tb & 0x7fffffu) == 0u) * t * h)) {
    t = bitcast<f32>(tb - 1u);
  }
  return t * f_pow2(-e / 2);
}
fn m_rsqrt(x: f32) -> f32 {
  let u = bitcast<u32>(x);
  if ((u & 0x7fffffffu) == 0u) { return bitcast<f32>((u & 0x80000000u) | 0x7f800000u | unseen()); }
  if (u > 0x80000000u) { return f_nan(); }
  if (u >= 0x7f800000u) { return select(x, 0.0, u == 0x7f800000u); }
  var e = 0;
  if (u < 0x0da24260u) { e = 64; } else if (x > 1.0e30) { e = -64; }
  let a = keep(x * f_pow2(e));
  let s = m_sqrt(a);
  let y = 1.0 / s;
  let p = two_prod(s, y);
  let ee = keep(keep(1.0 - p.x) - p.y);
  let yy = keep(y + y * ee);
  return yy * f_pow2(e / 2);
}

fn m_exp(x: f32) -> f32 {
  let ln2HI = 6.9314575195e-01;
  let ln2LO = 1.4286067653e-06;
  let invln2 = 1.4426950216e+00;
  let P1 = 1.6666625440e-1;
  let P2 = -2.7667332906e-3;
  var hx = bitcast<u32>(x);
  let neg = (hx >> 31u) != 0u;
  hx = hx & 0x7fffffffu;
  if (hx >= 0x42b17218u) {
    if (hx > 0x7f800000u) { return x; }
    if (hx == 0x7f800000u) { return select(x, 0.0, neg); }
    if (x > 8.8721679688e+01) { return f_inf(); }
    if (x < -1.0397208405e+02) { return 0.0; }
  }
  var hi = x;
  var lo = 0.0;
  var k = 0;
  if (hx > 0x3eb17218u) {
    k = i32(invln2 * x + select(0.5, -0.5, neg));
    let t = f32(k);
    hi = keep(x - t * ln2HI);
    lo = keep(t * ln2LO);
  } else if (hx < 0x39000000u) {
    return 1.0 + x;
  }
  let r = keep(hi - lo);
  let t = r * r;
  let c = r - t * (P1 + t * P2);
  let y = 1.0 - ((lo - (r * c) / (2.0 - c)) - hi);
  if (k == 0) { return y; }
  if (k == 128) { return keep(y * 2.0) * f_pow2(127); }
  if (k >= -125) { return y * f_pow2(k); }
  return keep(y * f_pow2(k + 100)) * f_pow2(-100);
}

fn m_expm1(x_in: f32) -> f32 {
  var x = x_in;
  let ln2_hi = 6.9313812256e-01;
  let ln2_lo = 9.0580006145e-06;
  let invln2 = 1.4426950216e+00;
  let Q1 = -3.3333212137e-2;
  let Q2 = 1.5807170421e-3;
  var hx = bitcast<u32>(x);
  let neg = (hx >> 31u) != 0u;
  hx = hx & 0x7fffffffu;
  if (hx >= 0x4195b844u) {
    if (hx >= 0x42b17218u) {
      if (hx > 0x7f800000u) { return x; }
      if (hx == 0x7f800000u) { return select(x, -1.0, neg); }
      if (x > 8.8721679688e+01) { return f_inf(); }
    }
    if (neg) { return -1.0; }
  }
  var hi: f32;
  var lo: f32;
  var c = 0.0;
  var k = 0;
  if (hx > 0x3eb17218u) {
    if (hx < 0x3F851592u) {
      hi = select(x - ln2_hi, x + ln2_hi, neg);
      lo = select(ln2_lo, -ln2_lo, neg);
      k = select(1, -1, neg);
    } else {
      k = i32(invln2 * x + select(0.5, -0.5, neg));
      let t = f32(k);
      hi = keep(x - t * ln2_hi);
      lo = keep(t * ln2_lo);
    }
    let xr = keep(hi - lo);
    c = keep(keep(hi - xr) - lo);
    x = xr;
  } else if (hx < 0x33000000u) {
    return x;
  }
  let hfx = 0.5 * x;
  let hxs = x * hfx;
  let r1 = 1.0 + hxs * (Q1 + hxs * Q2);
  let t = 3.0 - r1 * hfx;
  var e = hxs * ((r1 - t) / (6.0 - x * t));
  if (k == 0) { return x - (x * e - hxs); }
  e = keep(x * (e - c) - c);
  e = keep(e - hxs);
  if (k == -1) { return 0.5 * (x - e) - 0.5; }
  if (k == 1) {
    if (x < -0.25) { return -2.0 * (e - (x + 0.5)); }
    return 1.0 + 2.0 * (x - e);
  }
  if (k <= -2 || k > 56) {
    let y = 1.0 - (e - x);
    var r2: f32;
    if (k == 128) { r2 = keep(y * 2.0) * f_pow2(127); } else { r2 = y * f_pow2(k); }
    return r2 - 1.0;
  }
  if (k < 23) {
    let tt = bitcast<f32>(0x3f800000u - (0x1000000u >> u32(k)));
    return keep(tt - (e - x)) * f_pow2(k);
  }
  let tt = f_pow2(-k);
  return keep(keep(x - (e + tt)) + 1.0) * f_pow2(k);
}

fn m_log(x_in: f32) -> f32 {
  var x = x_in;
  let ln2_hi = 6.9313812256e-01;
  let ln2_lo = 9.0580006145e-06;
  let Lg1 = 0.6666666269302368;
  let Lg2 = 0.40000972151756287;
  let Lg3 = 0.2849878668785095;
  let Lg4 = 0.24279078841209412;
  var ix = bitcast<i32>(x);
  var k = 0;
  if (ix < 0x00800000) {
    if ((ix & 0x7fffffff) == 0) { return -f_inf(); }
    if (ix < 0) { return f_nan(); }
    x = f32(u32(ix));
    k = -149;
    ix = bitcast<i32>(x);
  }
  if (ix >= 0x7f800000) { return x; }
  k = k + (ix >> 23u) - 127;
  ix = ix & 0x007fffff;
  let i = (ix + (0x95f64 << 3u)) & 0x800000;
  x = bitcast<f32>(ix | (i ^ 0x3f800000));
  k = k + (i >> 23u);
  let f = keep(x - 1.0);
  let dk = f32(k);
  if ((0x007fffff & (0x8000 + ix)) < 0xc000) {
    if (f == 0.0) {
      if (k == 0) { return 0.0; }
      return dk * ln2_hi + dk * ln2_lo;
    }
    let Rv = f * f * (0.5 - 0.33333333333333333 * f);
    if (k == 0) { return f - Rv; }
    return dk * ln2_hi - ((Rv - dk * ln2_lo) - f);
  }
  let s = f_div(f, 2.0 + f);
  let z = s * s;
  let w = z * z;
  let ii = (ix - (0x6147a << 3u)) | ((0x6b851 << 3u) - ix);
  let Rv = z * (Lg1 + w * Lg3) + w * (Lg2 + w * Lg4);
  if (ii > 0) {
    let hfsq = 0.5 * f * f;
    if (k == 0) { return f - (hfsq - s * (hfsq + Rv)); }
    return dk * ln2_hi - ((hfsq - (s * (hfsq + Rv) + dk * ln2_lo)) - f);
  }
  if (k == 0) { return f - s * (f - Rv); }
  return dk * ln2_hi - ((s * (f - Rv) - dk * ln2_lo) - f);
}

fn m_log1p(x: f32) -> f32 {
  let ln2_hi = 6.9313812256e-01;
  let ln2_lo = 9.0580006145e-06;
  let Lp1 = 6.6666668653e-01;
  let Lp2 = 4.0000000596e-01;
  let Lp3 = 2.8571429849e-01;
  let Lp4 = 2.2222198546e-01;
  let Lp5 = 1.8183572590e-01;
  let Lp6 = 1.5313838422e-01;
  let Lp7 = 1.4798198640e-01;
  let hx = bitcast<i32>(x);
  let ax = hx & 0x7fffffff;
  var k = 1;
  var hu = 0;
  var f = 0.0;
  var c = 0.0;
  if (hx < 0x3ed413d0) {
    if (ax >= 0x3f800000) {
      if (x == -1.0) { return -f_inf(); }
      return f_nan();
    }
    if (ax < 0x38000000) {
      if (ax < 0x33800000) { return x; }
      return x - x * x * 0.5;
    }
    if (hx > 0 || hx <= bitcast<i32>(0xbe95f619u)) {
      k = 0;
      f = x;
      hu = 1;
    }
  }
  if (hx >= 0x7f800000) { return x; }
  if (k != 0) {
    var u: f32;
    if (hx < 0x5a000000) {
      u = keep(1.0 + x);
      hu = bitcast<i32>(u);
      k = (hu >> 23u) - 127;
      var cc: f32;
      if (k > 0) { cc = keep(1.0 - keep(u - x)); } else { cc = keep(x - keep(u - 1.0)); }
      c = cc / u;
    } else {
      u = x;
      hu = bitcast<i32>(u);
      k = (hu >> 23u) - 127;
      c = 0.0;
    }
    hu = hu & 0x007fffff;
    if (hu < 0x3504f4) {
      u = bitcast<f32>(hu | 0x3f800000);
    } else {
      k = k + 1;
      u = bitcast<f32>(hu | 0x3f000000);
      hu = (0x00800000 - hu) >> 2u;
    }
    f = keep(u - 1.0);
  }
  let hfsq = 0.5 * f * f;
  let dk = f32(k);
  if (hu == 0) {
    if (f == 0.0) {
      if (k == 0) { return 0.0; }
      return dk * ln2_hi + (c + dk * ln2_lo);
    }
    let Rv = hfsq * (1.0 - 0.66666666666666666 * f);
    if (k == 0) { return f - Rv; }
    return dk * ln2_hi - ((Rv - (dk * ln2_lo + c)) - f);
  }
  let s = f_div(f, 2.0 + f);
  let z = s * s;
  let Rv = z * (Lp1 + z * (Lp2 + z * (Lp3 + z * (Lp4 + z * (Lp5 + z * (Lp6 + z * Lp7))))));
  if (k == 0) { return f - (hfsq - s * (hfsq + Rv)); }
  return dk * ln2_hi - ((hfsq - (s * (hfsq + Rv) + (dk * ln2_lo + c))) - f);
}

// sin / cos kernels on [-pi/4, pi/4] for x + y (y the tail of the reduced argument).
fn f_ksin(x: f32, y: f32) -> f32 {
  let S1 = -1.66666666666666324348e-01;
  let S2 = 8.33333333332248946124e-03;
  let S3 = -1.98412698298579493134e-04;
  let S4 = 2.75573137070700676789e-06;
  let S5 = -2.50507602534068634195e-08;
  let S6 = 1.58969099521155010221e-10;
  let z = x * x;
  let v = z * x;
  let r = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
  return x - ((z * (0.5 * y - v * r) - y) - v * S1);
}
fn f_kcos(x: f32, y: f32) -> f32 {
  let C1 = 4.16666666666666019037e-02;
  let C2 = -1.38888888888741095749e-03;
  let C3 = 2.48015872894767294178e-05;
  let C4 = -2.75573143513906633035e-07;
  let C5 = 2.08757232129817482790e-09;
  let C6 = -1.13596475577881948265e-11;
  let z = x * x;
  let w = z * z;
  let r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
  let hz = 0.5 * z;
  let ww = keep(1.0 - hz);
  return ww + (keep(keep(1.0 - ww) - hz) + (z * r - x * y));
}
// The bits of 2/pi, 64 leading zero bits (enough for every f32).
var<private> TWO_OPI: array<u32, 12> = array<u32, 12>(0u, 0u, 0xa2f9836eu, 0x4e441529u, 0xfc2757d1u,
    0xf534ddc0u, 0xdb629599u, 0x3c439041u, 0xfe5163abu, 0xdebbc561u, 0xb7246e3au, 0x424dd2e0u);
fn mul_wide(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu;
  let a1 = a >> 16u;
  let b0 = b & 0xffffu;
  let b1 = b >> 16u;
  let p00 = a0 * b0;
  let p01 = a0 * b1;
  let p10 = a1 * b0;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  return vec2<u32>((p00 & 0xffffu) | (mid << 16u), a1 * b1 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u));
}
// x = n pi/2 + y0 + y1 for |x| > pi/4, exactly (Payne-Hanek on integers: the 24-bit significand
// times a 192-bit window of 2/pi, mod 8): returns (y0, y1, n).
fn f_rem_pio2(x: f32) -> vec3<f32> {
  let bits = bitcast<u32>(abs(x));
  let e2 = i32(bits >> 23u) - 150;
  let m = (bits & 0x7fffffu) | 0x800000u;
  let pbit = e2 - 3 + 64;
  let w = pbit >> 5u;
  let sh = u32(pbit & 31);
  var r: array<u32, 6>;
  var carry = 0u;
  for (var j = 0; j < 6; j = j + 1) {
    let a = TWO_OPI[w + 5 - j];
    let b = TWO_OPI[w + 6 - j];
    var word = a;
    if (sh != 0u) { word = (a << sh) | (b >> (32u - sh)); }
    let pr = mul_wide(word, m);
    let s = pr.x + carry;
    r[j] = s;
    carry = pr.y + select(0u, 1u, s < carry);
  }
  var n = i32(r[5] >> 29u);
  let fneg = (r[5] & 0x10000000u) != 0u;
  r[5] = r[5] & 0x1fffffffu;
  if (fneg) {
    n = n + 1;
    var cy = 1u;
    for (var c = 0; c < 6; c = c + 1) {
      let v = ~r[c] + cy;
      cy = select(0u, 1u, cy == 1u && v == 0u);
      r[c] = v;
    }
    r[5] = r[5] & 0x1fffffffu;
  }
  var fe = 3;
  for (var k = 0; k < 5 && r[5] == 0u; k = k + 1) {
    for (var c = 5; c > 0; c = c - 1) { r[c] = r[c - 1]; }
    r[0] = 0u;
    fe = fe - 32;
  }
  var y = vec2<f32>(0.0, 0.0);
  if (r[5] != 0u) {
    let lz = countLeadingZeros(r[5]);
    var hi = r[5];
    var lo = r[4];
    if (lz > 0u) {
      hi = (r[5] << lz) | (r[4] >> (32u - lz));
      lo = (r[4] << lz) | (r[3] >> (32u - lz));
    }
    fe = fe - i32(lz);
    let h = ldexp(f32(hi >> 8u), fe - 24);
    let l = ldexp(f32(((hi & 0xffu) << 16u) | (lo >> 16u)), fe - 48);
    let PIO2_HI = 1.5707963705062866;
    let PIO2_LO = -4.3711390001862428e-8;
    let p = two_prod(h, PIO2_HI);
    let rl = p.y + (h * PIO2_LO + l * PIO2_HI);
    y = fast_two_sum(p.x, rl);
    if (fneg != (x < 0.0)) { y = -y; }
  }
  return vec3<f32>(y, f32(select(n, -n, x < 0.0)));
}
// (sin x, cos x).
fn m_sincos(x: f32) -> vec2<f32> {
  if (is_inf(x) || is_nan(x)) { return vec2<f32>(f_nan(), f_nan()); }
  if (abs(x) <= 0.78539816) {
    return vec2<f32>(select(f_ksin(x, 0.0), x, abs(x) < 1e-20), f_kcos(x, 0.0));
  }
  let r = f_rem_pio2(x);
  let ks = f_ksin(r.x, r.y);
  let kc = f_kcos(r.x, r.y);
  switch (i32(r.z) & 3) {
    case 0: { return vec2<f32>(ks, kc); }
    case 1: { return vec2<f32>(kc, -ks); }
    case 2: { return vec2<f32>(-ks, -kc); }
    default: { return vec2<f32>(-kc, ks); }
  }
}

// tanh: below 1/2 its Taylor series to x^19 (the terms fall by 0.1 each); below 1 t / (t + 2),
// below 9 1 - 2 / (t + 2), for t = expm1(2|x|) and t + 2 in a pair; then +-1.
fn m_tanh(x: f32) -> f32 {
  let jx = bitcast<i32>(x);
  let ix = jx & 0x7fffffff;
  if (ix >= 0x7f800000) {
    if (is_nan(x)) { return x; }
    return select(-1.0, 1.0, jx >= 0);
  }
  var z: f32;
  if (ix < 0x41100000) {
    if (ix < 0x39800000) { return x; }
    if (ix < 0x3f000000) {
      let zz = x * x;
      let q = -0.33333333333333333 + zz * (0.13333333333333333 + zz * (-0.05396825396825397 +
              zz * (0.021869488536155203 + zz * (-0.008863235529902197 + zz * (0.003592128036572481 +
              zz * (-0.0014558343870513183 + zz * (0.000590027440945586 + zz * -0.00023912911424355248)))))));
      return x + x * zz * q;
    }
    if (ix >= 0x3f800000) {
      let t = m_expm1(2.0 * abs(x));
      let d = two_sum(t, 2.0);
      let q = f_div(2.0, d.x);
      z = 1.0 - (q - q * (d.y / d.x));
    } else {
      let t = m_expm1(2.0 * abs(x));
      let d = two_sum(t, 2.0);
      let q = f_div(t, d.x);
      z = q - q * (d.y / d.x);
    }
  } else {
    z = 1.0;
  }
  return select(-z, z, jx >= 0);
}

fn m_erf(x: f32) -> f32 {
  let erx = 8.4506291151e-01;
  let efx = 1.2837916613e-01;
  let hx = bitcast<i32>(x);
  let ix = hx & 0x7fffffff;
  if (ix >= 0x7f800000) {
    if (is_nan(x)) { return x; }
    return select(-1.0, 1.0, hx >= 0);
  }
  if (ix < 0x3f580000) {
    if (ix < 0x31800000) { return x + efx * x; }
    let z = x * x;
    let r = 1.2837916613e-01 + z * (-3.2504209876e-01 + z * (-2.8481749818e-02 + z * (-5.7702702470e-03 + z * -2.3763017452e-05)));
    let s = 1.0 + z * (3.9791721106e-01 + z * (6.5022252500e-02 + z * (5.0813062117e-03 + z * (1.3249473704e-04 + z * -3.9602282413e-06))));
    return x + x * f_div(r, s);
  }
  if (ix < 0x3fa00000) {
    let s = abs(x) - 1.0;
    let P = -2.3621185683e-03 + s * (4.1485610604e-01 + s * (-3.7220788002e-01 + s * (3.1834661961e-01 + s * (-1.1089469492e-01 + s * (3.5478305072e-02 + s * -2.1663755178e-03)))));
    let Q = 1.0 + s * (1.0642088205e-01 + s * (5.4039794207e-01 + s * (7.1828655899e-02 + s * (1.2617121637e-01 + s * (1.3637083583e-02 + s * 1.1984500103e-02)))));
    if (hx >= 0) { return erx + f_div(P, Q); }
    return -erx - f_div(P, Q);
  }
  if (ix >= 0x40c00000) { return select(-1.0, 1.0, hx >= 0); }
  let ax = abs(x);
  let s = f_div(1.0, ax * ax);
  var Rv: f32;
  var S: f32;
  if (ix < 0x4036DB6E) {
    Rv = -9.8649440333e-03 + s * (-6.9385856390e-01 + s * (-1.0558626175e+01 + s * (-6.2375331879e+01 + s * (-1.6239666748e+02 + s * (-1.8460508728e+02 + s * (-8.1287437439e+01 + s * -9.8143291473e+00))))));
    S = 1.0 + s * (1.9651271820e+01 + s * (1.3765776062e+02 + s * (4.3456588745e+02 + s * (6.4538726807e+02 + s * (4.2900814819e+02 + s * (1.0863500214e+02 + s * (6.5702495575e+00 + s * -6.0424413532e-02)))))));
  } else {
    Rv = -9.8649431020e-03 + s * (-7.9928326607e-01 + s * (-1.7757955551e+01 + s * (-1.6063638306e+02 + s * (-6.3756646729e+02 + s * (-1.0250950928e+03 + s * -4.8351919556e+02)))));
    S = 1.0 + s * (3.0338060379e+01 + s * (3.2579251099e+02 + s * (1.5367296143e+03 + s * (3.1998581543e+03 + s * (2.5530502930e+03 + s * (4.7452853394e+02 + s * -2.2440952301e+01))))));
  }
  let z = bitcast<f32>(bitcast<u32>(ax) & 0xfffff000u);
  let d = keep(keep(z - ax) * keep(z + ax));
  let r = m_exp(-z * z - 0.5625) * m_exp(d + f_div(Rv, S));
  if (hx >= 0) { return 1.0 - f_div(r, ax); }
  return f_div(r, ax) - 1.0;
}
)";

// The c32 math library of the analytic kernels and pow (on kMathF32 and kComplex), from
// shaders/common/math_complex.glsl: the CPU's formulas (src/cpu/elementwise.cpp: accurate expm1
// and log1p, log|z| near |z| = 1 from log1p with exact squares, NumPy's pow at zeros) on the f32
// functions above, C99 Annex G special values as glibc; atan2 and hypot of fdlibm.
constexpr const char* kMathC32 = R"(
fn c_signbit(v: f32) -> bool { return (bitcast<u32>(v) >> 31u) != 0u; }
fn c_isfinite(v: f32) -> bool { return (bitcast<u32>(v) & 0x7f800000u) != 0x7f800000u; }
fn neg_zero() -> f32 { return bitcast<f32>(0x80000000u | unseen()); }
fn c_copysign(m: f32, s: f32) -> f32 {
  return bitcast<f32>((bitcast<u32>(m) & 0x7fffffffu) | (bitcast<u32>(s) & 0x80000000u));
}

fn f_atan(x_in: f32) -> f32 {
  var x = x_in;
  let hx = bitcast<i32>(x);
  let ix = hx & 0x7fffffff;
  var id = -1;
  if (ix >= 0x4c800000) {
    if (ix > 0x7f800000) { return x; }
    return select(-1.5707962513e+00 - 7.5497894159e-08, 1.5707962513e+00 + 7.5497894159e-08, hx > 0);
  }
  if (ix < 0x3ee00000) {
    if (ix < 0x39800000) { return x; }
  } else {
    x = abs(x);
    if (ix < 0x3f980000) {
      if (ix < 0x3f300000) {
        id = 0;
        x = f_div(2.0 * x - 1.0, 2.0 + x);
      } else {
        id = 1;
        x = f_div(x - 1.0, x + 1.0);
      }
    } else if (ix < 0x401c0000) {
      id = 2;
      x = f_div(x - 1.5, 1.0 + 1.5 * x);
    } else {
      id = 3;
      x = f_div(-1.0, x);
    }
  }
  let z = x * x;
  let w = z * z;
  let s1 = z * (3.3333328366e-01 + w * (1.4253635705e-01 + w * 6.1687607318e-02));
  let s2 = w * (-1.9999158382e-01 + w * -1.0648017377e-01);
  if (id < 0) { return x - x * (s1 + s2); }
  var hi: f32;
  var lo: f32;
  switch (id) {
    case 0: { hi = 4.6364760399e-01; lo = 5.0121582440e-09; }
    case 1: { hi = 7.8539812565e-01; lo = 3.7748947079e-08; }
    case 2: { hi = 9.8279368877e-01; lo = 3.4473217170e-08; }
    default: { hi = 1.5707962513e+00; lo = 7.5497894159e-08; }
  }
  let r = hi - ((x * (s1 + s2) - lo) - x);
  return select(r, -r, hx < 0);
}

fn m_atan2(y_in: f32, x_in: f32) -> f32 {
  var x = x_in;
  var y = y_in;
  let pi_o_4 = 7.8539818525e-01;
  let pi_o_2 = 1.5707963705e+00;
  let pi = 3.1415927410e+00;
  let pi_lo = -8.7422776573e-08;
  if (is_nan(x) || is_nan(y)) { return x + y; }
  if (bitcast<u32>(x) == 0x3f800000u) { return f_atan(y); }
  let sy = c_signbit(y);
  let sx = c_signbit(x);
  let m = select(0, 1, sy) | select(0, 2, sx);
  if (y == 0.0) {
    if (m < 2) { return y; }
    if (m == 2) { return pi + pi_lo; }
    return -pi - pi_lo;
  }
  if (x == 0.0) { return select(pi_o_2, -pi_o_2, sy); }
  if (is_inf(x)) {
    if (is_inf(y)) {
      let a = select(3.0 * pi_o_4, pi_o_4, m < 2);
      return select(a, -a, sy);
    }
    let a = select(pi + pi_lo, 0.0, m < 2);
    return select(a, -a, sy);
  }
  if (is_inf(y)) { return select(pi_o_2, -pi_o_2, sy); }
  if (max(abs(x), abs(y)) < f_pow2(-60)) {
    x = x * f_pow2(64);
    y = y * f_pow2(64);
  }
  let k = i32(bitcast<u32>(abs(y)) >> 23u) - i32(bitcast<u32>(abs(x)) >> 23u);
  var z: f32;
  if (k > 26) {
    z = pi_o_2 + 0.5 * pi_lo;
    return select(z, -z, sy);
  } else if (sx && k < -26) {
    z = 0.0;
  } else {
    z = f_atan(abs(f_div(y, x)));
  }
  switch (m) {
    case 0: { return z; }
    case 1: { return -z; }
    case 2: { return pi - (z - pi_lo); }
    default: { return (z - pi_lo) - pi; }
  }
}

// sqrt(x^2 + y^2) without overflow or underflow in the squares.
fn m_hypot(x: f32, y: f32) -> f32 {
  let a = abs(x);
  let b = abs(y);
  if (is_inf(a) || is_inf(b)) { return f_inf(); }
  if (is_nan(a) || is_nan(b)) { return a + b; }
  let m = max(a, b);
  let s = min(a, b);
  if (m == 0.0) { return 0.0; }
  let e = i32(bitcast<u32>(m) >> 23u) - 127;
  let sc = f_pow2(clamp(-e, -126, 126));
  let un = f_pow2(clamp(e, -126, 126));
  let u = m * sc;
  let v = s * sc;
  let uu = two_prod(u, u);
  let vv = two_prod(v, v);
  let hi = keep(uu.x + vv.x);
  let lo = keep(keep(uu.x - hi) + vv.x) + uu.y + vv.y;
  let q = m_sqrt(hi);
  return (q + lo * (0.5 / q)) * un;
}

// v h^2 (v / 2 h^2 when half) for h = exp(a / 2) >= 1, possibly inf: (v h) h.
fn times_sq(v: f32, h: f32, half: bool) -> f32 {
  if (v == 0.0 || !c_isfinite(v)) { return v; }
  if (is_inf(h)) { return c_copysign(f_inf(), v); }
  return keep(select(v, 0.5 * v, half) * h) * h;
}
// (sinh y, cosh y) without cancellation near 0 or overflow before the result does.
fn sinhcosh(y: f32) -> vec2<f32> {
  let a = abs(y);
  var sh: f32;
  var ch: f32;
  if (a < 9.0) {
    let t = m_expm1(a);
    let e = t + 1.0;
    sh = 0.5 * (t + f_div(t, e));
    ch = 0.5 * e + f_div(0.5, e);
  } else if (a < 88.0) {
    sh = 0.5 * m_exp(a);
    ch = sh;
  } else {
    sh = times_sq(1.0, m_exp(0.5 * a), true);
    ch = sh;
  }
  return vec2<f32>(select(sh, -sh, c_signbit(y)), ch);
}

fn cm_exp(z: vec2<f32>) -> vec2<f32> {
  if (is_inf(z.x) && !c_isfinite(z.y)) {
    if (z.x > 0.0) { return vec2<f32>(f_inf(), f_nan()); }
    return vec2<f32>(0.0, c_copysign(0.0, z.y));
  }
  if (z.y == 0.0) { return vec2<f32>(m_exp(z.x), z.y); }
  let sc = m_sincos(z.y);
  if (z.x > 88.0) {
    let h = m_exp(0.5 * z.x);
    return vec2<f32>(times_sq(sc.y, h, false), times_sq(sc.x, h, false));
  }
  let e = m_exp(z.x);
  return vec2<f32>(e * sc.y, e * sc.x);
}

// log|z|, accurately also near |z| = 1: log1p(x^2 + y^2 - 1) / 2 with exact squares.
fn cm_log_abs(x: f32, y: f32) -> f32 {
  if (is_nan(x) || is_nan(y)) { return select(f_nan(), f_inf(), is_inf(x) || is_inf(y)); }
  let ax = abs(x);
  let ay = abs(y);
  let mx = max(ax, ay);
  if (mx >= 0.5 && mx <= 2.0) {
    let mn = min(ax, ay);
    let a = two_prod(mx, mx);
    let b = two_prod(mn, mn);
    let s = two_sum(a.x, -1.0);
    let u = two_sum(s.x, b.x);
    return 0.5 * m_log1p(u.x + (u.y + (s.y + a.y + b.y)));
  }
  if (mx > 1.0e37) { return m_log(m_hypot(0.25 * x, 0.25 * y)) + 2.0 * m_log(2.0); }
  if (mx < f_pow2(-60)) {
    let up = f_pow2(60);
    return (m_log(m_hypot(x * up, y * up)) - 60.0 * 6.9313812256e-01) - 60.0 * 9.0580006145e-06;
  }
  return m_log(m_hypot(x, y));
}
fn cm_log(z: vec2<f32>) -> vec2<f32> { return vec2<f32>(cm_log_abs(z.x, z.y), m_atan2(z.y, z.x)); }

// sin(x + iy) and cos(x + iy), C99 Annex G special values as glibc csin / ccos.
fn cm_sin(z: vec2<f32>) -> vec2<f32> {
  let x = z.x;
  let y = z.y;
  if (!c_isfinite(x) || !c_isfinite(y)) {
    if (c_isfinite(y)) { return vec2<f32>(f_nan(), select(f_nan(), y, y == 0.0)); }
    if (is_inf(y)) {
      if (x == 0.0) { return z; }
      if (c_isfinite(x)) {
        let sc = m_sincos(x);
        return vec2<f32>(c_copysign(f_inf(), sc.x), select(f_inf(), -f_inf(), c_signbit(sc.y) != c_signbit(y)));
      }
      return vec2<f32>(f_nan(), f_inf());
    }
    return vec2<f32>(select(f_nan(), x, x == 0.0), f_nan());
  }
  let sc = m_sincos(x);
  if (abs(y) >= 88.0) {
    let h = m_exp(0.5 * abs(y));
    let re = times_sq(sc.x, h, true);
    return vec2<f32>(select(re, x, x == 0.0), times_sq(select(sc.y, -sc.y, c_signbit(y)), h, true));
  }
  let hc = sinhcosh(y);
  return vec2<f32>(select(sc.x * hc.y, x, x == 0.0), sc.y * hc.x);
}
fn cm_cos(z: vec2<f32>) -> vec2<f32> {
  let x = z.x;
  let y = z.y;
  if (!c_isfinite(x) || !c_isfinite(y)) {
    let u = -y;
    let v = x;
    if (c_isfinite(u)) { return vec2<f32>(f_nan(), select(f_nan(), 0.0, u == 0.0)); }
    if (is_inf(u)) {
      if (v == 0.0) { return vec2<f32>(f_inf(), select(0.0, neg_zero(), c_signbit(u) != c_signbit(v))); }
      if (c_isfinite(v)) {
        let sc = m_sincos(v);
        return vec2<f32>(c_copysign(f_inf(), sc.y), select(f_inf(), -f_inf(), c_signbit(sc.x) != c_signbit(u)));
      }
      return vec2<f32>(f_inf(), f_nan());
    }
    return vec2<f32>(f_nan(), select(f_nan(), v, v == 0.0));
  }
  let sc = m_sincos(x);
  let zero_im = select(neg_zero(), 0.0, c_signbit(x) != c_signbit(y));
  if (abs(y) >= 88.0) {
    let h = m_exp(0.5 * abs(y));
    let im = times_sq(select(sc.x, -sc.x, c_signbit(y)), h, true);
    return vec2<f32>(times_sq(sc.y, h, true), select(-im, zero_im, x == 0.0));
  }
  let hc = sinhcosh(y);
  return vec2<f32>(sc.y * hc.y, select(-(sc.x * hc.x), zero_im, x == 0.0));
}

// Kahan's algorithm (as FreeBSD ctanh); special values as glibc ctanh.
fn cm_tanh(z: vec2<f32>) -> vec2<f32> {
  let x = z.x;
  let y = z.y;
  if (!c_isfinite(x) || !c_isfinite(y)) {
    if (is_inf(x)) {
      var im = c_copysign(0.0, y);
      if (c_isfinite(y) && abs(y) > 1.0) {
        let sc = m_sincos(y);
        im = select(0.0, neg_zero(), c_signbit(sc.x) != c_signbit(sc.y));
      }
      return vec2<f32>(select(-1.0, 1.0, x > 0.0), im);
    }
    if (y == 0.0) { return z; }
    return vec2<f32>(select(f_nan(), x, x == 0.0), f_nan());
  }
  let sc = m_sincos(y);
  if (abs(x) >= 9.0) {
    let e = m_exp(-abs(x));
    return vec2<f32>(select(-1.0, 1.0, x > 0.0), 4.0 * sc.x * sc.y * e * e);
  }
  if (y == 0.0) { return vec2<f32>(m_tanh(x), y); }
  let t = f_div(sc.x, sc.y);
  let beta = 1.0 + t * t;
  let hc = sinhcosh(x);
  let rho = m_sqrt(1.0 + hc.x * hc.x);
  let den = 1.0 + beta * hc.x * hc.x;
  return vec2<f32>(f_div(beta * rho * hc.x, den), f_div(t, den));
}

// Principal sqrt (special values as glibc csqrt).
fn cm_sqrt(z: vec2<f32>) -> vec2<f32> {
  if (!c_isfinite(z.x) || !c_isfinite(z.y)) {
    if (is_inf(z.y)) { return vec2<f32>(f_inf(), z.y); }
    if (is_inf(z.x)) {
      if (z.x > 0.0) { return vec2<f32>(z.x, select(c_copysign(0.0, z.y), f_nan(), is_nan(z.y))); }
      return vec2<f32>(select(0.0, f_nan(), is_nan(z.y)), c_copysign(f_inf(), z.y));
    }
    return vec2<f32>(f_nan(), f_nan());
  }
  if (z.x == 0.0 && z.y == 0.0) { return vec2<f32>(0.0, z.y); }
  var ax = abs(z.x);
  var ay = abs(z.y);
  var sc = 1.0;
  let mx = max(ax, ay);
  if (mx > 1.0e37) {
    ax = ax * 0.25;
    ay = ay * 0.25;
    sc = 2.0;
  } else if (mx < f_pow2(-60)) {
    ax = ax * f_pow2(60);
    ay = ay * f_pow2(60);
    sc = f_pow2(-30);
  }
  let t0 = m_sqrt(0.5 * (ax + m_hypot(ax, ay)));
  let t = t0 * sc;
  let v = f_div(ay, 2.0 * t0) * sc;
  if (z.x >= 0.0) { return vec2<f32>(t, select(v, -v, c_signbit(z.y))); }
  return vec2<f32>(v, select(t, -t, c_signbit(z.y)));
}
// 1 / sqrt(z): Smith's division of 1 + 0i spelled out (the zero parts' signs as the CPU's);
// rsqrt(0) = inf + NaN i, 0 where sqrt(z) is infinite.
fn cm_rsqrt(z: vec2<f32>) -> vec2<f32> {
  let w = cm_sqrt(z);
  if (w.x == 0.0 && w.y == 0.0) { return vec2<f32>(f_inf(), f_nan()); }
  if (is_inf(w.x) || is_inf(w.y)) { return vec2<f32>(c_copysign(0.0, w.x), c_copysign(0.0, -w.y)); }
  var a = 1.0;
  var u = w.x;
  var v = w.y;
  if (max(abs(u), abs(v)) >= 8.507059173023462e37) {
    a = 0.25;
    u = u * 0.25;
    v = v * 0.25;
  }
  if (abs(u) >= abs(v)) {
    let r = v / u;
    let d = u + v * r;
    return vec2<f32>(f_div(a, d), select(f_div(-(a * r), d), c_copysign(0.0, d), r == 0.0));
  }
  let r = u / v;
  let d = v + u * r;
  return vec2<f32>(select(f_div(a * r, d), c_copysign(0.0, d), r == 0.0), f_div(-a, d));
}

// exp(z) - 1 = (expm1(x) cos y - 2 sin^2(y/2), exp(x) sin y).
fn cm_expm1(z: vec2<f32>) -> vec2<f32> {
  if (z.y == 0.0) { return vec2<f32>(m_expm1(z.x), z.y); }
  let sc = m_sincos(z.y);
  let h = m_sincos(0.5 * z.y);
  return vec2<f32>(m_expm1(z.x) * sc.y - 2.0 * h.x * h.x, m_exp(z.x) * sc.x);
}
// log(1 + z): log|1+z| = log1p(2x + x^2 + y^2) / 2 near 0 (the sum in pairs), arg atan2(y, 1 + x).
fn cm_log1p(z: vec2<f32>) -> vec2<f32> {
  let x = z.x;
  let y = z.y;
  var re: f32;
  if (abs(x) < 0.5 && abs(y) < 0.5) {
    let a = two_prod(x, x);
    let b = two_prod(y, y);
    let s = two_sum(2.0 * x, a.x);
    let u = two_sum(s.x, b.x);
    re = 0.5 * m_log1p(u.x + (u.y + (s.y + a.y + b.y)));
  } else {
    re = cm_log_abs(1.0 + x, y);
  }
  return vec2<f32>(re, m_atan2(y, 1.0 + x));
}
// The C99 Annex G product (libgcc __mulsc3, which the CPU's std::pow goes through): a NaN + NaN i
// product of an infinite factor and a nonzero one recovered as an infinity.
fn c_sgnmul(s: f32, v: f32) -> f32 {
  if (is_nan(v)) { return f_nan(); }
  var m: f32;
  if (is_inf(s)) { m = select(f_inf(), f_nan(), v == 0.0); } else { m = select(0.0, f_nan(), is_inf(v)); }
  return select(m, -m, c_signbit(s) != c_signbit(v));
}
fn c_box_inf(q: vec4<f32>) -> vec4<f32> {
  return vec4<f32>(c_copysign(select(0.0, 1.0, is_inf(q.x)), q.x), c_copysign(select(0.0, 1.0, is_inf(q.y)), q.y),
                   select(q.z, c_copysign(0.0, q.z), is_nan(q.z)), select(q.w, c_copysign(0.0, q.w), is_nan(q.w)));
}
fn cmul_g(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> {
  let r = cmul(a, b);
  if (!(is_nan(r.x) && is_nan(r.y))) { return r; }
  var q = vec4<f32>(a, b);
  var recalc = false;
  if (is_inf(q.x) || is_inf(q.y)) {
    q = c_box_inf(q);
    recalc = true;
  }
  if (is_inf(q.z) || is_inf(q.w)) {
    q = c_box_inf(q.zwxy).zwxy;
    recalc = true;
  }
  if (!recalc && (is_inf(a.x * b.x) || is_inf(a.y * b.y) || is_inf(a.x * b.y) || is_inf(a.y * b.x))) {
    q = vec4<f32>(select(q.x, c_copysign(0.0, q.x), is_nan(q.x)), select(q.y, c_copysign(0.0, q.y), is_nan(q.y)),
                  select(q.z, c_copysign(0.0, q.z), is_nan(q.z)), select(q.w, c_copysign(0.0, q.w), is_nan(q.w)));
    recalc = true;
  }
  if (!recalc) { return vec2<f32>(f_nan(), f_nan()); }
  return vec2<f32>(c_sgnmul(f_inf(), q.x * q.z - q.y * q.w), c_sgnmul(f_inf(), q.x * q.w + q.y * q.z));
}
fn dd_add(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> {
  let s = two_sum(a.x, b.x);
  return fast_two_sum(s.x, s.y + (a.y + b.y));
}
// log|x + iy| as a pair for finite parts, not both zero: the parts scaled exactly by 2^-e
// (the larger into [1, 2)), the sum of squares in a pair, its log from log2_dd.
fn log_abs_dd(x: f32, y: f32) -> vec2<f32> {
  var ax = abs(x);
  var ay = abs(y);
  var e0 = 0;
  if (max(ax, ay) < f_pow2(-100)) {
    ax = ax * f_pow2(64);
    ay = ay * f_pow2(64);
    e0 = -64;
  }
  let e = i32(bitcast<u32>(max(ax, ay)) >> 23u) - 127;
  let u = keep(ax * f_pow2(-(e / 2))) * f_pow2(-(e - e / 2));
  let v = keep(ay * f_pow2(-(e / 2))) * f_pow2(-(e - e / 2));
  let p = two_prod(u, u);
  let q = two_prod(v, v);
  let t = two_sum(p.x, q.x);
  let s = fast_two_sum(t.x, t.y + (p.y + q.y));
  let l2 = log2_dd(bitcast<u32>(s.x));
  let k = two_sum(f32(e + e0), 0.5 * l2.x);
  let g = fast_two_sum(k.x, k.y + 0.5 * l2.y);
  let r = dd_mul(g, vec2<f32>(bitcast<f32>(0x3f317218u), bitcast<f32>(0xb102e308u)));
  return fast_two_sum(r.x, r.y + 0.5 * (s.y / s.x));
}
// a^b = exp(b log a), NumPy's rules where a or b is zero (the CPU's): a^0 = 1; 0^b = 0 for b
// real and positive, else NaN. Finite operands (|b| < 2^60): b log a in pairs (log|a| in a
// pair, arg a = atan2 in f32), |a^b| = 2^(Re(b log a) / ln 2) from exp2_dd, the angle's sine and
// cosine from those of its two parts; so a large Re(b log a) keeps f32 accuracy. Other operands
// as the CPU: the Annex G product of b and log a, exponentiated.
fn cm_pow(a: vec2<f32>, b: vec2<f32>) -> vec2<f32> {
  if (b.x == 0.0 && b.y == 0.0) { return vec2<f32>(1.0, 0.0); }
  if (a.x == 0.0 && a.y == 0.0) {
    if (b.y == 0.0 && b.x > 0.0) { return vec2<f32>(0.0, 0.0); }
    return vec2<f32>(f_nan(), f_nan());
  }
  if (!c_isfinite(a.x) || !c_isfinite(a.y) || !(max(abs(b.x), abs(b.y)) < f_pow2(60))) {
    return cm_exp(cmul_g(b, cm_log(a)));
  }
  let lr = log_abs_dd(a.x, a.y);
  let li = m_atan2(a.y, a.x);
  let wr = dd_add(dd_mul(vec2<f32>(b.x, 0.0), lr), -two_prod(b.y, li));
  let wi = dd_add(two_prod(b.x, li), dd_mul(vec2<f32>(b.y, 0.0), lr));
  let z = dd_mul(wr, vec2<f32>(bitcast<f32>(0x3fb8aa3bu), bitcast<f32>(0x32a57060u)));
  var m: f32;
  if (z.x >= 129.0) {
    m = f_inf();
  } else if (z.x <= -152.0) {
    m = 0.0;
  } else {
    m = exp2_dd(z);
  }
  let h = m_sincos(wi.x);
  let l = m_sincos(wi.y);
  return vec2<f32>(m * (h.y * l.y - h.x * l.x), m * (h.x * l.y + h.y * l.x));
}
)";

// pow per C99 Annex F (the CPU's std::pow): the special values, a negative base only with an
// integral exponent (its sign from an odd one), else 2^(y log2 |x|) with y log2 |x| in a pair.
constexpr const char* kFloatPow = R"(
fn odd_int(y: f32) -> bool { return abs(y) < 16777216.0 && trunc(y) == y && (i32(y) & 1) != 0; }
fn f_pow(x: f32, y: f32) -> f32 {
  let ux = bitcast<u32>(x);
  if (y == 0.0 || ux == 0x3f800000u) { return 1.0; }
  if (is_nan(x) || is_nan(y)) { return f_nan(); }
  let ax = abs(x);
  let neg = (ux >> 31u) == 1u;
  let yodd = odd_int(y);
  if (is_inf(y)) {
    if (ax == 1.0) { return 1.0; }
    return select(f_inf(), 0.0, (ax < 1.0) == (y > 0.0));
  }
  if ((ux & 0x7fffffffu) == 0u) {
    let m = select(0.0, f_inf(), y < 0.0);
    return select(m, select(m, -m, neg), yodd);
  }
  if (is_inf(x)) {
    let m = select(0.0, f_inf(), y > 0.0);
    return select(m, select(m, -m, neg), yodd);
  }
  if (neg && trunc(y) != y) { return f_nan(); }
  let g = log2_dd(ux & 0x7fffffffu);
  let zh = y * g.x;
  var m: f32;
  if (is_inf(zh) || zh >= 129.0) {
    m = select(0.0, f_inf(), zh > 0.0);
  } else if (zh <= -152.0) {
    m = 0.0;
  } else {
    let z = two_prod(y, g.x);
    m = exp2_dd(fast_two_sum(z.x, z.y + y * g.y));
  }
  return select(m, -m, neg && yodd);
}
)";

// The expression of op on a (and b), or nullptr when there is no kernel for (op, d).
const char* expression(OpId op, DType d) {
  const bool c = d == DType::C32, f = d == DType::F32;
  switch (op) {
    case OpId::neg: return "-a";
    case OpId::conj: return c ? "vec2<f32>(a.x, -a.y)" : "a";
    case OpId::add: return "a + b";
    case OpId::sub: return "a - b";
    case OpId::mul: return c ? "cmul(a, b)" : "a * b";
    case OpId::div: return c ? "cdiv(a, b)" : f ? "a / b" : "i_div(a, b)";
    case OpId::rem: return c ? nullptr : f ? "f_rem(a, b)" : "i_rem(a, b)";
    case OpId::pow: return c ? "cm_pow(a, b)" : f ? "f_pow(a, b)" : "i_pow(a, b)";
    case OpId::maximum: return f ? "fmaximum(a, b)" : d == DType::I32 ? "max(a, b)" : nullptr;
    case OpId::minimum: return f ? "fminimum(a, b)" : d == DType::I32 ? "min(a, b)" : nullptr;
    case OpId::abs: return c ? "cabs(a)" : "abs(a)";  // i32: abs(MIN) is MIN
    case OpId::sign:
      return c ? "csign(a)" : f ? "select(select(a, -1.0, a < 0.0), 1.0, a > 0.0)"
                                : "select(select(0i, -1i, a < 0i), 1i, a > 0i)";
    case OpId::clamp: return f ? "fminimum(fmaximum(a, b), c)" : c ? nullptr : "min(max(a, b), c)";
    case OpId::exp: return f ? "m_exp(a)" : c ? "cm_exp(a)" : nullptr;
    case OpId::expm1: return f ? "m_expm1(a)" : c ? "cm_expm1(a)" : nullptr;
    case OpId::log: return f ? "m_log(a)" : c ? "cm_log(a)" : nullptr;
    case OpId::log1p: return f ? "m_log1p(a)" : c ? "cm_log1p(a)" : nullptr;
    case OpId::sin: return f ? "m_sincos(a).x" : c ? "cm_sin(a)" : nullptr;
    case OpId::cos: return f ? "m_sincos(a).y" : c ? "cm_cos(a)" : nullptr;
    case OpId::tanh: return f ? "m_tanh(a)" : c ? "cm_tanh(a)" : nullptr;
    case OpId::sqrt: return f ? "m_sqrt(a)" : c ? "cm_sqrt(a)" : nullptr;
    case OpId::rsqrt: return f ? "m_rsqrt(a)" : c ? "cm_rsqrt(a)" : nullptr;
    case OpId::erf: return f ? "m_erf(a)" : nullptr;
    default: return nullptr;
  }
}

// The zero of a WGSL type.
std::string zero_of(DType d) { return d == DType::C32 ? "vec2<f32>(0.0, 0.0)" : d == DType::F32 ? "0.0" : "0i"; }

// The merge of reduction op on acc and v, or nullptr when there is no kernel for (op, d).
const char* reduce_merge(OpId op, DType d) {
  const bool c = d == DType::C32, f = d == DType::F32, i = d == DType::I32;
  switch (op) {
    case OpId::reduce_sum: return "acc + v";
    case OpId::reduce_prod: return c ? "cmul(acc, v)" : "acc * v";
    case OpId::reduce_max: return f ? "fmaximum(acc, v)" : i ? "max(acc, v)" : nullptr;
    case OpId::reduce_min: return f ? "fminimum(acc, v)" : i ? "min(acc, v)" : nullptr;
    default: return nullptr;
  }
}

// Float sums: leaves of 64 elements summed in sequence, the leaves combined by a binary counter
// cascade (lv[k] holds the sum of 2^k leaves), so the error stays near (64 + log2 n) eps sum|x|.
constexpr const char* kCascadeStep = R"(
      leaf = leaf + v;
      fill = fill + 1u;
      if (fill == 64u) {
        var c = cnt;
        var k = 0u;
        var s = leaf;
        while ((c & 1u) != 0u) { s = lv[k] + s; c = c >> 1u; k = k + 1u; }
        lv[k] = s;
        cnt = cnt + 1u;
        leaf = ZERO;
        fill = 0u;
      }
)";
constexpr const char* kCascadeTotal = R"(
  var acc = leaf;
  for (var k = 0u; k < 32u; k = k + 1u) {
    if (((cnt >> k) & 1u) != 0u) { acc = lv[k] + acc; }
  }
)";

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

}  // namespace

Bits bits_of(DType d) {
  switch (dtype_size(d)) {
    case 1: return Bits::byte;
    case 4: return Bits::u32;
    case 8: return Bits::u32x2;
    default: return Bits::u32x4;
  }
}

std::vector<std::int32_t> layout_params(const Shape& shape, std::span<const Layout> operands,
                                        std::span<const std::int32_t> extra) {
  std::vector<std::int32_t> p;
  const auto r = static_cast<std::int32_t>(shape.size());
  std::int64_t n = 1;
  for (auto e : shape) n *= e;
  p.push_back(r);
  p.push_back(static_cast<std::int32_t>(static_cast<std::uint32_t>(n)));
  p.push_back(static_cast<std::int32_t>(operands.size()));
  for (auto e : shape) p.push_back(static_cast<std::int32_t>(e));
  for (const Layout& l : operands) {
    p.push_back(static_cast<std::int32_t>(l.offset));
    for (auto s : l.strides) p.push_back(static_cast<std::int32_t>(s));
  }
  p.insert(p.end(), extra.begin(), extra.end());
  return p;
}

Grid grid(std::uint64_t n, std::uint32_t max_per_dim) {
  const std::uint64_t groups = (n + 63) / 64;
  if (groups == 0) return {};
  const std::uint64_t x = std::min<std::uint64_t>(groups, max_per_dim);
  return {static_cast<std::uint32_t>(x), static_cast<std::uint32_t>((groups + x - 1) / x)};
}

std::string copy_wgsl(Bits b, bool triangular) {
  std::string s = kPrelude;
  // tril / triu: the element at (row, col) = (axis 0, axis 1) is kept when lower (extra word 1
  // != 0) and row >= col - k, or upper and row <= col - k (k: extra word 0), else zero.
  const std::string keep = R"(
fn keep(i: u32) -> bool {
  let m = u32(p[3]);
  let row = i32(i % m);
  let col = i32((i / m) % u32(p[4]));
  let k = extra(0u);
  if (extra(1u) != 0) { return row >= col - k; }
  return row <= col - k;
}
)";
  if (b == Bits::byte) {
    s += "@group(0) @binding(1) var<storage, read> src: array<u32>;\n"
         "@group(0) @binding(2) var<storage, read_write> dst: array<atomic<u32>>;\n";
    s += kByteWrite;
    if (triangular) s += keep;
    s += kMainHead;
    s += "  let o = at(1u, i);\n  let v = src[o >> 2u] >> ((o & 3u) * 8u);\n";
    s += triangular ? "  put_byte(at(0u, i), select(0u, v, keep(i)));\n}\n" : "  put_byte(at(0u, i), v);\n}\n";
    return s;
  }
  const std::string t = word_type(b);
  s += "@group(0) @binding(1) var<storage, read> src: array<" + t + ">;\n";
  s += "@group(0) @binding(2) var<storage, read_write> dst: array<" + t + ">;\n";
  if (triangular) s += keep;
  s += kMainHead;
  s += triangular ? "  dst[at(0u, i)] = select(" + t + "(), src[at(1u, i)], keep(i));\n}\n"
                  : std::string("  dst[at(0u, i)] = src[at(1u, i)];\n}\n");
  return s;
}

std::string fill_wgsl(Bits b) {
  std::string s = kPrelude;
  if (b == Bits::byte) {
    s += "@group(0) @binding(1) var<storage, read_write> dst: array<atomic<u32>>;\n";
    s += kByteWrite;
    s += kMainHead;
    s += "  put_byte(at(0u, i), bitcast<u32>(extra(0u)));\n}\n";
    return s;
  }
  const std::string t = word_type(b);
  s += "@group(0) @binding(1) var<storage, read_write> dst: array<" + t + ">;\n";
  s += kMainHead;
  switch (b) {
    case Bits::u32x2: s += "  dst[at(0u, i)] = vec2<u32>(bitcast<u32>(extra(0u)), bitcast<u32>(extra(1u)));\n}\n"; break;
    case Bits::u32x4:
      s += "  dst[at(0u, i)] = vec4<u32>(bitcast<u32>(extra(0u)), bitcast<u32>(extra(1u)), bitcast<u32>(extra(2u)), "
           "bitcast<u32>(extra(3u)));\n}\n";
      break;
    default: s += "  dst[at(0u, i)] = bitcast<u32>(extra(0u));\n}\n"; break;
  }
  return s;
}

namespace {

// The comparison of a and b in direction dir as a WGSL bool: false for every direction but NE
// when a NaN is involved (by its bits: WGSL may assume x == x); complex EQ and NE only.
std::string comparison(CompareDir dir, DType d) {
  if (d == DType::C32) {
    return dir == CompareDir::EQ ? "(!(cnan(a.x) || cnan(a.y) || cnan(b.x) || cnan(b.y)) && all(a == b))"
                                 : "(cnan(a.x) || cnan(a.y) || cnan(b.x) || cnan(b.y) || any(a != b))";
  }
  const char* op = "";
  switch (dir) {
    case CompareDir::EQ: op = "=="; break;
    case CompareDir::NE: op = "!="; break;
    case CompareDir::LT: op = "<"; break;
    case CompareDir::LE: op = "<="; break;
    case CompareDir::GT: op = ">"; break;
    case CompareDir::GE: op = ">="; break;
  }
  if (d != DType::F32) return std::string("a ") + op + " b";
  if (dir == CompareDir::NE) return "(is_nan(a) || is_nan(b) || a != b)";
  return std::string("(!is_nan(a) && !is_nan(b) && a ") + op + " b)";
}

}  // namespace

bool elementwise_supported(OpId op, DType d) {
  switch (op_info(op).family) {
    case OpFamily::select: return true;  // moves bits
    case OpFamily::compare: return wgsl_type(d) != nullptr || d == DType::Bool;
    case OpFamily::unary:
    case OpFamily::analytic:
    case OpFamily::binary:
    case OpFamily::clamp: return wgsl_type(d) != nullptr && expression(op, d) != nullptr;
    default: return false;
  }
}

bool elementwise_can_fail(OpId op, DType d) {
  return d == DType::I32 && (op == OpId::div || op == OpId::rem || op == OpId::pow);
}

namespace {

// The byte at element offset o of the u32 array x (a Bool: 0 or 1).
std::string byte_at(const std::string& x, const std::string& o) {
  return "((" + x + "[" + o + " >> 2u] >> ((" + o + " & 3u) * 8u)) & 0xFFu)";
}

// select(pred, on_true, on_false) on the bits of any dtype: the predicate a byte (binding 1), the
// operands and the output words or bytes (Bits b).
std::string select_wgsl(Bits b) {
  const bool byte = b == Bits::byte;
  const std::string t = byte ? "u32" : word_type(b);
  std::string s = kPrelude;
  s += "@group(0) @binding(1) var<storage, read> x0: array<u32>;\n";
  s += "@group(0) @binding(2) var<storage, read> x1: array<" + t + ">;\n";
  s += "@group(0) @binding(3) var<storage, read> x2: array<" + t + ">;\n";
  if (byte) {
    s += "@group(0) @binding(4) var<storage, read_write> dst: array<atomic<u32>>;\n";
    s += kByteWrite;
  } else {
    s += "@group(0) @binding(4) var<storage, read_write> out: array<" + t + ">;\n";
  }
  s += kMainHead;
  s += "  let o0 = at(1u, i);\n  let o1 = at(2u, i);\n  let o2 = at(3u, i);\n";
  s += "  let a = " + byte_at("x0", "o0") + ";\n";
  if (byte) {
    s += "  put_byte(at(0u, i), select(" + byte_at("x2", "o2") + ", " + byte_at("x1", "o1") + ", a != 0u));\n}\n";
  } else {
    s += "  out[at(0u, i)] = select(x2[o2], x1[o1], a != 0u);\n}\n";
  }
  return s;
}

}  // namespace

std::string elementwise_wgsl(OpId op, DType d, CompareDir dir) {
  TENFERRO_ASSERT(elementwise_supported(op, d));
  const OpFamily fam = op_info(op).family;
  if (fam == OpFamily::select) return select_wgsl(bits_of(d));
  const bool byte_in = d == DType::Bool;  // compare of Bool operands: their bytes as u32
  const std::string t = byte_in ? "u32" : wgsl_type(d);
  const int arity = fam == OpFamily::binary || fam == OpFamily::compare ? 2 : fam == OpFamily::clamp ? 3 : 1;
  const bool bool_out = fam == OpFamily::compare;
  const std::string out_t = op == OpId::abs && d == DType::C32 ? "f32" : t;
  std::string s = kPrelude;
  if (d == DType::C32) s += std::string(kFloatBits) + kComplex;
  if (d == DType::F32) s += std::string(kFloatBits) + kMinMax;
  if (elementwise_can_fail(op, d)) s += error_word(2 + arity) + kIntOps;
  if (d == DType::F32 && op == OpId::rem) s += kFloatRem;
  if (d == DType::F32 && op == OpId::pow) s += std::string(kDoubleF32) + kLog2Exp2 + kFloatPow;
  if (d == DType::F32 && op_info(op).family == OpFamily::analytic) s += std::string(kDoubleF32) + kMathF32;
  if (d == DType::C32 && (op_info(op).family == OpFamily::analytic || op == OpId::pow))
    s += std::string(kDoubleF32) + kLog2Exp2 + kMathF32 + kMathC32;
  const char* names[] = {"a", "b", "c"};
  for (int k = 0; k < arity; ++k)
    s += "@group(0) @binding(" + std::to_string(1 + k) + ") var<storage, read> x" + std::to_string(k) + ": array<" +
         t + ">;\n";
  const std::string ob = "@group(0) @binding(" + std::to_string(1 + arity) + ") var<storage, read_write> ";
  if (bool_out) {
    s += ob + "dst: array<atomic<u32>>;\n";
    s += kByteWrite;
  } else {
    s += ob + "out: array<" + out_t + ">;\n";
  }
  s += kMainHead;
  for (int k = 0; k < arity; ++k) {
    std::string o = "at(", x = "x";
    o += std::to_string(1 + k);
    o += "u, i)";
    x += std::to_string(k);
    s += "  let ";
    s += names[k];
    s += " = ";
    s += byte_in ? byte_at(x, o) : x + "[" + o + "]";
    s += ";\n";
  }
  if (bool_out)
    s += "  put_byte(at(0u, i), select(0u, 1u, " + comparison(dir, d) + "));\n}\n";
  else
    s += "  out[at(0u, i)] = " + std::string(expression(op, d)) + ";\n}\n";
  return s;
}

bool cast_supported(DType d) {
  return d == DType::F32 || d == DType::I32 || d == DType::C32 || d == DType::Bool;
}

bool cast_has_kernel(DType from, DType to) {
  if (from == to) return false;
  if (to == DType::I64) return from == DType::F32 || from == DType::F64;
  return cast_supported(from) && cast_supported(to);
}

bool cast_can_fail(DType from, DType to) {
  return (from == DType::F32 || from == DType::C32 || from == DType::F64) && (to == DType::I32 || to == DType::I64);
}

namespace {

// Float to I64 on integer words (WGSL has no 64-bit types): |value| = m * 2^sh with the
// significand m (p bits, top bit set, as two words lo, hi); the result's two words, or bad.
constexpr const char* kFloatToI64 = R"(
var<private> bad64: bool;
fn shl64(v: vec2<u32>, s: u32) -> vec2<u32> {
  if (s == 0u) { return v; }
  if (s >= 32u) { return vec2<u32>(0u, v.x << (s - 32u)); }
  return vec2<u32>(v.x << s, (v.y << s) | (v.x >> (32u - s)));
}
fn shr64(v: vec2<u32>, s: u32) -> vec2<u32> {
  if (s == 0u) { return v; }
  if (s >= 64u) { return vec2<u32>(0u, 0u); }
  if (s >= 32u) { return vec2<u32>(v.y >> (s - 32u), 0u); }
  return vec2<u32>((v.x >> s) | (v.y << (32u - s)), v.y >> s);
}
fn int64_of(m: vec2<u32>, p: i32, sh: i32, neg: bool, exact: bool) -> vec2<u32> {
  var r = vec2<u32>(0u, 0u);
  if (sh >= 0) {
    if (sh > 64 - p || (sh == 64 - p && !(neg && all(m == shl64(vec2<u32>(1u, 0u), u32(p - 1)))))) {
      bad64 = true;
      return r;
    }
    r = shl64(m, u32(sh));
  } else {
    let s = u32(-sh);
    r = shr64(m, s);
    if (exact && any(shl64(r, min(s, 63u)) != m)) {  // a nonzero fraction
      bad64 = true;
      return r;
    }
  }
  if (neg) {
    let lo = ~r.x + 1u;
    r = vec2<u32>(lo, ~r.y + select(0u, 1u, lo == 0u));
  }
  return r;
}
fn f64_to_i64(w: vec2<u32>, exact: bool) -> vec2<u32> {
  let e = i32((w.y >> 20u) & 0x7ffu);
  if (e == 0x7ff) { bad64 = true; return vec2<u32>(0u, 0u); }
  let frac = vec2<u32>(w.x, w.y & 0xfffffu);
  if (e == 0) {  // zero or subnormal: |value| < 1
    if (exact && any(frac != vec2<u32>(0u, 0u))) { bad64 = true; }
    return vec2<u32>(0u, 0u);
  }
  return int64_of(vec2<u32>(frac.x, frac.y | 0x100000u), 53, e - 1075, (w.y >> 31u) == 1u, exact);
}
fn f32_to_i64(u: u32, exact: bool) -> vec2<u32> {
  let e = i32((u >> 23u) & 0xffu);
  if (e == 0xff) { bad64 = true; return vec2<u32>(0u, 0u); }
  if (e == 0) {
    if (exact && (u & 0x7fffffu) != 0u) { bad64 = true; }
    return vec2<u32>(0u, 0u);
  }
  return int64_of(vec2<u32>((u & 0x7fffffu) | 0x800000u, 0u), 24, e - 150, (u >> 31u) == 1u, exact);
}
)";

}  // namespace

std::string cast_wgsl(DType from, DType to) {
  TENFERRO_ASSERT(cast_has_kernel(from, to));
  // Elements travel as their bits: v is the source's (a Bool's byte, one word, or a C32's two
  // words), r the result's; floats are only computed where the value changes (int <-> float).
  const auto raw_type = [](DType d) { return dtype_size(d) == 8 ? std::string("vec2<u32>") : std::string("u32"); };
  std::string s = kPrelude;
  s += "@group(0) @binding(1) var<storage, read> src: array<" + raw_type(from) + ">;\n";
  if (to == DType::Bool) {
    s += "@group(0) @binding(2) var<storage, read_write> dst: array<atomic<u32>>;\n";
    s += kByteWrite;
  } else {
    s += "@group(0) @binding(2) var<storage, read_write> dst: array<" + raw_type(to) + ">;\n";
  }
  const bool can_fail = cast_can_fail(from, to);
  if (can_fail) {
    // Truncation toward zero; a NaN or infinity (by the exponent bits: WGSL may assume finite
    // values), a truncation outside [-2^31, 2^31) or, when exact (extra word 0), a non-integral
    // value sets the error word (binding 3) and writes 0.
    s += error_word(3);
    s += R"(
fn to_i32(u: u32) -> u32 {
  let x = bitcast<f32>(u);
  let t = trunc(x);
  var bad = (u & 0x7f800000u) == 0x7f800000u || !(t >= -2147483648.0 && t < 2147483648.0);
  if (extra(0u) != 0 && (t != x || (t == 0.0 && (u & 0x7fffffffu) != 0u))) { bad = true; }
  if (bad) {
    fail_with(1u);
    return 0u;
  }
  return bitcast<u32>(i32(t));
}
)";
  }
  if (to == DType::I64) {
    s += kFloatToI64;
    s += kMainHead;
    s += "  bad64 = false;\n  let v = src[at(1u, i)];\n";
    s += std::string("  let r = ") + (from == DType::F64 ? "f64_to_i64" : "f32_to_i64") + "(v, extra(0u) != 0);\n";
    s += "  if (bad64) { fail_with(1u); }\n  dst[at(0u, i)] = select(r, vec2<u32>(0u, 0u), bad64);\n}\n";
    return s;
  }
  s += kMainHead;
  if (from == DType::Bool) s += "  let o = at(1u, i);\n  let v = (src[o >> 2u] >> ((o & 3u) * 8u)) & 0xFFu;\n";
  else s += "  let v = src[at(1u, i)];\n";
  // The source as an f32's bits (Bool: 1.0 / 0.0; C32: the real part), for float targets.
  std::string f;
  switch (from) {
    case DType::Bool: f = "select(0u, 0x3f800000u, v != 0u)"; break;
    case DType::I32: f = "bitcast<u32>(f32(bitcast<i32>(v)))"; break;
    case DType::C32: f = "v.x"; break;
    default: f = "v"; break;
  }
  std::string r;
  switch (to) {
    case DType::Bool:  // x != 0: a NaN counts as nonzero, -0 as zero; complex: either part
      r = from == DType::C32   ? "((v.x | v.y) & 0x7fffffffu) != 0u"
          : from == DType::F32 ? "(v & 0x7fffffffu) != 0u"
                               : "v != 0u";
      s += "  put_byte(at(0u, i), select(0u, 1u, " + r + "));\n}\n";
      return s;
    case DType::I32: r = from == DType::Bool ? "select(0u, 1u, v != 0u)" : "to_i32(" + f + ")"; break;
    case DType::F32: r = f; break;
    default:  // C32: (x, 0), or C32's own bits
      r = "vec2<u32>(" + f + ", 0u)";
      break;
  }
  s += "  dst[at(0u, i)] = " + r + ";\n}\n";
  return s;
}

namespace {

// The geometry of gather / scatter (kernels.hpp, indexing_wgsl): element i of "big" to its
// offsets in the operand and in big. Index values of I64 indices outside i32 saturate to
// -2^31 or 2^31 - 1; the bounds checks below never add to a start before comparing it.
constexpr const char* kLocate = R"(
var<private> op_off: i32;
var<private> big_off: i32;
fn index_at(o: i32) -> i32 {
  if ((ix(7u) & 2) == 0) { return bitcast<i32>(idx[u32(o)]); }
  let lo = idx[2u * u32(o)];
  let hi = idx[2u * u32(o) + 1u];
  if (hi == select(0u, 0xFFFFFFFFu, (lo >> 31u) == 1u)) { return bitcast<i32>(lo); }
  return select(2147483647, -2147483647 - 1, (hi >> 31u) == 1u);
}
fn ix(w: u32) -> i32 { return extra(w); }
fn locate(i: u32) -> bool {
  let nb = u32(ix(0u));
  let nw = u32(ix(1u));
  let nv = u32(ix(2u));
  let skip = (ix(7u) & 1) != 0;
  let ivs = ix(3u);
  let win_numel = u32(ix(8u));
  var w = i / win_numel;
  var r = i % win_numel;
  var oo = ix(6u);
  var bo = ix(4u);
  var io = ix(5u);
  var at = 12u;
  for (var k = 0u; k < nb; k = k + 1u) {
    let e = u32(ix(at));
    let c = i32(w % e);
    w = w / e;
    bo = bo + c * ix(at + 1u);
    io = io + c * ix(at + 2u);
    oo = oo + c * ix(at + 3u);
    at = at + 4u;
  }
  for (var a = 0u; a < nw; a = a + 1u) {
    let e = u32(ix(at));
    let c = i32(r % e);
    r = r / e;
    oo = oo + c * ix(at + 1u);
    bo = bo + c * ix(at + 2u);
    if (skip && ix(at + 3u) >= 0) {  // the dim's start + c must lie inside the operand
      let st = index_at(io + ix(at + 3u) * ivs);
      if (st < -c || st >= ix(at + 4u) - c) { return false; }
    }
    at = at + 5u;
  }
  for (var j = 0u; j < nv; j = j + 1u) {
    var st = index_at(io + i32(j) * ivs);
    let room = ix(at + 1u);
    if (st < 0 || st > room) {
      if (skip) {
        if (ix(at + 2u) == 0) { return false; }  // no window axis: the start itself is outside
      } else {
        st = select(room, 0, st < 0);
      }
    }
    oo = oo + st * ix(at);
    at = at + 3u;
  }
  op_off = oo;
  big_off = bo;
  return true;
}
)";

}  // namespace

bool gather_supported(DType) { return true; }

bool scatter_supported(DType d) { return wgsl_type(d) != nullptr || d == DType::Bool; }

std::string gather_wgsl(Bits b) {
  std::string s = kPrelude;
  const bool byte = b == Bits::byte;
  const std::string t = byte ? "u32" : word_type(b);
  if (byte) {
    s += "@group(0) @binding(1) var<storage, read_write> dst: array<atomic<u32>>;\n";
    s += kByteWrite;
  } else {
    s += "@group(0) @binding(1) var<storage, read_write> out: array<" + t + ">;\n";
  }
  s += "@group(0) @binding(2) var<storage, read> x: array<" + t + ">;\n";
  s += "@group(0) @binding(3) var<storage, read> idx: array<u32>;\n";
  s += kLocate;
  s += kMainHead;
  s += "  locate(i);\n";
  if (byte) s += "  let o = u32(op_off);\n  put_byte(u32(big_off), x[o >> 2u] >> ((o & 3u) * 8u));\n}\n";
  else s += "  out[u32(big_off)] = x[u32(op_off)];\n}\n";
  return s;
}

bool scatter_concurrent(DType d, ScatterCombiner c) {
  if (c == ScatterCombiner::replace) return dtype_size(d) <= 4;
  return d == DType::I32 || d == DType::F32 || (d == DType::C32 && c == ScatterCombiner::add);
}

std::string scatter_wgsl(DType d, ScatterCombiner c) {
  const Bits b = bits_of(d);
  const bool replace = c == ScatterCombiner::replace;
  TENFERRO_ASSERT(replace || (scatter_supported(d) && d != DType::Bool));
  const bool byte = b == Bits::byte;
  const bool i32 = d == DType::I32 && !replace;
  // out's words: atomic (a byte's word, an i32 for signed max / min, else u32 bits).
  const std::string aw = i32 ? "i32" : "u32";
  const int words = b == Bits::u32x4 ? 4 : b == Bits::u32x2 ? 2 : 1;
  std::string s = kPrelude;
  if (d == DType::C32) s += kComplex;
  if (d == DType::F32) s += std::string(kFloatBits) + kMinMax;
  s += "@group(0) @binding(1) var<storage, read_write> dst: array<atomic<" + aw + ">>;\n";
  s += "@group(0) @binding(2) var<storage, read> x: array<" + (byte ? std::string("u32") : i32 ? std::string("i32") : std::string(word_type(b))) + ">;\n";
  s += "@group(0) @binding(3) var<storage, read> idx: array<u32>;\n";
  if (byte) s += kByteWrite;
  s += kLocate;
  // load / store of one element of out (plain: atomics used as loads and stores) and the update.
  std::string load, store, upd;
  if (byte) {
    upd = "  let bo = u32(big_off);\n  let v = x[bo >> 2u] >> ((bo & 3u) * 8u);\n";
  } else if (replace || d == DType::I32) {
    upd = "  let v = x[u32(big_off)];\n";
  } else if (d == DType::F32) {
    upd = "  let v = bitcast<f32>(x[u32(big_off)]);\n";
  } else {  // C32
    upd = "  let v = bitcast<vec2<f32>>(x[u32(big_off)]);\n";
  }
  // combine(old, v): the value to store.
  std::string comb;
  if (!replace) {
    const char* m = nullptr;
    switch (c) {
      case ScatterCombiner::add: m = "a + v"; break;
      case ScatterCombiner::mul: m = d == DType::C32 ? "cmul(a, v)" : "a * v"; break;
      case ScatterCombiner::max: m = d == DType::F32 ? "fmaximum(a, v)" : "max(a, v)"; break;
      case ScatterCombiner::min: m = d == DType::F32 ? "fminimum(a, v)" : "min(a, v)"; break;
      default: break;
    }
    TENFERRO_ASSERT(m != nullptr);
    comb = m;
  }
  // Plain read-modify-write (one window over an injective out, or the serial passes).
  s += "fn plain(o: u32, i: u32) {\n";
  if (byte) {
    s += upd + "  put_byte(o, v);\n}\n";
  } else if (replace) {
    s += upd;
    if (words == 1) s += "  atomicStore(&dst[o], v);\n";
    for (int k = 0; k < words && words > 1; ++k)
      s += "  atomicStore(&dst[" + std::to_string(words) + "u * o + " + std::to_string(k) + "u], v[" +
           std::to_string(k) + "]);\n";
    s += "}\n";
  } else if (d == DType::I32) {
    s += upd + "  let a = atomicLoad(&dst[o]);\n  atomicStore(&dst[o], " + comb + ");\n}\n";
  } else if (d == DType::F32) {
    s += upd + "  let a = bitcast<f32>(atomicLoad(&dst[o]));\n  atomicStore(&dst[o], bitcast<u32>(" + comb + "));\n}\n";
  } else {
    s += upd +
         "  let a = bitcast<vec2<f32>>(vec2<u32>(atomicLoad(&dst[2u * o]), atomicLoad(&dst[2u * o + 1u])));\n"
         "  let r = bitcast<vec2<u32>>(" + comb + ");\n"
         "  atomicStore(&dst[2u * o], r.x);\n  atomicStore(&dst[2u * o + 1u], r.y);\n}\n";
  }
  // Concurrent combine, where duplicate targets may meet: atomics or compare-and-swap loops.
  const bool concurrent = scatter_concurrent(d, c);
  if (concurrent && (d == DType::F32 || d == DType::C32) && !replace) {
    // f32 words by compare-and-swap on their bits (C32 add: each part on its own).
    const std::string m = d == DType::C32 ? "a + v" : comb;
    s += "fn cas(w: u32, v: f32) {\n  var cur = atomicLoad(&dst[w]);\n  loop {\n"
         "    let a = bitcast<f32>(cur);\n    let nb = bitcast<u32>(" + m + ");\n"
         "    if (nb == cur) { break; }\n"
         "    let r = atomicCompareExchangeWeak(&dst[w], cur, nb);\n"
         "    if (r.exchanged) { break; }\n    cur = r.old_value;\n  }\n}\n";
  }
  if (concurrent) {
    s += "fn shared_combine(o: u32, i: u32) {\n";
    if (byte || replace) {
      s += "  plain(o, i);\n}\n";
    } else if (d == DType::I32) {
      s += upd;
      switch (c) {
        case ScatterCombiner::add: s += "  atomicAdd(&dst[o], v);\n}\n"; break;
        case ScatterCombiner::max: s += "  atomicMax(&dst[o], v);\n}\n"; break;
        case ScatterCombiner::min: s += "  atomicMin(&dst[o], v);\n}\n"; break;
        default:
          s += "  var a = atomicLoad(&dst[o]);\n  loop {\n"
               "    let r = atomicCompareExchangeWeak(&dst[o], a, " + comb + ");\n"
               "    if (r.exchanged) { break; }\n    a = r.old_value;\n  }\n}\n";
      }
    } else if (d == DType::F32) {
      s += upd + "  cas(o, v);\n}\n";
    } else {
      s += upd + "  cas(2u * o, v.x);\n  cas(2u * o + 1u, v.y);\n}\n";
    }
  }
  // Header word 9: the mode (kernels.hpp).
  s += kMainHead;
  s += R"(  let mode = ix(9u);
  if (mode == 2) {
    if (i != 0u) { return; }
    let first = u32(ix(10u));
    let count = u32(ix(11u));
    for (var j = first; j < first + count; j = j + 1u) {
      if (locate(j)) { plain(u32(op_off), j); }
    }
    return;
  }
  if (!locate(i)) { return; }
)";
  if (concurrent) s += "  if (mode == 1) { plain(u32(op_off), i); } else { shared_combine(u32(op_off), i); }\n}\n";
  else s += "  plain(u32(op_off), i);\n}\n";
  return s;
}

bool reduce_supported(OpId op, DType d) { return wgsl_type(d) != nullptr && reduce_merge(op, d) != nullptr; }

std::string reduce_wgsl(OpId op, DType d) {
  TENFERRO_ASSERT(reduce_supported(op, d));
  const std::string t = wgsl_type(d);
  const bool cascade = op == OpId::reduce_sum && d != DType::I32;
  std::string s = kPrelude;
  if (d == DType::C32) s += kComplex;
  if (d == DType::F32) s += std::string(kFloatBits) + kMinMax;
  s += "@group(0) @binding(1) var<storage, read> x: array<" + t + ">;\n";
  s += "@group(0) @binding(2) var<storage, read_write> out: array<" + t + ">;\n";
  s += "fn rn(k: u32) -> u32 { return u32(extra(3u + 2u * k)); }\n";
  s += "fn rs(k: u32) -> i32 { return extra(4u + 2u * k); }\n";
  s += kMainHead;
  s += R"(  let parts = u32(extra(0u));
  let chunk = u32(extra(1u));
  let nr = u32(extra(2u));
  let xb = i32(at(1u, i));
  var total = 1u;
  for (var k = 0u; k < nr; k = k + 1u) { total = total * rn(k); }
  let start = (i / (numel() / parts)) * chunk;
  let end = min(start + chunk, total);
  let n0 = rn(0u);
  let s0 = rs(0u);
)";
  if (cascade) {
    s += "  var leaf = ZERO;\n  var lv: array<" + t + ", 32>;\n  var cnt = 0u;\n  var fill = 0u;\n";
  } else if (op == OpId::reduce_sum) {
    s += "  var acc = ZERO;\n";
  } else if (op == OpId::reduce_prod) {
    s += std::string("  var acc = ") + (d == DType::C32 ? "vec2<f32>(1.0, 0.0)" : d == DType::F32 ? "1.0" : "1i") +
         ";\n";
  } else {
    s += "  var acc = ZERO;\n  var first = true;\n";
  }
  // Row by row along the first reduced axis: the offset of a row's first element from the
  // flat reduced index, then a strided walk.
  s += R"(  var j = start;
  while (j < end) {
    let i0 = j % n0;
    var rem = j / n0;
    var off = xb + i32(i0) * s0;
    for (var k = 1u; k < nr; k = k + 1u) {
      let e = rn(k);
      off = off + i32(rem % e) * rs(k);
      rem = rem / e;
    }
    let stop = min(end, j - i0 + n0);
    for (; j < stop; j = j + 1u) {
      let v = x[u32(off)];
      off = off + s0;
)";
  if (cascade) s += kCascadeStep;
  else if (op == OpId::reduce_max || op == OpId::reduce_min)
    s += "      acc = select(" + std::string(reduce_merge(op, d)) + ", v, first);\n      first = false;\n";
  else s += "      acc = " + std::string(reduce_merge(op, d)) + ";\n";
  s += "    }\n  }\n";
  if (cascade) s += kCascadeTotal;
  s += "  out[at(0u, i)] = acc;\n}\n";
  return replace_all(s, "ZERO", zero_of(d));
}

bool gemm_supported(DType d) { return d == DType::F32 || d == DType::C32; }

std::string gemm_wgsl(DType d) {
  TENFERRO_ASSERT(gemm_supported(d));
  const bool c = d == DType::C32;
  const std::string t = wgsl_type(d);
  std::string s = kPrelude;
  if (c) s += kComplex;
  s += "@group(0) @binding(1) var<storage, read> a: array<" + t + ">;\n";
  s += "@group(0) @binding(2) var<storage, read> b: array<" + t + ">;\n";
  s += "@group(0) @binding(3) var<storage, read_write> cc: array<" + t + ">;\n";
  if (c) {
    s += R"(
fn scalar(w: u32) -> vec2<f32> { return vec2<f32>(bitcast<f32>(extra(w)), bitcast<f32>(extra(w + 1u))); }
fn conj_if(v: vec2<f32>, on: bool) -> vec2<f32> { return select(v, vec2<f32>(v.x, -v.y), on); }
fn madd(acc: vec2<f32>, x: vec2<f32>, y: vec2<f32>) -> vec2<f32> {
  return vec2<f32>(acc.x + (x.x * y.x - x.y * y.y), acc.y + (x.x * y.y + x.y * y.x));
}
fn coef(s: vec2<f32>, v: vec2<f32>) -> vec2<f32> { return select(cmul(s, v), s.x * v, s.y == 0.0); }
)";
  } else {
    s += R"(
fn scalar(w: u32) -> f32 { return bitcast<f32>(extra(w)); }
fn conj_if(v: f32, on: bool) -> f32 { return v; }
fn madd(acc: f32, x: f32, y: f32) -> f32 { return acc + x * y; }
fn coef(s: f32, v: f32) -> f32 { return s * v; }
)";
  }
  s += kMainHead;
  s += R"(  let M = u32(p[3]);
  let N = u32(p[4]);
  let m = i32(i % M);
  let n = i32((i / M) % N);
  let bt = i32(i / (M * N));
  let K = u32(extra(0u));
  let flags = u32(extra(13u));
  let co = at(0u, i);
  let beta_zero = (flags & 4u) != 0u;
  var r = ZERO;
  if (K > 0u) {
    var ao = extra(1u) + m * extra(2u) + bt * extra(4u);
    var bo = extra(5u) + n * extra(7u) + bt * extra(8u);
    let sa = extra(3u);
    let sb = extra(6u);
    var acc = ZERO;
    for (var k = 0u; k < K; k = k + 1u) {
      acc = madd(acc, conj_if(a[u32(ao)], (flags & 1u) != 0u), conj_if(b[u32(bo)], (flags & 2u) != 0u));
      ao = ao + sa;
      bo = bo + sb;
    }
    r = coef(scalar(9u), acc);
    if (!beta_zero) { r = r + coef(scalar(11u), cc[co]); }
  } else if (!beta_zero) {
    r = coef(scalar(11u), cc[co]);
  }
  cc[co] = r;
}
)";
  return replace_all(s, "ZERO", zero_of(d));
}


std::uint32_t gemm_tile(DType d) { return d == DType::C32 ? 64u : 128u; }

// The tiled kernel's source is written out per dtype: L elements per vec4 (4 f32, 2 c32 as
// (re, im, re, im)); an invocation holds 2 x 2 x L vec4 accumulators acc<p><q><j>: rows
// (p * 16 + tx) * L + [0, L) of the tile, column (q * 16 + ty) * L + j.
std::string gemm_tiled_wgsl(DType d) {
  TENFERRO_ASSERT(gemm_supported(d));
  const bool c = d == DType::C32;
  const int L = c ? 2 : 4;
  const std::string t = wgsl_type(d), Ls = std::to_string(L) + "u";
  const char* lane[] = {"x", "y", "z", "w"};
  std::string s = kPrelude;
  if (c) s += kComplex;
  s += "@group(0) @binding(1) var<storage, read> a: array<" + t + ">;\n";
  s += "@group(0) @binding(2) var<storage, read> b: array<" + t + ">;\n";
  s += "@group(0) @binding(3) var<storage, read_write> cc: array<" + t + ">;\n";
  s += "var<workgroup> As: array<vec4<f32>, 256>;\nvar<workgroup> Bs: array<vec4<f32>, 256>;\n";
  // load(x, o, i, n, s, cj): the L elements of x at offsets o + e * s (e < L, i + e < n), zero
  // past n, conjugated when cj.
  s += "fn load_a(o: i32, i: u32, n: u32, st: i32, cj: bool) -> vec4<f32> {\n  var v = vec4<f32>(0.0);\n";
  std::string body;
  for (int e = 0; e < L; ++e) {
    const std::string cond = "i + " + std::to_string(e) + "u < n", at = "X[u32(o + " + std::to_string(e) + " * st)]";
    if (c)
      body += "  if (" + cond + ") { let w = " + at + "; v." + lane[2 * e] + " = w.x; v." + lane[2 * e + 1] + " = w.y; }\n";
    else
      body += "  if (" + cond + ") { v." + std::string(lane[e]) + " = " + at + "; }\n";
  }
  body += c ? "  return select(v, v * vec4<f32>(1.0, -1.0, 1.0, -1.0), cj);\n}\n" : "  return v;\n}\n";
  s += replace_all(body, "X[", "a[");
  s += "fn load_b(o: i32, i: u32, n: u32, st: i32, cj: bool) -> vec4<f32> {\n  var v = vec4<f32>(0.0);\n";
  s += replace_all(body, "X[", "b[");
  if (c) {
    s += R"(
fn scalar(w: u32) -> vec2<f32> { return vec2<f32>(bitcast<f32>(extra(w)), bitcast<f32>(extra(w + 1u))); }
fn coef(s: vec2<f32>, v: vec2<f32>) -> vec2<f32> { return select(cmul(s, v), s.x * v, s.y == 0.0); }
)";
  } else {
    s += R"(
fn scalar(w: u32) -> f32 { return bitcast<f32>(extra(w)); }
fn coef(s: f32, v: f32) -> f32 { return s * v; }
)";
  }
  s += "fn put(m: u32, n: u32, bt: i32, v: " + t + R"(, beta_zero: bool) {
  if (m >= u32(p[3]) || n >= u32(p[4])) { return; }
  let co = u32(p[6] + i32(m) * p[7] + i32(n) * p[8] + bt * p[9]);
  var r = coef(scalar(9u), v);
  if (!beta_zero) { r = r + coef(scalar(11u), cc[co]); }
  cc[co] = r;
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) li: u32) {
  let M = u32(p[3]);
  let N = u32(p[4]);
  let K = u32(extra(0u));
  let flags = u32(extra(13u));
  let bt = i32(wg.z) + extra(14u);
  let m0 = wg.x * 32u * LANES;
  let n0 = wg.y * 32u * LANES;
  let ao = extra(1u) + bt * extra(4u);
  let sam = extra(2u);
  let sak = extra(3u);
  let bo = extra(5u) + bt * extra(8u);
  let sbk = extra(6u);
  let sbn = extra(7u);
  let ca = (flags & 1u) != 0u;
  let cb = (flags & 2u) != 0u;
  // The slab element this invocation loads: k-step ak (bk) and vec4 av (bv) of the tile row.
  var ak = li / 32u;
  var av = li % 32u;
  if ((flags & 8u) != 0u) { ak = li % 8u; av = li / 8u; }
  var bk = li / 32u;
  var bv = li % 32u;
  if ((flags & 16u) != 0u) { bk = li % 8u; bv = li / 8u; }
  let ma = m0 + av * LANES;
  let nb = n0 + bv * LANES;
  let tx = li % 16u;
  let ty = li / 16u;
  var ra = vec4<f32>(0.0);
  var rb = vec4<f32>(0.0);
  if (ak < K) { ra = load_a(ao + i32(ma) * sam + i32(ak) * sak, ma, M, sam, ca); }
  if (bk < K) { rb = load_b(bo + i32(bk) * sbk + i32(nb) * sbn, nb, N, sbn, cb); }
)";
  for (int pq = 0; pq < 4; ++pq)
    for (int j = 0; j < L; ++j) s += "  var acc" + std::to_string(pq) + std::to_string(j) + " = vec4<f32>(0.0);\n";
  s += R"(  for (var k0 = 0u; k0 < K; k0 = k0 + 8u) {
    As[ak * 32u + av] = ra;
    Bs[bk * 32u + bv] = rb;
    workgroupBarrier();
    let ka = k0 + 8u + ak;
    let kb = k0 + 8u + bk;
    ra = vec4<f32>(0.0);
    rb = vec4<f32>(0.0);
    if (ka < K) { ra = load_a(ao + i32(ma) * sam + i32(ka) * sak, ma, M, sam, ca); }
    if (kb < K) { rb = load_b(bo + i32(kb) * sbk + i32(nb) * sbn, nb, N, sbn, cb); }
)";
  for (int kk = 0; kk < 8; ++kk) {
    const std::string r = std::to_string(kk * 32) + "u";
    s += "    {\n      let a0 = As[" + r + " + tx];\n      let a1 = As[" + r + " + 16u + tx];\n";
    s += "      let b0 = Bs[" + r + " + ty];\n      let b1 = Bs[" + r + " + 16u + ty];\n";
    for (int pa = 0; pa < 2; ++pa)
      for (int q = 0; q < 2; ++q)
        for (int j = 0; j < L; ++j) {
          const std::string acc{'a', 'c', 'c', char('0' + pa * 2 + q), char('0' + j)}, av{'a', char('0' + pa)},
              bq{'b', char('0' + q)};
          if (c) {
            const std::string br = bq + "." + lane[2 * j], bi = bq + "." + lane[2 * j + 1];
            s += "      " + acc + " = fma(" + av + ", vec4<f32>(" + br + "), " + acc + ");\n";
            s += "      " + acc + " = fma(" + av + ".yxwz, vec4<f32>(-" + bi + ", " + bi + ", -" + bi + ", " + bi + "), " + acc +
                 ");\n";
          } else {
            s += "      " + acc + " = fma(" + av + ", vec4<f32>(" + bq + "." + lane[j] + "), " + acc + ");\n";
          }
        }
    s += "    }\n";
  }
  s += "    workgroupBarrier();\n  }\n  let bz = (flags & 4u) != 0u;\n";
  for (int pa = 0; pa < 2; ++pa)
    for (int q = 0; q < 2; ++q)
      for (int j = 0; j < L; ++j)
        for (int i = 0; i < L; ++i) {
          const std::string acc = "acc" + std::to_string(pa * 2 + q) + std::to_string(j);
          const std::string v = c ? acc + (i == 0 ? ".xy" : ".zw") : acc + "." + lane[i];
          s += "  put(m0 + (" + std::to_string(pa * 16) + "u + tx) * LANES + " + std::to_string(i) + "u, n0 + (" +
               std::to_string(q * 16) + "u + ty) * LANES + " + std::to_string(j) + "u, bt, " + v + ", bz);\n";
        }
  s += "}\n";
  return replace_all(s, "LANES", Ls);
}

}  // namespace tenferro::webgpu
