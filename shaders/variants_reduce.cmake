# Shader variants of the reduce family (its dtypes from ops.def).
# reduce_<dtype>[_idx64]; the op (sum, prod, max, min) is specialization constant 1.
list(APPEND TENFERRO_SHADER_INCLUDES ${TENFERRO_SHADER_DIR}/reduce/reduce.h ${TENFERRO_SHADER_DIR}/reduce/reduce_head.glsl
     ${TENFERRO_SHADER_DIR}/reduce/reduce_main.glsl)
tenferro_family_dtypes(reduce _types)
foreach(_t IN LISTS _types)
  string(TOUPPER "${_t}" _T)
  tenferro_shader_widths(reduce_${_t} reduce/reduce.comp DEFINES DT_${_T})
endforeach()
# f32 / c32 computed in f64 / c64 where the device flushes f32 subnormals (variants_analytic.cmake).
tenferro_shader_widths(reduce_f32w reduce/reduce.comp DEFINES DT_F64 TF_F32_STORAGE)
tenferro_shader_widths(reduce_c32w reduce/reduce.comp DEFINES DT_C64 TF_F32_STORAGE)
