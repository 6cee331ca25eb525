# Out-of-tree support for ns-3 modules.
#
# Inside an ns-3 source tree, ns-3's own build system defines build_lib() and
# build_lib_example(). This file defines the same two functions on top of the
# installed ns-3 (imported targets ns3::lib*), so contrib/drp/CMakeLists.txt is
# the same file in both modes.

# Map ns-3's ${libXXX} variables onto the imported targets, as ns-3 does in-tree.
foreach(_module ${NS3_MODULES_USED})
  set(lib${_module} ns3::lib${_module})
endforeach()

set(NS3_OUT_OF_TREE_INCLUDE_DIR ${CMAKE_BINARY_DIR}/include)
file(MAKE_DIRECTORY ${NS3_OUT_OF_TREE_INCLUDE_DIR}/ns3)

# Flags for this project's own code. Debian's libraries are built with logging
# and asserts, but the imported targets do not carry the definitions.
set(NS3_OUT_OF_TREE_DEFINITIONS NS3_LOG_ENABLE)
if(CMAKE_BUILD_TYPE STREQUAL "Debug")
  list(APPEND NS3_OUT_OF_TREE_DEFINITIONS NS3_ASSERT_ENABLE)
endif()

# Warnings for drp's own code: those of ns-3's debug profile (build-support/
# macros-and-definitions.cmake, ns-3.48: -Wall, -Wpedantic, and with
# NS3_WARNINGS_AS_ERRORS -Werror except for deprecations, which stay
# warnings), plus -Wextra. drp must build inside ns-3 source trees, whose
# debug profile fails on any such warning; with DRP_WARNINGS_AS_ERRORS (the
# project's scripts turn it on) this build fails on the same ones the day they
# are written. Headers of ns-3, Boost and pybind11 come from system folders
# and are not judged.
option(DRP_WARNINGS_AS_ERRORS
  "Treat warnings in drp's own code as errors, as ns-3's debug profile does" OFF)
set(DRP_WARNING_OPTIONS -Wall -Wextra -Wpedantic)
if(DRP_WARNINGS_AS_ERRORS)
  list(APPEND DRP_WARNING_OPTIONS -Werror -Wno-error=deprecated-declarations)
endif()

function(_ns3_oot_copy_headers)
  foreach(_header ${ARGN})
    get_filename_component(_name ${_header} NAME)
    configure_file(${CMAKE_CURRENT_SOURCE_DIR}/${_header}
                   ${NS3_OUT_OF_TREE_INCLUDE_DIR}/ns3/${_name} COPYONLY)
  endforeach()
endfunction()

# build_lib(LIBNAME name SOURCE_FILES ... HEADER_FILES ... LIBRARIES_TO_LINK ...
#           TEST_SOURCES ...)
#
# Builds shared library lib<name> (target lib<name>, variable ${lib<name>}),
# copies its headers to <build>/include/ns3/ and writes <name>-module.h, as
# ns-3 does. TEST_SOURCES become object library lib<name>-test (with
# DRP_ENABLE_TESTS only), which the project's test runner links (object files
# keep the static TestSuite instances that register the suites).
function(build_lib)
  cmake_parse_arguments(BLIB "" "LIBNAME"
    "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK;TEST_SOURCES;DEPRECATED_HEADER_FILES;MODULE_ENABLED_FEATURES;PRIVATE_HEADER_FILES"
    ${ARGN})
  set(_target lib${BLIB_LIBNAME})

  _ns3_oot_copy_headers(${BLIB_HEADER_FILES})
  set(_module_header ${NS3_OUT_OF_TREE_INCLUDE_DIR}/ns3/${BLIB_LIBNAME}-module.h)
  set(_content "// Generated: includes every public header of module ${BLIB_LIBNAME}.\n")
  string(APPEND _content "#ifndef NS3_MODULE_${BLIB_LIBNAME}\n#define NS3_MODULE_${BLIB_LIBNAME}\n")
  foreach(_header ${BLIB_HEADER_FILES})
    get_filename_component(_name ${_header} NAME)
    string(APPEND _content "#include \"${_name}\"\n")
  endforeach()
  string(APPEND _content "#endif\n")
  file(GENERATE OUTPUT ${_module_header} CONTENT "${_content}")

  add_library(${_target} SHARED ${BLIB_SOURCE_FILES})
  # Installed, the target is <name>::<name> (cmake/drp-package.cmake).
  set_target_properties(${_target} PROPERTIES OUTPUT_NAME ns3-${BLIB_LIBNAME}
                        VERSION ${PROJECT_VERSION} EXPORT_NAME ${BLIB_LIBNAME})
  target_include_directories(${_target} PUBLIC
    $<BUILD_INTERFACE:${NS3_OUT_OF_TREE_INCLUDE_DIR}>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${_target} PUBLIC cxx_std_17)
  # As ns-3 does in tree: the module directory's definitions reach everything
  # that links the library in this build. Not the installed library's users:
  # the definitions name this build's folders, and a program of one's own
  # chooses its logging and asserts itself, as with ns-3's installed targets.
  get_directory_property(_dir_definitions COMPILE_DEFINITIONS)
  foreach(_definition ${NS3_OUT_OF_TREE_DEFINITIONS} ${_dir_definitions})
    target_compile_definitions(${_target} PUBLIC $<BUILD_INTERFACE:${_definition}>)
  endforeach()
  target_compile_options(${_target} PRIVATE ${DRP_WARNING_OPTIONS})
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU")
    # As ns-3 builds its own libraries with GCC (3.37's macros-and-
    # definitions.cmake): calls within the library may be inlined or made
    # directly instead of through the PLT, since nothing replaces a drp
    # function by another library's at run time.
    target_compile_options(${_target} PRIVATE -fno-semantic-interposition)
  endif()
  target_link_libraries(${_target} PUBLIC ${BLIB_LIBRARIES_TO_LINK})
  set(lib${BLIB_LIBNAME} ${_target} CACHE INTERNAL "ns-3 module target ${BLIB_LIBNAME}")

  install(TARGETS ${_target} EXPORT ${BLIB_LIBNAME}Targets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  foreach(_header ${BLIB_HEADER_FILES})
    install(FILES ${_header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)
  endforeach()
  install(FILES ${_module_header} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ns3)

  # The test suites' objects only for a build with tests (DRP_ENABLE_TESTS,
  # the top-level CMakeLists.txt): without them nothing would link them.
  if(BLIB_TEST_SOURCES AND DRP_ENABLE_TESTS)
    add_library(${_target}-test OBJECT ${BLIB_TEST_SOURCES})
    target_link_libraries(${_target}-test PUBLIC ${_target})
    target_compile_options(${_target}-test PRIVATE ${DRP_WARNING_OPTIONS})
  endif()

  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/examples/CMakeLists.txt AND DRP_ENABLE_EXAMPLES)
    add_subdirectory(examples)
  endif()
endfunction()

# build_lib_example(NAME name SOURCE_FILES ... LIBRARIES_TO_LINK ...)
function(build_lib_example)
  cmake_parse_arguments(BLIB_EXAMPLE "" "NAME" "SOURCE_FILES;HEADER_FILES;LIBRARIES_TO_LINK" ${ARGN})
  add_executable(${BLIB_EXAMPLE_NAME} ${BLIB_EXAMPLE_SOURCE_FILES})
  target_link_libraries(${BLIB_EXAMPLE_NAME} PRIVATE ${BLIB_EXAMPLE_LIBRARIES_TO_LINK})
  target_compile_options(${BLIB_EXAMPLE_NAME} PRIVATE ${DRP_WARNING_OPTIONS})
  # Installed into the prefix's bin, finding libns3-drp in its lib folder.
  file(RELATIVE_PATH _to_libdir /${CMAKE_INSTALL_BINDIR} /${CMAKE_INSTALL_LIBDIR})
  set_target_properties(${BLIB_EXAMPLE_NAME} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/examples
    INSTALL_RPATH "$ORIGIN/${_to_libdir}")
  install(TARGETS ${BLIB_EXAMPLE_NAME} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()
