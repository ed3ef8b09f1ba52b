# Install and packaging tests: a clean-prefix install used by an
# out-of-tree program (find_package and pkg-config) under distlaunch, the
# Debian package unpacked into a throwaway root, and the shell completions
# (fresh against the tools' --help, and working in bash, zsh and fish).
distkit_integration_test(install_consumer install_consumer.sh)
distkit_integration_test(install_deb install_deb.sh)
distkit_integration_test(install_deb_clean_root install_deb_clean_root.sh)
distkit_integration_test(install_completions install_completions.sh)
distkit_integration_test(install_formula install_formula.sh)
# Both install from the build tree, which rewrites its install_manifest.txt
# (saved and restored by each test): never at the same time.
set_tests_properties(integration.install_consumer integration.install_deb
  integration.install_deb_clean_root PROPERTIES
  TIMEOUT 300 RESOURCE_LOCK distkit_build_install_manifest)
add_test(NAME doc.completions
         COMMAND sh ${PROJECT_SOURCE_DIR}/scripts/completions/generate.sh --check ${PROJECT_BINARY_DIR})
set_tests_properties(doc.completions PROPERTIES LABELS doc SKIP_RETURN_CODE 77)
