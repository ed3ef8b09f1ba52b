target_link_libraries(distlaunch PRIVATE distkit::launch)
