# SPDX-License-Identifier: MIT
# The layout benchmark (tests/bench/bench_layout.cpp), run briefly as a test: Expand All on
# gpt_n24 cold and cached must succeed and print its times. Run it by hand on gpt_n96 for figures.
if(REMAT_BUILD_GUI)
  add_executable(bench_layout ${CMAKE_CURRENT_LIST_DIR}/../bench/bench_layout.cpp)
  target_link_libraries(bench_layout PRIVATE remat_ui Qt6::Test remat_warnings)
  remat_link_with_lld(bench_layout)
  add_test(NAME bench_layout_gpt_n24 COMMAND bench_layout ${REMAT_SHARED_DIR}/oracle/gpt_n24.json)
  set_tests_properties(bench_layout_gpt_n24 PROPERTIES LABELS bench ENVIRONMENT "QT_QPA_PLATFORM=offscreen"
    PASS_REGULAR_EXPRESSION "gpt_n24 .* cold +[0-9.]+ s +cached +[0-9.]+ s"
    FAIL_REGULAR_EXPRESSION "went wrong|bench_layout:")
endif()
