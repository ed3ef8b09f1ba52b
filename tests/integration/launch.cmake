# Integration tests of distlaunch: the local quick start, then real sshd
# test hosts (skipped where network namespaces are unavailable).
foreach(t local cluster_run cluster_fail cluster_sigint cluster_sigkill cluster_cut cluster_env
        cluster_ports cluster_agent cluster_repeat cluster_python stall stall_progress restart)
  distkit_integration_test(launch_${t} launch_${t}.sh)
endforeach()
