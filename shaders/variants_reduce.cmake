# Shader variants of the reduce family (explicit list, STYLE.md B7).
# reduce_<dtype>[_idx64]; the op (sum, prod, max, min) is specialization constant 1.
list(APPEND TENFERRO_SHADER_INCLUDES ${TENFERRO_SHADER_DIR}/reduce/reduce.h)
foreach(_t f32 f64 i32 i64 c32 c64)
  string(TOUPPER "${_t}" _T)
  tenferro_shader_widths(reduce_${_t} reduce/reduce.comp DEFINES DT_${_T})
endforeach()
