# Shader variants of the triangular family (explicit list, STYLE.md B7).
# triangular_<bits>[_idx64]: raw bits by element size; tril/triu is specialization constant 1.
foreach(_idx "" "_idx64")
  set(_idxdef "")
  if(_idx)
    set(_idxdef IDX64)
  endif()
  foreach(_b b1 b4 b8 b16)
    string(TOUPPER "${_b}" _B)
    tenferro_shader(triangular_${_b}${_idx} copy/triangular.comp DEFINES DT_${_B} ${_idxdef})
  endforeach()
endforeach()
