# Fuzzes the launcher <-> host agent protocol's decoders (agent_frames.hpp):
# the launcher's reader of the agent's output, the rank wrapper's reader of
# the launcher's frames, and the header reader on every channel. Their
# sources are compiled into the target (instrumented): they depend on the
# standard library only.
distkit_fuzz_target(NAME agent_frames
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/agent_frames_fuzz.cpp
          ${PROJECT_SOURCE_DIR}/lib/launch/src/agent_frame_parser.cpp
          ${PROJECT_SOURCE_DIR}/apps/agent/frames.cpp
  CORPUS ${CMAKE_CURRENT_LIST_DIR}/corpus/agent_frames
  DICT ${CMAKE_CURRENT_LIST_DIR}/agent_frames.dict)
target_include_directories(fuzz_agent_frames PRIVATE
  ${PROJECT_SOURCE_DIR}/lib/launch/include ${PROJECT_SOURCE_DIR}/lib/ssh/include
  ${PROJECT_SOURCE_DIR}/lib/util/include ${PROJECT_SOURCE_DIR}/apps/agent)
