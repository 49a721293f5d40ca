# SPDX-License-Identifier: MIT
# explain, compare and partition --tag, run as a user would: exit codes, text, one-line errors,
# and every --json output parsed strictly (no NaN or Infinity) with its keys checked.
# remat_cli_test comes from cli.cmake, which the sorted glob of tests/CMakeLists.txt includes first.
if(NOT COMMAND remat_cli_test)
  message(FATAL_ERROR "cli_explain.cmake needs remat_cli_test from cli.cmake, included before it")
endif()
set(REMAT_EXPLAIN_JSON_CHECK ${CMAKE_CURRENT_LIST_DIR}/support/check_json_command.cmake)
set(REMAT_EXPLAIN_ORACLE ${REMAT_SHARED_DIR}/oracle)
find_program(REMAT_JSON_PYTHON NAMES python3 PATHS /usr/bin NO_DEFAULT_PATH)
find_program(REMAT_JSON_PYTHON NAMES python3)

# remat_explain_json_test(name CODE n ARGS ... [CHECK python-expression over d])
function(remat_explain_json_test name)
  cmake_parse_arguments(T "" "CODE;CHECK" "ARGS" ${ARGN})
  string(REPLACE ";" "@@" command "$<TARGET_FILE:remat-explorer>;${T_ARGS}")
  add_test(NAME cli_${name} COMMAND ${CMAKE_COMMAND} "-DCOMMAND=${command}" -DEXPECT_CODE=${T_CODE}
    "-DPYTHON=${REMAT_JSON_PYTHON}" "-DOUT=${CMAKE_CURRENT_BINARY_DIR}/cli_${name}.json" "-DCHECK=${T_CHECK}"
    -P ${REMAT_EXPLAIN_JSON_CHECK})
  set_tests_properties(cli_${name} PROPERTIES LABELS cli)
endfunction()

set(MLP ${REMAT_EXPLAIN_ORACLE}/mlp3_relu.json)
set(GPT2 ${REMAT_EXPLAIN_ORACLE}/gpt_n2.json)
set(TORCH2 ${REMAT_EXPLAIN_ORACLE}/torch2/hf_gpt2_train_loss.json)

# partition --tag
remat_cli_test(partition_tag CODE 0 ARGS partition ${MLP} --tag relu=MUST_RECOMPUTE
  STDOUT "tag +relu = MUST_RECOMPUTE\nsaved +5 values, 716.0 KiB\nrecomputed +1 nodes")
remat_explain_json_test(partition_tag_json CODE 0 ARGS partition ${MLP} --tag relu=MUST_RECOMPUTE --json
  CHECK "'relu' not in d['saved_values'] and 'relu' in d['recomputed']")
remat_explain_json_test(partition_tags_repeat CODE 0
  ARGS partition ${MLP} --tag relu=MUST_RECOMPUTE --tag=relu_1=PREFER_RECOMPUTE --json
  CHECK "not {'relu', 'relu_1'} & set(d['saved_values'])")
remat_cli_test(partition_tag_unknown_node CODE 2 ARGS partition ${MLP} --tag nope=MUST_SAVE
  STDERR "--tag nope: .*mlp3_relu.json has no node 'nope'")
remat_cli_test(partition_tag_unknown_policy CODE 2 ARGS partition ${MLP} --tag relu=SOMETIMES
  STDERR "--tag relu=SOMETIMES: unknown policy \"SOMETIMES\"")
remat_cli_test(partition_tag_malformed CODE 2 ARGS partition ${MLP} --tag relu
  STDERR "--tag expects NAME=POLICY")
remat_cli_test(partition_tag_input CODE 2 ARGS partition ${MLP} --tag primals_1=MUST_SAVE
  STDERR "'primals_1' is a graph input")

# explain
remat_cli_test(explain_saved CODE 0 ARGS explain ${MLP} relu
  STDOUT "node 'relu' \\(aten.relu.default\\).*decision +saved\nreason +Its save edge is on the minimum cut.*save edge +[0-9]+ \\(cut\\) of cut value 806500.*producers .*consumers .*what if +tagged MUST_RECOMPUTE: saved ±0 B, peak ±0 B, recompute runtime \\+1 FLOP \\(1 more recomputed op without a FLOP formula, which PyTorch's flops estimator counts as 1 FLOP each\\)\n +1 other node changes: addmm\n$")
remat_explain_json_test(explain_saved_json CODE 0 ARGS explain ${MLP} relu --json
  CHECK "d['node'] == 'relu' and d['decision'] == 'saved' and d['reason'] and d['flip']['tag'] == 'MUST_RECOMPUTE' and {'saved_bytes_delta', 'peak_bytes_delta', 'runtime_delta', 'changed_nodes'} <= set(d['flip']) and d['flip']['saved_bytes_delta'] == 0 and d['flip']['runtime_delta'] == 1 and d['flip']['changed_nodes'] == ['addmm'] and d['cut']['save_edge']['on_cut']")
remat_explain_json_test(explain_banned_json CODE 0 ARGS explain ${GPT2} native_layer_norm --json
  CHECK "d['decision'] == 'banned' and d['flip']['tag'] == 'MUST_RECOMPUTE' and 'Banned from recomputation' in d['reason']")
remat_explain_json_test(explain_input_json CODE 0 ARGS explain ${MLP} primals_1 --json
  CHECK "d['decision'] == 'input' and d['flip'] is None")
remat_explain_json_test(explain_tangent_json CODE 0 ARGS explain ${MLP} tangents_1 --json
  CHECK "d['decision'] == 'input' and d['flip'] is None")
remat_explain_json_test(explain_backward_json CODE 0 ARGS explain ${MLP} mm_3 --json
  CHECK "d['decision'] == 'backward' and d['flip'] is None and 'gradients' in d['reason']")
remat_explain_json_test(explain_budget_json CODE 0 ARGS explain ${GPT2} --budget 0.3 mm --json
  CHECK "d['decision'] in ('saved', 'recomputed', 'banned') and 'knapsack' in d and d['before']['runtime_unit'] == 'flops'")
remat_explain_json_test(explain_newest_roofline_json CODE 0
  ARGS explain ${GPT2} --rules newest --device H100-SXM mm_1 --json
  CHECK "d['before']['runtime_unit'] == 'ms'")
remat_cli_test(explain_budget_text CODE 0 ARGS explain ${GPT2} --budget 0.3 mm
  STDOUT "memory budget 0.3 \\(torch-2.14 rules, dp knapsack, flops estimator\\).*decision.*what if")
# hf_bert's gelu_1: the plain min-cut bans it (materialized in the backward); budget 0.3's min-cut
# goes without that ban and recomputes it, and the reason says so.
set(BERT ${REMAT_EXPLAIN_ORACLE}/torch2/hf_bert_mlm_train.json)
remat_cli_test(explain_lifted_ban CODE 0 ARGS explain ${BERT} gelu_1
  STDOUT "decision +banned\nreason +Banned from recomputation: materialized in the backward")
remat_cli_test(explain_budget_lifted_ban CODE 0 ARGS explain ${BERT} gelu_1 --budget 0.3
  STDOUT "decision +recomputed\nreason +Memory budget 0.3 \\(knapsack\\): its min-cut goes without the fusion heuristics' bans \\(used far apart, long fusible chains, materialized in the backward\\) and the allowlist's")
remat_cli_test(explain_unknown_node CODE 2 ARGS explain ${MLP} nope STDERR "NODE: .*has no node 'nope'")
remat_cli_test(explain_missing_node CODE 2 ARGS explain ${MLP} STDERR "expected a GRAPH file and a NODE name")
remat_cli_test(explain_missing_file CODE 1 ONE_LINE_ERROR ARGS explain /nonexistent/graph.json relu
  STDERR "^remat-explorer: /nonexistent/graph.json: cannot read")
remat_cli_test(explain_budget_default CODE 2 ARGS explain ${MLP} relu --budget 0.5 --partitioner default
  STDERR "--budget runs the memory-budget min-cut")
remat_cli_test(explain_budget_out_of_range CODE 1 ONE_LINE_ERROR ARGS explain ${MLP} relu --budget 1.5
  STDERR "0 <= m <= 1")

# compare
remat_cli_test(compare_pytorch_identical CODE 0
  ARGS compare ${REMAT_EXPLAIN_ORACLE}/transformer_encoder_block.json min-cut pytorch
  STDOUT "A +min-cut, torch-1.13 rules, nvfuser op list\nB +PyTorch 1.13.0a0's recorded min_cut\n.*saved +26 .*only in A +0\nonly in B +0\nin both +26")
# A sample from our exporter names its inputs as the model does (extra.input_names); --json keeps node names.
remat_cli_test(compare_names_inputs_as_the_model CODE 0 ARGS compare ${CMAKE_SOURCE_DIR}/samples/mlp.json min-cut budget=0
  STDOUT "only in A +4: relu, relu_1, t_3, t_7\nonly in B +5: primals_1 = net.0.weight, primals_2 = net.0.bias, primals_3 = net.2.weight, primals_4 = net.2.bias, primals_5 = net.4.weight\n")
remat_explain_json_test(compare_names_inputs_json CODE 0 ARGS compare ${CMAKE_SOURCE_DIR}/samples/mlp.json min-cut budget=0 --json
  CHECK "d['only_in_b'][0] == 'primals_1'")
remat_explain_json_test(compare_json CODE 0 ARGS compare ${GPT2} min-cut default --json
  CHECK "len(d['only_in_b']) > 0 and all(k in d['a'] and k in d['b'] for k in ('saved_bytes', 'peak_bytes', 'estimated_runtime')) and d['a']['recomputed_count'] > d['b']['recomputed_count']")
remat_explain_json_test(compare_budgets_json CODE 0 ARGS compare ${GPT2} budget=1 budget=0 --json
  CHECK "d['b']['activation_bytes'] <= d['a']['activation_bytes'] and d['b']['estimated_runtime'] >= d['a']['estimated_runtime']")
remat_explain_json_test(compare_torch2_recorded_budget_json CODE 0 ARGS compare ${TORCH2} budget=0 pytorch-budget=0 --json
  CHECK "d['b_source'].endswith('memory_budget_0')")
remat_explain_json_test(compare_torch2_pytorch_newest_json CODE 0 ARGS compare ${TORCH2} min-cut pytorch --rules newest --json
  CHECK "d['b_source'].endswith('recorded min_cut')")
# pareto sets PyTorch's recorded budget plans beside the sweep: those of the sweep's own knapsack,
# named by the file's keys, each checked against our plan at its budget.
remat_explain_json_test(pareto_torch2_recorded_json CODE 0 ARGS pareto ${TORCH2} --points 11 --no-peak --json
  CHECK "[r['key'] for r in d['recorded']] == ['memory_budget_0', 'memory_budget_0.25', 'memory_budget_0.5', 'memory_budget_0.75'] and [r['budget'] for r in d['recorded']] == [0, 0.25, 0.5, 0.75] and all(r['same_as_ours'] and r['peak_bytes'] is None for r in d['recorded'])")
remat_cli_test(pareto_torch2_recorded CODE 0 ARGS pareto ${TORCH2} --points 11
  STDOUT "PyTorch 2.14.1\\+debian's recorded plans at the same settings:\n.*\n0.25 .* saves the same\n.*our plan saves what PyTorch saved at 4 of 4 recorded budgets\n$")
remat_explain_json_test(pareto_torch2_greedy_has_no_recorded_json CODE 0 ARGS pareto ${TORCH2} --points 11 --no-peak --solver greedy --json
  CHECK "d['recorded'] == []")
remat_explain_json_test(pareto_torch113_has_no_recorded_json CODE 0 ARGS pareto ${GPT2} --points 11 --no-peak --json
  CHECK "d['recorded'] == [] and len(d['points']) > 1")
# A recorded plan that saves other values than ours at its budget is named, in text and JSON.
set(TORCH2_DOCTORED ${CMAKE_CURRENT_BINARY_DIR}/hf_gpt2_budget_0_under_0.75.json)
add_test(NAME cli_pareto_doctored_record_setup COMMAND ${CMAKE_COMMAND} -DINPUT=${TORCH2} -DOUTPUT=${TORCH2_DOCTORED}
  -P ${CMAKE_CURRENT_LIST_DIR}/support/doctor_budget_record.cmake)
set_tests_properties(cli_pareto_doctored_record_setup PROPERTIES LABELS cli FIXTURES_SETUP doctored_record)
remat_cli_test(pareto_recorded_differs CODE 0 ARGS pareto ${TORCH2_DOCTORED} --points 11
  STDOUT "\n0.5 [^\n]* saves the same\n0.75 [^\n]* DIFFERS: 9 saved only by PyTorch, 43 only by ours\nour plan saves what PyTorch saved at 3 of 4 recorded budgets\n\\(the values: --json, or compare GRAPH budget=B pytorch-budget=B\\)\n$")
remat_explain_json_test(pareto_recorded_differs_json CODE 0 ARGS pareto ${TORCH2_DOCTORED} --points 11 --no-peak --json
  CHECK "[r['same_as_ours'] for r in d['recorded']] == [True, True, True, False] and d['recorded'][3]['saved_count'] == d['recorded'][0]['saved_count'] and len(d['recorded'][3]['saved_only_by_ours']) == 43 and d['recorded'][3]['saved_only_by_pytorch'][0] == 'primals_3' and all(r['saved_only_by_ours'] == r['saved_only_by_pytorch'] == [] for r in d['recorded'][:3])")
set_tests_properties(cli_pareto_recorded_differs cli_pareto_recorded_differs_json PROPERTIES FIXTURES_REQUIRED doctored_record)
remat_cli_test(compare_torch2_rules_mismatch CODE 1 ONE_LINE_ERROR ARGS compare ${TORCH2} min-cut pytorch --rules torch-1.13
  STDERR "records PyTorch 2.14.1\\+debian's decisions, which follow the torch-2.14 rules, not torch-1.13")
# A 2.x export runs under the rules of the PyTorch that recorded it unless --rules says otherwise.
remat_cli_test(partition_torch2_default_rules CODE 0 ARGS partition ${TORCH2}
  STDOUT "min-cut, torch-2.14 rules\n.*PyTorch +2.14.1\\+debian recorded 68 saved values in [0-9.]+ s: identical")
remat_cli_test(partition_torch2_rules_override CODE 0 ARGS partition ${TORCH2} --rules torch-1.13
  STDOUT "min-cut, torch-1.13 rules, nvfuser op list\n")
remat_cli_test(compare_torch2_no_such_budget CODE 1 ONE_LINE_ERROR ARGS compare ${TORCH2} min-cut pytorch-budget=0.3
  STDERR "no recorded PyTorch decision \"memory_budget_0.3\"")
remat_cli_test(compare_bad_budget CODE 2 ARGS compare ${MLP} budget=lots min-cut
  STDERR "plan \"budget=lots\": the budget must be a number")
remat_cli_test(compare_missing_plan_file CODE 1 ONE_LINE_ERROR ARGS compare ${MLP} /nonexistent/plan.json min-cut
  STDERR "^remat-explorer: /nonexistent/plan.json: cannot read")
# A mistyped plan name is a usage error that lists the names, not "mincut: cannot read".
remat_cli_test(compare_mistyped_plan CODE 2 ARGS compare ${MLP} pytorch mincut
  STDERR "plan \"mincut\": expected PLAN.json, pytorch, pytorch-budget=B, min-cut, default or budget=B")
remat_cli_test(compare_missing_local_plan_file CODE 1 ONE_LINE_ERROR ARGS compare ${MLP} pytorch nope.json
  STDERR "^remat-explorer: nope.json: cannot read")
# Counts below their least: said, not taken as another number.
remat_cli_test(memory_top_negative CODE 2 ARGS memory ${MLP} --top -3 STDERR "--top must be at least 0, not -3")
remat_cli_test(pareto_threads_negative CODE 2 ARGS pareto ${MLP} --threads -2 STDERR "--threads must be at least 0, not -2")
remat_cli_test(pareto_points_one CODE 2 ARGS pareto ${MLP} --points 1 STDERR "--points must be at least 2, not 1")
remat_cli_test(bench_repeat_zero CODE 2 ARGS bench ${MLP} --repeat 0 STDERR "--repeat must be at least 1, not 0")
remat_cli_test(compare_wrong_arity CODE 2 ARGS compare ${MLP} min-cut STDERR "expected a GRAPH file and two plans")

# A plan file written by partition -o, compared with the plan it came from.
set(REMAT_EXPLAIN_PLAN ${CMAKE_CURRENT_BINARY_DIR}/explain_mlp3_plan.json)
remat_cli_test(compare_plan_file_setup CODE 0 ARGS partition ${MLP} --tag relu=MUST_RECOMPUTE -o ${REMAT_EXPLAIN_PLAN})
set_tests_properties(cli_compare_plan_file_setup PROPERTIES FIXTURES_SETUP explain_plan_file)
remat_explain_json_test(compare_plan_file_json CODE 0 ARGS compare ${MLP} ${REMAT_EXPLAIN_PLAN} min-cut --json
  CHECK "d['only_in_a'] == ['addmm'] and d['only_in_b'] == ['relu'] and d['a']['recomputed_count'] == d['b']['recomputed_count'] + 1")
set_tests_properties(cli_compare_plan_file_json PROPERTIES FIXTURES_REQUIRED explain_plan_file)

remat_cli_test(help_lists_explain_and_compare CODE 0 ARGS help
  STDOUT "compare GRAPH A B.*explain GRAPH NODE.*partition GRAPH .*--tag NAME=POLICY")
