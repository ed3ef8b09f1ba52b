# Fuzzes the hostfile reader, writer, --hosts parser and exports: arbitrary
# bytes must give a model or a one-line UsageError, never a crash.
distkit_fuzz_target(NAME hostfile
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/hostfile_fuzz.cpp
  INSTRUMENT distkit::hostfile
  CORPUS ${PROJECT_SOURCE_DIR}/tests/data/hostfile
  DICT ${CMAKE_CURRENT_LIST_DIR}/hostfile.dict)
