# distconfig's link line: the tool is configtool's entry point plus argv.
target_link_libraries(distconfig PRIVATE distkit::configtool)
