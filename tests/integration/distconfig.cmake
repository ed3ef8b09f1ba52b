# distconfig on the test cluster (real sshd hosts, Mac commands answered
# from the shared captures): the issue's Done-when behaviours, one per script.
foreach(t mesh ring missing_cable rdma_missing unreachable doctor watch)
  distkit_integration_test(distconfig_${t} distconfig_${t}.sh)
endforeach()
