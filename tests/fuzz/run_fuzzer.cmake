# Runs one libFuzzer binary for a bounded time (cmake -P, from ctest):
#   -DFUZZER=<binary> -DSEEDS=<dir or glob>[|<dir or glob>...]
#   -DWORK=<dir in the build tree>
#   -DSECONDS=<n> [-DDICT=<file>] [-DASAN_OPTIONS=<options>]
# The seeds are copied into WORK/corpus (which keeps what earlier runs
# found); crashes, leaks and timeouts land in WORK/artifacts and fail the test.
foreach(var FUZZER SEEDS WORK SECONDS)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_fuzzer.cmake: -D${var}=... is required")
  endif()
endforeach()

file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/artifacts)
string(REPLACE "|" ";" sources "${SEEDS}")
set(seeds "")
foreach(src ${sources})
  if(IS_DIRECTORY ${src})
    set(src ${src}/*)
  endif()
  file(GLOB found LIST_DIRECTORIES false ${src})
  if(NOT found)
    message(FATAL_ERROR "run_fuzzer.cmake: no seed file matches ${src}")
  endif()
  list(APPEND seeds ${found})
endforeach()
file(COPY ${seeds} DESTINATION ${WORK}/corpus)

set(args -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
    -artifact_prefix=${WORK}/artifacts/)
if(DICT)
  list(APPEND args -dict=${DICT})
endif()
# Leaks inside system libraries, each with its reason (tests/sanitizers).
get_filename_component(supp ${CMAKE_CURRENT_LIST_DIR}/../sanitizers/lsan.supp ABSOLUTE)
set(ENV{LSAN_OPTIONS} "suppressions=${supp}:print_suppressions=0")
if(ASAN_OPTIONS)
  set(ENV{ASAN_OPTIONS} "${ASAN_OPTIONS}")
endif()
execute_process(COMMAND ${FUZZER} ${args} ${WORK}/corpus RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(GLOB found ${WORK}/artifacts/*)
  message(FATAL_ERROR "fuzzer ${FUZZER} failed (exit ${rc}); inputs: ${found}; "
                      "reproduce with `${FUZZER} <input>` and add the input to a unit test")
endif()
