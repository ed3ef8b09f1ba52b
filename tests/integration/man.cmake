# Man pages (man/*.md -> man/*.<section>, see man/tools/README.md): the
# committed roff must match its source and render without groff warnings,
# and the converter must behave as its self-test says.
add_test(NAME doc.man_pages COMMAND sh ${PROJECT_SOURCE_DIR}/man/tools/check.sh)
add_test(NAME doc.md2man COMMAND sh ${PROJECT_SOURCE_DIR}/man/tools/selftest.sh)
set_tests_properties(doc.man_pages doc.md2man PROPERTIES LABELS doc)
