# invert_docfiles_benchmark: stored fields and term vectors files on the sample
# corpus: size per document, compression ratio, write speed, read latency
# (docs/format-docfiles.md).
add_executable(invert_docfiles_benchmark ${CMAKE_CURRENT_LIST_DIR}/docfiles_benchmark.cc)
target_link_libraries(invert_docfiles_benchmark PRIVATE invert_internal benchmark::benchmark)
target_compile_definitions(invert_docfiles_benchmark PRIVATE INVERT_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
invert_target_defaults(invert_docfiles_benchmark)
