# Shader variants of the analytic family (explicit list, STYLE.md B7): analytic_<t> for the nine
# (ten for reals: erf) analytic ops, pow_<t> for the pows through the math library (pow_f32
# computes in double, TF_POW_VIA_F64: devices with shaderFloat64; elsewhere f32 pow stays in
# elementwise/ops.glsl). Ops are specialization constant 1 (elementwise/analytic_ops.h).
list(APPEND TENFERRO_SHADER_INCLUDES
  ${TENFERRO_SHADER_DIR}/common/math_f32.glsl
  ${TENFERRO_SHADER_DIR}/common/math_f64.glsl
  ${TENFERRO_SHADER_DIR}/common/math_complex.glsl
  ${TENFERRO_SHADER_DIR}/elementwise/analytic_ops.h
)
foreach(_t f32 f64 c32 c64)
  string(TOUPPER "${_t}" _T)
  tenferro_shader_widths(analytic_${_t} elementwise/analytic.comp DEFINES DT_${_T})
endforeach()
foreach(_t f64 c32 c64)
  string(TOUPPER "${_t}" _T)
  tenferro_shader_widths(pow_${_t} elementwise/pow.comp DEFINES DT_${_T})
endforeach()
tenferro_shader_widths(pow_f32 elementwise/pow.comp DEFINES DT_F32 TF_POW_VIA_F64)
