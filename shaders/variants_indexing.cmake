# Shader variants of the indexing family (explicit list, STYLE.md B7).
# gather moves raw bits (b1 b4 b8 b16); scatter combines typed values (combiner = spec constant 1).
# The index dtype (I32/I64) is a flag of the parameter block, not a variant.
list(APPEND TENFERRO_SHADER_INCLUDES
  ${TENFERRO_SHADER_DIR}/indexing/indexing_params.h
  ${TENFERRO_SHADER_DIR}/indexing/indexing.glsl)
foreach(_idx "" "_idx64")
  set(_idxdef "")
  if(_idx)
    set(_idxdef IDX64)
  endif()
  foreach(_b b1 b4 b8 b16)
    string(TOUPPER "${_b}" _B)
    tenferro_shader(gather_${_b}${_idx} indexing/gather.comp DEFINES DT_${_B} ${_idxdef})
  endforeach()
  foreach(_t f32 f64 i32 i64 c32 c64 bool)
    string(TOUPPER "${_t}" _T)
    tenferro_shader(scatter_${_t}${_idx} indexing/scatter.comp DEFINES DT_${_T} ${_idxdef})
  endforeach()
endforeach()
