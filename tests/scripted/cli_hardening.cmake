# SPDX-License-Identifier: MIT
# Hardening of the command line: every JSON it writes parses strictly (no NaN, no key without a
# value), and every file of tests/data/bad/ gets exit status 1 and a one-line message.
# Uses remat_cli_test() of cli.cmake, which the sorted glob of tests/CMakeLists.txt includes first.
if(NOT COMMAND remat_cli_test)
  message(FATAL_ERROR "cli_hardening.cmake needs remat_cli_test() from cli.cmake, included before it")
endif()
set(REMAT_INPUTS_ONLY ${REMAT_TEST_DATA_DIR}/worked_examples/cos_cos.json) # runtime-optimal cut saves only inputs
set(REMAT_HARDENING_OUT ${CMAKE_CURRENT_BINARY_DIR}/hardening)
file(MAKE_DIRECTORY ${REMAT_HARDENING_OUT})

# remat_json_test(name [FILE written] [EXPECT regex] ARGS ...): exit 0 and strict JSON.
function(remat_json_test name)
  cmake_parse_arguments(T "" "FILE;EXPECT" "ARGS" ${ARGN})
  set(defs "-DSTRICT_JSON=ON" -DEXPECT_CODE=0)
  if(DEFINED T_FILE)
    list(APPEND defs "-DEXPECT_FILE=${T_FILE}" "-DEXPECT_FILE_CONTENT=${T_EXPECT}")
  elseif(DEFINED T_EXPECT)
    list(APPEND defs "-DEXPECT_STDOUT=${T_EXPECT}")
  endif()
  string(REPLACE ";" "@@" command "$<TARGET_FILE:remat-explorer>;${T_ARGS}")
  add_test(NAME json_${name} COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${command}" ${defs} -P ${REMAT_CHECK})
  set_tests_properties(json_${name} PROPERTIES LABELS "cli;hardening")
endfunction()

# A graph whose runtime-optimal cut saves only inputs: the memory ratio is 0/0, written as null.
remat_json_test(budget_inputs_only ARGS budget ${REMAT_INPUTS_ONLY} --json EXPECT "\"memory_ratio\": null")
remat_json_test(budget_inputs_only_plan ARGS budget ${REMAT_INPUTS_ONLY} --budget 0.5
  -o ${REMAT_HARDENING_OUT}/cos_cos_plan.json FILE ${REMAT_HARDENING_OUT}/cos_cos_plan.json
  EXPECT "\"memory_ratio\": null")
remat_json_test(budget_inputs_only_zero ARGS budget ${REMAT_INPUTS_ONLY} --budget 0 --json)
remat_json_test(pareto_inputs_only ARGS pareto ${REMAT_INPUTS_ONLY} --points 5 --json EXPECT "\"memory_ratio\": null")
remat_json_test(partition_inputs_only ARGS partition ${REMAT_INPUTS_ONLY} --json)
remat_json_test(partition_inputs_only_plan ARGS partition ${REMAT_INPUTS_ONLY} --rules newest
  -o ${REMAT_HARDENING_OUT}/cos_cos_partition.json FILE ${REMAT_HARDENING_OUT}/cos_cos_partition.json
  EXPECT "saved_values")
foreach(graph mlp3_relu gpt_n2)
  remat_json_test(budget_${graph} ARGS budget ${REMAT_ORACLE}/${graph}.json --budget 0.3 --json)
  remat_json_test(pareto_${graph} ARGS pareto ${REMAT_ORACLE}/${graph}.json --points 9 --json)
  remat_json_test(partition_${graph} ARGS partition ${REMAT_ORACLE}/${graph}.json --json)
endforeach()
remat_json_test(budget_ratio_defined ARGS budget ${REMAT_ORACLE}/gpt_n2.json --budget 0.3 --json
  EXPECT "\"memory_ratio\": 0\\.[0-9]")
remat_cli_test(budget_inputs_only_summary CODE 0 ARGS budget ${REMAT_INPUTS_ONLY} --budget 0.5
  STDOUT "memory ratio +undefined \\(the runtime-optimal cut saves no more than the inputs\\)")

# The bad corpus: one test per file, through the command that reads that kind of file.
file(STRINGS ${REMAT_TEST_DATA_DIR}/bad/MANIFEST.tsv remat_bad_cases ENCODING UTF-8)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${REMAT_TEST_DATA_DIR}/bad/MANIFEST.tsv)
foreach(line IN LISTS remat_bad_cases)
  if(line MATCHES "^#" OR line STREQUAL "")
    continue()
  endif()
  string(REGEX MATCH "^([^\t]+)\t([^\t]+)\t(.*)$" fields "${line}")
  set(kind ${CMAKE_MATCH_1})
  set(name ${CMAKE_MATCH_2})
  set(file ${REMAT_TEST_DATA_DIR}/bad/${name})
  set(pattern "${CMAKE_MATCH_3}")
  if(kind STREQUAL "project")
    continue() # read by the app only: tests/gui/tst_badprojectfiles.cpp
  elseif(kind STREQUAL "graph")
    set(args info ${file})
  elseif(kind MATCHES "^plan")
    set(args memory ${REMAT_INPUTS_ONLY} --plan ${file})
  elseif(kind STREQUAL "devices")
    set(args budget ${REMAT_INPUTS_ONLY} --estimator roofline --devices ${file} --device Tiny)
  else()
    message(FATAL_ERROR "MANIFEST.tsv: unknown kind '${kind}' in: ${line}")
  endif()
  remat_cli_test(bad_${name} CODE 1 ONE_LINE_ERROR ARGS ${args} STDERR "^remat-explorer: .*${pattern}")
  set_property(TEST cli_bad_${name} APPEND PROPERTY LABELS "hardening;bad")
endforeach()
