# Peers distkit's all-reduce is compared with (bench/allreduce_vs_peers.sh):
# a Gloo program (every TCP algorithm) and an Open MPI program. Built only
# when the Debian packages are there (scripts/install-deps.sh --bench).
find_package(Gloo CONFIG QUIET)
if(TARGET gloo)
  add_executable(allreduce_gloo ${CMAKE_CURRENT_LIST_DIR}/allreduce_gloo.cpp)
  target_link_libraries(allreduce_gloo PRIVATE gloo Threads::Threads)
else()
  message(STATUS "bench: Gloo not found (libgloo-dev); allreduce_gloo not built")
endif()
find_package(MPI COMPONENTS CXX QUIET)
if(MPI_CXX_FOUND)
  add_executable(allreduce_mpi ${CMAKE_CURRENT_LIST_DIR}/allreduce_mpi.cpp)
  target_link_libraries(allreduce_mpi PRIVATE MPI::MPI_CXX)
else()
  message(STATUS "bench: MPI not found (libopenmpi-dev); allreduce_mpi not built")
endif()
