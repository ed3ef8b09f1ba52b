# Output load benchmark (bench/launch_load.sh): 64 ranks on 8 test hosts
# writing as fast as they can for 10 s, distlaunch next to mpirun.
# Run: cmake --build <dir> --target bench_launch_load
if(TARGET distlaunch)
  add_custom_target(bench_launch_load
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/launch_load.sh ${PROJECT_BINARY_DIR}
    DEPENDS distlaunch
    USES_TERMINAL)
endif()
