# SPDX-License-Identifier: MIT
# The frame-time benchmark (tests/bench/bench_frames.cpp), run briefly as a test: a scripted pan
# and zoom over gpt_n24's summary and its full detail must run and print its frame times. Run it
# by hand on gpt_n96 for figures.
if(REMAT_BUILD_GUI)
  add_executable(bench_frames ${CMAKE_CURRENT_LIST_DIR}/../bench/bench_frames.cpp)
  target_link_libraries(bench_frames PRIVATE remat_ui Qt6::Test remat_warnings)
  remat_link_with_lld(bench_frames)
  add_test(NAME bench_frames_gpt_n24 COMMAND bench_frames --frames 50 ${REMAT_SHARED_DIR}/oracle/gpt_n24.json)
  set_tests_properties(bench_frames_gpt_n24 PROPERTIES LABELS bench ENVIRONMENT "QT_QPA_PLATFORM=offscreen"
    PASS_REGULAR_EXPRESSION "gpt_n24 +expanded +[0-9]+ boxes +50 frames +worst +[0-9.]+ ms +p95 +[0-9.]+ ms +median +[0-9.]+ ms"
    FAIL_REGULAR_EXPRESSION "bench_frames:")
endif()
