# Shader variants of the cast family (explicit list, STYLE.md B7).
# cast_<src>_<dst>[_idx64] for every ordered pair of distinct dtypes (equal dtypes are a copy).
list(APPEND TENFERRO_SHADER_INCLUDES ${TENFERRO_SHADER_DIR}/cast/source.glsl)
foreach(_s f32 f64 i32 i64 bool c32 c64)
  string(TOUPPER "${_s}" _S)
  foreach(_d f32 f64 i32 i64 bool c32 c64)
    if(NOT _s STREQUAL _d)
      string(TOUPPER "${_d}" _D)
      tenferro_shader_widths(cast_${_s}_${_d} cast/cast.comp DEFINES SRC_${_S} DT_${_D})
    endif()
  endforeach()
endforeach()
