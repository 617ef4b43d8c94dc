# invert_reader_api_benchmark: the cost of the public read API
# (include/invert/index_reader.h) over the internal cursors it wraps, on an
# index of the bundled sample corpus.
add_executable(invert_reader_api_benchmark ${CMAKE_CURRENT_LIST_DIR}/reader_api_benchmark.cc)
target_link_libraries(invert_reader_api_benchmark PRIVATE invert_internal benchmark::benchmark)
target_compile_definitions(invert_reader_api_benchmark PRIVATE INVERT_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
invert_target_defaults(invert_reader_api_benchmark)
