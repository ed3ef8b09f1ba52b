target_link_libraries(distbench PRIVATE distkit::bench distkit::util)
