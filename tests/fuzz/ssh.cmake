# Fuzzes what distkit reads of the user's OpenSSH setup: ssh_config (with
# Include over a fake file system built from the input, and Match) and
# known_hosts (plain and hashed entries).
distkit_fuzz_target(NAME ssh_config
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/ssh_config_fuzz.cpp
  INSTRUMENT distkit::ssh
  CORPUS ${CMAKE_CURRENT_LIST_DIR}/corpus/ssh_config
  DICT ${CMAKE_CURRENT_LIST_DIR}/ssh_config.dict)
distkit_fuzz_target(NAME known_hosts
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/known_hosts_fuzz.cpp
  INSTRUMENT distkit::ssh
  CORPUS ${PROJECT_SOURCE_DIR}/tests/data/ssh
  DICT ${CMAKE_CURRENT_LIST_DIR}/known_hosts.dict
  # Full malloc stacks, so the libssh2 leak in tests/sanitizers/lsan.supp
  # is matched by its frames rather than by a blanket rule.
  ASAN_OPTIONS fast_unwind_on_malloc=0)
target_include_directories(fuzz_known_hosts PRIVATE ${PROJECT_SOURCE_DIR}/lib/ssh/src)
