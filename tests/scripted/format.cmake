# SPDX-License-Identifier: MIT
# The code stays as clang-format writes it (.clang-format at the checkout's root).
add_test(NAME clang_format_clean
  COMMAND ${CMAKE_COMMAND} -DSOURCE_DIR=${CMAKE_SOURCE_DIR} -P ${CMAKE_CURRENT_LIST_DIR}/support/check_format.cmake)
set_tests_properties(clang_format_clean PROPERTIES LABELS style)
