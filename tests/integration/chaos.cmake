# Chaos: random faults injected into distlaunch jobs on the test cluster
# (scripts/chaos.sh). The short run stays under 3 minutes.
distkit_integration_test(chaos_short chaos_short.sh)
set_tests_properties(integration.chaos_short PROPERTIES TIMEOUT 330)
