# Install rules (TENFERRO_INSTALL, on when tenferro is the top-level project), GNUInstallDirs paths:
#   lib/libtenferro.a, lib/libtenferro.so*    the library (src/CMakeLists.txt), both PIC
#   include/tenferro/                         the public headers (ops.def included)
#   bin/tenferro                              the CLI, when built
#   lib/cmake/tenferro/                       the CMake package: tenferro::tenferro (static),
#                                             tenferro::tenferro_shared
#   lib/pkgconfig/tenferro.pc                 pkg-config (the shared library; --static for the rest)
#   lib/libwgpu_native.so                     wgpu-native, beside the library that loads it
#                                             (src/webgpu/api.hpp), when the WebGPU provider is built
# The installed library reads nothing from the source or build tree: the shaders are SPIR-V
# embedded in it (cmake/TenferroShaders.cmake).
include(CMakePackageConfigHelpers)
set(TENFERRO_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/tenferro")

install(TARGETS tenferro tenferro_shared EXPORT tenferroTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY include/tenferro DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TENFERRO_HAVE_WEBGPU AND EXISTS "${TENFERRO_WGPU_DIR}/lib/libwgpu_native.so")
  install(FILES "${TENFERRO_WGPU_DIR}/lib/libwgpu_native.so" DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
if(TENFERRO_BUILD_CLI)
  install(TARGETS tenferro_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

install(EXPORT tenferroTargets NAMESPACE tenferro:: DESTINATION ${TENFERRO_CMAKE_DIR})
configure_package_config_file(cmake/tenferroConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/tenferroConfig.cmake
                              INSTALL_DESTINATION ${TENFERRO_CMAKE_DIR})
# 0.x: a minor release may break the API, so 0.1.x satisfies a request for 0.1 and not 0.2.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/tenferroConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/tenferroConfig.cmake ${PROJECT_BINARY_DIR}/tenferroConfigVersion.cmake
        DESTINATION ${TENFERRO_CMAKE_DIR})

# tenferro.pc finds the prefix from its own place (${pcfiledir}), so it stays right under
# `cmake --install --prefix` and DESTDIR.
file(RELATIVE_PATH TENFERRO_PC_PREFIX "${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig" "${CMAKE_INSTALL_PREFIX}")
string(REGEX REPLACE "/$" "" TENFERRO_PC_PREFIX "${TENFERRO_PC_PREFIX}")
set(TENFERRO_PC_REQUIRES "openblas")
set(TENFERRO_PC_LIBS_PRIVATE "")
if(TENFERRO_HAVE_VULKAN)
  string(APPEND TENFERRO_PC_REQUIRES ", vulkan")
  # glslang has no pkg-config module: its static libraries (Debian's glslang-dev), in link order.
  set(TENFERRO_PC_LIBS_PRIVATE "-lSPIRV -lSPIRV-Tools-opt -lSPIRV-Tools -lSPIRV-Tools-link -lglslang \
-lMachineIndependent -lOSDependent -lGenericCodeGen -lOGLCompiler -lglslang-default-resource-limits")
endif()
configure_file(cmake/tenferro.pc.in ${PROJECT_BINARY_DIR}/tenferro.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/tenferro.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
