# fish completion for distlaunch, generated from `distlaunch --help` by scripts/completions/generate.sh;
# do not edit: rebuild the tools and run scripts/completions/generate.sh BUILD_DIR.

# Host names from ~/.ssh/config (Host lines, patterns skipped).
function __distkit_ssh_config_hosts
    test -r ~/.ssh/config; and awk 'tolower($1) == "host" { for (i = 2; i <= NF; i++) if ($i !~ /[*?!]/) print $i }' ~/.ssh/config
end

# Completes the last name of a comma-separated host list.
function __distkit_host_list
    set -l token (commandline -ct | string replace -r '^--[^=]*=' '')
    set -l head (string match -r '^.*,' -- $token); or set head ''
    for h in (__distkit_ssh_config_hosts)
        echo $head$h
    end
end

complete -c distlaunch -s h -l help -d 'Print this help message and exit'
complete -c distlaunch -l version -d 'Display program version information and exit'
complete -c distlaunch -l hosts -x -a '(__distkit_host_list)' -d 'Comma-separated hosts (names or IPs)'
complete -c distlaunch -s n -l repeat-hosts -x -d 'Ranks per host (in place: a,a,b,b); inside a Slurm allocation, instead of its task layout'
complete -c distlaunch -l hostfile -r -F -d 'MLX hostfile (JSON)'
complete -c distlaunch -l backend -x -a 'ring jaccl jaccl-ring nccl mpi' -d 'ring, jaccl, jaccl-ring, nccl or mpi'
complete -c distlaunch -l env -x -d 'KEY=VALUE for every rank (repeatable)'
complete -c distlaunch -l mpi-arg -x -d 'Extra argument for mpirun (repeatable)'
complete -c distlaunch -l connections-per-ip -x -d 'Ring connections per address'
complete -c distlaunch -s p -l starting-port -x -d 'First port of the ring/coordinator'
complete -c distlaunch -l cwd -x -a '(__fish_complete_directories)' -d 'Working directory on every host (must exist)'
complete -c distlaunch -l nccl-port -x -d 'NCCL coordinator port'
complete -c distlaunch -l python -x -a '(__fish_complete_command)' -d 'Interpreter put before the command (any command)'
complete -c distlaunch -l verbose -d 'Say what happens; ranks get MLX_RING_VERBOSE=1 (ring) or NCCL_DEBUG=INFO (nccl)'
complete -c distlaunch -l print-python -d 'Print --python, else the absolute path of python3 on PATH, and exit'
complete -c distlaunch -l ssh-config -r -F -d 'ssh_config file to read'
complete -c distlaunch -l launcher -x -a 'ssh srun' -d 'How ranks reach their hosts: ssh, or srun (a job step per node; the default inside a Slurm allocation, where SLURM_JOB_ID is set)'
complete -c distlaunch -l accept-new-host-keys -d 'Accept unknown host keys (never changed ones)'
complete -c distlaunch -l dry-run -d 'Print the plan (rank, host, env, start request) and exit'
complete -c distlaunch -l json -d 'Machine-readable --dry-run output'
complete -c distlaunch -l tag-output -d 'Prefix every output line with [rank host]'
complete -c distlaunch -l log-dir -x -a '(__fish_complete_directories)' -d 'Also write rank-N.log files (and the manifest) here'
complete -c distlaunch -l record -x -a '(__fish_complete_directories)' -d 'Write the run manifest (manifest.json) here'
complete -c distlaunch -l debug-log -r -F -d 'Append a timestamped record of the job to FILE: hosts, agents, preflight answers, rank starts and ends, every stop decision'
complete -c distlaunch -l stdin-rank -x -d 'Give stdin to this rank only (default: all)'
complete -c distlaunch -l no-stdin -d 'Do not read stdin (ranks see EOF; use when running in the background)'
complete -c distlaunch -l grace -x -d 'Seconds between SIGTERM and SIGKILL (default 3)'
complete -c distlaunch -l timeout -x -d 'Stop the job after this many seconds'
complete -c distlaunch -l exit-window -x -d 'Seconds the other ranks get after one exits 0 (default 60, 0 = forever)'
complete -c distlaunch -l connect-timeout -x -d 'Seconds to reach each host (default 10)'
complete -c distlaunch -l stall-timeout -x -d 'Seconds without progress of any rank (output, I/O, heartbeat, stdin) that make a stall: report, stacks, then --on-stall (default 0 = off)'
complete -c distlaunch -l on-stall -x -a 'abort dump' -d 'What a stall does: abort (stop the job, exit 124; the default) or dump (report and go on)'
complete -c distlaunch -l restart -x -a 'no on-failure on-stall' -d 'Start the whole job again when it fails: no (the default), on-failure (any failure) or on-stall (a stall or a failed health check)'
complete -c distlaunch -l max-restarts -x -d 'Restarts before the job\'s failure stands (default 3); the waits double from 1 s up to the heartbeat limit'
complete -c distlaunch -l health-cmd -x -d 'A shell command run on rank 0\'s host every --health-interval seconds; its failure is a stall'
complete -c distlaunch -l health-url -x -d 'A URL that curl on rank 0\'s host must fetch every --health-interval seconds; a failure is a stall'
complete -c distlaunch -l health-interval -x -d 'Seconds between health checks, and the time each may take (default 10)'
complete -c distlaunch -l agent -x -d 'distkit-agent (the host agent) installed on the hosts: a path, or none (default: PATH, then beside distlaunch, /opt/homebrew/bin, /usr/local/bin; else, and with none, distlaunch copies its own)'
complete -c distlaunch -l no-preflight -d 'Skip the checks before the start'
