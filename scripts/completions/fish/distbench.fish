# fish completion for distbench, generated from `distbench --help` by scripts/completions/generate.sh;
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

complete -c distbench -f
complete -c distbench -s h -l help -d 'Print this help message and exit'
complete -c distbench -l version -d 'Display program version information and exit'
complete -c distbench -s b -l minbytes -x -d 'smallest size (bytes, K/M/G suffix)'
complete -c distbench -s e -l maxbytes -x -d 'largest size'
complete -c distbench -s f -l stepfactor -x -d 'size multiplier between rows'
complete -c distbench -s n -l iters -x -d 'timed iterations per size'
complete -c distbench -s w -l warmup_iters -x -d 'untimed warm-up iterations'
complete -c distbench -s c -l check -x -d 'check results (0/1): the #wrong column'
complete -c distbench -s d -l datatype -x -d 'element type (float32, bfloat16, int8, ...)'
complete -c distbench -s o -l op -x -a 'sum prod max min' -d 'reduction: sum, prod, max, min'
complete -c distbench -s r -l root -x -d 'broadcast root'
complete -c distbench -s t -l test -x -d 'comma list of all_reduce, all_gather, reduce_scatter, broadcast, sendrecv, barrier, or all'
complete -c distbench -l json -d 'one JSON document instead of the table'
complete -c distbench -l threads -x -d 'run N ranks as threads of this process (loopback)'
