# Shader variants of the gemm family (the dot family's dtypes, ops.def).
# gemm_<dtype>: shaders/gemm/gemm.comp; tile configuration and operand modes are
# specialization constant 1 (shaders/gemm/gemm_params.h), so one variant per dtype. Offsets are
# 64-bit throughout, so there is no _idx64 form.
list(APPEND TENFERRO_SHADER_INCLUDES ${TENFERRO_SHADER_DIR}/gemm/gemm_params.h ${TENFERRO_SHADER_DIR}/gemm/gemm_chains.glsl
     ${TENFERRO_SHADER_DIR}/gemm/gemm_coef.glsl)
tenferro_family_dtypes(dot _dot_types)
foreach(_t IN LISTS _dot_types)
  string(TOUPPER "${_t}" _T)
  tenferro_shader(gemm_${_t} gemm/gemm.comp DEFINES DT_${_T})
endforeach()
# gemm_small_<dtype>: shaders/gemm/gemm_small.comp (one invocation per output element, for
# products whose tiles would be mostly empty); specialization constant 1 selects 64-bit indices.
foreach(_t IN LISTS _dot_types)
  string(TOUPPER "${_t}" _T)
  tenferro_shader(gemm_small_${_t} gemm/gemm_small.comp DEFINES DT_${_T})
endforeach()
# gemm3m_<dtype>: shaders/gemm/gemm3m.comp, the split and combine passes of the opt-in
# 3-multiply complex product (specialization constant 1: 0 split, 1 combine).
foreach(_t c32 c64)
  string(TOUPPER "${_t}" _T)
  tenferro_shader(gemm3m_${_t} gemm/gemm3m.comp DEFINES DT_${_T})
endforeach()
