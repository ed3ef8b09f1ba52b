# Fuzzes the collective runtime's decoders of peer and launcher input: frame
# headers, the MLX ring hostfile, the secret file.
distkit_fuzz_target(NAME runtime_frame
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/runtime_frame_fuzz.cpp
  INSTRUMENT distkit_runtime_internal
  CORPUS ${PROJECT_SOURCE_DIR}/tests/data/runtime)
# Fuzzes the MLX_HOSTFILE reader on its own, seeded with real ring hostfiles.
distkit_fuzz_target(NAME runtime_hostfile
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/runtime_hostfile_fuzz.cpp
  INSTRUMENT distkit_runtime_internal
  CORPUS ${PROJECT_SOURCE_DIR}/tests/data/runtime/ring_hostfile_2conn.json
         ${PROJECT_SOURCE_DIR}/tests/data/hostfile/*.ring.hostfile.json
  DICT ${CMAKE_CURRENT_LIST_DIR}/runtime_hostfile.dict)
