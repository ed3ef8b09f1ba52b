# The collective runtime across test hosts: one distbench rank process per
# host (real TCP between network namespaces), one behaviour per script;
# runtime_python: the ctypes binding, 4 local Python ranks; runtime_bench_usage:
# distbench's usage errors.
foreach(t collectives rank_killed rank_stopped python bench_usage)
  distkit_integration_test(runtime_${t} runtime_${t}.sh)
endforeach()
