# fish completion for distconfig, generated from `distconfig --help` by scripts/completions/generate.sh;
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

complete -c distconfig -f
complete -c distconfig -s h -l help -d 'Print this help message and exit'
complete -c distconfig -l version -d 'Display program version information and exit'
complete -c distconfig -l hosts -x -a '(__distkit_host_list)' -d 'Comma-separated hosts (default 127.0.0.1)'
complete -c distconfig -l hostfile -r -F -d 'Read the hosts from this hostfile'
complete -c distconfig -l over -x -a 'thunderbolt ethernet' -d 'What to configure: thunderbolt or ethernet'
complete -c distconfig -l backend -x -a 'ring jaccl jaccl-ring' -d 'ring, jaccl or jaccl-ring (default: automatic)'
complete -c distconfig -l auto-setup -d 'Configure the hosts\' point-to-point addresses over SSH (sudo -n), then verify'
complete -c distconfig -l no-auto-setup -d 'Only print the network setup commands'
complete -c distconfig -l dot -d 'Print the topology as a Graphviz DOT graph and exit'
complete -c distconfig -l matrix -d 'Print the cable count matrix and exit'
complete -c distconfig -l output-hostfile -l output -r -F -d 'Write the hostfile here (atomically) instead of stdout'
complete -c distconfig -l format -x -a 'mlx openmpi mpich slurm deepspeed' -d 'Hostfile format: mlx (JSON), openmpi, mpich, slurm or deepspeed (default mlx)'
complete -c distconfig -l env -x -d 'KEY=VALUE for the ranks (repeatable)'
complete -c distconfig -l ignore-unreachable -d 'Go on with the reachable hosts'
complete -c distconfig -l verbose -d 'Say what is being done on stderr'
complete -c distconfig -l ssh-config -r -F -d 'ssh_config file to use'
complete -c distconfig -l save-probes -x -a '(__fish_complete_directories)' -d 'Save every host\'s raw probe output here'
complete -c distconfig -l from-probes -x -a '(__fish_complete_directories)' -d 'Replay probes saved with --save-probes (no SSH)'
complete -c distconfig -l check -d 'Print a readiness report and a verdict per backend'
complete -c distconfig -l json -d 'Machine-readable report on stdout'
complete -c distconfig -l subnet -x -d 'Network for the point-to-point /30s (default 10.213.0.0/16)'
complete -c distconfig -l links -x -d 'File declaring cables by hand: hostA:ifA hostB:ifB per line'
complete -c distconfig -l emit-scripts -x -d 'Write per-host setup, teardown and verify scripts into this directory'
complete -c distconfig -l verify -d 'Test TCP between every cabled pair on the backend\'s port'
complete -c distconfig -l verify-port -x -d 'TCP port --verify tests (default 32323)'
complete -c distconfig -l teardown -d 'Undo what network setup changed on every host'
complete -c distconfig -l persist -d 'Re-apply the setup at boot (launchd on macOS, systemd on Linux)'
complete -c distconfig -l bridge-down -d 'macOS: bring bridge0 down (as the reference) instead of taking the ports out of it'
complete -c distconfig -l doctor -d 'Check every hop the backend will use: route, connect, daemons, RDMA GIDs, speed'
complete -c distconfig -l watch -x -d 'Re-run the link checks every SECONDS; print changes, log every check'
complete -c distconfig -l count -x -d 'With --watch: stop after N rounds (default: until Ctrl-C)'
complete -c distconfig -l history -x -d 'With --watch: append one JSON line per check here (default distconfig-watch.jsonl)'
complete -c distconfig -l fail-on-drift -d 'With --watch: exit 1 at the first drift'
complete -c distconfig -l test-port -x -d 'TCP port --doctor/--watch test on (default 32322; never one of the job\'s)'
complete -c distconfig -l job-port -x -d 'The job\'s first port (distlaunch --starting-port, default 32323): left alone'
complete -c distconfig -l state-file -x -d 'Where each host records what setup changed (%h: host; default per OS)'
