# Writes one add_test() per TestSuite that the runner lists.
#
# ns-3's runner prints its help and exits 0 on an option it does not know, so a
# test passes only if the output names the suite as PASS and says no FAIL.
execute_process(COMMAND ${RUNNER} --list OUTPUT_VARIABLE _out RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${RUNNER} --list failed: ${_rc}")
endif()
string(REPLACE "\n" ";" _lines "${_out}")
set(_content "# Generated from ${RUNNER} --list\n")
set(_count 0)
foreach(_line ${_lines})
  string(STRIP "${_line}" _suite)
  # --list prints "<type>  <name>" in some versions and "<name>" in others.
  string(REGEX REPLACE "^.*[ \t]" "" _suite "${_suite}")
  if(_suite STREQUAL "" OR NOT _suite MATCHES "^drp")
    continue()
  endif()
  string(APPEND _content
    "add_test(${_suite} ${RUNNER} --suite=${_suite} --verbose)\n"
    "set_tests_properties(${_suite} PROPERTIES\n"
    "  PASS_REGULAR_EXPRESSION \"PASS ${_suite}\"\n"
    "  FAIL_REGULAR_EXPRESSION \"FAIL|CRASH|Usage:|Options:\")\n")
  math(EXPR _count "${_count} + 1")
endforeach()
if(_count EQUAL 0)
  message(FATAL_ERROR "${RUNNER} --list named no drp suite")
endif()
file(WRITE ${OUTPUT} "${_content}")
