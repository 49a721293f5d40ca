# SPDX-License-Identifier: MIT
# The forward-graph exporter and `remat-explorer devices` against torch.fx's accelerator partitioner
# (tests/python/test_forward_exporter.py), with the Python python_bridge.cmake found (REMAT_TORCH_PYTHON).

# `cmake -P` of this file is the stand-in test when there is no such Python: it fails loudly.
if(CMAKE_SCRIPT_MODE_FILE)
  message(FATAL_ERROR "python_forward_exporter: no Python interpreter that can import torch was found "
                      "(REMAT_TORCH_PYTHON is empty). Install python3-torch, or configure with "
                      "-DREMAT_TORCH_PYTHON=/path/to/python.")
endif()

if(REMAT_TORCH_PYTHON)
  add_test(NAME python_forward_exporter
           COMMAND "${REMAT_TORCH_PYTHON}" ${CMAKE_SOURCE_DIR}/tests/python/test_forward_exporter.py)
else()
  add_test(NAME python_forward_exporter COMMAND ${CMAKE_COMMAND} -P ${CMAKE_CURRENT_LIST_FILE})
endif()
if(TARGET remat-explorer)
  set(_remat_devices_cli "$<TARGET_FILE:remat-explorer>")
else()
  set(_remat_devices_cli "")   # the comparisons then fail, naming the missing executable
endif()
set_tests_properties(python_forward_exporter PROPERTIES LABELS python TIMEOUT 900
                     ENVIRONMENT "REMAT_EXPLORER=${_remat_devices_cli};PYTHONDONTWRITEBYTECODE=1")
