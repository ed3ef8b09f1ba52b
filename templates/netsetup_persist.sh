# --persist: install this script and a boot job that runs it ({{kind|raw}}).
ns_persist() {
  mkdir -p "$(dirname {{script}})" "$(dirname {{job}})" 2>"$NS_ERR" || { failed "persist"; return; }
  t={{script}}.new
  cat >"$t" <<'DISTKIT_NETSETUP_EOF'
{{script_text|raw}}
DISTKIT_NETSETUP_EOF
  j={{job}}.new
  cat >"$j" <<'DISTKIT_NETSETUP_EOF'
{{job_text|raw}}
DISTKIT_NETSETUP_EOF
  if [ -f {{script}} ] && [ -f {{job}} ] && cmp -s "$t" {{script}} && cmp -s "$j" {{job}}; then
    rm -f "$t" "$j"; same "boot job {{job}}"; return
  fi
  chmod 644 "$t" "$j"
  { mv "$t" {{script}} && mv "$j" {{job}}; } 2>"$NS_ERR" || { failed "persist"; return; }
  record "persist {{job}}"
  record "persist {{script}}"
  {{enable|raw}}
  changed "boot job {{job}}"
}
