# fish completion for distaccept, generated from `distaccept --help` by scripts/completions/generate.sh;
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

complete -c distaccept -f
complete -c distaccept -s h -l help -d 'Print this help message and exit'
complete -c distaccept -l version -d 'Display program version information and exit'
complete -c distaccept -l hostfile -r -F -d 'The cluster\'s hostfile (MLX JSON)'
complete -c distaccept -l baseline-host -x -d 'Host of the one-host baseline (default: the hostfile\'s first)'
complete -c distaccept -s k -l repetitions -x -d 'Runs of each kind (overrides the task\'s)'
complete -c distaccept -s n -l ranks-per-host -x -d 'Ranks per cluster host (overrides the task\'s)'
complete -c distaccept -l work-dir -x -a '(__fish_complete_directories)' -d 'Where runs, logs and manifests go (default ./distaccept-runs/TIME)'
complete -c distaccept -l json -d 'Print the report as JSON (schema distkit.acceptance/1)'
complete -c distaccept -l verbose -d 'Print each step on stderr even when it is not a TTY'
complete -c distaccept -l ssh-config -r -F -d 'ssh_config file to read'
complete -c distaccept -l accept-new-host-keys -d 'Accept unknown host keys (never changed ones)'
complete -c distaccept -s p -l starting-port -x -d 'First port of the ranks\' ring (default 32323)'
complete -c distaccept -l connect-timeout -x -d 'Seconds to reach each host (default 10)'
complete -c distaccept -l hpc-nodes -x -d 'Also run the task\'s repetitions as one Slurm job of N nodes (sbatch --wait, distlaunch inside it), the same number of ranks, compared with the others'
complete -c distaccept -l sbatch-arg -x -d 'An extra sbatch argument for the HPC job (repeatable), e.g. --sbatch-arg=--partition=cpu'
