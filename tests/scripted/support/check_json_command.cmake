# SPDX-License-Identifier: MIT
# Runs one command whose stdout must be strictly valid JSON (no NaN or Infinity), checks its exit
# code, and optionally that the parsed document has KEYS (a Python expression over `d` that must be
# true, e.g. "d['flip'] is None").
#   -DCOMMAND="exe@@arg@@..." -DEXPECT_CODE=N -DPYTHON=path -DOUT=file [-DCHECK=python-expression]
string(REPLACE "@@" ";" command "${COMMAND}")
execute_process(COMMAND ${command} RESULT_VARIABLE code OUTPUT_FILE "${OUT}" ERROR_VARIABLE err)
if(NOT code EQUAL EXPECT_CODE)
  file(READ "${OUT}" out)
  message(FATAL_ERROR "exit code ${code}, expected ${EXPECT_CODE}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(NOT PYTHON)
  message(FATAL_ERROR "no python3 to parse the JSON with")
endif()
if(NOT DEFINED CHECK)
  set(CHECK "True")
endif()
set(script [=[
import json, sys
def reject(constant):
    raise ValueError("non-finite number " + constant)
with open(sys.argv[1]) as f:
    d = json.load(f, parse_constant=reject)
if not eval(sys.argv[2]):
    sys.exit("the JSON does not satisfy: " + sys.argv[2])
]=])
execute_process(COMMAND "${PYTHON}" -c "${script}" "${OUT}" "${CHECK}" RESULT_VARIABLE parsed ERROR_VARIABLE why)
if(NOT parsed EQUAL 0)
  file(READ "${OUT}" out)
  message(FATAL_ERROR "stdout is not what was expected: ${why}\nstdout:\n${out}")
endif()
