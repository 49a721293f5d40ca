# SPDX-License-Identifier: MIT
# `devices`: the accelerator partitioner on the command line (summary, JSON keys, PyTorch's errors).
if(NOT COMMAND remat_cli_test)
  message(FATAL_ERROR "cli_devices.cmake needs remat_cli_test from cli.cmake (included first, in name order)")
endif()
set(REMAT_FX ${REMAT_TEST_DATA_DIR}/fx_partitioner)

remat_cli_test(devices_summary CODE 0
  ARGS devices ${REMAT_FX}/mlp_size_based.json --mode size_based --device 80000 --device 80000 --device 80000
       --transfer-rate 10e9
  STDOUT "size_based on 3 devices.*devices\n  0 +42.5 KiB +of 78.1 KiB +1 partition.*partitions.*\n  1 +devices 1 +76.5 KiB .*\\[fc2, relu_1\\].*critical path latency 2.80424e-06 s\n")
remat_cli_test(devices_json_keys CODE 0
  ARGS devices ${REMAT_FX}/cost_aware.json --mode cost_aware --device 125 --device 125 --device 125 --device 125
       --transfer-rate 2 --json
  STDOUT "^{\"partitions\":\\[{\"id\":0,\"nodes\":\\[\"a\",\"_tensor_constant0\",\"add\"\\],\"logical_device_ids\":\\[0\\],\"used_mem_bytes\":48,\"latency\":{\"mem_latency_sec\":16.0,\"computer_latency_sec\":1.0,\"overall_latency_sec\":16.0}},.*\\],\"critical_path_latency_sec\":160.0}\n$")
remat_cli_test(devices_saturate_host CODE 0
  ARGS devices ${REMAT_FX}/saturate_host.json --device 200 --device 200 --device 100 --device 100 --device 200
       --device 100 --saturate-host --json
  STDOUT "\"logical_device_ids\":\\[0,4\\].*\"logical_device_ids\":\\[1,2\\]")
remat_cli_test(devices_aot_based CODE 0 ARGS devices ${REMAT_FX}/aot_based.json --mode aot_based --device 200 --json
  STDOUT "\"nodes\":\\[\"a\",\"b\",\"add\"\\],\"logical_device_ids\":\\[0\\],\"used_mem_bytes\":48")
remat_cli_test(devices_not_enough_memory CODE 1 ONE_LINE_ERROR ARGS devices ${REMAT_FX}/lack_of_devices.json --device 4 --device 4
  STDERR "^remat-explorer: Devices have no enough memory for the module\n$")
remat_cli_test(devices_node_too_large CODE 1 ONE_LINE_ERROR
  ARGS devices ${REMAT_FX}/large_node_error.json --device 40 --device 40 --device 40 --device 40 --device 40
  STDERR "^remat-explorer: linearis too large to fit any device\n$")
remat_cli_test(devices_none CODE 1 ONE_LINE_ERROR ARGS devices ${REMAT_FX}/no_devices.json
  STDERR "^remat-explorer: No devices\n$")
remat_cli_test(devices_cost_aware_needs_rate CODE 1 ONE_LINE_ERROR
  ARGS devices ${REMAT_FX}/cost_aware.json --mode cost_aware --device 125 --device 125 --device 125 --device 125
  STDERR "float division by zero")
remat_cli_test(devices_bad_mode CODE 2 ARGS devices ${REMAT_FX}/size_based.json --mode greedy --device 100
  STDERR "--mode must be size_based, sparse_nn, cost_aware, kl_based or aot_based")
remat_cli_test(devices_bad_size CODE 2 ARGS devices ${REMAT_FX}/size_based.json --device 1e3
  STDERR "--device expects a size in bytes")
remat_cli_test(devices_missing_file CODE 1 ONE_LINE_ERROR ARGS devices /nonexistent/forward.json --device 100
  STDERR "^remat-explorer: /nonexistent/forward.json: cannot read")
remat_cli_test(devices_joint_graph CODE 0
  ARGS devices ${REMAT_SHARED_DIR}/oracle/mlp3_relu.json --device 4000000 --device 4000000 --device 4000000
  STDOUT "15 forward nodes, 4.4 MiB in all.*\n  1 +devices 1 +1.1 MiB .*\\[t_1, addmm_1, relu_1, t_2, addmm_2\\].*no node_latency")
