# distaccept result collection (templates/accept_collect.sh): after each
# run, on rank 0's host in the task's working directory. Prints one
# "file <sha256|-> <path>" line per declared file, then the metrics file
# between marker lines (or "metrics-file-missing"). POSIX sh.
set -- {{files|raw}}
for f do printf 'file %s %s\n' "$(hash_file "$f")" "$f"; done
metrics_file={{metrics_file}}
if [ -n "$metrics_file" ]; then
  if [ -f "$metrics_file" ]; then
    echo metrics-file-begin
    cat "$metrics_file"
    echo
    echo metrics-file-end
  else
    echo metrics-file-missing
  fi
fi
exit 0
