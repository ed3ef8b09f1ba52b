# Integration tests of distaccept on real sshd test hosts: the example passes
# all three levels (1 host vs 4), injected nondeterminism, a host with a
# different version, a result that cannot name its commit.
foreach(t local cluster_pass nondeterministic version_drift no_commit)
  distkit_integration_test(accept_${t} accept_${t}.sh)
endforeach()
