# SPDX-License-Identifier: MIT
# Python bridge tests: the joint-graph exporter, plan replay, and the end-to-end round trip through
# the remat-explorer command line (tests/python/).  They need a Python that can import torch and
# networkx: on Debian that is /usr/bin/python3 with python3-torch and python3-networkx; a pyenv or
# venv python3 first on PATH usually cannot.  Set REMAT_TORCH_PYTHON to choose one explicitly.

# `cmake -P` of this file is the stand-in test used when no such Python was found: it fails loudly.
if(CMAKE_SCRIPT_MODE_FILE)
  message(FATAL_ERROR "${REMAT_PYTHON_ERROR}")
endif()

set(REMAT_TORCH_PYTHON "" CACHE FILEPATH "Python interpreter that can import torch (empty: probe)")
if(NOT REMAT_TORCH_PYTHON)
  find_program(_remat_path_python3 NAMES python3 NO_CACHE)
  foreach(candidate /usr/bin/python3 ${_remat_path_python3})
    if(NOT EXISTS "${candidate}")
      continue()
    endif()
    execute_process(COMMAND "${candidate}" -c "import torch, networkx, functorch"
                    RESULT_VARIABLE _remat_probe OUTPUT_QUIET ERROR_QUIET TIMEOUT 120)
    if(_remat_probe EQUAL 0)
      set(REMAT_TORCH_PYTHON "${candidate}" CACHE FILEPATH "Python interpreter that can import torch" FORCE)
      break()
    endif()
  endforeach()
endif()
if(REMAT_TORCH_PYTHON)
  message(STATUS "Python bridge tests use ${REMAT_TORCH_PYTHON}")
else()
  message(WARNING "No Python that imports torch (tried /usr/bin/python3 and python3 on PATH): "
                  "the python_* tests will fail. Install python3-torch python3-networkx.")
endif()

if(TARGET remat-explorer)
  set(_remat_cli "$<TARGET_FILE:remat-explorer>")
else()
  set(_remat_cli "")      # test_end_to_end.py then fails, naming the missing executable
endif()

foreach(pair "python_end_to_end:test_end_to_end.py" "python_exporter:test_exporter.py"
             "python_apply_plan:test_apply_plan.py")
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 name)
  list(GET pair 1 script)
  if(REMAT_TORCH_PYTHON)
    add_test(NAME ${name} COMMAND "${REMAT_TORCH_PYTHON}" ${CMAKE_SOURCE_DIR}/tests/python/${script})
  else()
    add_test(NAME ${name} COMMAND ${CMAKE_COMMAND}
             "-DREMAT_PYTHON_ERROR=${name}: no Python interpreter that can import torch, networkx and functorch "
             "was found (tried /usr/bin/python3 and python3 on PATH). Install python3-torch python3-networkx, "
             "or configure with -DREMAT_TORCH_PYTHON=/path/to/python."
             -P ${CMAKE_CURRENT_LIST_FILE})
  endif()
  set_tests_properties(${name} PROPERTIES LABELS python TIMEOUT 900
                       ENVIRONMENT "REMAT_SHARED_DIR=${REMAT_SHARED_DIR};PYTHONDONTWRITEBYTECODE=1")
endforeach()
set_property(TEST python_end_to_end APPEND PROPERTY ENVIRONMENT "REMAT_EXPLORER=${_remat_cli}")
