# Shader variants of the analytic family (explicit list, STYLE.md B7): analytic_<t> for the nine
# (ten for reals: erf) analytic ops, pow_<t> for the pows that need the math library (f32 pow
# stays in elementwise/ops.glsl). Ops are specialization constant 1 (elementwise/analytic_ops.h).
list(APPEND TENFERRO_SHADER_INCLUDES
  ${TENFERRO_SHADER_DIR}/common/math_f32.glsl
  ${TENFERRO_SHADER_DIR}/common/math_f64.glsl
  ${TENFERRO_SHADER_DIR}/common/math_complex.glsl
  ${TENFERRO_SHADER_DIR}/elementwise/analytic_ops.h
)
foreach(_idx "" "_idx64")
  set(_idxdef "")
  if(_idx)
    set(_idxdef IDX64)
  endif()
  foreach(_t f32 f64 c32 c64)
    string(TOUPPER "${_t}" _T)
    tenferro_shader(analytic_${_t}${_idx} elementwise/analytic.comp DEFINES DT_${_T} ${_idxdef})
  endforeach()
  foreach(_t f64 c32 c64)
    string(TOUPPER "${_t}" _T)
    tenferro_shader(pow_${_t}${_idx} elementwise/pow.comp DEFINES DT_${_T} ${_idxdef})
  endforeach()
endforeach()
