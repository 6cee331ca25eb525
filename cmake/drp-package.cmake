# What a program of one's own needs to use the installed module: a CMake
# package configuration (find_package(drp) gives the imported target drp::drp)
# and a pkg-config file (drp.pc). Both name their folders relative to where
# they are installed, so a prefix chosen at install time (cmake --install
# --prefix, packaging with DESTDIR) works as well as the configured one.
include(CMakePackageConfigHelpers)

# The ns-3 modules the library links, from the target itself so that the
# package cannot forget one: components of find_package(ns3) and pkg-config
# modules. Core comes first: drp's headers use it directly.
set(DRP_NS3_COMPONENTS libcore)
set(DRP_PC_REQUIRES ns3-core)
get_target_property(_links ${libdrp} INTERFACE_LINK_LIBRARIES)
foreach(_link ${_links})
  if(_link MATCHES "^ns3::lib(.+)$" AND NOT CMAKE_MATCH_1 STREQUAL "core")
    list(APPEND DRP_NS3_COMPONENTS lib${CMAKE_MATCH_1})
    list(APPEND DRP_PC_REQUIRES ns3-${CMAKE_MATCH_1})
  endif()
endforeach()
list(JOIN DRP_NS3_COMPONENTS " " DRP_NS3_COMPONENTS)
list(JOIN DRP_PC_REQUIRES " " DRP_PC_REQUIRES)

set(_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/drp)
install(EXPORT drpTargets NAMESPACE drp:: DESTINATION ${_cmake_dir})
configure_package_config_file(cmake/drpConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/drpConfig.cmake
  INSTALL_DESTINATION ${_cmake_dir}
  PATH_VARS CMAKE_INSTALL_DATADIR)
# 0.x releases: a new minor version may change the interface.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/drpConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/drpConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/drpConfigVersion.cmake
        DESTINATION ${_cmake_dir})

# pkg-config: paths from ${pcfiledir}, the folder drp.pc is found in.
set(_pc_dir ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig)
file(RELATIVE_PATH DRP_PC_TO_PREFIX ${_pc_dir} ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" DRP_PC_TO_PREFIX "${DRP_PC_TO_PREFIX}")
foreach(_dir LIBDIR INCLUDEDIR DATADIR)
  file(RELATIVE_PATH DRP_PC_${_dir} ${CMAKE_INSTALL_PREFIX} ${CMAKE_INSTALL_FULL_${_dir}})
endforeach()
configure_file(cmake/drp.pc.in ${CMAKE_CURRENT_BINARY_DIR}/drp.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/drp.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
