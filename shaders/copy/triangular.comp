#version 450
#extension GL_GOOGLE_include_directive : require
// Contract: out[i] = keep(row, col) ? x[i] : 0 (operand 0 = out, 1 = x; raw bits DT_B{1,4,8,16});
// push constants = KernelParams (common/params.h): rank >= 2, layout shape[0] = rows (m),
// shape[1] = cols (n), later axes batch; value[0] = k (int64, clamped to [-m, n] by core);
// OP = specialization constant 1: 1 = tril (keep row >= col - k), 0 = triu (keep row <= col - k).
#include "common/types.glsl"
#include "common/params.h"
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int OP = 1;
layout(push_constant) uniform Push { KernelParams p; };
#include "common/access.glsl"
#include "common/index.glsl"

void main() {
  LayoutRef L = LayoutRef(p.layout_addr);
  const int64_t m = L.v[0], n = L.v[1], k = int64_t(p.value[0]);
  TF_FOR_EACH_ELEMENT(i, 2u) {
    IDX o[TF_MAX_OPERANDS];
    operand_offsets(i, 2u, o);
    const int64_t row = int64_t(i) % m, col = (int64_t(i) / m) % n;
    const bool keep = OP == 1 ? row >= col - k : row <= col - k;  // |k| <= max(m, n): no overflow
    store_T(p.addr[0], o[0], keep ? load_T(p.addr[1], o[1]) : T(0));
  }
}
