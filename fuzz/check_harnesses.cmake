# ctest fuzz.harnesses_cover_every_grammar: the grammars that got a generated harness
# (read by fuzz/CMakeLists.txt from src/readers/grammar_registry.cpp) are exactly the grammars the
# library knows (`toolgram grammars`), so a registered grammar is never left unfuzzed and
# a GrammarDef named differently from its NAME_grammar symbol is caught here.
#   cmake -DCLI=… -DHARNESSED="a;b;…" -P check_harnesses.cmake
execute_process(COMMAND "${CLI}" grammars OUTPUT_VARIABLE out RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "`${CLI} grammars` failed (${rc})")
endif()
string(REGEX MATCHALL "(^|\n)[^\t\n]+\t" names "${out}")
set(known "")
foreach(n IN LISTS names)
  string(STRIP "${n}" n)
  list(APPEND known "${n}")
endforeach()
list(SORT known)
set(harnessed ${HARNESSED})
list(SORT harnessed)
if(NOT known STREQUAL harnessed)
  message(FATAL_ERROR "grammars without a harness or harnesses without a grammar:\n"
                      "  toolgram grammars: ${known}\n  harnessed:         ${harnessed}")
endif()
list(LENGTH known count)
message(STATUS "${count} grammars, each with its harness")
