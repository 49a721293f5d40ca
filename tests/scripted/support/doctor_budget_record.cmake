# SPDX-License-Identifier: MIT
# Writes a copy of a torch-2 graph whose record memory_budget_0.75 holds what PyTorch saved at
# budget 0, so that one recorded plan differs from ours at its budget (no real graph does).
#   -DINPUT=graph.json -DOUTPUT=doctored.json
file(READ "${INPUT}" graph)
string(JSON budget_zero GET "${graph}" reference memory_budget_0)
string(JSON graph SET "${graph}" reference memory_budget_0.75 "${budget_zero}")
file(WRITE "${OUTPUT}" "${graph}")
