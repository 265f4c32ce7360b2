# Shader variants of the analytic family: analytic_<t> for the family's dtypes (ops.def), pow_<t>
# for the pows through the math library (pow_f32 computes in double from f32 storage: devices
# with shaderFloat64; elsewhere f32 pow stays in elementwise/ops.glsl). The op is specialization
# constant 1 (TF_OP_<NAME>, common/params.h).
# <kernel>_f32w / _c32w: f32 / c32 elements computed in f64 / c64 (TF_F32_STORAGE, types.glsl),
# taken where the device flushes f32 subnormals (src/vulkan/kernels/dispatch.cpp arith_tag).
list(APPEND TENFERRO_SHADER_INCLUDES
  ${TENFERRO_SHADER_DIR}/common/math_f32.glsl
  ${TENFERRO_SHADER_DIR}/common/math_f64.glsl
  ${TENFERRO_SHADER_DIR}/common/math_complex.glsl
  ${TENFERRO_SHADER_DIR}/elementwise/analytic.glsl
  ${TENFERRO_SHADER_DIR}/elementwise/analytic_wide.glsl
)
tenferro_family_dtypes(analytic _types)
foreach(_t IN LISTS _types)
  string(TOUPPER "${_t}" _T)
  tenferro_shader_widths(analytic_${_t} elementwise/analytic.comp DEFINES DT_${_T})
  tenferro_shader(analytic_${_t}_contig elementwise/analytic.comp DEFINES DT_${_T} TF_CONTIG)
endforeach()
foreach(_t f64 c32 c64)
  string(TOUPPER "${_t}" _T)
  tenferro_shader_widths(pow_${_t} elementwise/pow.comp DEFINES DT_${_T})
endforeach()
tenferro_shader_widths(pow_f32 elementwise/pow.comp DEFINES DT_F64 TF_F32_STORAGE)
tenferro_shader_widths(pow_c32w elementwise/pow.comp DEFINES DT_C64 TF_F32_STORAGE)
tenferro_shader_widths(analytic_f32w elementwise/analytic.comp DEFINES DT_F64 TF_F32_STORAGE)
tenferro_shader_widths(analytic_c32w elementwise/analytic.comp DEFINES DT_C64 TF_F32_STORAGE)
tenferro_shader(analytic_f32w_contig elementwise/analytic.comp DEFINES DT_F64 TF_F32_STORAGE TF_CONTIG)
tenferro_shader(analytic_c32w_contig elementwise/analytic.comp DEFINES DT_C64 TF_F32_STORAGE TF_CONTIG)
