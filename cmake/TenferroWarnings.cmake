# Warning flags for tenferro's own targets: tenferro_warnings(target).
function(tenferro_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Werror=switch
                                           -Wno-sign-compare)
  if(TENFERRO_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(TENFERRO_SANITIZE)
    string(REPLACE ";" "," _san "${TENFERRO_SANITIZE}")
    target_compile_options(${target} PRIVATE -fsanitize=${_san} -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=${_san})
    # Undefined behaviour aborts the program (a failed test), not a line of output that passes.
    if("undefined" IN_LIST TENFERRO_SANITIZE)
      target_compile_options(${target} PRIVATE -fno-sanitize-recover=undefined)
    endif()
  endif()
endfunction()
