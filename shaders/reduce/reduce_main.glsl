// The reduce kernel's body (reduce.comp; the generated fused reductions include it too), after
// reduce_head.glsl and the kernel's element source: tf_reduce_prepare() (run once by every
// invocation first) and T tf_reduce_load(IDX off), the value of x's element at offset off.
shared T sh[TF_RED_WORKGROUP];

T identity() {
  if (OP == TF_OP_REDUCE_SUM) return T(0);
#if defined(TF_KIND_COMPLEX)
  return T(1, 0);
#else
  if (OP == TF_OP_REDUCE_PROD) return T(1);
#if defined(DT_F32)
  const T inf = uintBitsToFloat(0x7f800000u);
#elif defined(DT_F64)
  const T inf = packDouble2x32(uvec2(0u, 0x7ff00000u));
#endif
#if defined(DT_I32)
  return OP == TF_OP_REDUCE_MAX ? int(0x80000000u) : int(0x7fffffffu);
#elif defined(DT_I64)
  return OP == TF_OP_REDUCE_MAX ? int64_t(0x8000000000000000ul) : int64_t(0x7ffffffffffffffful);
#else
  return OP == TF_OP_REDUCE_MAX ? -inf : inf;
#endif
#endif
}

T merge(T a, T b) {
#if defined(TF_KIND_COMPLEX)
  return OP == TF_OP_REDUCE_SUM ? a + b : c_mul(a, b);  // no max/min for complex
#else
  switch (OP) {
    case TF_OP_REDUCE_SUM: return a + b;
    case TF_OP_REDUCE_PROD: return a * b;
#if defined(TF_KIND_FLOAT)
    case TF_OP_REDUCE_MAX: return tf_fmax(a, b);  // a NaN on either side wins; -0 < +0
    default: return tf_fmin(a, b);
#else
    case TF_OP_REDUCE_MAX: return max(a, b);
    default: return min(a, b);
#endif
  }
#endif
}

void main() {
  tf_reduce_prepare();
  BlockRef B = BlockRef(p.layout_addr);
  const IDX O = IDX(B.v[TF_RB_O]), N = IDX(B.v[TF_RB_N]), chunk = IDX(B.v[TF_RB_CHUNK]);
  const uint cols = uint(B.v[TF_RB_COLS]), lanes = uint(B.v[TF_RB_LANES]);
  const bool lanes_fast = B.v[TF_RB_LANES_FAST] != 0l;
  const IDX x0 = IDX(B.v[TF_RB_X0]), o0 = IDX(B.v[TF_RB_O0]), gstride = IDX(B.v[TF_RB_GSTRIDE]);
  const uint kr = uint(B.v[TF_RB_KR]), rr = uint(B.v[TF_RB_RR]);
  const uint red = TF_RB_AXES + 3u * kr;  // first reduced-axis word
  const IDX s0 = IDX(B.v[red + 1u]);

  const uint t = gl_LocalInvocationID.x;
  const uint c = lanes_fast ? t / lanes : t % cols;
  const uint l = lanes_fast ? t % lanes : t / cols;
  const uint lane_step = lanes_fast ? 1u : cols;
  const IDX g = IDX(gl_WorkGroupID.y);
  const IDX lo = g * chunk, hi = min(N, lo + chunk);
  const IDX step = IDX(lanes);
  const IDX tiles = (O + IDX(cols) - 1) / IDX(cols);

  for (IDX tile = IDX(gl_WorkGroupID.x); tile < tiles; tile += IDX(gl_NumWorkGroups.x)) {
    const IDX o = tile * IDX(cols) + IDX(c);
    IDX oo = o0 + g * gstride;
    T acc = identity();
    if (o < O) {
      IDX xo = x0, rest = o;
      for (uint a = 0u; a < kr; ++a) {
        const IDX n = IDX(B.v[TF_RB_AXES + 3u * a]);
        const IDX i = rest % n;
        rest /= n;
        xo += i * IDX(B.v[TF_RB_AXES + 3u * a + 1u]);
        oo += i * IDX(B.v[TF_RB_AXES + 3u * a + 2u]);
      }
      IDX r = lo + IDX(l);
      if (rr == 1u) {
        // Four independent loads in flight per iteration.
        for (; r + 3 * step < hi; r += 4 * step) {
          const T a0 = tf_reduce_load(xo + r * s0);
          const T a1 = tf_reduce_load(xo + (r + step) * s0);
          const T a2 = tf_reduce_load(xo + (r + 2 * step) * s0);
          const T a3 = tf_reduce_load(xo + (r + 3 * step) * s0);
          acc = merge(acc, merge(merge(a0, a1), merge(a2, a3)));
        }
        for (; r < hi; r += step) acc = merge(acc, tf_reduce_load(xo + r * s0));
      } else {
        // Several reduced axes: the chunk holds whole rows of axis 0 (the host rounds CHUNK to
        // a multiple of n0); decode each row once, lanes stride along it.
        const IDX n0 = IDX(B.v[red]);
        for (IDX q = lo / n0; q < hi / n0; ++q) {
          IDX off = xo, rest = q;
          for (uint a = 1u; a < rr; ++a) {
            const IDX n = IDX(B.v[red + 2u * a]);
            off += (rest % n) * IDX(B.v[red + 2u * a + 1u]);
            rest /= n;
          }
          for (IDX r0 = IDX(l); r0 < n0; r0 += step) acc = merge(acc, tf_reduce_load(off + r0 * s0));
        }
      }
    }
    sh[t] = acc;
    barrier();
    for (uint s = lanes / 2u; s > 0u; s >>= 1u) {  // pairwise tree over the lanes of an output
      if (l < s) sh[t] = merge(sh[t], sh[t + s * lane_step]);
      barrier();
    }
    if (l == 0u && o < O) store_T(p.addr[0], oo, sh[t]);
    barrier();  // sh is reused by the next tile
  }
}
