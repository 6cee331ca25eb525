# Run by "cmake --install --component wireshark" (see the top-level
# CMakeLists.txt): copies the DRP
# dissector, DRP_LUA, into Wireshark's personal Lua plugin folder. The folder
# is, in order: the environment variable DRP_WIRESHARK_PLUGIN_DIR at install
# time, the cache variable of the same name (DRP_WIRESHARK_PLUGIN_DIR_CONFIGURED
# here), what "tshark -G folders" calls "Personal Lua Plugins", and
# ~/.local/lib/wireshark/plugins.
# Run only when the component is asked for by name (EXCLUDE_FROM_ALL): a
# plain install leaves the user's folders alone. Under DESTDIR (a staged
# install, for a package) no user's folder is meant: refused.
if(DEFINED ENV{DESTDIR} AND NOT "$ENV{DESTDIR}" STREQUAL "")
  message(FATAL_ERROR "drp: the wireshark component copies the dissector into a user's "
                      "Wireshark folder, which a staged install (DESTDIR=$ENV{DESTDIR}) has "
                      "none of; the plain install puts it in PREFIX/share/drp/wireshark")
endif()
set(_dir "$ENV{DRP_WIRESHARK_PLUGIN_DIR}")
if(NOT _dir)
  set(_dir "${DRP_WIRESHARK_PLUGIN_DIR_CONFIGURED}")
endif()
if(NOT _dir)
  find_program(_tshark tshark)
  if(_tshark)
    execute_process(COMMAND ${_tshark} -G folders
                    OUTPUT_VARIABLE _folders ERROR_QUIET RESULT_VARIABLE _rc)
    if(_rc EQUAL 0 AND _folders MATCHES "Personal Lua Plugins:[ \t]*([^\n]+)")
      string(STRIP "${CMAKE_MATCH_1}" _dir)
    endif()
  endif()
endif()
if(NOT _dir)
  set(_dir "$ENV{HOME}/.local/lib/wireshark/plugins")
endif()
message(STATUS "drp: Wireshark dissector into ${_dir}")
file(INSTALL "${DRP_LUA}" DESTINATION "${_dir}")
