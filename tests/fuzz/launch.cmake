# Fuzzes the launcher <-> host agent protocol's one decoder (agent_frames.hpp,
# header-only, the standard library and util/decimal.hpp only: compiled
# into the target, instrumented) on its three channels.
distkit_fuzz_target(NAME agent_frames
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/agent_frames_fuzz.cpp
  CORPUS ${CMAKE_CURRENT_LIST_DIR}/corpus/agent_frames
  DICT ${CMAKE_CURRENT_LIST_DIR}/agent_frames.dict)
target_include_directories(fuzz_agent_frames PRIVATE ${PROJECT_SOURCE_DIR}/lib/launch/include
                                                     ${PROJECT_SOURCE_DIR}/lib/util/include)

# Fuzzes the readers of a Slurm allocation's environment (slurm.cpp, the
# standard library and distkit::util only).
distkit_fuzz_target(NAME slurm
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/slurm_fuzz.cpp ${PROJECT_SOURCE_DIR}/lib/launch/src/slurm.cpp
  DEPS distkit::util
  CORPUS ${CMAKE_CURRENT_LIST_DIR}/corpus/slurm)
target_include_directories(fuzz_slurm PRIVATE ${PROJECT_SOURCE_DIR}/lib/launch/include)
