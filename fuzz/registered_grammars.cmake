# The grammar names registered in src/readers/grammar_registry.cpp, read from its `&NAME_grammar`
# entries: the one definition of "registered" for the fuzz build (one harness each) and
# for the scaffold test (tests/new_grammar_test.sh: a grammar scripts/new-grammar adds
# gets its harness).
#
#   include(registered_grammars.cmake) then toolgram_registered_grammars(OUT REGISTRY_FILE)
#   cmake -DREGISTRY=src/readers/grammar_registry.cpp -P fuzz/registered_grammars.cmake   (one a line)

function(toolgram_registered_grammars out registry)
  file(READ "${registry}" text)
  string(REGEX MATCHALL "&[a-z0-9_]+_grammar" refs "${text}")
  set(names "")
  foreach(ref IN LISTS refs)
    string(REGEX REPLACE "^&(.*)_grammar$" "\\1" name "${ref}")
    list(APPEND names "${name}")
  endforeach()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

if(CMAKE_SCRIPT_MODE_FILE AND CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  if(NOT REGISTRY)
    message(FATAL_ERROR "usage: cmake -DREGISTRY=FILE -P registered_grammars.cmake")
  endif()
  toolgram_registered_grammars(names "${REGISTRY}")
  list(JOIN names "\n" lines)
  execute_process(COMMAND ${CMAKE_COMMAND} -E echo "${lines}")
endif()
