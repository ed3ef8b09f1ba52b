# Fuzzes the parsers of files users write for distconfig and distaccept:
# the `--links` cable list and task.json. Only the parser's own source is
# instrumented (the rest of those libraries drives ssh and processes).
distkit_fuzz_target(NAME links
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/links_fuzz.cpp ${PROJECT_SOURCE_DIR}/lib/netsetup/src/links.cpp
  DEPS distkit::util
  CORPUS ${CMAKE_CURRENT_LIST_DIR}/corpus/links)
target_include_directories(fuzz_links PRIVATE ${PROJECT_SOURCE_DIR}/lib/netsetup/include)
distkit_fuzz_target(NAME accept_task
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/accept_task_fuzz.cpp ${PROJECT_SOURCE_DIR}/lib/accept/src/task.cpp
  DEPS distkit::util nlohmann_json::nlohmann_json
  CORPUS ${PROJECT_SOURCE_DIR}/tests/data/accept/linear_regression_task.json
         ${PROJECT_SOURCE_DIR}/examples/linear_regression/task.json
  DICT ${CMAKE_CURRENT_LIST_DIR}/accept_task.dict)
target_include_directories(fuzz_accept_task PRIVATE ${PROJECT_SOURCE_DIR}/lib/accept/include)
