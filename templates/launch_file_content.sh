distkit_file_{{index|raw}}={{content}}
