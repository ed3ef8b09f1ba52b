# distlaunch rank wrapper where the preflight found distlaunch-rank on the
# host (templates/launch_preflight.sh): the hand-over alone, without the
# search and the perl and sh fallbacks (a 13 KB script costs the login shell
# ~0.8 ms a rank even when it execs the helper on its first lines).
{{exports|raw}}
{{file_contents|raw}}
[ -x {{helper}} ] || {
  echo "distlaunch: rank "{{rank}}": "{{helper}}" is gone since the preflight; rerun the job" >&2
  exit 126; }
exec {{helper}} --protocol=1 {{perl_args|raw}}
