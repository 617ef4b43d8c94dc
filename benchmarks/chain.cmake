# invert_chain_benchmark: the in-memory indexing chain on the sample corpus.
add_executable(invert_chain_benchmark ${CMAKE_CURRENT_LIST_DIR}/chain_benchmark.cc)
target_link_libraries(invert_chain_benchmark PRIVATE invert_internal benchmark::benchmark)
target_compile_definitions(invert_chain_benchmark PRIVATE INVERT_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
invert_target_defaults(invert_chain_benchmark)
