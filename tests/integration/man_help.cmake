# doc.man_help: each tool's man page OPTIONS list matches its --help
# (tests/integration/man_help.sh); skipped when the tools are not built.
add_test(NAME doc.man_help
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/integration/man_help.sh ${PROJECT_BINARY_DIR}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(doc.man_help PROPERTIES LABELS doc SKIP_RETURN_CODE 77
  ENVIRONMENT "DISTKIT_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
