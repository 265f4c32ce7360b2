// q = a / b, r = a % b for a >= 0, b > 0; 32-bit when both fit (NVIDIA's driver calls a
// subroutine for every 64-bit division, even by a constant). Needs
// GL_EXT_shader_explicit_arithmetic_types_int64.
#ifndef TENFERRO_SHADERS_COMMON_DIVMOD_GLSL
#define TENFERRO_SHADERS_COMMON_DIVMOD_GLSL
void divmod(int64_t a, int64_t b, out int64_t q, out int64_t r) {
  if (a <= 0x7fffffffl && b <= 0x7fffffffl) {
    const uint ua = uint(a), ub = uint(b), uq = ua / ub;
    q = int64_t(uq);
    r = int64_t(ua - uq * ub);
  } else {
    q = a / b;
    r = a - q * b;
  }
}
#endif
