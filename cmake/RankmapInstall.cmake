# Install rules: headers, libraries, the CMake package (find_package(rankmap)) and rankmap.pc.
include(CMakePackageConfigHelpers)

install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS rankmap_core rankmap_coords rankmap_runtime rankmap rankmap_static rankmap_preload EXPORT rankmapTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT rankmapTargets NAMESPACE rankmap:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/rankmap)

configure_package_config_file(cmake/rankmapConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/rankmapConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/rankmap)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/rankmapConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/rankmapConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/rankmapConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/rankmap)

configure_file(cmake/rankmap.pc.in ${CMAKE_CURRENT_BINARY_DIR}/rankmap.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/rankmap.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
