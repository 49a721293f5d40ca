# SPDX-License-Identifier: MIT
# TORCH_TRACE logs on the command line: info lists the compiled graphs, --graph picks one, and
# partition compares with the decision 2.14 logged (tests/data/torch_trace, made by PyTorch 2.14.1).
set(REMAT_TRACE ${REMAT_TEST_DATA_DIR}/torch_trace)
# A TORCH_TRACE folder as torch writes it: one dedicated_log_torch_trace_*.log per process.
configure_file(${REMAT_TRACE}/graph_break.log
  ${CMAKE_CURRENT_BINARY_DIR}/torch_trace_folder/dedicated_log_torch_trace_a1b2.log COPYONLY)

remat_cli_test(trace_info CODE 0 ARGS info ${REMAT_TRACE}/graph_break.log
  STDOUT "graph_break.log: TORCH_TRACE log of PyTorch 2.14.1\\+debian, 2 compiled graphs\n\n  compile +nodes +joint +PyTorch's decision\n  0/0_1 +17 +yes +yes\n  1/0 +21 +yes +yes\n\nopen one with --graph ID")
remat_cli_test(trace_info_min_cut_information CODE 0 ARGS info ${REMAT_TRACE}/budget.log
  STDOUT "  0/0 +60 +yes +yes, with min_cut_information\n")
remat_cli_test(trace_info_folder CODE 0 ARGS info ${CMAKE_CURRENT_BINARY_DIR}/torch_trace_folder
  STDOUT "torch_trace_folder: TORCH_TRACE log of PyTorch 2.14.1\\+debian, 2 compiled graphs\n.*  1/0 +21 +yes")
remat_cli_test(trace_info_one_graph CODE 0 ARGS info ${REMAT_TRACE}/graph_break.log --graph 1/0
  STDOUT "graph_break.log: 21 nodes, joint graph of compile 1/0 \\(TORCH_TRACE log of PyTorch 2.14.1\\+debian\\)")
remat_cli_test(trace_partition CODE 0 ARGS partition ${REMAT_TRACE}/graph_break.log --graph 1/0 --rules torch-2.14
  STDOUT "graph_break.log: 21 nodes; min-cut, torch-2.14 rules\nsaved +3 values.*PyTorch +2.14.1\\+debian recorded 3 saved values: identical\n")
remat_cli_test(trace_partition_folder CODE 0 ARGS partition ${CMAKE_CURRENT_BINARY_DIR}/torch_trace_folder --graph 0/0 --rules torch-2.14
  STDOUT "recorded 2 saved values: identical\n")
remat_cli_test(trace_partition_sac CODE 0 ARGS partition ${REMAT_TRACE}/sac.log --rules torch-2.14
  STDOUT "saved +4 values.*recorded 4 saved values: identical\n")
remat_cli_test(trace_partition_other_rules CODE 0 ARGS partition ${REMAT_TRACE}/sac.log --rules torch-1.13
  STDOUT "PyTorch +not compared: .*sac.log: the file records PyTorch 2.14.1\\+debian's decisions, which follow the torch-2.14 rules, not torch-1.13\n")
remat_cli_test(trace_partition_which_graph CODE 1 ONE_LINE_ERROR ARGS partition ${REMAT_TRACE}/graph_break.log
  STDERR "graph_break.log: the log holds 2 joint graphs \\(0/0_1, 1/0\\): choose one with a compile id \\(--graph on the command line\\)\n$")
remat_cli_test(trace_partition_unknown_graph CODE 1 ONE_LINE_ERROR ARGS partition ${REMAT_TRACE}/graph_break.log --graph 5/0
  STDERR "graph_break.log: no compiled graph 5/0 \\(the log has: 0/0_1, 1/0\\)\n$")
remat_cli_test(trace_graph_on_json CODE 1 ONE_LINE_ERROR ARGS partition ${REMAT_ORACLE}/mlp3_relu.json --graph 0/0
  STDERR "mlp3_relu.json: not a TORCH_TRACE log or TORCH_LOGS capture, so it has no compiled graph 0/0 to choose\n$")
# A TORCH_LOGS capture (stderr) of two compilations: listed, chosen and refused as a log's graphs
# are, with PyTorch's decision from its aot_graphs records.
set(REMAT_CAPTURES ${REMAT_TEST_DATA_DIR}/printed/torch_logs)
remat_cli_test(capture_info CODE 0 ARGS info ${REMAT_CAPTURES}/graph_break.log
  STDOUT "graph_break.log: TORCH_LOGS capture, 2 compiled graphs\n\n  compile  nodes  joint  PyTorch's decision\n  0/0_1    17     yes    yes\n  1/0      21     yes    yes\n\nA TORCH_LOGS capture does not say which backend")
remat_cli_test(capture_partition_which_graph CODE 1 ONE_LINE_ERROR ARGS partition ${REMAT_CAPTURES}/graph_break.log
  STDERR "graph_break.log: the log holds 2 joint graphs \\(0/0_1, 1/0\\): choose one with a compile id \\(--graph on the command line\\)\n$")
remat_cli_test(capture_partition_graph CODE 0 ARGS partition ${REMAT_CAPTURES}/graph_break.log --graph 1/0
  STDOUT "graph_break.log: 21 nodes; min-cut, torch-2.14 rules\nsaved +3 values.*PyTorch +2.x recorded 3 saved values: identical\n$")
remat_cli_test(capture_partition_attempt CODE 0 ARGS partition ${REMAT_CAPTURES}/graph_break.log --graph 0/0
  STDOUT "graph_break.log: 17 nodes; min-cut, torch-2.14 rules\n.*recorded 2 saved values: identical\n$")
remat_cli_test(capture_unknown_graph CODE 1 ONE_LINE_ERROR ARGS partition ${REMAT_CAPTURES}/graph_break.log --graph 5/0
  STDERR "graph_break.log: no compiled graph 5/0 \\(the log has: 0/0_1, 1/0\\)\n$")
remat_cli_test(capture_info_dynamic CODE 1 ARGS info ${REMAT_CAPTURES}/recompile.log
  STDOUT "  0/0      27     yes    yes\n  0/1      \\? +yes +yes\n    unreadable: .*symbolic size 's33'.*open the run's TORCH_TRACE log")
# GPT-2 with gradient checkpointing: its forward graph returns the dropouts' RNG states as
# "u8[s62]", a size the capture gives no value for and the decision does not need.
# A capture of Inductor does not say so: the comparison differs, and says what explains it.
remat_cli_test(capture_inductor_backend_found CODE 0 ARGS partition ${REMAT_CAPTURES}/inductor_gpt2.log
  STDOUT "5 only ours \\(view, permute_18, alias_6, permute_30, alias_8\\), 3 only PyTorch's \\(primals_1, getitem_5, getitem_14\\)\n.*with Inductor's joint-graph passes replayed \\(remove_noop_ops, pointless views and permutes\\) our min-cut saves exactly PyTorch's 46 values")
# ... and --inductor-passes on acts on it: the replay turned on, the same saved set as PyTorch's.
remat_cli_test(capture_inductor_passes_on CODE 0 ARGS partition ${REMAT_CAPTURES}/inductor_gpt2.log --inductor-passes on
  STDOUT "note +Inductor's joint-graph passes, replayed: 17 no-ops removed.*PyTorch +2.x recorded 46 saved values: identical\n$")
# An Inductor log with the replay turned off: the note says it is off, and how to turn it on.
remat_cli_test(trace_inductor_passes_off CODE 0 ARGS partition ${REMAT_TRACE}/inductor_gpt2.log --inductor-passes off
  STDOUT "3 only PyTorch's \\(primals_1 = ids, getitem_5, getitem_14\\)\n.*and their replay is off here: replay those that remove no-ops .* to compare like with like \\(--inductor-passes on\\)\n$")
remat_cli_test(trace_budget_inductor_passes_off CODE 0
  ARGS budget ${REMAT_TRACE}/inductor_budget.log --budget 0.5 --inductor-passes off
  STDOUT "2 only ours \\(view, addmm_1\\), 2 only PyTorch's \\(primals_1 = ids, primals_8 = lm.transformer.h.0.attn.c_proj.bias\\)\n.*their replay is off here")
remat_cli_test(inductor_passes_bad_word CODE 2 ARGS partition ${REMAT_CAPTURES}/inductor_gpt2.log --inductor-passes maybe
  STDERR "--inductor-passes must be auto, on or off, not \"maybe\"")
remat_cli_test(inductor_passes_on_under_torch113_rules CODE 2
  ARGS partition ${REMAT_CAPTURES}/inductor_gpt2.log --rules torch-1.13 --inductor-passes on
  STDERR "--inductor-passes on replays torch 2.x's Inductor, which the torch-1.13 rules do not have: use --rules torch-2.14")
# A log's inputs keep their names in the model (PlainAOTInput, dynamo_output_graph, describe_source).
remat_cli_test(trace_explain_input_name CODE 0 ARGS explain ${REMAT_TRACE}/inductor_gpt2.log primals_7
  STDOUT "\ninput +lm.transformer.h.0.attn.c_attn.weight \\(the model's name\\)\ndecision +input\n.*what if +cannot flip: an input node takes no tag")
remat_cli_test(capture_gpt2_rng_states CODE 0 ARGS partition ${REMAT_CAPTURES}/gpt2_checkpointing.log --graph 3/0
  STDOUT "gpt2_checkpointing.log: 416 nodes; min-cut, torch-2.14 rules\n.*RNG states +6, .*PyTorch +2.x recorded 34 saved values and 6 RNG states: identical\n$")
remat_cli_test(print_graph_id CODE 1 ONE_LINE_ERROR ARGS partition ${REMAT_TEST_DATA_DIR}/printed/mlp_relu.torch113.txt --graph 0/0
  STDERR "mlp_relu.torch113.txt: not a TORCH_TRACE log or TORCH_LOGS capture, so it has no compiled graph 0/0 to choose\n$")
# 2.14's knapsack decision under the log's budget, and ours: the same six values.
remat_cli_test(trace_compare_budget CODE 0 ARGS compare ${REMAT_TRACE}/budget.log pytorch-budget=0.3 budget=0.3
  STDOUT "A +PyTorch 2.14.1\\+debian's recorded memory_budget_0.3\n.*only in A +0\nonly in B +0\nin both +6\n")
# devices splits the log's graph too: a folder was read as a file ("cannot read: it is a folder"),
# and --graph was refused.
remat_cli_test(trace_devices_folder CODE 0
  ARGS devices ${CMAKE_CURRENT_BINARY_DIR}/torch_trace_folder --graph 1/0 --device 100000000
  STDOUT "torch_trace_folder: 7 forward nodes, 916 B in all; size_based on 1 device\n")
remat_cli_test(trace_devices_graph CODE 0
  ARGS devices ${REMAT_TRACE}/graph_break.log --graph 0/0_1 --device 100000000
  STDOUT "graph_break.log: 6 forward nodes, 1.7 KiB in all")
remat_cli_test(trace_devices_which_graph CODE 1 ONE_LINE_ERROR ARGS devices ${REMAT_TRACE}/graph_break.log --device 100000000
  STDERR "graph_break.log: the log holds 2 joint graphs \\(0/0_1, 1/0\\): choose one with a compile id")
# A plan made for compile 1/0 applied to 0/0_1 of the same log: their saved values' names are all
# found there, and memory and compare went on with another graph's plan. Refused, naming a node.
set(REMAT_TRACE_PLAN ${CMAKE_CURRENT_BINARY_DIR}/graph_break_1_0.plan.json)
remat_cli_test(trace_plan_setup CODE 0 ARGS partition ${REMAT_TRACE}/graph_break.log --graph 1/0 -o ${REMAT_TRACE_PLAN})
set_tests_properties(cli_trace_plan_setup PROPERTIES FIXTURES_SETUP trace_plan_file)
remat_cli_test(trace_memory_plan_of_other_graph CODE 1 ONE_LINE_ERROR
  ARGS memory ${REMAT_TRACE}/graph_break.log --graph 0/0_1 --plan ${REMAT_TRACE_PLAN}
  STDERR "graph_break_1_0.plan.json: \"fw_nodes\"\\[5\\]: 'tanh' is not a node of .*graph_break.log: the plan was made for another graph\n$")
remat_cli_test(trace_compare_plan_of_other_graph CODE 1 ONE_LINE_ERROR
  ARGS compare ${REMAT_TRACE}/graph_break.log --graph 0/0_1 ${REMAT_TRACE_PLAN} pytorch
  STDERR "the plan was made for another graph\n$")
remat_cli_test(trace_memory_plan_of_its_graph CODE 0
  ARGS memory ${REMAT_TRACE}/graph_break.log --graph 1/0 --plan ${REMAT_TRACE_PLAN}
  STDOUT "saved +3 values")
set_tests_properties(cli_trace_memory_plan_of_other_graph cli_trace_compare_plan_of_other_graph
  cli_trace_memory_plan_of_its_graph PROPERTIES FIXTURES_REQUIRED trace_plan_file)
# 18 parameters: 2.14 prints static_input_indices one index a line, which failed to read.
remat_cli_test(trace_partition_blocks CODE 0 ARGS partition ${REMAT_TRACE}/blocks.log --rules torch-2.14
  STDOUT "122 nodes; min-cut, torch-2.14 rules\n.*recorded 23 saved values: identical\n")
# Random ops recomputed in checkpoint regions: 2.14 saves their RNG states (rng_state_output_*), which
# were taken for saved values the forward does not return ("not compared"); and the dead dropout
# outside the regions, which DCE drops inside torch.compile, made us save one bias more.
remat_cli_test(trace_partition_rng CODE 0 ARGS partition ${REMAT_TRACE}/rng.log --rules torch-2.14
  STDOUT "saved       13 values, 4.3 KiB\n.*RNG states  2, 9.9 KiB: the backward recomputes the random ops native_dropout, native_dropout_1 and replays.*recorded 13 saved values and 2 RNG states: identical\n")
remat_cli_test(trace_partition_rng_json CODE 0 ARGS partition ${REMAT_TRACE}/rng.log --rules torch-2.14 --json
  STDOUT "\n \"rng_state_ops\": \\[\"native_dropout\", \"native_dropout_1\"\\],\n")
# Under Inductor, PyTorch partitioned the graph after its joint-graph passes: info says so, and
# partition replays those that remove no-ops (noted), which makes its decision PyTorch's.
remat_cli_test(trace_info_inductor CODE 0 ARGS info ${REMAT_TRACE}/inductor.log
  STDOUT "  0/0 +187 +yes +yes, after Inductor's joint-graph passes\n")
remat_cli_test(trace_partition_inductor CODE 0 ARGS partition ${REMAT_TRACE}/inductor.log --rules torch-2.14
  STDOUT "note +Inductor's joint-graph passes, replayed: 8 no-ops removed before partitioning \\(alias -> getitem, .*recorded 18 saved values: identical\n")
remat_cli_test(trace_plan_inductor_passes CODE 0 ARGS partition ${REMAT_TRACE}/inductor.log --rules torch-2.14 --json
  STDOUT "\"activation_offloading\": false,\n  \"inductor_joint_passes\": true,\n  \"tags\": {}")
# Under a memory budget too: the knapsack chooses among the nodes left after the passes.
remat_cli_test(trace_budget_inductor CODE 0 ARGS budget ${REMAT_TRACE}/inductor_budget.log --budget 0.5
  STDOUT "decided by   knapsack.*note         Inductor's joint-graph passes, replayed: 17 no-ops removed.*recorded 43 saved values: identical\n")
remat_cli_test(trace_pareto_inductor CODE 0 ARGS pareto ${REMAT_TRACE}/inductor_budget.log
  STDOUT "our plan saves what PyTorch saved at 1 of 1 recorded budgets")
remat_cli_test(trace_explain_inductor_noop CODE 0 ARGS explain ${REMAT_TRACE}/inductor.log alias_3 --rules torch-2.14
  STDOUT "Removed before partitioning by Inductor's joint-graph passes, as a no-op: its uses read 'getitem'")
# Dynamic shapes (automatic dynamic after a second input shape): compile 0/1's symbolic sizes take
# the create_symbol records' example values, as PyTorch sizes them; it was refused before.
remat_cli_test(trace_info_dynamic CODE 0 ARGS info ${REMAT_TRACE}/dynamic.log --graph 0/1
  STDOUT "72 nodes, joint graph of compile 0/1 .*dynamic shapes, sized as PyTorch's partitioner sizes them: with the example values s53 = 13, s77 = 3 \\(create_symbol records\\)\n")
remat_cli_test(trace_partition_dynamic CODE 0 ARGS partition ${REMAT_TRACE}/dynamic.log --graph 0/1 --rules torch-2.14
  STDOUT "72 nodes; min-cut, torch-2.14 rules\nsaved +6 values, 4.3 KiB; 7 SymInts\n.*recorded 6 saved values and 7 SymInts: identical\n")
# 2.14 partitioned a graph it changed after logging it (tensorify_python_scalars): the graph opens,
# and the comparison says why it cannot be made. It failed to open.
remat_cli_test(trace_partition_symfloat CODE 0 ARGS partition ${REMAT_TRACE}/symfloat.log --rules torch-2.14
  STDOUT "41 nodes; min-cut, torch-2.14 rules\n.*PyTorch +not compared: .*symfloat.log:541: compile 0/0: the backward graph's input 'convert_element_type_default_1' is not a node of the joint graph: .*tensorify_python_scalars")
# Two SymInt inputs that a guard made equal print the same symbol; 2.14 saves one the printed sizes do
# not call for, and the comparison says why.
remat_cli_test(trace_partition_replaced_symbol CODE 0 ARGS partition ${REMAT_TRACE}/replaced_symbol.log --rules torch-2.14
  STDOUT "recorded 3 saved values and 4 SymInts: 1 only PyTorch's \\(primals_3\\)\n +primals_3 and primals_5 print as Sym\\(s8\\): a guard made their symbols equal")
# PyTorch's recorded plan of a dynamic-shape graph passes SymInts to the backward; re-extracted from
# its tensors alone it failed ("the backward graph must output 'getitem_1' ...").
remat_cli_test(trace_compare_dynamic CODE 0 ARGS compare ${REMAT_TRACE}/dynamic.log pytorch min-cut --graph 0/1 --rules torch-2.14
  STDOUT "saved +6 \\(4.3 KiB\\) +6 \\(4.3 KiB\\) +±0 B\nSymInts +7 +7 +±0\n.*only in A +0\nonly in B +0\nin both +13\n")
# The knapsack's decision under dynamic shapes (activation_memory_budget=0.5) saves SymInts too:
# the budget plan matches it, and PyTorch's recorded plan re-extracts with them (compare, pareto).
remat_cli_test(trace_budget_dynamic CODE 0 ARGS budget ${REMAT_TRACE}/dynamic_budget.log --graph 0/1 --budget 0.5
  STDOUT "saved +5 values, 2.5 KiB summed; 4 SymInts\nPyTorch +2.14.1[^ ]* recorded 5 saved values and 4 SymInts: identical\n")
remat_cli_test(trace_compare_budget_dynamic CODE 0 ARGS compare ${REMAT_TRACE}/dynamic_budget.log pytorch-budget=0.5 budget=0.5 --graph 0/1
  STDOUT "SymInts +4 +4 +±0\n.*in both +9\n")
remat_cli_test(trace_pareto_dynamic CODE 0 ARGS pareto ${REMAT_TRACE}/dynamic_budget.log --graph 0/1
  STDOUT "recorded plans at the same settings:\n.*\n0.5 +1.2 KiB .* saves the same\n")
# A getitem recomputed with its dropout: 2.14's min-cut ignores a getitem's own MUST_SAVE, so the
# what-if tags the op it unpacks; the mask it leaves to the backward is a forward value unclaimed.
remat_cli_test(trace_explain_getitem_flips_its_op CODE 0 ARGS explain ${REMAT_TRACE}/rng.log getitem_4 --rules torch-2.14
  STDOUT "what if     tagged MUST_SAVE on native_dropout_1, the op it unpacks \\(its own tag saves nothing\\): saved \\+800 B")
remat_cli_test(trace_explain_getitem_flips_its_op_json CODE 0 ARGS explain ${REMAT_TRACE}/rng.log getitem_4 --rules torch-2.14 --json
  STDOUT "\"tag\": \"MUST_SAVE\",\n  \"tagged_node\": \"native_dropout_1\",\n  \"feasible\": true,\n  \"flipped\": true,")
remat_cli_test(trace_explain_unclaimed_mask CODE 0 ARGS explain ${REMAT_TRACE}/rng.log getitem_5 --rules torch-2.14
  STDOUT "reason      Computed from forward values alone, and only the backward reads it \\(the forward's outputs do not need it, so classify_nodes leaves it unclaimed\\)")
# A log partitioned by 2.14's default_partition (filed under min_cut: the log does not name the
# partitioner): our default partition, placed by where each node was traced, saves the same values.
remat_cli_test(trace_default_partition_as_pytorch CODE 0 ARGS compare ${REMAT_TRACE}/default_partition.log pytorch default --rules torch-2.14
  STDOUT "saved        23 \\(14.7 KiB\\)           23 \\(14.7 KiB\\)           ±0 B\n.*only in A    0\nonly in B    0\nin both      23\n")
# Its min-cut differs from that decision, and says which partitioner made it; the default
# partitioner compares with it.
remat_cli_test(trace_unnamed_partitioner_min_cut CODE 0 ARGS partition ${REMAT_TRACE}/default_partition.log
  STDOUT "2 only ours \\(primals_4 = blocks.0.up.weight, primals_6 = blocks.0.down.weight\\), 2 only PyTorch's \\(t, t_1\\)\n +The log does not name the partitioner that made PyTorch's decision, and our default partitioner saves exactly PyTorch's 23 values")
remat_cli_test(trace_unnamed_partitioner_default CODE 0 ARGS partition ${REMAT_TRACE}/default_partition.log --partitioner default
  STDOUT "recorded 23 saved values: identical\n")
remat_cli_test(trace_compare_rng_states CODE 0 ARGS compare ${REMAT_TRACE}/rng.log min-cut default --rules torch-2.14 --tag native_dropout=MUST_SAVE
  STDOUT "\nRNG states   1                       1                       ±0\n")
