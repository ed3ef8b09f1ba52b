# Install rules and packaging: what `cmake --install build --prefix P` puts
# where, so distkit lands in the standard places under any prefix (/usr,
# /usr/local, a Homebrew keg, a throwaway test prefix):
#   bin/                       distconfig distlaunch distbench distaccept, and
#                              distkit-agent (the host agent) (apps/CMakeLists.txt)
#   lib/                       libdistkit (the collective runtime)
#   include/distkit/           the runtime's public headers (C and C++)
#   lib/cmake/distkit/         find_package(distkit) -> distkit::runtime
#   lib/pkgconfig/distkit.pc   pkg-config --cflags --libs distkit
#   lib/python3/dist-packages/distkit   the Python binding (DISTKIT_PYTHON_DIR)
#   share/man/man{1,5,7}/      the committed roff pages from man/
#   share/bash-completion/completions, share/zsh/site-functions,
#   share/fish/vendor_completions.d   the generated completions
# plus an `uninstall` target (reads install_manifest.txt) and CPack settings
# for a Debian package (`cpack -G DEB` in the build directory).
include(CMakePackageConfigHelpers)

set(DISTKIT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/distkit)

# ---- binaries find libdistkit next to them, wherever the prefix is --------
if(APPLE)
  set(_distkit_rpath "@loader_path/../${CMAKE_INSTALL_LIBDIR}")
else()
  set(_distkit_rpath "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
endif()
set_target_properties(distconfig distlaunch distbench distaccept PROPERTIES INSTALL_RPATH "${_distkit_rpath}")

# ---- the runtime library, its headers and its package config -------------
# macOS: an absolute install name, so programs built against an installed
# libdistkit (pkg-config included) load it without an rpath, as Homebrew
# expects.
if(APPLE)
  set_target_properties(distkit_runtime PROPERTIES INSTALL_NAME_DIR "${CMAKE_INSTALL_FULL_LIBDIR}")
endif()
install(TARGETS distkit_runtime EXPORT distkitTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/runtime/include/distkit/
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/distkit
  FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")
# The export names the target distkit::runtime (the build tree's alias).
set_target_properties(distkit_runtime PROPERTIES EXPORT_NAME runtime)
install(EXPORT distkitTargets NAMESPACE distkit:: DESTINATION ${DISTKIT_CMAKE_DIR})
configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/templates/cmake/distkitConfig.cmake.in
  ${PROJECT_BINARY_DIR}/distkitConfig.cmake
  INSTALL_DESTINATION ${DISTKIT_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/distkitConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/distkitConfig.cmake
              ${PROJECT_BINARY_DIR}/distkitConfigVersion.cmake
  DESTINATION ${DISTKIT_CMAKE_DIR})

# pkg-config: every path relative to the .pc file itself (${pcfiledir}), so
# the same file works under any --prefix, in a Homebrew keg or a dpkg -x root.
file(RELATIVE_PATH DISTKIT_PC_TO_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
string(REGEX REPLACE "/$" "" DISTKIT_PC_TO_PREFIX "${DISTKIT_PC_TO_PREFIX}")
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(DISTKIT_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(DISTKIT_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/templates/pkgconfig/distkit.pc.in
  ${PROJECT_BINARY_DIR}/distkit.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/distkit.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# ---- the Python binding (ctypes over the C API) --------------------------
# Default: where Debian's and Ubuntu's python3 looks for packages of a /usr
# install; other prefixes (Homebrew, /usr/local, a test prefix) put
# <prefix>/<this dir> on PYTHONPATH, or set DISTKIT_PYTHON_DIR. The
# generated _location.py holds the library's path relative to the package,
# so the installed tree can be moved as a whole.
set(DISTKIT_PYTHON_DIR "lib/python3/dist-packages" CACHE STRING
  "Where `cmake --install` puts the distkit Python package (relative to the prefix)")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/lib/runtime/python/distkit
  DESTINATION ${DISTKIT_PYTHON_DIR}
  FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
file(RELATIVE_PATH _distkit_py_to_lib "/p/${DISTKIT_PYTHON_DIR}/distkit" "/p/${CMAKE_INSTALL_LIBDIR}")
string(REGEX REPLACE "/$" "" _distkit_py_to_lib "${_distkit_py_to_lib}")
file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/python/_location.py
  CONTENT "# Written by cmake --install: libdistkit relative to this package.\nLIBRARY = \"${_distkit_py_to_lib}/$<TARGET_SONAME_FILE_NAME:distkit_runtime>\"\n")
install(FILES ${PROJECT_BINARY_DIR}/python/_location.py DESTINATION ${DISTKIT_PYTHON_DIR}/distkit)

# ---- man pages: every committed roff page in man/, by section ------------
foreach(section 1 5 7)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/man/
    DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section}
    FILES_MATCHING PATTERN "*.${section}"
    PATTERN "tools" EXCLUDE)
endforeach()

# ---- shell completions (generated by scripts/completions/generate.sh) ----
set(_distkit_comp ${PROJECT_SOURCE_DIR}/scripts/completions)
install(DIRECTORY ${_distkit_comp}/bash/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(DIRECTORY ${_distkit_comp}/zsh/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
install(DIRECTORY ${_distkit_comp}/fish/
  DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)

# ---- uninstall: removes exactly what the last install wrote --------------
if(NOT TARGET uninstall)
  configure_file(${PROJECT_SOURCE_DIR}/templates/cmake/uninstall.cmake.in
    ${PROJECT_BINARY_DIR}/distkit_uninstall.cmake @ONLY)
  add_custom_target(uninstall
    COMMAND ${CMAKE_COMMAND} -P ${PROJECT_BINARY_DIR}/distkit_uninstall.cmake
    COMMENT "Removing the files listed in install_manifest.txt")
endif()

# ---- Debian package: cpack -G DEB ----------------------------------------
set(CPACK_PACKAGE_NAME distkit)
set(CPACK_PACKAGE_VENDOR "distkit")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Turn a few Apple Silicon Macs or Linux boxes into a compute cluster")
set(DISTKIT_PACKAGE_CONTACT "distkit maintainers <distkit@localhost>" CACHE STRING
  "Maintainer field of the Debian package (set it when publishing packages)")
set(CPACK_PACKAGE_CONTACT "${DISTKIT_PACKAGE_CONTACT}")
set(CPACK_GENERATOR DEB)
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build[^/]*/" "\\\\.swp$")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION net)

# Library dependencies come from dpkg-shlibdeps on the packaged binaries
# (on Debian 12: libc6, libfmt9, libgcc-s1, libssh2-1, libstdc++6);
# openssh-client is what distlaunch falls back to for ProxyJump.
# procps: the host agent distlaunch runs on each host uses ps(1) where /proc
# is not there, which a minimal Debian root (debootstrap --variant=minbase,
# containers) lacks.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "procps")
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "openssh-client")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "distconfig probes hosts over SSH, checks Thunderbolt cabling and RDMA and
writes an MLX-compatible hostfile; distlaunch starts and supervises ranks on
every host; distbench measures the bundled collective runtime (libdistkit).")
include(CPack)
