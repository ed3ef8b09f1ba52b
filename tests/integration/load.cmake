# Output load through distlaunch (bench/launch_load.sh, short variant).
distkit_integration_test(load_short load_short.sh)
