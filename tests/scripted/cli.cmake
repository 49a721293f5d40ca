# SPDX-License-Identifier: MIT
# The headless commands, run as a user would: exit codes, summaries, plan keys, one-line errors.
set(REMAT_CHECK ${CMAKE_CURRENT_LIST_DIR}/support/check_command.cmake)
set(REMAT_ORACLE ${REMAT_SHARED_DIR}/oracle)

function(remat_cli_test name)
  cmake_parse_arguments(T "ONE_LINE_ERROR" "CODE;STDOUT;STDERR;FILE;FILE_CONTENT" "ARGS" ${ARGN})
  set(defs -DEXPECT_CODE=${T_CODE})
  if(DEFINED T_STDOUT)
    list(APPEND defs "-DEXPECT_STDOUT=${T_STDOUT}")
  endif()
  if(DEFINED T_STDERR)
    list(APPEND defs "-DEXPECT_STDERR=${T_STDERR}")
  endif()
  if(T_ONE_LINE_ERROR)
    list(APPEND defs -DSTDERR_ONE_LINE=ON)
  endif()
  if(DEFINED T_FILE)
    list(APPEND defs "-DEXPECT_FILE=${T_FILE}" "-DEXPECT_FILE_CONTENT=${T_FILE_CONTENT}")
  endif()
  string(REPLACE ";" "@@" command "$<TARGET_FILE:remat-explorer>;${T_ARGS}")
  add_test(NAME cli_${name} COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${command}" ${defs} -P ${REMAT_CHECK})
  set_tests_properties(cli_${name} PROPERTIES LABELS cli)
endfunction()

remat_cli_test(partition_summary CODE 0 ARGS partition ${REMAT_ORACLE}/transformer_encoder_block.json
  STDOUT "saved +26 values.*recomputed.*banned.*cut value.*PyTorch +1.13.0a0 recorded 26 saved values.*identical")
# Over 256 KiB: the command runs on the huge-page heap with its small blocks from the command arena.
remat_cli_test(partition_large_input CODE 0 ARGS partition ${REMAT_ORACLE}/gpt_n24.json
  STDOUT "4304 nodes.*saved +662 values.*PyTorch +1.13.0a0 recorded 662 saved values.*identical")
remat_cli_test(partition_default CODE 0 ARGS partition ${REMAT_ORACLE}/transformer_encoder_block.json --partitioner default
  STDOUT "saved +28 values.*identical")
remat_cli_test(partition_inductor CODE 0 ARGS partition ${REMAT_ORACLE}/lstm_unrolled8.json --compiler inductor
  STDOUT "inductor op list.*identical")
remat_cli_test(partition_newest CODE 0 ARGS partition ${REMAT_ORACLE}/mlp3_relu.json --rules newest
  STDOUT "torch-2.14 rules")
remat_cli_test(partition_torch214 CODE 0 ARGS partition ${REMAT_ORACLE}/torch2/sac_tf_mixed.json --rules torch-2.14
  STDOUT "min-cut, torch-2.14 rules\nsaved +53 values")
remat_cli_test(budget_torch214 CODE 0 ARGS budget ${REMAT_ORACLE}/torch2/sac_tf_mixed.json --budget 0.25 --rules torch-2.14
  STDOUT "saved +43 values")
# As partition does, budget sets PyTorch's decision at the budget beside its own, or says why not.
remat_cli_test(budget_compares_with_pytorch CODE 0
  ARGS budget ${REMAT_TEST_DATA_DIR}/torch_trace/budget.log --budget 0.3
  STDOUT "\nPyTorch +2.14.1\\+debian recorded 6 saved values: identical\n$")
remat_cli_test(budget_not_recorded CODE 0 ARGS budget ${REMAT_ORACLE}/torch2/hf_bert_mlm_train.json --budget 0.25 --solver greedy
  STDOUT "\nPyTorch +not compared: .*no recorded PyTorch decision \"memory_budget_0.25_greedy\"")
remat_cli_test(budget_hirschberg CODE 0 ARGS budget ${REMAT_TEST_DATA_DIR}/hirschberg/graphs/residual_mlp.json --budget 0.3
  --solver dp_knapsack_sliding_hirschberg STDOUT "dp_knapsack_sliding_hirschberg")
remat_cli_test(budget_bad_solver CODE 2 ARGS budget ${REMAT_ORACLE}/torch2/sac_tf_mixed.json --budget 0.3 --solver knapsack
  STDERR "--solver must be dp, greedy, ilp or dp_knapsack_sliding_hirschberg, not \"knapsack\"")
remat_cli_test(budget_profile_estimator CODE 2 ARGS budget ${REMAT_ORACLE}/torch2/sac_tf_mixed.json --budget 0.3 --estimator profile
  STDERR "--estimator profile: .*benchmark.*cannot be reproduced.*roofline")
remat_cli_test(budget_torch113_refused CODE 2 ARGS budget ${REMAT_ORACLE}/mlp3_relu.json --budget 0.5 --rules torch-1.13
  STDERR "--rules torch-1.13 has no memory budget")
remat_cli_test(partition_json_keys CODE 0 ARGS partition ${REMAT_ORACLE}/mlp3_relu.json --json
  STDOUT "^{\n \"saved_values\": \\[\"primals_7\", \"relu\", \"relu_1\", \"t_3\", \"t_7\"\\],\n \"saved_sym_nodes\": \\[\\],\n \"fw_nodes\": .*\"bw_nodes\": .*\"recomputed\": .*\"banned\": {.*\"saved_bytes\": 733184,\n \"cut_value\": 806500,\n \"made_with\": {\n  \"partitioner\": \"min-cut\",\n  \"rules\": \"torch-1.13\",\n  \"compiler\": \"nvfuser\",\n  \"activation_offloading\": false,\n  \"tags\": {}\n }\n}")
remat_cli_test(partition_json_records_tags CODE 0 ARGS partition ${REMAT_ORACLE}/mlp3_relu.json --json --tag relu=MUST_RECOMPUTE
  STDOUT "\"made_with\": {.*\"tags\": {\n   \"relu\": \"MUST_RECOMPUTE\"\n  }")
remat_cli_test(budget_json_records_settings CODE 0 ARGS budget ${REMAT_ORACLE}/mlp3_relu.json --budget 0.5 --json --solver greedy
  STDOUT "\"partitioner\": \"memory-budget\",\n  \"rules\": \"torch-2.14\".*\"estimator\": \"flops\",.*\"solver\": \"greedy\"\n}")
remat_cli_test(partition_plan_file CODE 0 ARGS partition ${REMAT_ORACLE}/mlp3_relu.json -o ${CMAKE_CURRENT_BINARY_DIR}/mlp3_plan.json
  FILE ${CMAKE_CURRENT_BINARY_DIR}/mlp3_plan.json FILE_CONTENT "\"saved_values\": \\[\"primals_7\"")
remat_cli_test(version CODE 0 ARGS --version STDOUT "^remat-explorer [0-9]+\\.[0-9]+\\.[0-9]+\n$")
remat_cli_test(partition_missing_file CODE 1 ONE_LINE_ERROR ARGS partition /nonexistent/graph.json
  STDERR "^remat-explorer: /nonexistent/graph.json: cannot read: No such file or directory\n$")
remat_cli_test(partition_malformed CODE 1 ONE_LINE_ERROR ARGS partition ${REMAT_TEST_DATA_DIR}/bad/truncated.json
  STDERR "truncated.json:[0-9]+:[0-9]+: malformed JSON")
remat_cli_test(partition_cycle CODE 1 ONE_LINE_ERROR ARGS partition ${REMAT_TEST_DATA_DIR}/bad/cycle.json
  STDERR "cycle.json: node 'cos': args\\[0\\]: refers to 'sin', which does not come before it")
remat_cli_test(partition_bad_option CODE 2 ARGS partition ${REMAT_ORACLE}/mlp3_relu.json --rules torch-2.9
  STDERR "--rules must be torch-1.13, torch-2.14 or newest")
remat_cli_test(unknown_command CODE 2 ARGS frobnicate STDERR "unknown command 'frobnicate'")
remat_cli_test(info CODE 0 ARGS info ${REMAT_ORACLE}/gelu_ln_mlp.json
  STDOUT "93 nodes.*nodes by class.*primals.*tangents.*activation bytes.*nodes by op.*aten.native_layer_norm")
remat_cli_test(bench CODE 0 ARGS bench ${REMAT_ORACLE}/mlp3_relu.json ${REMAT_ORACLE}/gpt_n2.json --repeat 2
  STDOUT "mlp3_relu +49 .*gpt_n2 +410 .*x\n")
# The quiet PyTorch figure comes from the oracle's README table (gpt_n2: 0.078 s).
remat_cli_test(bench_processes CODE 0 ARGS bench ${REMAT_ORACLE}/gpt_n2.json --processes --repeat 1
  STDOUT "quiet / wall\ngpt_n2 +410 +torch-1.13 .* 78.0 ms +[0-9]+x\n$")
set_property(TEST cli_bench_processes APPEND PROPERTY ENVIRONMENT "REMAT_SHARED_DIR=${REMAT_SHARED_DIR}")
