# Build helpers shared by every distkit target: one warning policy, one
# sanitizer switch, one way to embed text files (templates/, probes/) into
# the binaries so an installed tool never looks for them on disk.

# Warnings for our own code only (never for third-party headers, which are
# included as SYSTEM by their imported targets). gcc and clang only: the
# code is POSIX (macOS and Linux), never built with MSVC.
function(distkit_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
    -Wunused -Woverloaded-virtual -Wimplicit-fallthrough
    -Wformat=2)
  # gcc 12 at -O2/-O3 warns -Wrestrict inside libstdc++'s inlined string
  # copies for `"x" + str` (a known false positive, met by many projects on
  # Debian 12's gcc 12.2): it is not about our code.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(DISTKIT_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

function(distkit_apply_sanitizers)
  if(DISTKIT_ASAN)
    add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                        -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=address,undefined)
  elseif(DISTKIT_TSAN)
    add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
    add_link_options(-fsanitize=thread)
  endif()
endfunction()

# distkit_library(NAME <name> SOURCES ... DEPS ... [PRIVATE_DEPS ...])
# A static library target `distkit_<name>` with include/ as its public
# include directory, linking DEPS publicly and PRIVATE_DEPS privately.
function(distkit_library)
  cmake_parse_arguments(A "" "NAME" "SOURCES;DEPS;PRIVATE_DEPS" ${ARGN})
  set(t distkit_${A_NAME})
  add_library(${t} STATIC ${A_SOURCES})
  add_library(distkit::${A_NAME} ALIAS ${t})
  target_include_directories(${t} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_link_libraries(${t} PUBLIC ${A_DEPS} PRIVATE ${A_PRIVATE_DEPS})
  distkit_warnings(${t})
endfunction()

# distkit_embed(<target> <namespace> <files...>)
# Generates a source file holding each file's bytes and a lookup function
# `std::optional<std::string_view> <namespace>::find(std::string_view name)`
# keyed by the file's base name, and adds it to <target>.
function(distkit_embed target ns)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/embedded_${ns}.cpp)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DOUT=${out} -DNS=${ns} "-DFILES=${ARGN}"
            -P ${PROJECT_SOURCE_DIR}/scripts/cmake/embed_files.cmake
    DEPENDS ${ARGN} ${PROJECT_SOURCE_DIR}/scripts/cmake/embed_files.cmake
    COMMENT "Embedding ${ns} files"
    VERBATIM)
  target_sources(${target} PRIVATE ${out})
endfunction()
