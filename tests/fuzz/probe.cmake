# Fuzzes the probe parsers: one target per command whose output distconfig
# parses (seeded from that command's real captures in tests/data/probe), the
# capture format with its section splitter, and the topology built from
# what hosts print. Arbitrary bytes never crash or throw.
set(probe_data ${PROJECT_SOURCE_DIR}/tests/data/probe)
set(scenario_data ${PROJECT_SOURCE_DIR}/tests/data/scenarios)
foreach(cmd
    "thunderbolt|${probe_data}/system_profiler_*|${scenario_data}/*/*.system_profiler_SPThunderboltDataType.json"
    "hardware_ports|${probe_data}/networksetup_*|${scenario_data}/*/*.networksetup_listallhardwareports.txt"
    "ibv_devices|${probe_data}/ibv_devices_*|${scenario_data}/*/*.ibv_devices.txt"
    "ibv_devinfo|${probe_data}/ibv_devinfo_*"
    "rdma_ctl|${probe_data}/rdma_ctl_*"
    "system|${CMAKE_CURRENT_LIST_DIR}/corpus/system"
    "netif|${probe_data}/ifconfig_*|${CMAKE_CURRENT_LIST_DIR}/corpus/netif")
  string(REPLACE "|" ";" parts "${cmd}")
  list(POP_FRONT parts name)
  set(dict "")
  if(EXISTS ${CMAKE_CURRENT_LIST_DIR}/${name}.dict)
    set(dict ${CMAKE_CURRENT_LIST_DIR}/${name}.dict)
  endif()
  distkit_fuzz_target(NAME ${name}
    SOURCES ${CMAKE_CURRENT_LIST_DIR}/probe_commands_fuzz.cpp ${CMAKE_CURRENT_LIST_DIR}/probe_embedded_stub.cpp
    INSTRUMENT distkit::probe
    CORPUS ${parts}
    DICT ${dict}
    DEFINES FUZZ_PARSER=${name}_fuzz)
endforeach()

distkit_fuzz_target(NAME capture
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/capture_fuzz.cpp ${CMAKE_CURRENT_LIST_DIR}/probe_embedded_stub.cpp
  INSTRUMENT distkit::probe
  CORPUS ${CMAKE_CURRENT_LIST_DIR}/corpus/capture
  DICT ${CMAKE_CURRENT_LIST_DIR}/capture.dict)
target_include_directories(fuzz_capture PRIVATE ${PROJECT_SOURCE_DIR}/tests/support)
distkit_fuzz_target(NAME topology
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/topology_fuzz.cpp
  INSTRUMENT distkit::topology
  CORPUS ${probe_data})
