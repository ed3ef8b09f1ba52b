# Integration tests of the SSH transport and the test cluster (real sshd
# hosts in network namespaces; skipped where those are unavailable).
foreach(t parallel_exec host_key_changed host_key_unknown unreachable keepalive auth
          config_alias testcluster_teardown)
  distkit_integration_test(ssh_${t} ssh_${t}.sh)
endforeach()
