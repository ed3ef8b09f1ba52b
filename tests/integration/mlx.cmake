# Real MLX programs under distlaunch (opt-in: DISTKIT_MLX_SOURCE names an MLX
# source archive, else they skip). The first run builds MLX's C++ library
# (10-20 min at -j2, then cached per archive), hence the long timeout; the
# two tests share one build. Each runs alone (RUN_SERIAL): MLX's ring
# threads poll without blocking while a transfer is pending, so 8 ranks on
# 2 cores starve the timing-sensitive tests beside them (launch_stall and
# launch_cluster_ports failed that way); and in the kill test, which failure
# distlaunch learns of first is a race with MLX (its ranks die within
# milliseconds of a killed peer), which load skews.
foreach(t ring rank_killed)
  distkit_integration_test(mlx_${t} mlx_${t}.sh)
  set_tests_properties(integration.mlx_${t} PROPERTIES TIMEOUT 3600 RUN_SERIAL ON)
endforeach()
