printf '%s\n' "$distkit_file_{{index|raw}}" >"$d/"{{name}} && export {{key|raw}}="$d/"{{name}}
