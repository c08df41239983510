# Writes the man pages and the bash completion of virrey with the binary
# itself (cmake/install.cmake runs this at build time, and for the man pages
# again at install time):
#   cmake -DVIRREY=BINARY -DDOCS=DIR -DDATA_DIR=PREFIX/share/virrey -P write_docs.cmake
file(REMOVE_RECURSE ${DOCS}/man)
file(MAKE_DIRECTORY ${DOCS}/man ${DOCS}/completion)
execute_process(COMMAND ${VIRREY} write-man-pages ${DOCS}/man --data-dir ${DATA_DIR} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "virrey write-man-pages failed: ${rc}")
endif()
execute_process(COMMAND ${VIRREY} completion bash OUTPUT_FILE ${DOCS}/completion/virrey RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "virrey completion bash failed: ${rc}")
endif()
file(TOUCH ${DOCS}/stamp)
