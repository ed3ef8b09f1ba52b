target_link_libraries(distaccept PRIVATE distkit::accept)
