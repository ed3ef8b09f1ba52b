# Fuzzes the parsers of distconfig's and distaccept's outside input: files
# users write (the `--links` cable list, task.json) and what hosts print
# (addresses, routes and state files; the doctor's host checks; the
# probe's and collection's answers, rank 0's metrics). Only the parsers'
# own sources are instrumented (the rest of those libraries drives ssh and
# processes).
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

# The readers of a host's addresses, routes and state file (remote output):
# their own sources instrumented; the probe's ifconfig header test linked.
distkit_fuzz_target(NAME net_state
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/net_state_fuzz.cpp
          ${PROJECT_SOURCE_DIR}/lib/netsetup/src/net_state.cpp
          ${PROJECT_SOURCE_DIR}/lib/netsetup/src/ipv4.cpp
  DEPS distkit::probe distkit::util
  CORPUS ${CMAKE_CURRENT_LIST_DIR}/corpus/net_state ${PROJECT_SOURCE_DIR}/tests/data/netsetup/ifconfig_*)
target_include_directories(fuzz_net_state PRIVATE ${PROJECT_SOURCE_DIR}/lib/netsetup/include)

# distaccept's readers of what hosts and ranks print (remote output).
distkit_fuzz_target(NAME accept_answers
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/accept_answers_fuzz.cpp
          ${PROJECT_SOURCE_DIR}/lib/accept/src/answers.cpp
          ${PROJECT_SOURCE_DIR}/lib/accept/src/compare.cpp
  DEPS distkit::util nlohmann_json::nlohmann_json fmt::fmt
  CORPUS ${CMAKE_CURRENT_LIST_DIR}/corpus/accept_answers)
target_include_directories(fuzz_accept_answers PRIVATE ${PROJECT_SOURCE_DIR}/lib/accept/include)

# distconfig --doctor's readers of what doctor_host.sh printed, and the
# verdicts from them (remote output); configtool's other sources drive ssh.
distkit_fuzz_target(NAME doctor
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/doctor_fuzz.cpp
          ${PROJECT_SOURCE_DIR}/lib/configtool/src/doctor_checks.cpp
  DEPS distkit::probe distkit::netsetup distkit::topology distkit::util fmt::fmt
  CORPUS ${CMAKE_CURRENT_LIST_DIR}/corpus/doctor)
target_include_directories(fuzz_doctor PRIVATE ${PROJECT_SOURCE_DIR}/lib/configtool/src)
