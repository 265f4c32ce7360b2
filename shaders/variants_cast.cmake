# Shader variants of the cast family (its dtypes from ops.def).
# cast_<src>_<dst>[_idx64] for every ordered pair of distinct dtypes (equal dtypes are a copy).
list(APPEND TENFERRO_SHADER_INCLUDES ${TENFERRO_SHADER_DIR}/cast/source.glsl)
tenferro_family_dtypes(cast _types)
foreach(_s IN LISTS _types)
  string(TOUPPER "${_s}" _S)
  foreach(_d IN LISTS _types)
    if(NOT _s STREQUAL _d)
      string(TOUPPER "${_d}" _D)
      tenferro_shader_widths(cast_${_s}_${_d} cast/cast.comp DEFINES SRC_${_S} DT_${_D})
    endif()
  endforeach()
endforeach()
