# cmake -DNAPKIN=path/to/napkin -DOUT=dir -P NapkinDocs.cmake: writes the man page (napkin.1)
# and the bash (napkin.bash) and zsh (_napkin) completions that napkin generates from its
# command and knob tables. A failure (a command whose --help and table row disagree) stops
# the build with napkin's message.
foreach(doc "napkin.1;--man" "napkin.bash;--completion;bash" "_napkin;--completion;zsh")
  list(GET doc 0 file)
  list(SUBLIST doc 1 -1 args)
  # in English whatever the build environment's locale (the man page is the English one)
  execute_process(COMMAND ${NAPKIN} --lang en ${args} OUTPUT_FILE ${OUT}/${file}.tmp ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    file(REMOVE ${OUT}/${file}.tmp)
    message(FATAL_ERROR "napkin ${args} failed (${rc}): ${err}")
  endif()
  file(RENAME ${OUT}/${file}.tmp ${OUT}/${file})
endforeach()
