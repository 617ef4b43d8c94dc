# invert_analysis_benchmark: MB/s of each analyzer, ASCII fast path vs ICU.
add_executable(invert_analysis_benchmark ${CMAKE_CURRENT_LIST_DIR}/analysis_benchmark.cc)
target_link_libraries(invert_analysis_benchmark PRIVATE invert_internal benchmark::benchmark)
# Where the optional real-text sample lives (INVERT_SAMPLE_LINES overrides it at run time).
target_compile_definitions(invert_analysis_benchmark PRIVATE
  INVERT_SAMPLE_LINES_PATH="${PROJECT_SOURCE_DIR}/data/sample.lines")
invert_target_defaults(invert_analysis_benchmark)
