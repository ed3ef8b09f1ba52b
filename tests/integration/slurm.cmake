# A real Slurm (Debian's slurmctld/slurmd 22.05 with munge) on the test
# hosts, and distlaunch handing jobs to it and to Open MPI's mpirun; skipped
# where they are not installed (scripts/install-deps.sh --slurm).
foreach(t cluster_up launch sbatch sigkill)
  distkit_integration_test(slurm_${t} slurm_${t}.sh)
  set_tests_properties(integration.slurm_${t} PROPERTIES LABELS "integration;slurm" TIMEOUT 120)
endforeach()
distkit_integration_test(mpi_cluster mpi_cluster.sh)
set_tests_properties(integration.mpi_cluster PROPERTIES LABELS "integration;mpi" TIMEOUT 120)
# distaccept's HPC column: the example task as a Slurm job beside the one
# host and the SSH cluster (all levels), another python on an HPC node, and
# Ctrl-C while the job runs or waits (scancel, nothing left).
foreach(t hpc_pass hpc_drift hpc_interrupt)
  distkit_integration_test(accept_${t} accept_${t}.sh)
  set_tests_properties(integration.accept_${t} PROPERTIES LABELS "integration;slurm" TIMEOUT 240)
endforeach()
