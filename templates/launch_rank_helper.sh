# The compiled wrapper (distlaunch-rank, apps/rank_helper) where distkit is
# installed on the host: the perl wrapper's job without perl's start-up cost.
# Names without a slash are looked up on PATH; no program is started here.
for distkit_h in {{helpers|raw}}; do
  case $distkit_h in
    */*) [ -x "$distkit_h" ] || continue ;;
    *) command -v "$distkit_h" >/dev/null 2>&1 || continue ;;
  esac
  exec "$distkit_h" --protocol=1 {{args|raw}}
done
