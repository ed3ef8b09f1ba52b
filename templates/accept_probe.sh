# distaccept host probe (templates/accept_probe.sh): one rank per host, run
# through distlaunch in the task's working directory before the task. Makes
# the run directories, then prints key=value version lines and one
# "input <sha256|-> <path>" line per declared input. POSIX sh.
set -- {{dirs|raw}}
for d do mkdir -p "$d" || exit 1; done
if v=$(sw_vers -productVersion 2>/dev/null) && b=$(sw_vers -buildVersion 2>/dev/null); then
  printf 'os=macOS %s (%s) %s\n' "$v" "$b" "$(uname -m)"
else
  printf 'os=%s\n' "$(uname -srm 2>/dev/null)"
fi
if command -v python3 >/dev/null 2>&1; then
  v=$(python3 --version 2>&1 </dev/null | head -n 1) && printf 'python=%s\n' "$v"
  v=$(python3 -c 'import importlib.metadata as m; print(m.version("mlx"))' 2>/dev/null </dev/null) &&
    printf 'mlx=%s\n' "$v"
fi
if command -v distlaunch >/dev/null 2>&1; then
  v=$(distlaunch --version 2>/dev/null </dev/null | head -n 1) && printf 'distkit=%s\n' "$v"
elif command -v pkg-config >/dev/null 2>&1; then
  v=$(pkg-config --modversion distkit 2>/dev/null) && printf 'distkit=distkit %s\n' "$v"
fi
set -- {{inputs|raw}}
for f do printf 'input %s %s\n' "$(hash_file "$f")" "$f"; done
exit 0
