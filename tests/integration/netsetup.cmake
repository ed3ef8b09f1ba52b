# Network setup on the test cluster (real sshd hosts in namespaces, veth
# pairs as cables declared with --links; skipped where unavailable).
foreach(t apply cut nosudo persist)
  distkit_integration_test(netsetup_${t} netsetup_${t}.sh)
endforeach()
