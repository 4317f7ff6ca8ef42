# `cmake --install` lays out the headers and throngConfig.cmake, so another
# project's find_package(throng) gives it throng::sim.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
install(TARGETS throng_sim EXPORT throngTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY sim/include/throng DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT throngTargets NAMESPACE throng:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/throng)
configure_package_config_file(cmake/throngConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/throngConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/throng)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/throngConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/throngConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/throngConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/throng)
# The command and its scenes: an installed `throng` finds ../share/throng/scenes.
if(TARGET throng)
  install(TARGETS throng RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(DIRECTORY assets/scenes DESTINATION ${CMAKE_INSTALL_DATADIR}/throng)
endif()
