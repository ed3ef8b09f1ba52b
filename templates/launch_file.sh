printf '%s\n' {{content}} >"$d/"{{name}} && export {{key|raw}}="$d/"{{name}}
