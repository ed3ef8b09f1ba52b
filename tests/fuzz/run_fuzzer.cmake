# Runs one libFuzzer binary for a bounded time (cmake -P, from ctest):
#   -DFUZZER=<binary> -DSEEDS=<seed dir> -DWORK=<dir in the build tree>
#   -DSECONDS=<n> [-DDICT=<file>]
# The seeds are copied into WORK/corpus (which keeps what earlier runs
# found); crashes, leaks and timeouts land in WORK/artifacts and fail the test.
foreach(var FUZZER SEEDS WORK SECONDS)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "run_fuzzer.cmake: -D${var}=... is required")
  endif()
endforeach()

file(MAKE_DIRECTORY ${WORK}/corpus ${WORK}/artifacts)
file(GLOB seeds LIST_DIRECTORIES false ${SEEDS}/*)
if(seeds)
  file(COPY ${seeds} DESTINATION ${WORK}/corpus)
endif()

set(args -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
    -artifact_prefix=${WORK}/artifacts/)
if(DICT)
  list(APPEND args -dict=${DICT})
endif()
execute_process(COMMAND ${FUZZER} ${args} ${WORK}/corpus RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(GLOB found ${WORK}/artifacts/*)
  message(FATAL_ERROR "fuzzer ${FUZZER} failed (exit ${rc}); inputs: ${found}; "
                      "reproduce with `${FUZZER} <input>` and add the input to a unit test")
endif()
