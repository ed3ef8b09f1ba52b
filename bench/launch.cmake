# Launch benchmark (bench/launch_startup.sh): distlaunch vs Open MPI mpirun on
# the test cluster, and failure-to-teardown latency.
# Run: cmake --build <dir> --target bench_launch
if(TARGET distlaunch)
  add_custom_target(bench_launch
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/launch_startup.sh ${PROJECT_BINARY_DIR}
    DEPENDS distlaunch
    USES_TERMINAL)
endif()
