// f_two_prod(a, b) = (p, e) with p = fl(a b) and p + e = a b exactly (Dekker's product by
// Veltkamp splitting; no fma, which Vulkan does not require to be fused), for |a|, |b| < 1e30
// (the 4097 x split stays finite) and products whose low part is not below the normal range.
// Shared by math_f32.glsl and the f32 division of elementwise/ops.glsl.
#ifndef TF_TWO_PROD_F32_GLSL
#define TF_TWO_PROD_F32_GLSL
vec2 f_two_prod(float a, float b) {
  precise float p = a * b;
  precise float ca = 4097.0 * a;
  precise float ah = ca - (ca - a);
  precise float al = a - ah;
  precise float cb = 4097.0 * b;
  precise float bh = cb - (cb - b);
  precise float bl = b - bh;
  precise float e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
  return vec2(p, e);
}
#endif  // TF_TWO_PROD_F32_GLSL
