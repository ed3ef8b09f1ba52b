# The collective runtime across test hosts: one distbench rank process per
# host (real TCP between network namespaces), one behaviour per script.
foreach(t collectives rank_killed rank_stopped)
  distkit_integration_test(runtime_${t} runtime_${t}.sh)
endforeach()
