# What `cmake --install build --prefix P` puts under P, and nothing else:
#   bin/virrey                                   the binary (component binary)
#   share/man/man1/virrey.1, virrey-COMMAND.1    its man pages (and virrey-dask.1)
#   share/bash-completion/completions/virrey     its bash completion
#   share/virrey/sample-data/                    the sample collections
#   bin/virrey-dask, share/virrey/cluster/       the Dask driver (cluster/)
# The libraries are static and private to the binary; tests, benchmarks and
# headers stay in the build tree. The man pages and the completion are
# written by the binary itself from its CLI11 definitions (the completion at
# build time, the man pages again at install time for the prefix given then),
# so a new command or option appears in them without more work here.
# The component system-binary (not part of a plain install; scripts/package.sh
# installs it after the rest) replaces bin/virrey by the build linked to the
# system's shared libraries (cli/CMakeLists.txt, virrey_system).
include(GNUInstallDirs)

set(VIRREY_DOCS_DIR ${CMAKE_BINARY_DIR}/docs)
add_custom_command(
  OUTPUT ${VIRREY_DOCS_DIR}/stamp
  COMMAND ${CMAKE_COMMAND} -DVIRREY=$<TARGET_FILE:virrey> -DDOCS=${VIRREY_DOCS_DIR}
          -DDATA_DIR=${CMAKE_INSTALL_FULL_DATADIR}/virrey -P ${PROJECT_SOURCE_DIR}/cmake/write_docs.cmake
  DEPENDS virrey ${PROJECT_SOURCE_DIR}/cmake/write_docs.cmake
  COMMENT "Writing the man pages and the bash completion of virrey"
  VERBATIM)
add_custom_target(virrey_docs ALL DEPENDS ${VIRREY_DOCS_DIR}/stamp)

install(TARGETS virrey RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT binary)
install(TARGETS virrey_system RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT system-binary
        EXCLUDE_FROM_ALL)
# The man pages name the sample data where this install puts it: they are
# written again at install time, for the prefix given then (`--prefix`, made
# absolute).
# They are written into a temporary directory, not into the build tree
# (it may belong to another user, or be read-only; CMake itself still writes
# its install_manifest.txt there, after every file is in place).
install(
  CODE "
  get_filename_component(prefix \"\${CMAKE_INSTALL_PREFIX}\" ABSOLUTE)
  if(IS_ABSOLUTE \"${CMAKE_INSTALL_DATADIR}\")
    set(data_dir \"${CMAKE_INSTALL_DATADIR}/virrey\")
  else()
    set(data_dir \"\${prefix}/${CMAKE_INSTALL_DATADIR}/virrey\")
  endif()
  execute_process(COMMAND mktemp -d OUTPUT_VARIABLE docs OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR \"mktemp -d failed: \${rc}\")
  endif()
  execute_process(COMMAND \"${CMAKE_COMMAND}\" -DVIRREY=$<TARGET_FILE:virrey> -DDOCS=\${docs}
                          -DDATA_DIR=\${data_dir} -P ${PROJECT_SOURCE_DIR}/cmake/write_docs.cmake
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    file(REMOVE_RECURSE \${docs})
    message(FATAL_ERROR \"writing the man pages failed: \${rc}\")
  endif()
  file(GLOB pages \"\${docs}/man/*.1\")
  if(IS_ABSOLUTE \"${CMAKE_INSTALL_MANDIR}\")
    set(man_dir \"${CMAKE_INSTALL_MANDIR}/man1\")
  else()
    set(man_dir \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_MANDIR}/man1\")
  endif()
  file(INSTALL \${pages} DESTINATION \${man_dir})
  file(REMOVE_RECURSE \${docs})"
  COMPONENT binary)
# The Dask driver's page, with the version of project().
configure_file(${PROJECT_SOURCE_DIR}/cluster/virrey-dask.1.in ${VIRREY_DOCS_DIR}/virrey-dask.1 @ONLY)
install(FILES ${VIRREY_DOCS_DIR}/virrey-dask.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${VIRREY_DOCS_DIR}/completion/virrey
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/sample-data/ DESTINATION ${CMAKE_INSTALL_DATADIR}/virrey/sample-data)

# For programs beside the binary, e.g. the Dask driver: installed into bin/
# (scripts/package.sh ships whatever is installed).
function(virrey_install_program file)
  install(PROGRAMS ${file} DESTINATION ${CMAKE_INSTALL_BINDIR})
endfunction()
# The Dask driver (cluster/): bin/virrey-dask, and the module it imports in
# share/virrey/cluster/ (virrey-dask looks there, relative to itself).
virrey_install_program(${PROJECT_SOURCE_DIR}/cluster/virrey-dask)
install(FILES ${PROJECT_SOURCE_DIR}/cluster/virrey_dask.py DESTINATION ${CMAKE_INSTALL_DATADIR}/virrey/cluster)
