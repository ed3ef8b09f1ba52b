# SSH fan-out benchmark (bench/ssh_fanout.sh): distkit's transport vs
# pdsh -R ssh on the test cluster. Run: cmake --build <dir> --target bench_ssh_fanout
if(TARGET ssh_tool)
  add_custom_target(bench_ssh_fanout
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/ssh_fanout.sh ${PROJECT_BINARY_DIR}
    DEPENDS ssh_tool
    USES_TERMINAL)
endif()
