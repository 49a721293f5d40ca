# SPDX-License-Identifier: MIT
# A headless command loads no GUI library: neither the CLI binary's own needs (ldd) nor what the
# dynamic loader really opens while it runs (LD_DEBUG=libs) name Qt, Graphviz or QCustomPlot.
#   -DPROGRAM=path -DGRAPH=path
set(gui_libraries "libQt6|libgvc|libcgraph|libQCustomPlot")
execute_process(COMMAND ldd ${PROGRAM} RESULT_VARIABLE code OUTPUT_VARIABLE needed ERROR_VARIABLE err)
if(NOT code EQUAL 0 OR NOT needed MATCHES "libc\\.so")
  message(FATAL_ERROR "ldd ${PROGRAM} failed (${code}): ${err}")
endif()
if(needed MATCHES "(${gui_libraries})[^ ]*")
  message(FATAL_ERROR "${PROGRAM} needs ${CMAKE_MATCH_0}:\n${needed}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E env LD_DEBUG=libs REMAT_NO_HUGE_PAGES=1 ${PROGRAM} partition ${GRAPH}
                RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE trace)
if(NOT code EQUAL 0 OR NOT out MATCHES "saved +[0-9]+ values")
  message(FATAL_ERROR "partition failed (${code}):\n${out}\n${trace}")
endif()
if(NOT trace MATCHES "find library=libstdc\\+\\+")
  message(FATAL_ERROR "LD_DEBUG=libs printed no trace of the loader; cannot tell what was loaded:\n${trace}")
endif()
if(trace MATCHES "(${gui_libraries})[^ ;]*")
  message(FATAL_ERROR "partition loaded ${CMAKE_MATCH_0}")
endif()
string(REGEX MATCHALL "find library=[^ ;]+" loaded "${trace}")
message(STATUS "partition loaded only: ${loaded}")
