# bench/topology_ring: exact ring search vs the naive enumeration (same run).
add_executable(bench_topology_ring ${CMAKE_CURRENT_LIST_DIR}/topology_ring.cpp)
target_link_libraries(bench_topology_ring PRIVATE distkit::topology)
distkit_warnings(bench_topology_ring)
