# invert_search_benchmark: invert's side of the search comparison with Lucene
# 8.8 (benchmarks/peers/LuceneSearch.java, scripts/bench_search.sh,
# scripts/search_vs_lucene.sh, docs/benchmarks-search.md). Public API only.
add_executable(invert_search_benchmark ${CMAKE_CURRENT_LIST_DIR}/search_benchmark.cc)
target_link_libraries(invert_search_benchmark PRIVATE invert)
invert_target_defaults(invert_search_benchmark)
