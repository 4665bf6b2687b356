# Runs the built CLI to write its completion scripts and man page:
#   cmake -DGPUFLEET=path/to/gpufleet -DOUT=dir -P generate_docs.cmake
foreach(_doc "completion bash;completion/gpufleet" "completion zsh;completion/_gpufleet" "man;man/gpufleet.1")
  list(GET _doc 0 _args)
  list(GET _doc 1 _file)
  separate_arguments(_args)
  get_filename_component(_dir ${OUT}/${_file} DIRECTORY)
  file(MAKE_DIRECTORY ${_dir})
  execute_process(COMMAND ${GPUFLEET} ${_args} OUTPUT_FILE ${OUT}/${_file} RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${GPUFLEET} ${_args} failed (${_rc})")
  endif()
endforeach()
