# Fuzzes the collective runtime's decoders of peer and launcher input: frame
# headers, the MLX ring hostfile, the secret file.
distkit_fuzz_target(NAME runtime_frame
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/runtime_frame_fuzz.cpp
  INSTRUMENT distkit_runtime_internal
  CORPUS ${PROJECT_SOURCE_DIR}/tests/data/runtime)
