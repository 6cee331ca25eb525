# Writes the package's _build.py: the git revision of the source tree at build
# time (full commit id, "-dirty" if tracked or untracked files differ from it,
# "unknown" outside a git checkout). Runs on every build; the file is only
# rewritten when its content changes.
#
# cmake -D SOURCE_DIR=<repository> -D OUTPUT=<file> -P build-info.cmake

set(_revision unknown)
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} rev-parse HEAD
                  OUTPUT_VARIABLE _head OUTPUT_STRIP_TRAILING_WHITESPACE
                  RESULT_VARIABLE _rc ERROR_QUIET)
  if(_rc EQUAL 0)
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} status --porcelain
                    OUTPUT_VARIABLE _changes ERROR_QUIET)
    set(_revision ${_head})
    if(NOT _changes STREQUAL "")
      string(APPEND _revision -dirty)
    endif()
  endif()
endif()

file(CONFIGURE OUTPUT ${OUTPUT} CONTENT
"\"\"\"Generated at build time by python/build-info.cmake: do not edit.\"\"\"

#: git revision of the source tree the package was built from
GIT_REVISION = \"${_revision}\"
")
