# Fuzzes the probe parsers (every command's output, the capture format) and
# the topology built from what hosts print: arbitrary bytes never crash.
distkit_fuzz_target(NAME probe
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/probe_fuzz.cpp
  INSTRUMENT distkit::probe
  CORPUS ${PROJECT_SOURCE_DIR}/tests/data/probe)
distkit_fuzz_target(NAME topology
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/topology_fuzz.cpp
  INSTRUMENT distkit::topology
  CORPUS ${PROJECT_SOURCE_DIR}/tests/data/probe)
