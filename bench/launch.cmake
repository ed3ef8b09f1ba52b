# Launch benchmark (bench/launch_startup.sh): distlaunch vs Open MPI mpirun on
# the test cluster (with a channel-per-rank floor for reference), and failure-to-teardown
# latency.
# Run: cmake --build <dir> --target bench_launch
if(TARGET distlaunch AND TARGET ssh_tool)
  add_custom_target(bench_launch
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/launch_startup.sh ${PROJECT_BINARY_DIR}
    DEPENDS distlaunch distkit-agent ssh_tool
    USES_TERMINAL)
endif()
